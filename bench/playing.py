"""What the strength benchmarks share (bench/ai.py and its sections): a match between
players (search levels, or one-action reference players by name), playing it in a worker
process, and reporting results. Prints nothing of its own."""

from __future__ import annotations

import argparse
import itertools
import multiprocessing
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine import AnyGame, get_game
from engine.__main__ import new_playable
from engine.search import LEVELS, think

Player = Callable[[AnyGame, Any, random.Random], Any]


def random_action(game: AnyGame, state: Any, rng: random.Random) -> Any:
    return rng.choice(list(game.legal_actions(state)))


# One-action reference players by name; a level name means engine.search.think at that level.
# Each game's section adds its own (bench/ai_nika.py, bench/ai_games.py).
REFERENCE: dict[str, Player] = {"random": random_action}


# --- playing games -----------------------------------------------------------------------


@dataclass(frozen=True)
class Match:
    """One game to play: who sits where, the seed, and the search budget per action."""

    game: str
    players: int
    seats: tuple[tuple[str, str], ...]  # (seat, player name)
    seed: int
    budget_ms: dict[str, float]
    cap: int


@dataclass
class Played:
    match: Match
    winners: frozenset[str]  # seats; empty for a draw
    actions: int
    seconds: dict[str, list[float]] = field(default_factory=dict)  # player -> wall-clock seconds per action
    cpu: dict[str, list[float]] = field(default_factory=dict)  # player -> its process's CPU seconds per action
    capped: bool = False
    reason: str = "cap"  # the outcome's reason ("captures", "target", …); "cap" when capped
    drawn: frozenset[str] = frozenset()  # seats sharing a draw (in a free-for-all, possibly only some)
    scores: dict[str, int] = field(default_factory=dict)  # points per seat, where the game keeps score


def play(match: Match) -> Played:
    game = get_game(match.game)
    # Where play begins: a secret setup, if the game has one, is drawn from the seed.
    state = new_playable(game, match.players, {}, match.seed)
    players = dict(match.seats)
    rng = random.Random(match.seed)
    seconds: dict[str, list[float]] = {}
    cpu: dict[str, list[float]] = {}
    count = 0
    while game.outcome(state) is None and count < match.cap:
        seat = game.to_act(state)
        assert seat is not None
        name = players[seat]
        if name in LEVELS:
            began, began_cpu = time.perf_counter(), time.process_time()
            budget = match.budget_ms[name] * game.actions_left(state)
            actions = think(game, state, level=name, budget_ms=budget, seed=match.seed * 100_003 + count)
            spent, spent_cpu = time.perf_counter() - began, time.process_time() - began_cpu
            seconds.setdefault(name, []).extend([spent / len(actions)] * len(actions))
            cpu.setdefault(name, []).extend([spent_cpu / len(actions)] * len(actions))
        else:
            actions = [REFERENCE[name](game, state, rng)]
        for action in actions:
            if game.outcome(state) is not None or count >= match.cap:
                break
            state, _ = game.apply(state, action)
            count += 1
    outcome = game.outcome(state)
    winners = outcome.winners if outcome is not None else frozenset()
    return Played(
        match, winners, count, seconds, cpu, capped=outcome is None,
        reason=outcome.reason if outcome is not None else "cap",
        drawn=outcome.drawn if outcome is not None else frozenset(),
        scores=dict(game.score(state)),
    )  # fmt: skip


def run_all(matches: Sequence[Match], workers: int, label: str) -> list[Played]:
    began = time.perf_counter()
    results: list[Played] = []
    with multiprocessing.Pool(workers) as pool:
        for done, played in enumerate(pool.imap_unordered(play, matches), start=1):
            results.append(played)
            progress = f"\r  {label}: {done}/{len(matches)} games, {time.perf_counter() - began:.0f} s"
            print(progress, end="", flush=True, file=sys.stderr)
    print(file=sys.stderr)
    return results


def percentile(values: Sequence[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def tally(results: Sequence[Played], player: str) -> tuple[int, int, int]:
    """Wins, losses, draws of `player` (one side of two-sided games)."""
    wins = losses = draws = 0
    for played in results:
        mine = {seat for seat, name in played.match.seats if name == player}
        if not played.winners:
            draws += 1
        elif played.winners & mine:
            wins += 1
        else:
            losses += 1
    return wins, losses, draws


def print_timing(results: Sequence[Played], player: str) -> None:
    """Wall-clock time is what a player waits, and grows when other programs share the cores;
    CPU time is the search's own cost."""
    for what, field_name in (("seconds", "seconds"), ("CPU seconds", "cpu")):
        times = [t for played in results for t in getattr(played, field_name).get(player, [])]
        if times:
            print(f"  {player}: {what} per action: p50 {percentile(times, 0.5):.3f}, "
                  f"p95 {percentile(times, 0.95):.3f}, mean {statistics.mean(times):.3f}, "
                  f"max {max(times):.3f} ({len(times)} actions)")  # fmt: skip


def print_lengths(results: Sequence[Played]) -> None:
    lengths = [played.actions for played in results]
    capped = sum(played.capped for played in results)
    print(f"  game length in actions: mean {statistics.mean(lengths):.0f}, median {statistics.median(lengths):.0f}, "
          f"min {min(lengths)}, max {max(lengths)}; {capped} reached the cap")  # fmt: skip


def round_robin(
    title: str, players: Sequence[str], pairing: Callable[[str, str, int, argparse.Namespace, int], list[Match]],
    args: argparse.Namespace,
) -> None:  # fmt: skip
    """`args.round_robin` games for every pair of `players`, sides swapped every game;
    `pairing(a, b, games, args, seed_offset)` lays out one pair's games."""
    print(f"{title} round robin: {args.round_robin} games a pairing, sides swapped every game")
    pairings = list(itertools.combinations(players, 2))
    matches = [
        m for index, (a, b) in enumerate(pairings)
        for m in pairing(a, b, args.round_robin, args, 10_000 * (index + 1))
    ]  # fmt: skip
    results = run_all(matches, args.workers, "round robin")
    points = dict.fromkeys(players, 0.0)
    for a, b in pairings:
        part = [r for r in results if {name for _, name in r.match.seats} == {a, b}]
        w, lo, d = tally(part, a)
        points[a] += w + d / 2
        points[b] += lo + d / 2
        print(f"  {a:>6} vs {b:<6}: {w}-{lo}, {d} draws")
    ranking = ", ".join(f"{name} {points[name]:g}" for name in sorted(players, key=lambda n: -points[n]))
    print(f"  points (win 1, draw ½): {ranking}")
    for level in LEVELS:
        print_timing(results, level)
    print_lengths(results)
