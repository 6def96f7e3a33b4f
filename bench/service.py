"""Match service benchmark: 1,000 stored matches, 50 of them played concurrently.

Prints actions/s and the p50/p99 latency of `act` (parse, rules, SQLite commit with
fsync, and rendering the board PNG in a worker thread), in two modes:
  saturated  every match acts again as soon as its last action returns;
  paced      each match acts about once a second (exponential think time), which
             is a far busier server than real play across days.
Run: python bench/service.py [--seconds 15]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

# bench/ holds engine.py and render.py, which would shadow the packages of those names.
sys.path[0] = str(Path(__file__).resolve().parents[1])

from bot.service import MatchService  # noqa: E402
from bot.storage import matches as queries  # noqa: E402
from engine.nika import GameState  # noqa: E402

GUILD = 1
ACTIVE = 50
STORED = 1_000


async def store_background_matches(service: MatchService, count: int) -> None:
    start = GameState.start().notation()
    async with service.db.transaction() as db:
        for i in range(count):
            match_id = await queries.insert_match(
                db,
                guild_id=GUILD,
                channel_id=100_000 + i,
                creator_id=1,
                start_position=start,
                to_act="athens",
                rated=True,
                now=time.time(),
            )
            await queries.set_seats(db, match_id, 1, ["athens", "messene"])
            await queries.set_seats(db, match_id, 2, ["sparta", "thebes"])
            await queries.update_match(db, match_id, status="finished" if i % 3 else "active", result="draw")


async def open_active(service: MatchService, channel: int) -> None:
    await service.new_match(GUILD, channel, 1, "athens-messene")
    await service.join(GUILD, channel, 2, "sparta-thebes")
    await service.start(GUILD, channel, 1)


async def player(
    service: MatchService, channel: int, rng: random.Random, deadline: float, pace: float | None, latencies: list[float]
) -> None:
    while time.perf_counter() < deadline:
        if pace:
            think = rng.expovariate(1 / pace)
            if time.perf_counter() + think >= deadline:
                break
            await asyncio.sleep(think)
        state = await service.state_of(channel)
        if state.game.is_over:
            channel += 1_000
            await open_active(service, channel)
            continue
        user = state.acting_user()
        assert user is not None
        action = rng.choice(state.game.legal_actions()).notation()
        began = time.perf_counter()
        await service.act(GUILD, channel, user, action)
        latencies.append(time.perf_counter() - began)


async def run(mode: str, seconds: float, pace: float | None) -> None:
    with tempfile.TemporaryDirectory() as folder:
        service = await MatchService.open(str(Path(folder) / "bench.db"))
        try:
            await store_background_matches(service, STORED - ACTIVE)
            for channel in range(ACTIVE):
                await open_active(service, channel)
            async with service.db.reading() as db:
                stored = await queries.count_matches(db)
            latencies: list[float] = []
            began = time.perf_counter()
            deadline = began + seconds
            await asyncio.gather(
                *(player(service, c, random.Random(c), deadline, pace, latencies) for c in range(ACTIVE))
            )
            elapsed = time.perf_counter() - began
        finally:
            await service.close()
    ms = sorted(x * 1000 for x in latencies)
    p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
    print(
        f"{mode:>9}: {stored} matches stored, {ACTIVE} playing; {len(ms)} actions in {elapsed:.1f} s = "
        f"{len(ms) / elapsed:.1f} actions/s; act latency p50 {statistics.median(ms):.1f} ms, p99 {p99:.1f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=15.0)
    args = parser.parse_args()
    asyncio.run(run("paced", args.seconds, pace=0.8))
    asyncio.run(run("saturated", args.seconds, pace=None))


if __name__ == "__main__":
    main()
