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
from bot.service.book import MatchBook
from bot.service.notices import notice_json, notice_now
from bot.service.play import Play
from bot.storage import Connection, MatchRow, digests, outbox, timers
from bot.storage import matches as queries
from bot.storage.timers import TimerKind, TimerRow
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
        current: MatchRow | None = None,
    ) -> None:
        """`current`: the match row as this transaction has it now, if the caller just read it
        (saves reading it again). The timers' writes are queued (`Connection.later`)."""
        if after.is_over:
            await timers.clear(db, row.id)
            return
        if new_turn is None:
            new_turn = after.to_act != before.to_act or after.in_setup() != before.in_setup()
        # The deadline follows the match row as it is now, inside this transaction: a settings
        # change racing with the start either lands first (and is read here) or conflicts.
        if current is None:
            current = await queries.match_by_id(db, row.id)
        if current is not None and current.suspended_at is not None:
            # Paused (its channel cannot be posted to): no clock runs until it resumes (bot/service/paused.py).
            await timers.clear(db, row.id, TimerKind.REMINDER, TimerKind.DEADLINE, TimerKind.COMPUTER)
            return
        deadline_days = current.deadline_days if current is not None else row.deadline_days
        if not new_turn and not activity:
            return
        # One DELETE of the timers this change replaces, then the new ones (a new turn's deadline
        # stays until the turn ends; a move within the turn replaces only the reminder and the
        # computer's turn).
        if new_turn:
            await timers.clear(db, row.id, TimerKind.REMINDER, TimerKind.DEADLINE, TimerKind.COMPUTER)
            await queries.update_match_later(db, row.id, turn_started_at=now, turn_reminders=0)
            if deadline_days:
                await timers.schedule(db, row.id, TimerKind.DEADLINE, now + deadline_days * DAY, now)
        else:
            await timers.clear(db, row.id, TimerKind.REMINDER, TimerKind.COMPUTER)
        if after.acting_computer() is not None:
            await timers.schedule(db, row.id, TimerKind.COMPUTER, now + COMPUTER_DELAY, now)
        if _humans_waited_for(after):
            await timers.schedule_reminder(db, row.id, row.guild_id, current.reminder_hours if current else None,
                                           now, now)  # fmt: skip

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
        if seat is None:  # secret setup still owed: those who did not choose get a random one
            pending = state.setup_pending()
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
        return await self._commit_with_notice(row, state, [entry], timer, lambda what: P(
            "⌛ {seat:poss} turn ran out (the {count}-day deadline). {what}",
            "⌛ {seat:poss} turn ran out (the {count}-day deadline). {what}",
            count=days, seat=title, what=what,
        ))  # fmt: skip

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
        waiting = _humans_waited_for(state)
        now = self.book.clock.now()
        async with self.book.storage.transaction() as db:
            if not await timers.take(db, timer.id):
                return False
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
