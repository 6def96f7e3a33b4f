"""What each entrant did so far, read from the rounds and results: the points of every game,
opponents met, sides played, byes. Pairing and standings both start here.

Points of a game: each side scores the share of the other sides it finished ahead of, a
shared place counting half: `(beaten + ½·tied) / (sides − 1)`. One against one this is the
familiar 1, ½, 0; in a four-player free-for-all the places score 1, ⅔, ⅓, 0, and a result
that names only the winner (the others tied for second) scores 1 and ⅓ each. Every member
of a side scores the side's points. A game therefore always scores ½ per side on average,
whatever its size, which is why a pods bye is worth ½ (see `pods.py`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from fractions import Fraction

from bot.tournament.model import EntrantId, EventState, Result, Table

HALF = Fraction(1, 2)


def side_points(result: Result) -> tuple[Fraction, ...]:
    ranks = result.ranks
    others = len(ranks) - 1
    return tuple(
        (sum(1 for other in ranks if other > mine) + HALF * (sum(1 for other in ranks if other == mine) - 1)) / others
        for mine in ranks
    )


def pair_score(result: Result, side: int, other: int) -> Fraction:
    """What side `side` scored against side `other` alone: 1 ahead, ½ level, 0 behind."""
    mine, theirs = result.ranks[side], result.ranks[other]
    return Fraction(1) if mine < theirs else HALF if mine == theirs else Fraction(0)


@dataclass(frozen=True, slots=True)
class Game:
    """One finished game from one entrant's seat."""

    round: int
    table: Table
    side: int  # the entrant's side index (0 moved first)
    points: Fraction
    opponents: tuple[EntrantId, ...]  # everyone on the other sides
    forfeit: bool
    result: Result

    @property
    def won(self) -> bool:
        mine = self.result.ranks[self.side]
        return all(mine < r for i, r in enumerate(self.result.ranks) if i != self.side)

    @property
    def drawn(self) -> bool:
        mine = self.result.ranks[self.side]
        return mine == min(self.result.ranks) and not self.won


@dataclass(slots=True)
class Record:
    entrant: EntrantId
    games: list[Game] = field(default_factory=list)  # decided games, in round order (replays included)
    byes: dict[int, Fraction] = field(default_factory=dict)  # round → points
    sides: list[int] = field(default_factory=list)  # side index of each game played over the board (two-sided)

    @property
    def points(self) -> Fraction:
        return sum((g.points for g in self.games), Fraction(0)) + sum(self.byes.values(), Fraction(0))

    def points_before(self, round_number: int) -> Fraction:
        return sum((g.points for g in self.games if g.round < round_number), Fraction(0)) + sum(
            (p for r, p in self.byes.items() if r < round_number), Fraction(0)
        )

    @property
    def colour_balance(self) -> int:
        """Games moving first minus games moving second (two-sided games played over the board)."""
        return sum(1 if s == 0 else -1 for s in self.sides)

    def met(self) -> set[EntrantId]:
        return {o for g in self.games if not g.forfeit for o in g.opponents}


def decided(state: EventState) -> Iterator[tuple[Table, Result]]:
    """Every table with a result, in round then board then game order."""
    for round_ in sorted(state.rounds, key=lambda r: r.number):
        for table in sorted(round_.tables, key=lambda t: (t.board, t.game)):
            result = state.results.get(table)
            if result is not None:
                yield table, result


def records(state: EventState) -> dict[EntrantId, Record]:
    """A record for every entrant (withdrawn ones included), built from the results known."""
    found = {e.id: Record(e.id) for e in state.event.entrants}
    for round_ in state.rounds:
        for bye in round_.byes:
            found[bye.entrant].byes[round_.number] = bye.points
    for table, result in decided(state):
        if len(result.ranks) != len(table.sides):
            raise ValueError(f"round {table.round} board {table.board}: {len(result.ranks)} ranks for "
                             f"{len(table.sides)} sides")  # fmt: skip
        points = side_points(result)
        for index, side in enumerate(table.sides):
            opponents = tuple(e for i, other in enumerate(table.sides) if i != index for e in other)
            for entrant in side:
                record = found[entrant]
                record.games.append(Game(table.round, table, index, points[index], opponents, result.forfeit, result))
                if len(table.sides) == 2 and not result.forfeit:
                    record.sides.append(index)
    return found
