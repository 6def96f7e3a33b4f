"""A match's clocks as a board picture takes them: plain data, without Pillow, so the host can
build them without loading the drawing code. The host reads its clocks when it asks for the
picture and hands over what they say; render reads no clock (`render/clocks.py` draws them)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class SeatTime:
    """One seat's clock as the host read it when it asked for the picture (render reads no clock)."""

    seat: str  # the seat's slug
    title: str  # its title in English (engine.api.Seat.title), drawn through the catalogue
    seconds: float  # time left
    running: bool = False  # its clock runs (the seat to act); the others stand
    away_until: float | None = None  # its holder is on vacation until then (UTC seconds)


@dataclass(frozen=True, slots=True)
class Clocks:
    """A match's clocks for a board picture, in turn order; `paused`: every clock stands by agreement."""

    seats: tuple[SeatTime, ...]
    paused: bool = False
