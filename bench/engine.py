"""Engine benchmark for every hosted game: apply throughput over random playouts, and
legal-action enumeration time, both through the shared `Game` interface the host uses.

    .venv/bin/python bench/engine.py [--game SLUG] [--games 40] [--plies 240] [--positions 200] [--seed 1]

Random playouts choose uniformly among the legal actions (setup choices, where a game has
them, are random too). Enumerating costs time of its own, so the games are recorded first
and then replayed to time `apply` alone. Enumeration is timed per state over midgame states
taken from those games. Targets, per game and player count: >= 20,000 applied actions/s,
<= 2 ms median enumeration.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

# This file is itself called engine.py and its folder comes first on sys.path: put the
# project root ahead of it so `engine` is the package, not this script.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import AnyGame, games, get_game

APPLY_TARGET = 20_000  # applied actions per second
ENUMERATION_TARGET_MS = 2.0  # median per state
MIDGAME_PLY = 20
# Nika positions heavier than random play reaches: many phalanxes, every sub-phalanx to try.
HEAVY = {
    "nika": {
        "start position": "A:j4w,j5w,j6w,k4n,k5n,l4e S:d7s,d8e,d9n,e8e,e9n,f9n "
        "M:j12w,k11s,k12s,l10e,l11e,l12e T:p7s,q7s,q8w,r7s,r8w,r9n A2",
        "a 2x3 block of six facing the enemy": "A:j4n,j5n,k4n,k5n,l4n,l5n S:j6s,k6s,l6s M:- T:- A2",
    }
}


def start_of(game: AnyGame, players: int, seed: int, rng: random.Random) -> Any:
    """A new game, with random setup choices where the game asks for them."""
    state = game.new(players, game.option_defaults(), seed)
    pending = game.setup_pending(state)
    if pending:
        choices = {seat: rng.choice(list(game.setup_choices(state, seat))).value for seat in pending}
        state, _ = game.apply_setup(state, choices)
    return state


def playouts(game: AnyGame, players: int, count: int, plies: int, rng: random.Random) -> list[tuple[Any, list[Any]]]:
    """Uniformly random legal games, each until it ends or reaches `plies` actions."""
    recorded = []
    for number in range(count):
        start = start_of(game, players, number, rng)
        state, actions = start, list[Any]()
        while game.outcome(state) is None and len(actions) < plies:
            action = rng.choice(list(game.legal_actions(state)))
            state, _ = game.apply(state, action)
            actions.append(action)
        recorded.append((start, actions))
    return recorded


def time_apply(game: AnyGame, recorded: list[tuple[Any, list[Any]]], repeats: int = 3) -> tuple[int, float]:
    """Replay every game, timing only the apply calls; the best of `repeats` runs."""
    total = sum(len(actions) for _, actions in recorded)
    apply = game.apply
    best = float("inf")
    for _ in range(repeats):
        elapsed = 0.0
        for start, actions in recorded:
            state = start
            began = time.perf_counter()
            for action in actions:
                state, _ = apply(state, action)
            elapsed += time.perf_counter() - began
        best = min(best, elapsed)
    return total, best


def midgame_states(game: AnyGame, recorded: list[tuple[Any, list[Any]]], count: int, rng: random.Random) -> list[Any]:
    pool = []
    for start, actions in recorded:
        state = start
        for ply, action in enumerate(actions, start=1):
            state, _ = game.apply(state, action)
            if ply >= MIDGAME_PLY and game.outcome(state) is None:
                pool.append(state)
    return rng.sample(pool, min(count, len(pool)))


def time_enumeration(game: AnyGame, states: list[Any], repeats: int = 5) -> list[float]:
    """Milliseconds to enumerate each state's legal actions (the median of `repeats` runs)."""
    times = []
    for state in states:
        runs = []
        for _ in range(repeats):
            began = time.perf_counter()
            game.legal_actions(state)
            runs.append(time.perf_counter() - began)
        times.append(statistics.median(runs) * 1000)
    return times


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def bench(game: AnyGame, players: int, args: argparse.Namespace) -> bool:
    rng = random.Random(args.seed)
    label = f"{game.title}, {players} players"
    began = time.perf_counter()
    recorded = playouts(game, players, args.games, args.plies, rng)
    wall = time.perf_counter() - began
    total = sum(len(actions) for _, actions in recorded)
    finished = sum(1 for start, actions in recorded if len(actions) < args.plies)
    print(f"{label}: {len(recorded)} random games ({finished} finished), {total} actions, {wall:.2f} s with choosing")

    applied, seconds = time_apply(game, recorded)
    rate = applied / seconds
    apply_ok = rate >= APPLY_TARGET
    print(f"  apply: {rate:,.0f} actions/s ({seconds * 1e6 / applied:.1f} µs each)"
          f"  target ≥ {APPLY_TARGET:,}: {'ok' if apply_ok else 'MISSED'}")  # fmt: skip

    states = midgame_states(game, recorded, args.positions, rng)
    if not states:
        print("  legal_actions: no midgame states reached")
        return apply_ok
    times = time_enumeration(game, states)
    counts = [len(game.legal_actions(s)) for s in states]
    median = statistics.median(times)
    enumeration_ok = median <= ENUMERATION_TARGET_MS
    print(
        f"  legal_actions over {len(states)} midgame states: median {median:.3f} ms, "
        f"p95 {percentile(times, 0.95):.3f} ms, max {max(times):.3f} ms "
        f"({statistics.mean(counts):.0f} actions on average)  target median ≤ {ENUMERATION_TARGET_MS} ms: "
        f"{'ok' if enumeration_ok else 'MISSED'}"
    )
    return apply_ok and enumeration_ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--game", help="one game's slug (default: every hosted game)")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--plies", type=int, default=240, help="actions per playout at most")
    parser.add_argument("--positions", type=int, default=200, help="midgame states to enumerate")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    chosen = [get_game(args.game)] if args.game else list(games())
    print(f"Engine benchmark · Python {platform.python_version()} · {platform.machine()} · seed {args.seed}")
    ok = True
    for game in chosen:
        # Seat sets that differ by player count are timed for each count; Nika's are one.
        counts = game.player_counts if game.seat_sets_differ() else game.player_counts[-1:]
        for players in counts:
            ok = bench(game, players, args) and ok
        for name, text in HEAVY.get(game.slug, {}).items():
            state = game.load(text)
            (ms,) = time_enumeration(game, [state], repeats=20)
            print(f"  legal_actions, {name}: {ms:.3f} ms ({len(game.legal_actions(state))} actions)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
