"""Where the marks that sit on squares' corners go: the routed and rallied seals, and the
numbered badge of each recent action at the square it ended on.

Badges keep clear of the seals, the push arrows and each other: a square several
actions ended on gets its numbers in different corners (oldest first), and a phalanx
may carry its number on any of its leading squares. A pass changes nothing on the
board, so its number goes on the passing city's tray, between the rows of slots.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from engine.nika.board import City, Square
from engine.nika.position import Position
from render.nika import sprites
from render.nika.highlights import Highlights
from render.nika.layout import SCREEN_STEP, Layout
from render.nika.static_board import tray_slots

Point = tuple[float, float]
SEAL_INSET = sprites.BADGE // 2 - 5  # seals overhang their square's corner a little
INSET = 7  # a badge's centre from its square's corner: it overhangs the gutter, clear of the letter
PASS_OFFSET = 37  # two pass tags side by side in a wide tray: each this far from the middle
BOTTOM_RIGHT, BOTTOM_LEFT, TOP_LEFT, TOP_RIGHT = range(4)
_ORDER = (BOTTOM_RIGHT, BOTTOM_LEFT, TOP_LEFT, TOP_RIGHT)
_SEAL_RADIUS = sprites.BADGE / 2
_ARROW_RADIUS = 13.0
_SLACK = 3.0  # marks may touch by this much


@dataclass(frozen=True, slots=True)
class Badge:
    city: City
    number: int  # 1 for the oldest action shown
    latest: bool
    passed: bool  # drawn as a tag: the number's disc at `centre`, the word PASS to its right
    centre: Point


def rout_badge_centre(layout: Layout, sq: Square) -> tuple[int, int]:
    """The routed-here seal sits on the square's top-right corner, clear of the shield."""
    _, top, right, _ = layout.box(sq)
    return (right - SEAL_INSET, top + SEAL_INSET)


def rally_badge_centre(layout: Layout, sq: Square) -> tuple[int, int]:
    """The rallied-here seal sits on the square's top-left corner."""
    left, top, _, _ = layout.box(sq)
    return (left + SEAL_INSET, top + SEAL_INSET)


def seals(position: Position, actions: Sequence[Highlights]) -> tuple[list[Square], list[Square]]:
    """(squares with a routed seal, squares with a rallied seal): a rout on a square that is empty
    now shows the struck-out ghost instead."""
    routed = {sq for marks in actions for _, sq in marks.routs if position.piece_at(sq) is not None}
    rallied = {sq for marks in actions for sq in marks.rallied}
    return sorted(routed), sorted(rallied)


def edge_centre(layout: Layout, frm: Square, to: Square) -> Point:
    (x0, y0), (x1, y1) = layout.center(frm), layout.center(to)
    return ((x0 + x1) / 2, (y0 + y1) / 2)


def badges(layout: Layout, position: Position, actions: Sequence[Highlights]) -> list[Badge]:
    """The numbered badge of every action that has an actor, oldest first."""
    routed, rallied = seals(position, actions)
    taken: list[tuple[Point, float]] = [(rout_badge_centre(layout, sq), _SEAL_RADIUS) for sq in routed]
    taken += [(rally_badge_centre(layout, sq), _SEAL_RADIUS) for sq in rallied]
    taken += [(edge_centre(layout, *step), _ARROW_RADIUS) for marks in actions for step in marks.pushes]
    passes = Counter(marks.actor for marks in actions if marks.passed)
    seen: Counter[City] = Counter()
    found: list[Badge] = []
    last = len(actions) - 1
    for index, marks in enumerate(actions):
        number, latest = index + 1, index == last
        if marks.actor is None:
            continue
        if marks.passed:
            spots = pass_spots(layout, marks.actor, passes[marks.actor])
            x, y = spots[seen[marks.actor] % len(spots)]
            seen[marks.actor] += 1
            found.append(Badge(marks.actor, number, latest, True, (x - sprites.PASS_WORD / 2, y)))
        elif marks.ends:
            radius = badge_radius(latest=latest)
            centre = _clearest(_candidates(layout, marks), radius, taken)
            taken.append((centre, radius))
            found.append(Badge(marks.actor, number, latest, False, centre))
    return found


def badge_radius(*, latest: bool) -> float:
    """A numbered badge's outer radius, outline (and the latest's ring) included."""
    if latest:
        return sprites.BADGE_LATEST_RADIUS + sprites.LATEST_RING + 0.9
    return sprites.BADGE_RADIUS + 1.4


def _candidates(layout: Layout, marks: Highlights) -> Iterator[Point]:
    """Corners of the squares the action ended on, the leading square's first."""
    for sq in sorted(marks.ends, key=lambda sq: _lead(layout, marks, sq), reverse=True):
        for corner in _ORDER:
            yield corner_centre(layout, sq, corner)


def _clearest(candidates: Iterator[Point], radius: float, taken: list[tuple[Point, float]]) -> Point:
    """The first spot that overlaps nothing, else the one that overlaps least."""
    best: tuple[float, Point] | None = None
    for spot in candidates:
        room = min((math.dist(spot, centre) - other - radius for centre, other in taken), default=math.inf)
        if room >= -_SLACK:
            return spot
        if best is None or room > best[0]:
            best = (room, spot)
    assert best is not None  # every action with ends has candidates
    return best[1]


def _lead(layout: Layout, marks: Highlights, sq: Square) -> tuple[int, int, int]:
    """How far a square leads: furthest the way the pieces went, then top-most, then right-most."""
    x, y = layout.center(sq)
    ahead = 0
    if marks.heading is not None:
        dx, dy = SCREEN_STEP[layout.screen(marks.heading)]
        ahead = x * dx + y * dy
    return (ahead, -y, x)


def corner_centre(layout: Layout, sq: Square, corner: int) -> Point:
    left, top, right, bottom = layout.box(sq)
    return {
        BOTTOM_RIGHT: (right - INSET, bottom - INSET),
        BOTTOM_LEFT: (left + INSET, bottom - INSET),
        TOP_LEFT: (left + INSET, top + INSET),
        TOP_RIGHT: (right - INSET, top + INSET),
    }[corner]


def pass_spots(layout: Layout, city: City, count: int) -> list[Point]:
    """Where a city's pass tags go in its tray: in the gaps between its rows of slots, clear of
    the routed pieces lying there; side by side in a tray three slots wide."""
    slots = tray_slots(layout, city)
    rows = sorted({y for _, y in slots})
    columns = sorted({x for x, _ in slots})
    middle = (columns[0] + columns[-1]) / 2
    gaps = [(a + b) / 2 for a, b in itertools.pairwise(rows)]
    spots: list[Point] = []
    for y in gaps:
        if len(columns) >= 3 and count > 1:
            spots += [(middle - PASS_OFFSET, y), (middle + PASS_OFFSET, y)]
        else:
            spots.append((middle, y))
    return spots
