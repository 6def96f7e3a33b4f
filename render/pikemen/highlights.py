"""What the last move did, as marks for the board: read from the engine's events."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.pikemen.events import Charged, Turned
from engine.pikemen.geometry import Orientation, Square


@dataclass(frozen=True, slots=True)
class Highlights:
    origin: Square | None = None  # the square a charging piece left
    arrival: Square | None = None  # where it arrived, or the square of a piece turned in place
    direction: Orientation | None = None  # the way it charged
    squares: int = 0  # how far
    captured: bool = False
    turned: bool = False  # it ends in a new orientation (after a charge, or turned in place)
    seat: str | None = None  # who moved


NONE = Highlights()


def highlights(events: Sequence[Any]) -> Highlights:
    for event in events:
        if isinstance(event, Charged):
            distance = max(abs(event.to % 8 - event.frm % 8), abs(event.to // 8 - event.frm // 8))
            return Highlights(event.frm, event.to, event.direction, distance, event.captured_seat is not None,
                              event.turned is not None, event.seat)  # fmt: skip
        if isinstance(event, Turned):
            return Highlights(arrival=event.square, turned=True, seat=event.seat)
    return NONE
