"""Strength benchmark sections for Numica and Pikemen: `numica(args)` and `pikemen(args)`
take bench/ai.py's argparse namespace (`--games`, `--level`, `--budget-ms`, `--round-robin`,
`--workers`, `--cap`, `--seed`) and play through bench/playing.py's `Match`, `play` and `run_all`.

    /tmp/v/bin/python bench/ai.py --game numica|pikemen [--games 100] [--workers 2] ...

Reference players (one action each, ties broken at random with the game's seed):

- "random": a uniformly random legal action;
- "greedy": the capture of the most valuable piece it can make, else a random action.
  Numica: a capture that wins at once, else one that brings its winning set of captures
  nearest (2 square + 2 round, or 3 of one shape), else any capture. Pikemen: the largest
  piece it can capture (its size is the points scored), keeping the charger pointing or
  turning it at random as a random player would.

Matches: `--level` against random and against greedy, `--games` games each, sides swapped
every other game (Numica's back rows are drawn from each game's seed, as `python -m engine
start` draws them); Pikemen also `--level` in one seat (each seat in turn) against three
greedy players. Then a round robin of easy, normal, hard and greedy, `--round-robin` games
a pairing. Games that reach `--cap` actions are draws (both games end long before: 100
moves without a capture end them).
"""

from __future__ import annotations

import argparse
import random
from collections import Counter
from collections.abc import Sequence
from functools import partial
from typing import Any

from bench.playing import REFERENCE, Match, Played, print_lengths, print_timing, round_robin, run_all, tally
from engine import AnyGame
from engine.search import BUDGET_MS, LEVELS

# --- the greedy reference player ----------------------------------------------------------


def _numica_capture_worth(state: Any, action: Any) -> tuple[int, int]:
    """(wins at once, captures it still leaves to make: fewer first) for a Numica capture."""
    from engine.numica.ai import need
    from engine.numica.board import Shape
    from engine.numica.position import ROUND_BIT

    position = state.position
    loser = position.to_act.opponent
    square = position.captured(loser, Shape.SQUARE)
    round_ = position.captured(loser, Shape.ROUND)
    if position.cells[action.to] & ROUND_BIT:
        round_ += 1
    else:
        square += 1
    left = need(square, round_)
    return (left == 0, -left)


def greedy_action(game: AnyGame, state: Any, rng: random.Random) -> Any:
    """The capture of the most valuable piece it can make, else a random legal action."""
    actions = list(game.legal_actions(state))
    if game.slug == "numica":
        captures = [(_numica_capture_worth(state, a), a) for a in actions if a.capture]
    elif game.slug == "pikemen":
        from engine.pikemen.pieces import SIZE_OF

        board = state.position.board
        captures = [((SIZE_OF[board[a.to]], 0), a) for a in actions if getattr(a, "capture", False)]
    else:
        raise ValueError(f"no greedy player for {game.slug}")
    if not captures:
        return rng.choice(actions)
    best = max(worth for worth, _ in captures)
    return rng.choice([action for worth, action in captures if worth == best])


REFERENCE.setdefault("greedy", greedy_action)


# --- matches ---------------------------------------------------------------------------------

SEATS = {("numica", 2): ("red", "blue"), ("pikemen", 2): ("red", "blue"),
         ("pikemen", 4): ("red", "yellow", "green", "blue")}  # fmt: skip


def _budget(args: argparse.Namespace) -> dict[str, float]:
    return {level: args.budget_ms or BUDGET_MS[level] for level in LEVELS}


def duel(slug: str, first: str, second: str, games: int, args: argparse.Namespace, offset: int) -> list[Match]:
    """`games` two-player games of `first` against `second`, `first` moving first in every other game."""
    red, blue = SEATS[(slug, 2)]
    matches = []
    for number in range(games):
        home, away = (first, second) if number % 2 == 0 else (second, first)
        seed = args.seed * 1_000_003 + offset + number
        matches.append(Match(slug, 2, ((red, home), (blue, away)), seed, _budget(args), args.cap))
    return matches


def one_against_three(player: str, others: str, games: int, args: argparse.Namespace, offset: int) -> list[Match]:
    """Four-player Pikemen: `player` in one seat, each seat in turn, `others` in the other three."""
    seats = SEATS[("pikemen", 4)]
    matches = []
    for number in range(games):
        mine = seats[number % 4]
        table = tuple((seat, player if seat == mine else others) for seat in seats)
        matches.append(Match("pikemen", 4, table, args.seed * 1_000_003 + offset + number, _budget(args), args.cap))
    return matches


