"""Runs the timer task on a database at a given time, and freezes at the first post: prints
`posting <nonce>` and waits to be killed. The outbox test kills it there with SIGKILL, after
the timer's effect committed and before Discord accepted the notice.

    python -m tests.bot.hostile_timer_child <database> <now>
"""

from __future__ import annotations

import asyncio
import sys

import tests.conftest  # noqa: F401  (registers the test-only game)
from bot.clock import ManualClock
from bot.dispatcher import TimerDispatcher
from bot.replies import Notice
from bot.service import MatchService
from bot.storage import open_storage
from tests.bot.hostile_surface import stub_renderer


async def main(path: str, now: float) -> None:
    service = MatchService(await open_storage(path), renderer=stub_renderer, clock=ManualClock(now))
    frozen = asyncio.Event()

    async def announce(notice: Notice, nonce: str) -> int | None:
        print(f"posting {nonce}", flush=True)
        await frozen.wait()  # never set: the test kills the process here
        return None

    TimerDispatcher(service, announce).start()
    await frozen.wait()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], float(sys.argv[2])))
