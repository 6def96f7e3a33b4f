"""The Nika section of the strength benchmark (bench/ai.py --game nika).

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
import random
from typing import Any

from bench.playing import (
    REFERENCE,
    Match,
    print_lengths,
    print_timing,
    round_robin,
    run_all,
    tally,
)
from engine import AnyGame
from engine.search import BUDGET_MS, LEVELS

# --- the reference player --------------------------------------------------------------------


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


REFERENCE.setdefault("app", nika_app_action)


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
