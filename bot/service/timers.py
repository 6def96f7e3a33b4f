"""Turn timers: reminders to whoever has not acted, deadlines that end an expired turn
(what that means is the game's), computer turns, and lobbies that expire.

Timers are kept in step with each match inside the service's own transactions
(`reschedule`). A timer fires once: it is removed in the transaction that applies its
effect, and that transaction also stores the notice announcing it (the outbox), so the
notice is posted at least once even if the process dies right after the commit.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Awaitable, Callable
from typing import Any

from bot import texts
from bot.errors import BoardChanged, MatchUnreadable, NoMatch, ServiceError
from bot.i18n import speaking
from bot.match import Entry, EntryKind, MatchState
from bot.replies import Reply
from bot.service import clocks
from bot.service.book import MatchBook
from bot.service.notices import notice_json, notice_now
from bot.service.play import Play
from bot.storage import Connection, MatchRow, digests, outbox, seat_clocks, timers, vacations
from bot.storage import matches as queries
from bot.storage.timers import TimerKind, TimerRow
from bot.time_bank import Bank, format_left, mark_warned
from engine.i18n import M, P, Text

log = logging.getLogger(__name__)

HOUR = 3600.0
DAY = 24 * HOUR
MAX_REMINDERS_PER_TURN = 3
COMPUTER_DELAY = 1.5  # seconds between a move and the computer's answer: soon, but readable


class _TimerGone(Exception):
    """The timer was already taken: it fired before, or a turn change replaced it."""


# Plays a computer seat's turn: the actions (notation) for the rest of its turn, or a setup choice.
ComputerMove = Callable[[MatchState, str], Awaitable[list[str]]]


class TurnTimers:
    def __init__(self, book: MatchBook, play: Play) -> None:
        self.book = book
        self.play = play
        self.computer_move: ComputerMove | None = None
        book.scheduler = self

    # --- keeping timers in step (inside the caller's transaction) ----------------------
    async def reschedule(
        self,
        db: Connection,
        row: MatchRow,
        before: MatchState,
        after: MatchState,
        now: float,
        *,
        activity: bool,
        new_turn: bool | None = None,
        fresh: bool = False,
        current: MatchRow | None = None,
    ) -> None:
        """`current`: the match row as this transaction has it now, if the caller just read it
        (saves reading it again). The timers' writes are queued (`Connection.later`)."""
        if after.is_over:
            await timers.clear(db, row.id)
            await seat_clocks.clear(db, row.id)
            return
        if new_turn is None:
            new_turn = after.to_act != before.to_act or after.in_setup() != before.in_setup()
        # The clocks follow the match row as it is now, inside this transaction: a settings
        # change racing with the start either lands first (and is read here) or conflicts.
        if current is None:
            current = await queries.match_by_id(db, row.id)
        current = current or row
        undo = len(after.played) < len(before.played)  # a turn given back takes back what its end added
        await clocks.sync(db, current, now, state=after, fresh=fresh, undo=undo)
        if clocks.clocks_stand(current):
            # Paused (by agreement, or its channel cannot be posted to: bot/service/paused.py):
            # nothing is expected of anyone until it resumes.
            await timers.clear(db, row.id, TimerKind.REMINDER, TimerKind.COMPUTER)
            return
        if not new_turn and not activity:
            return
        # One DELETE of the timers this change replaces, then the new ones (the clocks' own timers
        # are kept by clocks.sync above).
        if new_turn:
            await queries.update_match_later(db, row.id, turn_started_at=now, turn_reminders=0)
        await timers.clear(db, row.id, TimerKind.REMINDER, TimerKind.COMPUTER)
        if after.acting_computer() is not None:
            await timers.schedule(db, row.id, TimerKind.COMPUTER, now + COMPUTER_DELAY, now)
        waited = _humans_waited_for(after)
        if waited:  # none while all of them are on vacation
            await timers.schedule_reminder(db, row.id, row.guild_id, current.reminder_hours, now, now, waited)

    # --- firing -------------------------------------------------------------------------
    async def next_timer(self) -> TimerRow | None:
        async with self.book.storage.reading() as db:
            return await timers.next_due(db)

    async def postpone_timer(self, timer_id: int, seconds: float) -> None:
        async with self.book.storage.transaction() as db:
            await timers.postpone(db, timer_id, self.book.clock.now() + seconds)

    async def fire_timer(self, timer: TimerRow) -> bool:
        """Run a due timer exactly once. Its notice, if any, goes to the outbox in the same
        transaction; returns whether one was stored."""
        try:
            row: MatchRow | None
            row, state = await self.book.load_match(timer.match_id)
        except NoMatch:
            row = None
        except MatchUnreadable:  # damaged, or its game uninstalled: look again in a day, not every minute
            await self.postpone_timer(timer.id, DAY)
            return False
        if row is not None and timer.kind is TimerKind.LOBBY and row.status == "lobby":
            with speaking(await self._locale(row, (row.creator_id,)), row.game):
                return await self._expire_lobby(row, timer)
        if row is None or row.status != "active" or state.is_over:
            async with self.book.storage.transaction() as db:
                await timers.take(db, timer.id)
            return False
        # No interaction asked for this post: it speaks the language of those it addresses.
        with speaking(await self._locale(row, _humans_waited_for(state) or tuple(sorted(state.players))), row.game):
            if timer.kind is TimerKind.DEADLINE:
                return await self._expire_turn(row, state, timer)
            if timer.kind is TimerKind.WARNING:
                return await self._final_warning(row, state, timer)
            if timer.kind is TimerKind.VACATION:
                return await self._vacation_over(row, state, timer)
            if timer.kind is TimerKind.COMPUTER:
                return await self._computer_turn(row, state, timer)
            return await self._remind(row, state, timer)

    async def _locale(self, row: MatchRow, users: tuple[int, ...]) -> str | None:
        """The locale last seen from these members, else from the server, else none (English)."""
        async with self.book.storage.reading() as db:
            return await timers.locale_for(db, users, row.guild_id)

    def _take(self, timer: TimerRow) -> Callable[[Connection], Awaitable[None]]:
        async def take_timer(db: Connection) -> None:
            if not await timers.take(db, timer.id):
                raise _TimerGone

        return take_timer

    async def _commit_with_notice(
        self, row: MatchRow, state: MatchState, entries: list[Entry], timer: TimerRow, headline: Callable[[str], Text]
    ) -> bool:
        """Apply entries made by the host, render the board they lead to, and commit both the
        effect and its notice in one transaction (guarded by the timer and the match version).
        `headline` says what happened, given the events' own line."""
        new, events, logged = await self.book.validated(row, state, entries)
        what = texts.sentence(new.rules.describe(events)) if events else ""
        reply = await self.play.board_reply(row, new, str(headline(what)).strip())
        stored = notice_json(notice_now(row.guild_id, row.channel_id, reply))

        async def store_notice(db: Connection) -> None:
            await outbox.add(db, row.id, row.guild_id, row.channel_id, stored, self.book.clock.now())

        try:
            await self.book.commit(row, state, new, logged, guard=self._take(timer), also=store_notice)
        except (_TimerGone, BoardChanged):
            return False
        return True

    async def _expire_turn(self, row: MatchRow, state: MatchState, timer: TimerRow) -> bool:
        days = row.deadline_days or 0
        seat = state.to_act
        async with self.book.storage.reading() as db:
            stored = await seat_clocks.of_match(db, row.id)
        now = self.book.clock.now()
        out = [s for s in clocks.owed_seats(state) if s in stored and stored[s].running and stored[s].left(now) <= 1.0]
        if stored and not out:  # a stale timer (the clocks moved since): put them right, decide nothing
            async with self.book.storage.transaction() as db:
                if await timers.take(db, timer.id):
                    await clocks.sync_match(db, row.id, now)
            return False
        if seat is None:  # secret setup still owed: those whose clock ran out get a random one
            pending = tuple(out) if stored else state.setup_pending()
            rng = random.Random(f"{row.seed}:{timer.id}")
            entries = [
                Entry(
                    EntryKind.SETUP, None, seat=s, text=rng.choice(list(state.rules.setup_choices(state.game, s))).value
                )
                for s in pending
            ]
            names = texts.seat_names(state, pending)
            return await self._commit_with_notice(row, state, entries, timer, lambda what: P(
                "⌛ The {count}-day deadline passed: {seats} got a random setup. {what}",
                "⌛ The {count}-day deadline passed: {seats} got a random setup. {what}",
                count=days, seats=names, what=what,
            ))  # fmt: skip
        title = state.seat_title(seat)
        entry = Entry(EntryKind.TIMEOUT, None, seat=seat)
        if row.bank_days:
            return await self._commit_with_notice(row, state, [entry], timer, lambda what: M(
                "⌛ {seat:poss} clock ran out (its time bank was spent). {what}", seat=title, what=what,
            ))  # fmt: skip
        return await self._commit_with_notice(row, state, [entry], timer, lambda what: P(
            "⌛ {seat:poss} turn ran out (the {count}-day deadline). {what}",
            "⌛ {seat:poss} turn ran out (the {count}-day deadline). {what}",
            count=days, seat=title, what=what,
        ))  # fmt: skip

    async def _final_warning(self, row: MatchRow, state: MatchState, timer: TimerRow) -> bool:
        """The final warning of a turn, once, to each member whose clock nears its end: in the
        channel, or by direct message where they chose reminders by DM."""
        now = self.book.clock.now()
        bank = Bank.of(row.deadline_days, row.bank_days)
        async with self.book.storage.transaction() as db:
            if not await timers.take(db, timer.id) or bank is None:
                return False
            current = await queries.match_by_id(db, row.id)
            if current is None or clocks.clocks_stand(current):
                return False
            stored = await seat_clocks.of_match(db, row.id)
            due = [c for c in stored.values() if c.running and not c.warned
                   and c.runs_out_at is not None and c.runs_out_at - bank.warning_before <= now + 1.0]  # fmt: skip
            await seat_clocks.save(db, row.id, mark_warned(stored, (c.seat for c in due)))
            await clocks.sync(db, current, now)  # the next warning, if another clock runs
            due = [c for c in due if c.left(now) > 1.0]  # fell due while the bot was down, and ran out: no warning
            warned = tuple(sorted({uid for c in due if (uid := state.seats.get(c.seat)) is not None}))
            if not warned:
                return False
            by_dm = tuple([uid for uid in warned if await timers.dm_reminders(db, uid)])
            left = {c.seat: format_left(c.left(now)) for c in due}
            text = "\n".join(str(M(
                "⚠️ {who}, final warning: {seat} has {left} left on the clock. When it runs out, the turn is lost "
                "as the game's rules say (/{game} {board} shows the board).",
                who=texts.mention(state.seats.get(seat)), seat=state.seat_title(seat), left=value, game=row.game,
                board=texts.command("board"),
            )) for seat, value in left.items() if state.seats.get(seat) is not None)  # fmt: skip
            reply = Reply(text, mentions=warned, match_id=row.id, game=row.game, version=state.board_version)
            await outbox.add(db, row.id, row.guild_id, row.channel_id,
                             notice_json(notice_now(row.guild_id, row.channel_id, reply, by_dm)), now,
                             kind="reminder")  # fmt: skip
        self.book.timers_changed()
        return True

    async def _vacation_over(self, row: MatchRow, state: MatchState, timer: TimerRow) -> bool:
        """A player's vacation ended: their seats' clocks run again, their reminders resume, and the
        channel is told."""
        now = self.book.clock.now()
        async with self.book.storage.transaction() as db:
            if not await timers.take(db, timer.id):
                return False
            await db.execute("UPDATE matches SET updated_at = updated_at WHERE id = ?", row.id)  # lock, as sync_match
            current = await queries.match_by_id(db, row.id)
            if current is None or current.status != "active":
                return False
            await self.reschedule(db, current, state, state, now, activity=True, new_turn=False)
            back = await vacations.ended_between(db, row.guild_id, tuple(sorted(state.players)), timer.due - 1, now)
            for user_id in back:
                reply = Reply(str(M("🏖 {who} is back from vacation: their clocks in this match run again.",
                                    who=texts.mention(user_id))), match_id=row.id, game=row.game)  # fmt: skip
                await outbox.add(db, row.id, row.guild_id, row.channel_id,
                                 notice_json(notice_now(row.guild_id, row.channel_id, reply)), now)  # fmt: skip
        self.book.timers_changed()
        return bool(back)

    async def _computer_turn(self, row: MatchRow, state: MatchState, timer: TimerRow) -> bool:
        seat = state.acting_computer()
        if seat is None or self.computer_move is None:
            async with self.book.storage.transaction() as db:
                await timers.take(db, timer.id)
            return False
        choices = await self.computer_move(state, seat)
        title = state.seat_title(seat)
        setting_up = state.to_act is None

        def headline(what: str) -> Text:
            if setting_up:
                return M("The computer ({seat}) has set up in secret. {what}", seat=title, what=what)
            return f"🤖 {what}"

        if setting_up:
            entries = [Entry(EntryKind.SETUP, None, seat=seat, text=choices[0])]
        else:
            entries = [Entry(EntryKind.ACTION, None, seat=seat, text=text) for text in choices]
        if not entries:
            raise ServiceError(M("the computer found nothing to play"))
        return await self._commit_with_notice(row, state, entries, timer, headline)

    async def _remind(self, row: MatchRow, state: MatchState, timer: TimerRow) -> bool:
        now = self.book.clock.now()
        async with self.book.storage.transaction() as db:
            if not await timers.take(db, timer.id):
                return False
            away = await clocks.away_of(db, row, state, now)  # reminders to those on vacation pause
            waiting = tuple(uid for uid in _humans_waited_for(state) if uid not in away)
            stored = await seat_clocks.of_match(db, row.id)
            if any(c.runs_out_at is not None and c.runs_out_at <= timer.due + 1.0 for c in stored.values()):
                return False  # due as the clock runs out: the timeout says it, not a reminder
            current = await queries.match_by_id(db, row.id)
            if current is None or current.turn_reminders >= MAX_REMINDERS_PER_TURN or not waiting:
                return False
            sent = current.turn_reminders + 1
            await queries.update_match(db, row.id, turn_reminders=sent)
            hours = await timers.reminder_hours(db, row.guild_id, current.reminder_hours)
            if sent < MAX_REMINDERS_PER_TURN:
                await timers.schedule(db, row.id, TimerKind.REMINDER, max(now, timer.due) + hours * HOUR, now)
            # A member who chose the daily digest gets it instead of reminders by DM (bot/service/digest.py).
            by_dm = tuple([uid for uid in waiting if await timers.dm_reminders(db, uid)
                           and await digests.digest_hour(db, uid) is None])  # fmt: skip
            reply = Reply(
                _reminder_text(state, row, waiting, hours, sent), mentions=waiting, match_id=row.id, game=row.game,
                version=state.board_version,
            )  # fmt: skip
            await outbox.add(db, row.id, row.guild_id, row.channel_id,
                             notice_json(notice_now(row.guild_id, row.channel_id, reply, by_dm)), now,
                             kind="reminder")  # fmt: skip
        self.book.timers_changed()
        return True

    async def _expire_lobby(self, row: MatchRow, timer: TimerRow) -> bool:
        now = self.book.clock.now()
        days = round((timer.due - row.created_at) / DAY)
        expired = P(
            "This {game} lobby expired after {count} day without a start: the channel is free. /{game_slug} {new} "
            "opens another.",
            "This {game} lobby expired after {count} days without a start: the channel is free. /{game_slug} {new} "
            "opens another.",
            count=days, game=get_title(row), game_slug=row.game, new=texts.command("new"),
        )  # fmt: skip
        reply = Reply(str(expired), match_id=row.id, game=row.game)

        async def store(db: Connection) -> None:
            await queries.update_match(db, row.id, status="aborted", end_reason="lobby expired")
            await timers.clear(db, row.id)
            await outbox.add(db, row.id, row.guild_id, row.channel_id,
                             notice_json(notice_now(row.guild_id, row.channel_id, reply)), now)  # fmt: skip

        try:
            async with self.book.claim(row) as db:
                await self._take(timer)(db)
                await store(db)
        except (_TimerGone, BoardChanged):
            return False
        return True


