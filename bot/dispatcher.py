"""One task that fires due timers in order (the RoboDanny reminder pattern).

It sleeps until the earliest timer in the database is due, or until the service says
a sooner one may exist. Timers that fell due while the bot was down fire at once on
start, each exactly once: the service removes a timer in the same transaction as
the change it makes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from bot.clock import Clock
from bot.replies import Notice
from bot.service import MatchService
from bot.storage.timers import TimerRow

log = logging.getLogger(__name__)

Announce = Callable[[Notice], Awaitable[None]]
RETRY_SECONDS = 60.0


class TimerDispatcher:
    def __init__(self, service: MatchService, announce: Announce, clock: Clock | None = None) -> None:
        self.service = service
        self.announce = announce
        self.clock = clock or service.clock
        self._wake = asyncio.Event()
        self._idle = asyncio.Condition()
        self._waiting = False
        self._task: asyncio.Task[None] | None = None
        service.on_timers_changed = self.poke

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="nika-timers")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    def poke(self) -> None:
        """A timer may now be due sooner than the one being waited for."""
        self._wake.set()

    async def _run(self) -> None:
        while True:
            # Cleared before reading, so a poke that lands while we read is not lost.
            self._wake.clear()
            try:
                timer = await self.service.next_timer()
                if timer is None or timer.due > self.clock.now():
                    await self._sleep_until(timer.due if timer else None)
                    continue
                notice = await self._fire(timer)
                if notice is not None:
                    await self.announce(notice)
            except asyncio.CancelledError:
                raise
            except Exception:
                # Whatever failed (storage, Discord), the task lives on: the next timers still fire.
                log.exception("timer dispatch failed")
                await self._sleep_until(self.clock.now() + RETRY_SECONDS)

    async def _fire(self, timer: TimerRow) -> Notice | None:
        try:
            return await self.service.fire_timer(timer)
        except Exception:
            # A timer that cannot fire must not block those behind it: try it again later.
            log.exception("timer failed", extra={"timer": timer.id, "match": timer.match_id})
            await self.service.postpone_timer(timer.id, RETRY_SECONDS)
            return None

    async def _sleep_until(self, due: float | None) -> None:
        async with self._idle:
            self._waiting = True
            self._idle.notify_all()
        try:
            if due is None:
                await self._wake.wait()
            else:
                await self.clock.sleep_until(due, self._wake)
        finally:
            self._waiting = False

    async def settled(self, timeout: float = 10.0) -> None:
        """For tests: wait until every timer due now has fired and the task sleeps again.

        Pokes first, so a clock moved forward just before is looked at afresh.
        """
        async with self._idle:
            self._waiting = False
        self.poke()
        async with asyncio.timeout(timeout), self._idle:
            await self._idle.wait_for(lambda: self._waiting)
