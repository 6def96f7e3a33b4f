"""Strength benchmark of the computer player (engine/search.py): whole games against
reference opponents, played on every core. Prints numbers; never part of the test run.

    /tmp/v/bin/python bench/ai.py [--game nika] [--games 100] [--level hard] [--budget-ms 1000]
                                  [--round-robin 6] [--workers 2] [--cap 400] [--seed 1]

`--budget-ms` is the level's time per action (default: its normal budget, search.BUDGET_MS);
`think` is given that times the actions left in the turn. `--round-robin 0` skips the short
tournament between the levels and the reference player; `--games 0` skips the main match.

Nika's reference player ("app") reproduces the published Nika app's strongest built-in
computer player: it tries every single action (each move, rotation, phalanx advance and
rally; it passes only when nothing else is legal) and keeps the one whose resulting
position scores highest for its own team, ties broken at random. How its scoring terms
are read here:

- a team's score is the sum of its two cities' scores; "own" means the same city, "allied"
  the other city of the team, "enemy" a city of the other team; neighbours are orthogonal;
- 20 per piece of the team on the board;
- for each piece and each own neighbour: +2 if it faces the same way (they are one
  phalanx), +1 otherwise; each allied neighbour: +2 facing the same way, +1 otherwise;
- each adjacent enemy falls in exactly one case: both face each other, so neither can
  move in ("blocks"): -1; this piece faces the enemy but not the reverse, so only this
  piece can rout (a piece routs a neighbour that does not face it, whatever its own
  facing): +5; the enemy faces this piece but not the reverse, so only the enemy can rout:
  -5; neither faces the other, so either can rout: +2 (this case only, not also ±5);
- -8 per square of Manhattan distance from each piece to the nearest square of its city's
  victory area (straight-line, ignoring the central area, as the app does);
- +25 per routed piece of the enemy team (6 per city minus its pieces on the board);
- an action that wins the game outright is always taken (its position is final).

Every Nika game starts from the start position; the hard side plays Athens+Messene in half
the games and Sparta+Thebes in the other half. Games that reach `--cap` actions are draws.
"""

from __future__ import annotations

import argparse
import itertools
import multiprocessing
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import AnyGame, get_game
from engine.__main__ import new_playable
from engine.search import BUDGET_MS, LEVELS, think

# --- reference players -------------------------------------------------------------------


def nika_app_score(state: Any, team: int) -> float:
    """The published Nika app's evaluation of a position for `team` (see the docstring)."""
    from engine.nika.board import NEIGHBOUR, OFF_GRID, VICTORY_AREA, City, file_of, rank_of

    cells = state.position.cells
    targets = {city: [(file_of(sq), rank_of(sq)) for sq in VICTORY_AREA[city]] for city in City}
    score = 0.0
    routed_enemies = 12
    for sq, cell in enumerate(cells):
        if not cell:
            continue
        city = (cell - 1) >> 2
        facing = (cell - 1) & 3
        if city & 1 != team:
            routed_enemies -= 1
            continue
        score += 20
        for direction in range(4):
            nxt = NEIGHBOUR[direction][sq]
            if nxt == OFF_GRID or not cells[nxt]:
                continue
            other = cells[nxt]
            other_city, other_facing = (other - 1) >> 2, (other - 1) & 3
            if other_city & 1 == team:  # own (same city) or allied
                score += 2 if other_facing == facing else 1
                continue
            we_face_it = facing == direction
            it_faces_us = other_facing == direction ^ 2
            if we_face_it and it_faces_us:
                score -= 1
            elif we_face_it:
                score += 5  # only we can rout: it does not face us, and we face it
            elif it_faces_us:
                score -= 5
            else:
                score += 2
        f, r = file_of(sq), rank_of(sq)
        score -= 8 * min(abs(f - tf) + abs(r - tr) for tf, tr in targets[City(city)])
    return score + 25 * routed_enemies


def nika_app_action(game: AnyGame, state: Any, rng: random.Random) -> Any:
    team = state.position.to_act & 1
    actions = [a for a in game.legal_actions(state) if a.notation() != "pass"] or list(game.legal_actions(state))
    best: list[Any] = []
    best_score = -float("inf")
    for action in actions:
        child, _ = game.apply(state, action)
        if child.outcome is not None and child.outcome.winner is not None:
            score = float("inf") if child.outcome.winner == team else -1e9
        else:
            score = nika_app_score(child, team)
        if score > best_score:
            best, best_score = [action], score
        elif score == best_score:
            best.append(action)
    return rng.choice(best)


