"""The plain values an event is made of: who entered, which games each round holds, and how
they ended. Everything is immutable and hashable, so the integration can store it as rows
and rebuild exactly the same values after a restart.

A game at one table is a tuple of sides in seat order (the first side moves first), each
side a tuple of entrants: `((a,), (b,))` for one against one, `((a, b), (c, d))` for two
teams of two, `((a,), (b,), (c,), (d,))` for four players each for themselves. A result
ranks the sides: 1 is best, equal ranks share a place (a draw between those sides).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction

EntrantId = int  # a Discord user id, or any stable integer


class Format(StrEnum):
    ROUND_ROBIN = "round-robin"
    SWISS = "swiss"
    KNOCKOUT = "knockout"
    PODS = "pods"


@dataclass(frozen=True, slots=True)
class Entrant:
    """One entrant. `rating` is their rating when the event started (the conservative display
    value): it seeds knockouts and Swiss pairing numbers and breaks the last ties. Entrants
    with equal ratings keep their order of sign-up."""

    id: EntrantId
    rating: float = 0.0


@dataclass(frozen=True, slots=True)
class PodShape:
    """The table of a pods event: the sizes of its sides in seat order. `(1, 1, 1, 1)` is a
    four-player free-for-all, `(2, 2)` two teams of two. `fallbacks` are the smaller tables
    used when the entrants do not divide evenly, best first."""

    sides: tuple[int, ...]
    fallbacks: tuple[tuple[int, ...], ...] = ()

    def __post_init__(self) -> None:
        for shape in (self.sides, *self.fallbacks):
            if len(shape) < 2 or min(shape) < 1:
                raise ValueError(f"a table needs at least two sides of at least one entrant: {shape}")

    @property
    def size(self) -> int:
        return sum(self.sides)

    @property
    def shapes(self) -> tuple[tuple[int, ...], ...]:
        return (self.sides, *self.fallbacks)

    @classmethod
    def free_for_all(cls, players: int) -> PodShape:
        """Everyone for themselves, `players` at a table (3 or 4); uneven counts also use
        tables of the other size (and of two as a last resort)."""
        if players not in (3, 4):
            raise ValueError("a free-for-all pod seats 3 or 4 players")
        other = 4 if players == 3 else 3
        return cls((1,) * players, ((1,) * other, (1, 1)))

    @classmethod
    def teams(cls, per_side: int = 2) -> PodShape:
        """Two teams of `per_side`; uneven counts play one against one (a player holds the
        whole side's seats)."""
        return cls((per_side, per_side), ((1, 1),))


@dataclass(frozen=True, slots=True)
class Event:
    """What the organiser chose. `entrants` in seeding order is worked out from ratings (see
    `seeded`); their tuple order is the order of sign-up. `seed` makes every lot drawn
    (colours of the first round, the round robin's numbers, first-round pods) reproducible."""

    format: Format
    entrants: tuple[Entrant, ...]
    seed: int = 0
    rounds: int | None = None  # Swiss: how many rounds; pods: how many rounds (required)
    double: bool = False  # round robin: everyone meets twice, sides swapped
    pod: PodShape | None = None  # pods: the table
    knockout_games: int = 3  # knockout: games a tie may take (the first and its replays) before the seed decides

    def __post_init__(self) -> None:
        ids = [e.id for e in self.entrants]
        if len(set(ids)) != len(ids):
            raise ValueError("an entrant entered twice")
        if self.format in (Format.SWISS, Format.PODS) and (self.rounds is None or self.rounds < 1):
            raise ValueError(f"a {self.format} event needs a number of rounds")
        if self.format is Format.PODS and self.pod is None:
            raise ValueError("a pods event needs its table shape")
        if self.knockout_games < 1:
            raise ValueError("a knockout tie takes at least one game")

    @property
    def seeded(self) -> tuple[Entrant, ...]:
        """Entrants best first: higher rating, then earlier sign-up."""
        order = {e.id: i for i, e in enumerate(self.entrants)}
        return tuple(sorted(self.entrants, key=lambda e: (-e.rating, order[e.id])))


@dataclass(frozen=True, slots=True)
class Table:
    """One game to be played. `game` numbers a knockout tie's replays (1, 2, …)."""

    round: int
    board: int
    sides: tuple[tuple[EntrantId, ...], ...]
    game: int = 1

    @property
    def entrants(self) -> tuple[EntrantId, ...]:
        return tuple(e for side in self.sides for e in side)

    def side_of(self, entrant: EntrantId) -> int:
        for index, side in enumerate(self.sides):
            if entrant in side:
                return index
        raise KeyError(entrant)


@dataclass(frozen=True, slots=True)
class Result:
    """How a table ended: a rank per side (1 best; equal ranks share a place). `forfeit` marks
    a game scored without play (an opponent who withdrew from a round robin)."""

    ranks: tuple[int, ...]
    forfeit: bool = False

    def __post_init__(self) -> None:
        if len(self.ranks) < 2 or min(self.ranks) < 1:
            raise ValueError(f"a result ranks at least two sides from 1: {self.ranks}")

    @classmethod
    def win(cls, winner: int, sides: int = 2, *, forfeit: bool = False) -> Result:
        """Side `winner` (an index) first, every other side sharing second place."""
        return cls(tuple(1 if i == winner else 2 for i in range(sides)), forfeit)

    @classmethod
    def draw(cls, sides: int = 2) -> Result:
        return cls((1,) * sides)

    @property
    def drawn(self) -> bool:
        """True when the best place is shared: nobody won outright."""
        return self.ranks.count(min(self.ranks)) > 1


@dataclass(frozen=True, slots=True)
class Bye:
    """An entrant without a game this round, and what it scores."""

    entrant: EntrantId
    points: Fraction


@dataclass(frozen=True, slots=True)
class Round:
    number: int
    tables: tuple[Table, ...]
    byes: tuple[Bye, ...] = ()


@dataclass(frozen=True, slots=True)
class EventState:
    """Everything that happened so far: the rounds paired (with knockout replays among their
    tables), the results known, and who withdrew after how many rounds had been paired
    (they are not paired from the next round on; their played results stand)."""

    event: Event
    rounds: tuple[Round, ...] = ()
    results: Mapping[Table, Result] = field(default_factory=dict)
    withdrawn: Mapping[EntrantId, int] = field(default_factory=dict)

    def active(self, round_number: int) -> tuple[Entrant, ...]:
        """Entrants who may be paired in `round_number`, in seeding order."""
        return tuple(e for e in self.event.seeded if self.withdrawn.get(e.id, round_number) >= round_number)

    def with_round(self, round_: Round) -> EventState:
        rounds = [r for r in self.rounds if r.number != round_.number]
        return EventState(self.event, (*rounds, round_), self.results, self.withdrawn)

    def with_results(self, results: Mapping[Table, Result]) -> EventState:
        return EventState(self.event, self.rounds, {**self.results, **results}, self.withdrawn)

    def with_withdrawal(self, entrant: EntrantId) -> EventState:
        """`entrant` leaves now: paired in no round after those already paired."""
        return EventState(self.event, self.rounds, self.results, {**self.withdrawn, entrant: len(self.rounds)})

    def pending(self) -> tuple[Table, ...]:
        return tuple(t for r in self.rounds for t in r.tables if t not in self.results)


@dataclass(frozen=True, slots=True)
class Plan:
    """What to create now: new tables (a new round, or knockout replays within the current
    one), the byes of a new round, and games already scored without play."""

    round: int
    tables: tuple[Table, ...] = ()
    byes: tuple[Bye, ...] = ()
    forfeits: tuple[tuple[Table, Result], ...] = ()

    def round_value(self, existing: Round | None = None) -> Round:
        """The round as it stands once this plan is applied (adding to `existing`)."""
        tables = (*(existing.tables if existing else ()), *self.tables, *(t for t, _ in self.forfeits))
        byes = (*(existing.byes if existing else ()), *self.byes)
        return Round(self.round, tables, byes)


@dataclass(frozen=True, slots=True)
class Waiting:
    """Games of the current round are still being played: nothing to create."""

    round: int


@dataclass(frozen=True, slots=True)
class Finished:
    """The event is over; `winners` share first place (one, unless a tie survived every
    tie-break)."""

    winners: tuple[EntrantId, ...]


Step = Plan | Waiting | Finished