def get_title(row: MatchRow) -> str:
    from engine.registry import get_game

    return get_game(row.game).title


def _humans_waited_for(state: MatchState) -> tuple[int, ...]:
    """The members the match waits for: the one to act, or those who still owe a setup."""
    if state.is_over:
        return ()
    seat = state.to_act
    if seat is not None:
        holder = state.seats.get(seat)
        return (holder,) if holder is not None else ()
    return tuple(sorted({uid for s in state.setup_pending() if (uid := state.seats.get(s)) is not None}))


def _reminder_text(state: MatchState, row: MatchRow, waiting: tuple[int, ...], hours: float, sent: int) -> str:
    words: dict[str, Any] = {
        "who": ", ".join(texts.mention(uid) for uid in waiting), "hours": f"{hours:g}", "sent": sent,
        "most": MAX_REMINDERS_PER_TURN, "game": row.game, "board": texts.command("board"),
    }  # fmt: skip
    seat = state.to_act
    if seat is None:
        return str(M("⏰ {who}, your secret setup is still to make (/{game} {setup}), and nothing has happened for "
                     "{hours} h. (Reminder {sent} of {most}; /{game} {board} shows the board.)",
                     setup=texts.command("setup"), **words))  # fmt: skip
    if state.rules.actions_per_turn > 1:
        return str(P("⏰ {who}, {seat} is waiting for you: {count} action left, and nothing has happened for "
                     "{hours} h. (Reminder {sent} of {most}; /{game} {board} shows the board.)",
                     "⏰ {who}, {seat} is waiting for you: {count} actions left, and nothing has happened for "
                     "{hours} h. (Reminder {sent} of {most}; /{game} {board} shows the board.)",
                     count=state.rules.actions_left(state.game), seat=state.seat_title(seat), **words))  # fmt: skip
    return str(M("⏰ {who}, {seat} is waiting for you, and nothing has happened for {hours} h. (Reminder {sent} of "
                 "{most}; /{game} {board} shows the board.)", seat=state.seat_title(seat), **words))  # fmt: skip
