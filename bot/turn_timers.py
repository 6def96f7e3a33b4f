"""Firing turn timers: reminders to the player who has not moved, and turn deadlines
that pass an expired turn. Part of MatchService; the timers themselves are kept in step
with each turn inside the service's own transactions (`_reschedule`)."""

from __future__ import annotations

from typing import Any

import aiosqlite

from bot.errors import BoardChanged, NoMatch
from bot.match import Entry, MatchState
from bot.replies import Notice, Reply
from bot.storage import MatchRow, timers
from bot.storage import matches as queries
from bot.texts import mention

HOUR = 3600.0
DAY = 24 * HOUR
MAX_REMINDERS_PER_TURN = 3


class _TimerGone(Exception):
    """The timer was already taken: it fired before, or a turn change replaced it."""


class TurnTimers:
    """Mixin for MatchService: it relies on the service's db, clock, loading and commits."""

    db: Any
    clock: Any

    async def next_timer(self) -> timers.TimerRow | None:
        async with self.db.reading() as db:
            return await timers.next_due(db)

    async def postpone_timer(self, timer_id: int, seconds: float) -> None:
        async with self.db.transaction() as db:
            await timers.postpone(db, timer_id, self.clock.now() + seconds)

    async def fire_timer(self, timer: timers.TimerRow) -> Notice | None:
        """Run a due timer exactly once: its removal commits with what it does."""
        try:
            row, state = await self._load_match(timer.match_id)
        except NoMatch:
            row = None
        if row is None or row.status != "active" or state.game.is_over:
            async with self.db.transaction() as db:
                await timers.take(db, timer.id)
            return None
        if timer.kind == "deadline":
            return await self._expire_turn(row, state, timer)
        return await self._remind(row, state, timer)

    async def _expire_turn(self, row: MatchRow, state: MatchState, timer: timers.TimerRow) -> Notice | None:
        city, left = state.game.to_act, state.game.position.actions_left

        async def take_timer(db: aiosqlite.Connection) -> None:
            if not await timers.take(db, timer.id):
                raise _TimerGone

        try:
            new, events = await self._commit(
                row, state, [Entry("action", None, action="pass")] * left, guard=take_timer
            )
        except (_TimerGone, BoardChanged):
            return None
        passed = "its last action was" if left == 1 else "both its actions were"
        headline = (
            f"⌛ {city.possessive} turn ran out (the {row.deadline_days}-day deadline): {passed} passed automatically."
        )
        reply = await self._board_reply(row.id, new, headline, events)
        return Notice(row.guild_id, row.channel_id, reply)

    async def _remind(self, row: MatchRow, state: MatchState, timer: timers.TimerRow) -> Notice | None:
        actor = state.acting_user()
        now = self.clock.now()
        async with self.db.transaction() as db:
            if not await timers.take(db, timer.id):
                return None
            current = await queries.match_by_id(db, row.id)
            if current is None or current.turn_reminders >= MAX_REMINDERS_PER_TURN or actor is None:
                return None
            sent = current.turn_reminders + 1
            await queries.update_match(db, row.id, turn_reminders=sent)
            hours = await timers.reminder_hours(db, row.guild_id, current.reminder_hours)
            if sent < MAX_REMINDERS_PER_TURN:
                await timers.schedule(db, row.id, "reminder", max(now, timer.due) + hours * HOUR, now)
            by_dm = await timers.dm_reminders(db, actor)
        self._timers_changed()
        city = state.game.to_act
        left = state.game.position.actions_left
        plural = "s" if left > 1 else ""
        text = (
            f"⏰ {mention(actor)}, {city.title} is waiting for you: {left} action{plural} left, and no move "
            f"for {hours:g} h. (Reminder {sent} of {MAX_REMINDERS_PER_TURN}; /nika board shows the board.)"
        )
        reply = Reply(text, mentions=(actor,), match_id=row.id, version=state.board_version)
        return Notice(row.guild_id, row.channel_id, reply, dm_user_ids=(actor,) if by_dm else ())
