"""Engine benchmark: apply throughput over random playouts, and legal-action enumeration time.

    .venv/bin/python bench/engine.py [--games 40] [--plies 240] [--positions 200] [--seed 1]

Random playouts choose uniformly among the legal actions. Enumerating costs time of its
own, so the games are recorded first and then replayed to time `GameState.apply` alone
(with its repetition and pass bookkeeping). Enumeration is timed per position over midgame
positions taken from those games. Targets: >= 20,000 applied actions/s, <= 2 ms median.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from pathlib import Path

# This file is itself called engine.py and its folder comes first on sys.path: put the
# project root ahead of it so `engine` is the package, not this script.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.nika import Action, GameState, Position, legal_actions, play

APPLY_TARGET = 20_000  # applied actions per second
ENUMERATION_TARGET_MS = 2.0  # median per position
# Positions heavier than random play reaches: many phalanxes, every sub-phalanx to try.
HEAVY = {
    "start position": "A:j4w,j5w,j6w,k4n,k5n,l4e S:d7s,d8e,d9n,e8e,e9n,f9n "
    "M:j12w,k11s,k12s,l10e,l11e,l12e T:p7s,q7s,q8w,r7s,r8w,r9n A2",
    "a 2x3 block of six facing the enemy": "A:j4n,j5n,k4n,k5n,l4n,l5n S:j6s,k6s,l6s M:- T:- A2",
}


def playouts(games: int, plies: int, rng: random.Random) -> list[list[Action]]:
    """Uniformly random legal games from the start, each until it ends or reaches `plies` actions."""
    recorded = []
    for _ in range(games):
        state, actions = GameState.start(), []
        while not state.is_over and len(actions) < plies:
            action = rng.choice(state.legal_actions())
            state, _ = state.apply(action)
            actions.append(action)
        recorded.append(actions)
    return recorded


def time_apply(games: list[list[Action]], repeats: int = 3) -> tuple[int, float]:
    """Replay every game, timing only the apply calls; the best of `repeats` runs."""
    total = sum(len(actions) for actions in games)
    best = float("inf")
    for _ in range(repeats):
        elapsed = 0.0
        for actions in games:
            state = GameState.start()
            began = time.perf_counter()
            for action in actions:
                state, _ = state.apply(action)
            elapsed += time.perf_counter() - began
        best = min(best, elapsed)
    return total, best


def time_play(games: list[list[Action]]) -> tuple[int, float]:
    """The rules alone (`play` on positions): no history, no outcome checks."""
    total, elapsed = 0, 0.0
    for actions in games:
        position = Position.start()
        began = time.perf_counter()
        for action in actions:
            position, _ = play(position, action)
        elapsed += time.perf_counter() - began
        total += len(actions)
    return total, elapsed


def midgame_positions(games: list[list[Action]], count: int, rng: random.Random) -> list[Position]:
    """Positions after at least 20 actions, sampled across all games."""
    pool = []
    for actions in games:
        position = Position.start()
        for ply, action in enumerate(actions, start=1):
            position, _ = play(position, action)
            if ply >= 20 and position.winner() is None:
                pool.append(position)
    return rng.sample(pool, min(count, len(pool)))


def time_enumeration(positions: list[Position], repeats: int = 5) -> list[float]:
    """Milliseconds to enumerate each position's legal actions (the median of `repeats` runs)."""
    times = []
    for position in positions:
        runs = []
        for _ in range(repeats):
            began = time.perf_counter()
            legal_actions(position)
            runs.append(time.perf_counter() - began)
        times.append(statistics.median(runs) * 1000)
    return times


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--plies", type=int, default=240, help="actions per playout at most")
    parser.add_argument("--positions", type=int, default=200, help="midgame positions to enumerate")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)

    print(f"Nika engine benchmark · Python {platform.python_version()} · {platform.machine()} · seed {args.seed}")
    began = time.perf_counter()
    games = playouts(args.games, args.plies, rng)
    wall = time.perf_counter() - began
    total = sum(len(g) for g in games)
    print(f"random playouts: {len(games)} games, {total} actions, {wall:.2f} s with enumeration and choice")

    applied, seconds = time_apply(games)
    rate = applied / seconds
    verdict = "ok" if rate >= APPLY_TARGET else "MISSED"
    print(f"GameState.apply: {rate:,.0f} actions/s ({seconds * 1e6 / applied:.1f} µs each)", end="")
    print(f"  target ≥ {APPLY_TARGET:,}: {verdict}")
    played, seconds = time_play(games)
    print(f"rules.play alone: {played / seconds:,.0f} actions/s")

    positions = midgame_positions(games, args.positions, rng)
    times = time_enumeration(positions)
    counts = [len(legal_actions(p)) for p in positions]
    median = statistics.median(times)
    verdict = "ok" if median <= ENUMERATION_TARGET_MS else "MISSED"
    print(
        f"legal_actions over {len(positions)} midgame positions: median {median:.3f} ms, "
        f"p95 {percentile(times, 0.95):.3f} ms, max {max(times):.3f} ms "
        f"({statistics.mean(counts):.0f} actions on average)  target median ≤ {ENUMERATION_TARGET_MS} ms: {verdict}"
    )
    for name, text in HEAVY.items():
        position = Position.from_notation(text)
        (ms,) = time_enumeration([position], repeats=20)
        print(f"legal_actions, {name}: {ms:.3f} ms ({len(legal_actions(position))} actions)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
