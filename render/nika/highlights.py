"""What one action did, as marks on squares: read from the engine's events."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.nika.board import NEIGHBOUR, OFF_GRID, City, Direction, Square
from engine.nika.events import Advanced, Event, Moved, Passed, Pushed, Rallied, Rotated, Routed, Won

Step = tuple[Square, Square]


@dataclass(frozen=True, slots=True)
class Highlights:
    origins: frozenset[Square] = frozenset()  # squares the acting pieces left, now not re-entered
    arrivals: frozenset[Square] = frozenset()  # squares acting pieces moved to, turned on or rallied to
    steps: tuple[Step, ...] = ()  # the acting pieces' own moves
    pushes: tuple[Step, ...] = ()  # enemy pieces shoved one square
    routs: tuple[tuple[City, Square], ...] = ()  # pieces removed, by the square they fell from
    rallied: frozenset[Square] = frozenset()
    winner: Square | None = None
    actor: City | None = None  # the city that acted
    ends: tuple[Square, ...] = ()  # where the acting pieces ended: the action's number goes on one of them
    heading: Direction | None = None  # the way they went, if they went anywhere
    passed: bool = False

    def __bool__(self) -> bool:
        return bool(self.origins or self.arrivals or self.pushes or self.routs or self.winner is not None)


NONE = Highlights()


def highlights(events: Sequence[Event]) -> Highlights:
    origins: set[Square] = set()
    arrivals: set[Square] = set()
    steps: list[Step] = []
    pushes: list[Step] = []
    routs: list[tuple[City, Square]] = []
    rallied: set[Square] = set()
    winner: Square | None = None
    actor: City | None = None
    ends: tuple[Square, ...] = ()
    heading: Direction | None = None
    passed = False
    for event in events:
        if isinstance(event, Moved):
            origins.add(event.frm)
            arrivals.add(event.to)
            steps.append((event.frm, event.to))
            actor, ends, heading = event.city, (event.to,), _heading(event.frm, event.to)
        elif isinstance(event, Advanced):
            moved = tuple(NEIGHBOUR[event.direction][sq] for sq in event.squares)
            for sq, to in zip(event.squares, moved, strict=True):
                origins.add(sq)
                arrivals.add(to)
                steps.append((sq, to))
            actor, ends, heading = event.city, moved, event.direction
        elif isinstance(event, Rotated):
            arrivals.update(event.squares)
            actor, ends = event.city, event.squares
        elif isinstance(event, Pushed):
            pushes.append((event.frm, event.to))
        elif isinstance(event, Routed):
            routs.append((event.city, event.square))
            if event.pushed_to is not None and event.pushed_to != OFF_GRID:
                # A push that routs is drawn as a push (its arrow), then the rout.
                pushes.append((event.square, event.pushed_to))
        elif isinstance(event, Rallied):
            arrivals.add(event.square)
            rallied.add(event.square)
            actor, ends = event.city, (event.square,)
        elif isinstance(event, Passed):
            actor, passed = event.city, True
        elif isinstance(event, Won):
            winner = event.square
            if actor is None:
                actor = event.city
    return Highlights(
        origins=frozenset(origins - arrivals),
        arrivals=frozenset(arrivals),
        steps=tuple(steps),
        pushes=tuple(pushes),
        routs=tuple(routs),
        rallied=frozenset(rallied),
        winner=winner,
        actor=actor,
        ends=ends,
        heading=heading,
        passed=passed,
    )


def _heading(frm: Square, to: Square) -> Direction | None:
    return next((d for d in Direction if NEIGHBOUR[d][frm] == to), None)
