"""Benchmark of tournaments: `python bench/tournament.py [--entrants 200] [--rounds 8]` from the project root.

Pairs every round of a Swiss event (random results, fixed seed) and prints, per round, the
time to pair it (wall and CPU), then the time to compute the standings, draw the standings
picture (the first, cold, and the median of later ones) and a rating chart. Each figure must
stay under one second (issue 21); the script says which do not. Prints the machine's load,
which these figures depend on.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path[0] = str(Path(__file__).resolve().parent.parent)

from bot.ratings import RatedResult, recompute  # noqa: E402
from bot.ratings.present import history_chart  # noqa: E402
from bot.tournament import Entrant, Event, EventState, Format, Plan, Result, advance, apply, standings  # noqa: E402
from bot.tournament.present import standings_table, subtitle  # noqa: E402
from render.tables import rating_chart_image, standings_image  # noqa: E402

SEED = 20261125
LIMIT_S = 1.0
OUTCOMES = (Result((1, 2)), Result((2, 1)), Result((1, 1)))


def timed(work: Callable[[], Any]) -> tuple[Any, float, float]:
    """(the result, wall seconds, CPU seconds of this process)."""
    wall, cpu = time.perf_counter(), time.process_time()
    value = work()
    return value, time.perf_counter() - wall, time.process_time() - cpu


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--entrants", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=8)
    args = parser.parse_args(argv)
    print(f"load average {' '.join(f'{v:.2f}' for v in os.getloadavg())} on {os.cpu_count()} cores")
    rng = random.Random(SEED)
    entrants = tuple(Entrant(i, rating=rng.randint(800, 2200)) for i in range(1, args.entrants + 1))
    state = EventState(Event(Format.SWISS, entrants, seed=SEED, rounds=args.rounds))
    slow: list[str] = []
    walls: list[float] = []
    print(f"Swiss, {args.entrants} entrants, {args.rounds} rounds: pairing each round")
    while True:
        step, wall, cpu = timed(lambda: advance(state))  # noqa: B023 (called at once)
        if not isinstance(step, Plan):
            break
        walls.append(wall)
        print(f"  round {step.round}: {wall * 1000:7.1f} ms wall, {cpu * 1000:7.1f} ms CPU"
              f"  ({len(step.tables)} boards, {len(step.byes)} bye)")  # fmt: skip
        if wall > LIMIT_S:
            slow.append(f"pairing round {step.round}")
        state = apply(state, step).with_results({t: rng.choice(OUTCOMES) for t in step.tables})
    print(f"  all {len(walls)} rounds: {sum(walls):.2f} s wall in all, slowest {max(walls) * 1000:.1f} ms")

    table, wall, cpu = timed(lambda: standings(state))
    print(f"standings of {args.entrants}: {wall * 1000:.1f} ms wall, {cpu * 1000:.1f} ms CPU")
    names = {e.id: f"Player {e.id:03d}" for e in entrants}
    event = state.event
    shape = standings_table("Bench Swiss", subtitle("Nika", event, len(state.rounds), True), event, table, names,
                            finished=True)  # fmt: skip
    _, cold, cold_cpu = timed(lambda: standings_image(shape))
    warm = [timed(lambda: standings_image(shape))[1] for _ in range(15)]
    print(f"standings picture ({len(shape.rows)} rows): first {cold * 1000:.1f} ms wall ({cold_cpu * 1000:.1f} ms CPU),"
          f" then median {statistics.median(warm) * 1000:.1f} ms, max {max(warm) * 1000:.1f} ms")  # fmt: skip
    if max(cold, *warm) > LIMIT_S:
        slow.append("standings picture")

    results = [RatedResult(i, ((1,), (rng.randint(2, 30),)), rng.choice(((1, 2), (2, 1), (1, 1)))) for i in range(500)]
    ratings, wall, _ = timed(lambda: recompute(results))
    print(f"ratings recomputed from 500 results: {wall * 1000:.1f} ms wall")
    chart = history_chart(ratings[1], "Player 001", "Nika")
    warm = [timed(lambda: rating_chart_image(chart))[1] for _ in range(10)]
    print(f"rating chart ({len(chart.shown)} points): median {statistics.median(warm) * 1000:.1f} ms,"
          f" max {max(warm) * 1000:.1f} ms")  # fmt: skip
    if max(warm) > LIMIT_S:
        slow.append("rating chart")
    print("every figure under 1 s" if not slow else f"over 1 s: {', '.join(slow)}")
    return 1 if slow else 0


if __name__ == "__main__":
    sys.exit(main())
