"""Reminder intervals, turn deadlines and DM reminders. Part of MatchService."""

from __future__ import annotations

from typing import Any

from bot.errors import NotAllowed, NotInMatch, ServiceError
from bot.replies import Reply
from bot.storage import matches as queries
from bot.storage import timers
from bot.texts import sentence
from bot.turn_timers import HOUR, MAX_REMINDERS_PER_TURN

DEADLINE_CHOICES = (0, 1, 2, 3, 7)  # days; 0 is none
REMINDER_HOURS_RANGE = (1, 168)


def check_deadline(days: int | None) -> None:
    if days is not None and days not in DEADLINE_CHOICES:
        raise ServiceError("a turn deadline is none, 1, 2, 3 or 7 days")


class MatchSettings:
    """Mixin for MatchService: it relies on the service's db, clock and loading."""

    db: Any
    clock: Any

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
    ) -> Reply:
        """Change (or, with nothing given, show) reminder and deadline settings."""
        low, high = REMINDER_HOURS_RANGE
        if reminder_hours is not None and not low <= reminder_hours <= high:
            raise ServiceError(f"reminders come every {low} to {high} hours")
        check_deadline(deadline_days)
        if server_default and not can_manage:
            raise NotAllowed("only someone with Manage Channels can set the server's default")
        if server_default and (reminder_hours is None or deadline_days is not None):
            raise ServiceError("the server default is the reminder interval: give reminder_hours only")
        changes: list[str] = []
        if not server_default and (reminder_hours is not None or deadline_days is not None):
            # Refused here (not a player, deadline after the start) before anything is written.
            changes.append(await self._match_settings(channel_id, user_id, reminder_hours, deadline_days, can_manage))
        if dm_reminders is not None:
            async with self.db.transaction() as db:
                await timers.set_dm_reminders(db, user_id, dm_reminders)
            changes.append("I will " + ("also remind you by direct message" if dm_reminders else "not DM you"))
        if server_default:
            async with self.db.transaction() as db:
                await timers.set_guild_reminder_hours(db, guild_id, reminder_hours)
            changes.append(f"matches on this server now remind after {reminder_hours:g} h unless they say otherwise")
        if changes:
            return Reply(sentence("; ".join(changes)))
        return Reply(await self._settings_text(guild_id, channel_id, user_id))

    async def _match_settings(
        self, channel_id: int, user_id: int, hours: float | None, deadline: int | None, can_manage: bool
    ) -> str:
        row, state = await self._load(channel_id)
        if user_id not in state.players and user_id != row.creator_id and not can_manage:
            raise NotInMatch("only this match's players can change its settings")
        if deadline is not None and row.status != "lobby":
            raise NotAllowed("the turn deadline is chosen before the match starts")
        columns: dict[str, object] = {}
        said = []
        if hours is not None:
            columns["reminder_hours"] = hours
            said.append(f"reminders after {hours:g} h without a move")
        if deadline is not None:
            columns["deadline_days"] = deadline or None
            said.append(f"a {deadline}-day turn deadline" if deadline else "no turn deadline")
        now = self.clock.now()
        async with self.db.transaction() as db:
            await queries.update_match(db, row.id, **columns)
            if hours is not None and row.status == "active":
                await timers.clear(db, row.id, "reminder")
                await timers.schedule(db, row.id, "reminder", now + hours * HOUR, now)
        self._states.pop(row.id, None)
        self._timers_changed()
        return f"match #{row.id}: " + " and ".join(said)

    async def _settings_text(self, guild_id: int, channel_id: int, user_id: int) -> str:
        async with self.db.reading() as db:
            row = await queries.open_match_in(db, channel_id)
            server = await timers.reminder_hours(db, guild_id, None)
            dm = await timers.dm_reminders(db, user_id)
            hours = await timers.reminder_hours(db, guild_id, row.reminder_hours) if row else server
        lines = [f"Server default: reminders after {server:g} h without a move."]
        if row is not None:
            deadline = f"a {row.deadline_days}-day turn deadline" if row.deadline_days else "no turn deadline"
            lines.append(
                f"This match (#{row.id}): reminders after {hours:g} h, "
                f"at most {MAX_REMINDERS_PER_TURN} a turn; {deadline}."
            )
        lines.append(f"Direct-message reminders for you: {'on' if dm else 'off'}.")
        return "\n".join(lines)