# --- reports ---------------------------------------------------------------------------------


def print_endings(results: Sequence[Played]) -> None:
    """How the games ended: the outcomes' reasons ("captures", "target", …), "cap" for capped."""
    reasons = Counter(played.reason for played in results)
    print("    endings: " + ", ".join(f"{reason} {count}" for reason, count in sorted(reasons.items())))


def _mine(played: Played, player: str) -> set[str]:
    return {seat for seat, name in played.match.seats if name == player}


def _place(played: Played, player: str) -> int:
    """1 + how many seats scored more than `player`'s seat."""
    (seat,) = _mine(played, player)
    return 1 + sum(points > played.scores[seat] for points in played.scores.values())


def report_duel(results: Sequence[Played], player: str, opponent: str, target: float | None) -> None:
    wins, losses, draws = tally(results, player)
    total = len(results)
    verdict = "" if target is None else f" (target ≥ {target:.0%}: {'ok' if wins >= target * total else 'MISSED'})"
    print(f"  {player} vs {opponent}: {wins} wins, {losses} losses, {draws} draws of {total}: "
          f"win {wins / total:.0%}, draw {draws / total:.0%}, loss {losses / total:.0%}{verdict}")  # fmt: skip
    first_seat = results[0].match.seats[0][0]
    for moving_first in (True, False):
        part = [r for r in results if (dict(r.match.seats)[first_seat] == player) == moving_first]
        w, lo, d = tally(part, player)
        print(f"    {player} moving {'first' if moving_first else 'second'}: {w} wins, {lo} losses, {d} draws")
    print_endings(results)
    lost = sorted(r.match.seed for r in results if not r.winners & _mine(r, player))
    if lost:
        print(f"    games not won (seeds): {lost}")


def _header(slug: str, what: str, args: argparse.Namespace) -> None:
    print(f"{slug.capitalize()}: {args.level} against {what}, {args.games} games "
          f"({args.budget_ms or BUDGET_MS[args.level]:.0f} ms per action, cap {args.cap} actions)")  # fmt: skip


def _duels(slug: str, args: argparse.Namespace, targets: dict[str, float]) -> None:
    for index, (opponent, target) in enumerate(targets.items()):
        _header(slug, f"the {opponent} player", args)
        results = run_all(duel(slug, args.level, opponent, args.games, args, 100_000 * (index + 1)), args.workers,
                          f"{args.level} vs {opponent}")  # fmt: skip
        report_duel(results, args.level, opponent, target if args.level == "hard" else None)
        print_timing(results, args.level)
        print_lengths(results)


# Targets for the hard level: win rates against the reference players.
TARGETS = {"random": 0.95, "greedy": 0.80}
FOUR_PLAYER_TARGET = 0.50


def numica(args: argparse.Namespace) -> None:
    if args.games:
        _duels("numica", args, TARGETS)
    if args.round_robin:
        round_robin("Numica", [*LEVELS, "greedy"], partial(duel, "numica"), args)


def pikemen(args: argparse.Namespace) -> None:
    if args.games:
        _duels("pikemen", args, TARGETS)
        print(f"Pikemen, 4 players: {args.level} in one seat (each seat in turn) against three greedy players, "
              f"{args.games} games")  # fmt: skip
        results = run_all(one_against_three(args.level, "greedy", args.games, args, 900_000), args.workers,
                          "4 players")  # fmt: skip
        first = shared = 0
        for played in results:
            mine = _mine(played, args.level)
            if played.winners == mine:
                first += 1
            elif mine & set(played.drawn):
                shared += 1
        total = len(results)
        verdict = "ok" if first >= FOUR_PLAYER_TARGET * total else "MISSED"
        print(f"  {args.level} finished first alone in {first} of {total} ({first / total:.0%}; target ≥ "
              f"{FOUR_PLAYER_TARGET:.0%}: {verdict}), shared first place in a draw in {shared}, "
              f"behind in {total - first - shared}")  # fmt: skip
        places = [_place(played, args.level) for played in results]
        print("    its place by points: " + ", ".join(f"{p}: {places.count(p)}" for p in range(1, 5)))
        for seat in SEATS[("pikemen", 4)]:
            part = [r for r in results if dict(r.match.seats)[seat] == args.level]
            won = sum(r.winners == _mine(r, args.level) for r in part)
            print(f"    in seat {seat}: first in {won} of {len(part)}")
        print_endings(results)
        print_timing(results, args.level)
        print_lengths(results)
    if args.round_robin:
        round_robin("Pikemen", [*LEVELS, "greedy"], partial(duel, "pikemen"), args)
