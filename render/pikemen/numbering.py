"""The moves since the viewer's previous turn (with three or four players), numbered: where
each badge goes and the path that shows what it refers to.

Each move is numbered in order (1 = the oldest shown) on a badge in the moving seat's colour
at a corner of the square it ended on, the latest ringed. Every earlier charge also leaves a
trail of dots in its seat's colour from the square it left, with an arrowhead into the square
it reached, so a badge on a square that is empty now (its piece captured or gone on) still
says which move went there. Badges keep clear of the latest move's seals and of each other: a
square several moves ended on gets their numbers in different corners. A board numbers the
last MOST_NUMBERED moves at most; the alt text lists the same ones.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from render import badges
from render.pikemen import sprites
from render.pikemen.highlights import Highlights, highlights
from render.pikemen.layout import Layout

MOST_NUMBERED = 6  # the latest move and the five before it
INSET = sprites.BADGE // 2 - 3  # a badge's centre from its square's corner; the seals use the same
SEAL_RADIUS = sprites.BADGE / 2
SLACK = 2.0  # marks may touch by this much

Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class Numbered:
    seat: str
    number: int  # 1 for the oldest move shown
    latest: bool
    centre: Point  # of its badge


@dataclass(frozen=True, slots=True)
class Trail:
    """An earlier charge: a ring where it began, a line of half-square steps, an arrowhead into
    the square it reached."""

    seat: str
    start: Point
    steps: tuple[Point, ...]  # the middles of the line's half-square steps
    head: Point
    screen: int  # the way it went, in screen eighths


def shown(moves: Sequence[Sequence[Any]]) -> Sequence[Sequence[Any]]:
    """The moves a board numbers: the last MOST_NUMBERED of them."""
    return moves[-MOST_NUMBERED:]


def badge_radius(*, latest: bool) -> float:
    """A numbered badge's outer radius, outline (and the latest's ring) included."""
    return badges.LATEST_RADIUS + badges.RING + 0.9 if latest else badges.RADIUS + 1.4


def numbered(layout: Layout, moves: Sequence[Sequence[Any]]) -> list[Numbered]:
    """Every move's badge, oldest first (moves without an arrival, such as leaving the game, get none)."""
    marks = [highlights(move) for move in moves]
    taken: list[tuple[Point, float]] = []
    latest = marks[-1] if marks else None
    if latest is not None and latest.arrival is not None:  # the latest move's seals on the top corners
        left, top, right, _ = layout.box(latest.arrival)
        taken += [((right - INSET, top + INSET), SEAL_RADIUS), ((left + INSET, top + INSET), SEAL_RADIUS)]
    found = []
    for number, mark in enumerate(marks, start=1):
        if mark.arrival is None or mark.seat is None:
            continue
        last = number == len(marks)
        radius = badge_radius(latest=last)
        centre = _clearest(_spots(layout, mark.arrival), radius, taken)
        taken.append((centre, radius))
        found.append(Numbered(mark.seat, number, last, centre))
    return found


def trails(layout: Layout, moves: Sequence[Sequence[Any]]) -> list[Trail]:
    """The trails of the charges before the latest move, oldest first."""
    found = []
    for mark in (highlights(move) for move in moves[:-1]):
        if mark.origin is None or mark.arrival is None or mark.direction is None or mark.seat is None:
            continue
        found.append(_trail(layout, mark))
    return found


def _trail(layout: Layout, mark: Highlights) -> Trail:
    assert mark.origin is not None and mark.arrival is not None and mark.direction is not None and mark.seat
    (x0, y0), (x1, y1) = layout.center(mark.origin), layout.center(mark.arrival)
    step_x, step_y = (x1 - x0) / mark.squares, (y1 - y0) / mark.squares  # one square along the charge
    # Half-square steps from the origin to the arrival square's edge (or corner), where the head points in.
    halves = [(half + 0.5) / 2 for half in range(2 * mark.squares - 1)]
    steps = tuple((x0 + step_x * along, y0 + step_y * along) for along in halves)
    head = (x1 - step_x * 0.56, y1 - step_y * 0.56)  # just outside the arrival square: no piece hides it
    return Trail(mark.seat, (x0, y0), steps, head, layout.screen(mark.direction))


def _spots(layout: Layout, square: int) -> list[Point]:
    """Where a badge may go on a square: its bottom corners, its top ones, then its edges' middles."""
    left, top, right, bottom = layout.box(square)
    middle_x, middle_y = (left + right) / 2, (top + bottom) / 2
    return [
        (right - INSET, bottom - INSET), (left + INSET, bottom - INSET),
        (left + INSET, top + INSET), (right - INSET, top + INSET),
        (middle_x, bottom - INSET), (left + INSET, middle_y), (right - INSET, middle_y), (middle_x, top + INSET),
    ]  # fmt: skip


def _clearest(spots: list[Point], radius: float, taken: list[tuple[Point, float]]) -> Point:
    """The first spot that overlaps nothing, else the one that overlaps least."""
    best: tuple[float, Point] | None = None
    for spot in spots:
        room = min((math.dist(spot, centre) - other - radius for centre, other in taken), default=math.inf)
        if room >= -SLACK:
            return spot
        if best is None or room > best[0]:
            best = (room, spot)
    assert best is not None
    return best[1]