def random_action(game: AnyGame, state: Any, rng: random.Random) -> Any:
    return rng.choice(list(game.legal_actions(state)))


# One-action reference players by name; a level name means engine.search.think at that level.
REFERENCE: dict[str, Callable[[AnyGame, Any, random.Random], Any]] = {
    "app": nika_app_action,
    "random": random_action,
}


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
    drawn: frozenset[str] = frozenset()  # seats sharing a draw (in Pikemen, possibly only some)
    scores: dict[str, int] = field(default_factory=dict)  # points per seat, where the game keeps score


def play(match: Match) -> Played:
    game = get_game(match.game)
    # Where play begins: a secret setup (Numica's back rows) is drawn from the seed.
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


# --- Nika ----------------------------------------------------------------------------------

NIKA_TEAMS = (("athens", "messene"), ("sparta", "thebes"))


def nika_matches(first: str, second: str, games: int, args: argparse.Namespace, offset: int) -> list[Match]:
    """`games` games of `first` against `second`, `first` taking Athens+Messene in every other game."""
    budget = {level: args.budget_ms or BUDGET_MS[level] for level in LEVELS}
    matches = []
    for number in range(games):
        home, away = (first, second) if number % 2 == 0 else (second, first)
        seats = tuple((seat, home) for seat in NIKA_TEAMS[0]) + tuple((seat, away) for seat in NIKA_TEAMS[1])
        matches.append(Match("nika", 4, seats, args.seed * 1_000_003 + offset + number, budget, args.cap))
    return matches


def nika(args: argparse.Namespace) -> None:
    if args.games:
        print(f"Nika: {args.level} against the app's one-action player, {args.games} games "
              f"({args.budget_ms or BUDGET_MS[args.level]:.0f} ms per action, cap {args.cap} actions)")  # fmt: skip
        results = run_all(nika_matches(args.level, "app", args.games, args, 0), args.workers, "playing")
        wins, losses, draws = tally(results, args.level)
        print(f"  {args.level}: {wins} wins, {losses} losses, {draws} draws: win rate {wins / len(results):.0%} "
              f"(target ≥ 95%: {'ok' if wins >= 0.95 * len(results) else 'MISSED'})")  # fmt: skip
        for team in NIKA_TEAMS:
            part = [r for r in results if dict(r.match.seats)[team[0]] == args.level]
            w, lo, d = tally(part, args.level)
            print(f"    as {'+'.join(s.capitalize() for s in team)}: {w} wins, {lo} losses, {d} draws")
        print_timing(results, args.level)
        print_lengths(results)
        lost = sorted(r.match.seed for r in results if not r.winners & {s for s, n in r.match.seats if n == args.level})
        if lost:
            print(f"  games not won (seeds, to replay with play()): {lost}")
    if args.round_robin:
        round_robin("Nika", [*LEVELS, "app"], nika_matches, args)


# Numica's and Pikemen's sections live in bench/ai_games.py and are added by main().
SECTIONS: dict[str, Callable[[argparse.Namespace], None]] = {"nika": nika}


def main(argv: list[str] | None = None) -> int:
    # Imported here: bench/ai_games.py imports this module for Match, play and the reports.
    from ai_games import numica, pikemen

    SECTIONS.update(numica=numica, pikemen=pikemen)
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--game", default="nika", choices=sorted(SECTIONS))
    parser.add_argument("--games", type=int, default=100, help="games of the main match (0 skips it)")
    parser.add_argument("--level", default="hard", choices=LEVELS)
    parser.add_argument("--budget-ms", type=float, default=0, help="time per action (default: the level's own)")
    parser.add_argument("--round-robin", type=int, default=6, help="games per pairing of the round robin (0 skips)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--cap", type=int, default=400, help="actions before a game is called a draw")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    print(f"AI benchmark · Python {platform.python_version()} · {platform.machine()} · "
          f"{args.workers} workers · seed {args.seed}")  # fmt: skip
    SECTIONS[args.game](args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
