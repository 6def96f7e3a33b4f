"""Reminder intervals, turn deadlines and DM reminders."""

from __future__ import annotations

from bot import texts
from bot.errors import NotAllowed, NotInMatch, ServiceError
from bot.replies import Reply
from bot.service.book import MatchBook
from bot.service.digest import Digests
from bot.service.lobby import check_deadline
from bot.service.timers import HOUR, MAX_REMINDERS_PER_TURN
from bot.storage import matches as queries
from bot.storage import timers
from bot.storage.timers import TimerKind
from engine.i18n import M, Message, P

REMINDER_HOURS_RANGE = (1, 168)


class MatchSettings:
    def __init__(self, book: MatchBook, digests: Digests) -> None:
        self.book = book
        self.digests = digests

    async def settings(
        self,
        guild_id: int,
        channel_id: int,
        user_id: int,
        *,
        reminder_hours: float | None = None,
        deadline_days: int | None = None,
        server_default: bool = False,
        dm_reminders: bool | None = None,
        can_manage: bool = False,
        digest: bool | None = None,
        digest_hour: int | None = None,
    ) -> Reply:
        """Change (or, with nothing given, show) reminder and deadline settings."""
        low, high = REMINDER_HOURS_RANGE
        if reminder_hours is not None and not low <= reminder_hours <= high:
            raise ServiceError(M("reminders come every {low} to {high} hours", low=low, high=high))
        check_deadline(deadline_days)
        if server_default and not can_manage:
            raise NotAllowed(M("only someone with Manage Channels can set the server's default"))
        if server_default and (reminder_hours is None or deadline_days is not None):
            raise ServiceError(M("the server default is the reminder interval: give {reminder_hours} only",
                                 reminder_hours=texts.option("reminder_hours")))  # fmt: skip
        changes: list[Message] = []
        if not server_default and (reminder_hours is not None or deadline_days is not None):
            # Refused here (not a player, deadline after the start) before anything is written.
            changes.append(await self._match_settings(channel_id, user_id, reminder_hours, deadline_days, can_manage))
        if dm_reminders is not None:
            async with self.book.storage.transaction() as db:
                await timers.set_dm_reminders(db, user_id, dm_reminders)
            changes.append(M("I will also remind you by direct message") if dm_reminders else M("I will not DM you"))
        if digest is not None or digest_hour is not None:
            changes.append(await self.digests.choose(user_id, digest, digest_hour))
        if server_default:
            assert reminder_hours is not None
            async with self.book.storage.transaction() as db:
                await timers.set_guild_reminder_hours(db, guild_id, reminder_hours)
            changes.append(M("matches on this server now remind after {hours} h unless they say otherwise",
                             hours=f"{reminder_hours:g}"))  # fmt: skip
        if changes:
            return Reply(" ".join(texts.sentence(change) for change in changes))
        return Reply(await self._settings_text(guild_id, channel_id, user_id))

    async def _match_settings(
        self, channel_id: int, user_id: int, hours: float | None, deadline: int | None, can_manage: bool
    ) -> Message:
        row, state = await self.book.load(channel_id)
        if user_id not in state.players and user_id != row.creator_id and not can_manage:
            raise NotInMatch(M("only this match's players can change its settings"))
        if deadline is not None and row.status != "lobby":
            raise NotAllowed(M("the turn deadline is chosen before the match starts"))
        columns: dict[str, object] = {}
        said: list[Message] = []
        if hours is not None:
            columns["reminder_hours"] = hours
            said.append(M("reminders after {hours} h without a move", hours=f"{hours:g}"))
        if deadline is not None:
            columns["deadline_days"] = deadline or None
            said.append(_deadline_text(deadline))
        now = self.book.clock.now()
        # Claiming the match version orders this change against a start or a move racing it,
        # so the timers always follow the settings the match really has.
        async with self.book.claim(row, M("the match changed meanwhile, try again")) as db:
            await queries.update_match(db, row.id, **columns)
            if hours is not None and row.status == "active" and not state.is_over:
                await timers.clear(db, row.id, TimerKind.REMINDER)
                await timers.schedule(db, row.id, TimerKind.REMINDER, now + hours * HOUR, now)
        self.book.timers_changed()
        return M("match #{id}: {changes}", id=row.id, changes=texts.joined(said))

    async def _settings_text(self, guild_id: int, channel_id: int, user_id: int) -> str:
        async with self.book.storage.reading() as db:
            row = await queries.open_match_in(db, channel_id)
            server = await timers.reminder_hours(db, guild_id, None)
            dm = await timers.dm_reminders(db, user_id)
            hours = await timers.reminder_hours(db, guild_id, row.reminder_hours) if row else server
        lines = [M("Server default: reminders after {hours} h without a move.", hours=f"{server:g}")]
        if row is not None:
            lines.append(M("This match (#{id}): reminders after {hours} h, at most {most} a turn; {deadline}.",
                           id=row.id, hours=f"{hours:g}", most=MAX_REMINDERS_PER_TURN,
                           deadline=_deadline_text(row.deadline_days or 0)))  # fmt: skip
        lines.append(M("Direct-message reminders for you: on.") if dm else M("Direct-message reminders for you: off."))
        lines.append(await self.digests.status(user_id))
        return "\n".join(str(line) for line in lines)


def _deadline_text(days: int) -> Message:
    if not days:
        return M("no turn deadline")
    return P("a {count}-day turn deadline", "a {count}-day turn deadline", count=days)
