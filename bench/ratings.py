"""Benchmark of reading a server's rating table: `python bench/ratings.py [--results 5000] [--postgres DSN]`.

Fills a fresh database (SQLite in a temporary folder, or the PostgreSQL database named) with
that many finished rated Pikemen results of two to four players among 60 members, migrated by
migration 26's data step, then times, interleaved (A, B, A, B, …, to share the machine's load):

  before  the previous release's read: every finished rated match read and recomputed (CPU in a
          worker thread, as it ran);
  after   the stored table read (`Reading.standings`, migration 26).

Prints the median wall time and this process's CPU time of each, and the machine's load.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path[0] = str(Path(__file__).resolve().parent.parent)

from bot.ratings import ranked, rated_results, recompute  # noqa: E402
from bot.service import MatchService  # noqa: E402
from bot.storage import matches as queries  # noqa: E402
from bot.storage import open_storage  # noqa: E402
from bot.storage import ratings as rating_rows  # noqa: E402
from bot.storage.matches import NewMatch  # noqa: E402
from engine.registry import get_game  # noqa: E402

GUILD = 1
SEATS = {2: ("red", "blue"), 3: ("red", "yellow", "blue"), 4: ("red", "yellow", "green", "blue")}


async def fill(location: str, count: int) -> None:
    storage = await open_storage(location)
    rng = random.Random(21)
    try:
        async with storage.transaction() as db:
            for index in range(count):
                players = rng.choice((2, 3, 4))
                users = rng.sample(range(1000, 1060), players)
                at = 1_700_000_000.0 + index
                match_id = await queries.insert_match(db, NewMatch("pikemen", GUILD, 10_000 + index, users[0],
                                                                   players, "P0", None, True, at))  # fmt: skip
                for seat, user in zip(SEATS[players], users, strict=True):
                    await queries.take_seats(db, match_id, [seat], user_id=user, computer=None)
                await queries.update_match(db, match_id, status="finished", result=rng.choice(SEATS[players]),
                                           rated=True, updated_at=at)  # fmt: skip
            await rating_rows.fill_all(db)  # what migration 26 does on an upgraded database
    finally:
        await storage.close()


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--results", type=int, default=5000)
    parser.add_argument("--postgres", default=None)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        location = args.postgres or str(Path(folder) / "bench.db")
        await fill(location, args.results)
        service = await MatchService.open(location)
        rules = get_game("pikemen")

        async def before() -> object:
            async with service.storage.reading() as db:
                rows = await queries.finished_rated_matches(db, GUILD, "pikemen")
            return await asyncio.to_thread(lambda: ranked(recompute(rated_results(rules, rows))))

        async def after() -> object:
            return await service.reading.standings(GUILD, "pikemen")

        times: dict[str, list[tuple[float, float]]] = {"before": [], "after": []}
        try:
            old, new = await before(), await after()
            assert [(p.user_id, p.rating) for p in old] == [(p.user_id, p.rating) for p in new]  # type: ignore[attr-defined]
            for _ in range(args.repeat):
                for name, work in (("before", before), ("after", after)):
                    wall, cpu = time.perf_counter(), time.process_time()
                    await work()
                    times[name].append((time.perf_counter() - wall, time.process_time() - cpu))
        finally:
            await service.close()
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"{args.results} rated results, {'PostgreSQL' if args.postgres else 'SQLite'}; load average {load}")
    for name, samples in times.items():
        wall = statistics.median(s[0] for s in samples) * 1000
        cpu = statistics.median(s[1] for s in samples) * 1000
        print(f"  {name:6} table read: {wall:8.1f} ms wall, {cpu:8.1f} ms CPU (median of {len(samples)})")


if __name__ == "__main__":
    asyncio.run(main())
