"""Time for the service and the timer dispatcher. Tests use ManualClock to move time
forward by hand, so reminders and deadlines are tested without sleeping."""

from __future__ import annotations

import asyncio
import time
from typing import Any, Protocol


class Clock(Protocol):
    def now(self) -> float: ...

    async def sleep_until(self, when: float, wake: asyncio.Event) -> None:
        """Return at `when`, or earlier once `wake` is set."""


async def _wait_either(first: asyncio.Future[Any], wake: asyncio.Event) -> None:
    waiter = asyncio.ensure_future(wake.wait())
    try:
        await asyncio.wait({first, waiter}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in (first, waiter):
            task.cancel()


class SystemClock:
    def now(self) -> float:
        return time.time()

    async def sleep_until(self, when: float, wake: asyncio.Event) -> None:
        delay = when - time.time()
        if delay > 0 and not wake.is_set():
            await _wait_either(asyncio.ensure_future(asyncio.sleep(delay)), wake)


class ManualClock:
    """Stands still until `advance` is called."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self._now = start
        self._moved = asyncio.Condition()

    def now(self) -> float:
        return self._now

    async def advance(self, seconds: float) -> None:
        async with self._moved:
            self._now += seconds
            self._moved.notify_all()

    async def _reached(self, when: float) -> None:
        async with self._moved:
            await self._moved.wait_for(lambda: self._now >= when)

    async def sleep_until(self, when: float, wake: asyncio.Event) -> None:
        if self._now < when and not wake.is_set():
            await _wait_either(asyncio.ensure_future(self._reached(when)), wake)


class ConsoleClock(SystemClock):
    """The console's clock: the system's, moved forward by `wait` (bot/console.py), so a newcomer
    sees a day of reminders, warnings and timeouts in a moment."""

    def __init__(self) -> None:
        self.offset = 0.0

    def now(self) -> float:
        return time.time() + self.offset

    async def advance(self, seconds: float) -> None:
        self.offset += seconds

    async def sleep_until(self, when: float, wake: asyncio.Event) -> None:
        delay = when - self.now()
        if delay > 0 and not wake.is_set():
            await _wait_either(asyncio.ensure_future(asyncio.sleep(delay)), wake)
