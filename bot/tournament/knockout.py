"""Knockout: single elimination, seeded by rating.

The bracket has the next power of two of places, filled in the standard seeding order
(1 v 16, 8 v 9, 5 v 12, 4 v 13, … for sixteen), so the two best seeds can only meet in the
final and each round's favourites meet the weakest survivors. Places left over are byes,
which fall to the top seeds in the first round. Each tie is one game; who moves first goes to
whoever has moved first less often in the event, then alternates down the boards from a side
drawn by lot.

A drawn game is replayed at once with sides swapped, up to `Event.knockout_games` games in
all; when every one of them is drawn the better seed goes through. (A game with its own tie
rule simply reports a decided result and is never replayed.) An entrant who withdraws loses
their running game by resignation, as in any match; a tie still to be played or replayed
against them is a walkover, scored as a forfeit.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction

from bot.tournament.model import Bye, EntrantId, EventState, Plan, Result, Table, Waiting
from bot.tournament.records import records

NO_POINTS = Fraction(0)


def seeding_order(size: int) -> list[int]:
    """Seed numbers (1 best) in bracket order for a power-of-two `size`."""
    if size < 1 or size & (size - 1):
        raise ValueError(f"a bracket has a power of two of places, not {size}")
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for s in order for seed in (s, total - s)]
    return order


def bracket(state: EventState) -> list[EntrantId | None]:
    """First-round places in bracket order; None where a bye is."""
    seeded = [e.id for e in state.event.seeded]
    size = 1
    while size < len(seeded):
        size *= 2
    return [seeded[s - 1] if s <= len(seeded) else None for s in seeding_order(size)]


def rounds_in(entrants: int) -> int:
    rounds, size = 0, 1
    while size < entrants:
        size, rounds = size * 2, rounds + 1
    return rounds


@dataclass(frozen=True, slots=True)
class Tie:
    round: int
    board: int
    places: tuple[EntrantId | None, EntrantId | None]
    games: tuple[Table, ...]
    winner: EntrantId | None  # None while undecided (or when both places are empty)
    decided: bool

    @property
    def loser(self) -> EntrantId | None:
        if not self.decided or self.winner is None:
            return None
        return next((p for p in self.places if p is not None and p != self.winner), None)


def ties(state: EventState) -> list[list[Tie]]:
    """Every round's ties so far, with their winners where decided."""
    seeds = {e.id: i for i, e in enumerate(state.event.seeded)}
    found: list[list[Tie]] = []
    places: list[EntrantId | None] = bracket(state)
    for round_ in sorted(state.rounds, key=lambda r: r.number):
        row = []
        for board in range(1, len(places) // 2 + 1):
            pair = (places[2 * board - 2], places[2 * board - 1])
            games = tuple(sorted((t for t in round_.tables if t.board == board), key=lambda t: t.game))
            row.append(_tie(state, round_.number, board, pair, games, seeds))
        found.append(row)
        places = [t.winner for t in row]
    return found


def _tie(state: EventState, number: int, board: int, pair: tuple[EntrantId | None, EntrantId | None],
         games: tuple[Table, ...], seeds: dict[EntrantId, int]) -> Tie:  # fmt: skip
    present = [p for p in pair if p is not None]
    if len(present) < 2:
        return Tie(number, board, pair, games, present[0] if present else None, True)
    if not games:
        return Tie(number, board, pair, games, None, False)
    last = games[-1]
    result = state.results.get(last)
    if result is None:
        return Tie(number, board, pair, games, None, False)
    if not result.drawn:
        best = result.ranks.index(min(result.ranks))
        return Tie(number, board, pair, games, last.sides[best][0], True)
    if len(games) >= state.event.knockout_games:
        staying = [e for e in present if e not in state.withdrawn] or present
        better = min(staying, key=lambda e: seeds[e])  # the better seed, unless they have left
        return Tie(number, board, pair, games, better, True)
    return Tie(number, board, pair, games, None, False)


def next_round(state: EventState) -> Plan | Waiting | None:
    """Replays of drawn games (at once), else the next round when this one is decided; None
    once a champion is known."""
    if not state.rounds:
        return _round(state, 1, bracket(state))
    current = max(r.number for r in state.rounds)
    row = ties(state)[-1]
    replays: list[Table] = []
    walkovers: list[tuple[Table, Result]] = []
    for tie in row:
        if tie.decided or not tie.games or tie.games[-1] not in state.results:
            continue
        last = tie.games[-1]
        again = Table(current, tie.board, tuple(reversed(last.sides)), last.game + 1)
        playing = [e in {a.id for a in state.active(current + 1)} for side in again.sides for e in side]
        if all(playing):
            replays.append(again)
        else:
            walkovers.append((again, _walkover(playing)))
    if replays or walkovers:
        return Plan(current, tuple(replays), forfeits=tuple(walkovers))
    if not all(t.decided for t in row):
        return Waiting(current)
    advancing = [t.winner for t in row]
    if len(advancing) <= 1:
        return None
    return _round(state, current + 1, advancing)


def _walkover(playing: list[bool]) -> Result:
    if not any(playing):
        return Result.win(0, forfeit=True)  # both withdrew: the first place goes on, to a walkover next
    return Result.win(playing.index(True), forfeit=True)


def _round(state: EventState, number: int, places: list[EntrantId | None]) -> Plan:
    active = {e.id for e in state.active(number)}
    found = records(state)
    coin = random.Random(state.event.seed).randrange(2)
    seeds = {e.id: i for i, e in enumerate(state.event.seeded)}
    tables: list[Table] = []
    byes: list[Bye] = []
    walkovers: list[tuple[Table, Result]] = []
    for board in range(1, len(places) // 2 + 1):
        pair = [p for p in (places[2 * board - 2], places[2 * board - 1]) if p is not None]
        if len(pair) == 1:
            byes.append(Bye(pair[0], NO_POINTS))
            continue
        if not pair:
            continue
        high, low = sorted(pair, key=lambda e: seeds[e])
        balance_high, balance_low = found[high].colour_balance, found[low].colour_balance
        # Whoever moved first less often does now; if level, alternate down the boards.
        first_high = balance_high < balance_low if balance_high != balance_low else (coin + board) % 2 == 1
        table = Table(number, board, ((high,), (low,)) if first_high else ((low,), (high,)))
        playing = [e in active for e in table.entrants]
        if all(playing):
            tables.append(table)
        else:
            walkovers.append((table, _walkover(playing)))
    return Plan(number, tuple(tables), tuple(byes), tuple(walkovers))
