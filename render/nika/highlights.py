"""What the last action did, as marks on squares: read from the engine's events."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.nika.board import NEIGHBOUR, City, Square
from engine.nika.events import Advanced, Event, Moved, Pushed, Rallied, Rotated, Routed, Won

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
    for event in events:
        if isinstance(event, Moved):
            origins.add(event.frm)
            arrivals.add(event.to)
            steps.append((event.frm, event.to))
        elif isinstance(event, Advanced):
            for sq in event.squares:
                to = NEIGHBOUR[event.direction][sq]
                origins.add(sq)
                arrivals.add(to)
                steps.append((sq, to))
        elif isinstance(event, Rotated):
            arrivals.update(event.squares)
        elif isinstance(event, Pushed):
            pushes.append((event.frm, event.to))
        elif isinstance(event, Routed):
            routs.append((event.city, event.square))
        elif isinstance(event, Rallied):
            arrivals.add(event.square)
            rallied.add(event.square)
        elif isinstance(event, Won):
            winner = event.square
    return Highlights(
        origins=frozenset(origins - arrivals),
        arrivals=frozenset(arrivals),
        steps=tuple(steps),
        pushes=tuple(pushes),
        routs=tuple(routs),
        rallied=frozenset(rallied),
        winner=winner,
    )
