"""Matches whose channel the bot cannot post to: paused, unrated, and resumed when it can again.

When Discord refuses a notice because the bot lost its access (a permission taken away, a thread
closed) the match is **paused**: its reminders, deadline and computer turn stop, so nothing is
decided where nobody can see it, and it is no longer rated. Its players are told by direct
message (Discord refuses one to a member who does not accept them: nothing more is tried). Its
notices are held, and one *probe* stays in the outbox: the post that announces the match's
return, tried again now and then, and at once when something that may restore access happens
(a channel, thread or role of the server changed; a player used a command there, and Discord
said the bot may post). The probe's success is the proof: the match resumes with a fresh
clock, its held notices go out (its reminders are replaced by the fresh clock's).

A channel Discord no longer knows (deleted, with its threads) cannot come back: its match is
aborted, unrated, and its players are told.
"""

from __future__ import annotations

import logging
from dataclasses import replace

from bot import texts
from bot.errors import ServiceError
from bot.i18n import speaking
from bot.match import MatchState
from bot.replies import Notice, Reply
from bot.service import clocks
from bot.service.book import MatchBook
from bot.service.notices import notice_json
from bot.storage import Connection, MatchRow, matches, outbox, timers
from bot.storage.outbox import PendingNotice
from bot.storage.timers import TimerKind
from engine.i18n import M, P, Term
from engine.registry import get_game

log = logging.getLogger(__name__)

UNREACHABLE = "channel unreachable"  # the unrated_reason of a match paused for its channel


class PausedMatches:
    def __init__(self, book: MatchBook) -> None:
        self.book = book

    async def unreachable(self, item: PendingNotice) -> None:
        """Discord refused a notice for lack of access: pause its match (the first time), hold its
        notices, and keep one probe that announces its return."""
        now = self.book.clock.now()
        row, state = await self._match(item.match_id)
        async with self.book.storage.transaction() as db:
            if item.kind == "resume":  # the probe itself failed: try again later
                await outbox.probe_later(db, item, now)
                return
            if row is None or row.status != "active" or state is None:
                await outbox.failed(db, item, now)  # no match to pause (a lobby's notice): the usual back-off
                return
            current = await matches.match_by_id(db, row.id)
            if current is not None and current.suspended_at is None:
                await matches.update_match(db, row.id, suspended_at=now, rated=False, unrated_reason=UNREACHABLE)
                await timers.clear(db, row.id, TimerKind.REMINDER, TimerKind.COMPUTER)
                await clocks.sync_match(db, row.id, now)  # every clock stands, its time kept
                locale = await timers.locale_for(db, tuple(sorted(state.players)), row.guild_id)
                with speaking(locale):
                    await self._tell(db, row, state, now, paused_text(row))
                    resume = Notice(row.guild_id, row.channel_id, Reply("", match_id=row.id, game=row.game),
                                    locale=locale or "en", kind="resume")  # fmt: skip
                probe = await outbox.add(db, row.id, row.guild_id, row.channel_id, notice_json(resume), now,
                                         now + outbox.PROBE_SECONDS[0], kind="resume")  # fmt: skip
                await outbox.hold(db, row.id, keep=probe)
                log.warning("channel unreachable: match paused", extra={"match": row.id, "channel": row.channel_id})
            else:
                await outbox.hold(db, row.id, keep=await _probe_of(db, row.id))
        self.book.forget(item.match_id or 0)
        self.book.timers_changed()

    async def gone(self, item: PendingNotice) -> None:
        """Discord no longer knows the channel: its match ends, unrated; its players are told."""
        row, state = await self._match(item.match_id)
        now = self.book.clock.now()
        async with self.book.storage.transaction() as db:
            await outbox.delivered(db, item.id)
            if row is None or state is None:
                return
            current = await matches.match_by_id(db, row.id)
            await outbox.drop_for_match(db, row.id)
            if current is not None and current.is_open:
                await matches.update_match(db, row.id, status="aborted", end_reason="channel deleted", rated=False,
                                           unrated_reason=UNREACHABLE)  # fmt: skip
                await timers.clear(db, row.id)
                locale = await timers.locale_for(db, tuple(sorted(state.players)), row.guild_id)
                with speaking(locale):
                    await self._tell(db, row, state, now, gone_text(row))
        self.book.forget(row.id)

    async def _tell(self, db: Connection, row: MatchRow, state: MatchState, now: float, text: str) -> None:
        """A direct message to each member playing (a notice of kind "dm": no channel post)."""
        players = tuple(sorted(state.players))
        if players:
            notice = Notice(row.guild_id, row.channel_id, Reply(text, match_id=row.id, game=row.game), players,
                            kind="dm")  # fmt: skip
            await outbox.add(db, row.id, row.guild_id, row.channel_id, notice_json(notice), now, kind="dm")

    async def _match(self, match_id: int | None) -> tuple[MatchRow | None, MatchState | None]:
        if match_id is None:
            return None, None
        try:
            return await self.book.load_match(match_id)
        except ServiceError:
            return None, None

    async def resume_post(self, notice: Notice) -> Notice | None:
        """The probe, as it is posted now: the match's return, its board and who acts (None: the
        match is no longer paused or over; nothing to say)."""
        row, state = await self._match(notice.reply.match_id)
        if row is None or state is None or row.status != "active" or row.suspended_at is None:
            return None
        with speaking(notice.locale):
            lines = [str(M("I can post in this channel again: the match goes on where it stopped. It is not "
                           "rated, since it was paused."))]  # fmt: skip
            if row.deadline_days:
                lines.append(str(P("Each turn's {count}-day deadline starts afresh from now.",
                                   "Each turn's {count}-day deadline starts afresh from now.",
                                   count=row.deadline_days)))  # fmt: skip
            lines.append(texts.next_text(state))
            from bot.service.play import recent_actions

            image = await self.book.render(state, recent_actions(state), locale=notice.locale)
        actor = state.acting_user()
        pending = [uid for s in state.setup_pending() if (uid := state.seats.get(s)) is not None]
        reply = Reply("\n".join(line for line in lines if line), image=image, match_id=row.id, game=row.game,
                      mentions=(actor,) if actor is not None else tuple(pending), version=state.board_version,
                      actionable=state.to_act is not None and not state.is_over, setup=state.in_setup())  # fmt: skip
        return replace(notice, reply=reply)

    async def resumed(self, item: PendingNotice) -> None:
        """The probe went out: the bot can post there again. The match resumes with a fresh clock
        (reminders, deadline, computer turn as at the start of a turn) and its notices are released."""
        row, state = await self._match(item.match_id)
        if row is None or state is None:
            return
        now = self.book.clock.now()
        async with self.book.storage.transaction() as db:
            current = await matches.match_by_id(db, row.id)
            if current is None or current.suspended_at is None:
                return
            await matches.update_match(db, row.id, suspended_at=None)
            resumed = replace(current, suspended_at=None)
            if self.book.scheduler is not None:
                await self.book.scheduler.reschedule(db, resumed, state, state, now, activity=True, new_turn=True,
                                                    fresh=True)  # fmt: skip
            await outbox.release(db, row.id, now)
        log.info("channel reachable again: match resumed", extra={"match": row.id, "channel": row.channel_id})
        self.book.forget(row.id)
        self.book.timers_changed()

    async def access_may_be_back(self, *, guild_id: int | None = None, channel_id: int | None = None) -> None:
        """Something changed that may have given the bot its access back: try the probes now."""
        async with self.book.storage.reading() as db:
            row = await db.fetchone(
                "SELECT COUNT(*) FROM matches WHERE suspended_at IS NOT NULL AND "
                + ("guild_id = ?" if guild_id is not None else "channel_id = ?"),
                guild_id if guild_id is not None else channel_id,
            )
        if not row or not row[0]:
            return
        async with self.book.storage.transaction() as db:
            found = await outbox.probe_now(db, self.book.clock.now(), guild_id=guild_id, channel_id=channel_id)
        if found:
            self.book.timers_changed()


async def _probe_of(db: Connection, match_id: int) -> int | None:
    row = await db.fetchone("SELECT MIN(id) FROM outbox WHERE match_id = ? AND kind = ?", match_id, "resume")
    return int(row[0]) if row and row[0] is not None else None


def paused_text(row: MatchRow) -> str:
    title = get_game(row.game).title
    return str(M("Your {game} match in <#{channel}> is paused: I can no longer post in that channel (a permission "
                 "was taken away, or its thread was closed). Its clock is stopped, so nobody loses on time, and it "
                 "will not be rated. It goes on, with fresh deadlines, as soon as I can post there again; whoever "
                 "manages the server can give the bot back View Channel, Send Messages and Attach Files there.",
                 game=title, channel=row.channel_id))  # fmt: skip


def gone_text(row: MatchRow) -> str:
    title = get_game(row.game).title
    return str(M("Your {game} match in <#{channel}> has ended: its channel was deleted. It is not rated; "
                 "/{game_slug} {new} opens another.", game=title, channel=row.channel_id, game_slug=row.game,
                 new=Term("new", "command")))  # fmt: skip
