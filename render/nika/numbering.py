"""Where the marks that sit on squares' corners go: the routed and rallied seals, and the
numbered badge of each recent action at the square it ended on.

Badges keep clear of the seals, the push arrows and each other: a square several
actions ended on gets its numbers in different corners (oldest first), and a phalanx
may carry its number on any of its leading squares. A pass changes nothing on the
board, so a city's passes share one tag ("3 4 PASS") on bare parchment beside its
routed-pieces tray, where it covers nothing: the nearest spot where the empty board (in
the reader's language) draws nothing.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from PIL import Image, ImageChops

from engine.nika.board import ROUTED_TRAY, City, Direction, Square
from engine.nika.position import Position
from render.memo import built_once
from render.nika import colours as C
from render.nika import sprites
from render.nika.highlights import Highlights
from render.nika.layout import SCREEN_STEP, Layout, region_box
from render.nika.static_board import static_board

Point = tuple[float, float]
SEAL_INSET = sprites.BADGE // 2 - 5  # seals overhang their square's corner a little
INSET = 7  # a badge's centre from its square's corner: it overhangs the gutter, clear of the letter
BOTTOM_RIGHT, BOTTOM_LEFT, TOP_LEFT, TOP_RIGHT = range(4)
_ORDER = (BOTTOM_RIGHT, BOTTOM_LEFT, TOP_LEFT, TOP_RIGHT)
_SEAL_RADIUS = sprites.BADGE / 2
_ARROW_RADIUS = 13.0
_SLACK = 3.0  # marks may touch by this much


@dataclass(frozen=True, slots=True)
class Badge:
    city: City
    numbers: tuple[int, ...]  # the action's number (1 for the oldest shown); a city's passes, all of theirs
    latest: bool  # the latest action is this one (or, for passes, the last of them)
    passed: bool  # drawn as a tag beside the city's tray, centred on `centre`: the numbers, then PASS
    centre: Point

    @property
    def number(self) -> int:
        return self.numbers[0]


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
    found: list[Badge] = []
    last = len(actions) - 1
    passes: dict[City, list[int]] = {}
    for index, marks in enumerate(actions):
        number, latest = index + 1, index == last
        if marks.actor is None:
            continue
        if marks.passed:
            passes.setdefault(marks.actor, []).append(number)
        elif marks.ends:
            radius = badge_radius(latest=latest)
            centre = _clearest(_candidates(layout, marks), radius, taken)
            taken.append((centre, radius))
            found.append(Badge(marks.actor, (number,), latest, False, centre))
    for city, numbers in passes.items():
        latest = numbers[-1] == last + 1
        tag = sprites.pass_tag(city, tuple(numbers), latest=latest)
        seen = tag.getchannel("A").getbbox() or (0, 0, *tag.size)
        found.append(Badge(city, tuple(numbers), latest, True, pass_spot(layout.up, city, tag.size, seen)))
    return sorted(found, key=lambda badge: badge.number)


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


@built_once
def pass_spot(up: Direction, city: City, size: tuple[int, int], seen: tuple[int, int, int, int]) -> Point:
    """The centre of a city's pass tag (a sprite of `size`, visible within `seen`): where its
    visible part lies on the bare parchment nearest to the city's tray (within PASS_REACH
    pixels), covering nothing the empty board draws; on the tray's top edge if there is none.
    Per view and language, since labels differ in length."""
    layout = Layout(up)
    left, top, right, bottom = region_box(layout, ROUTED_TRAY[city])
    drawn = _drawn(up)
    width, height = seen[2] - seen[0], seen[3] - seen[1]
    spots = []
    for x in range(left - PASS_REACH - width, right + PASS_REACH, PASS_STEP):
        for y in range(top - PASS_REACH - height, bottom + PASS_REACH, PASS_STEP):
            apart = math.hypot(max(left - x - width, 0, x - right), max(top - y - height, 0, y - bottom))
            if apart <= PASS_REACH:
                spots.append((apart, x, y))
    for _, x, y in sorted(spots):
        box = (x - PASS_MARGIN, y - PASS_MARGIN, x + width + PASS_MARGIN, y + height + PASS_MARGIN)
        inside = box[0] >= 0 and box[1] >= 0 and box[2] <= drawn.width and box[3] <= drawn.height
        if inside and drawn.crop(box).getbbox() is None:
            return (x - seen[0] + size[0] / 2, y - seen[1] + size[1] / 2)
    return ((left + right) / 2, top + size[1] / 2)


PASS_REACH = 240  # a pass tag stays this close to its city's tray (Messene's, under a Spanish key, needs most of it)
PASS_STEP = 3
PASS_MARGIN = 2  # bare parchment around it


@built_once
def _drawn(up: Direction) -> Image.Image:
    """255 wherever the empty board for this view (in the active language) is not bare parchment."""
    board = static_board(up)
    bare = Image.new("RGB", board.size, C.PARCHMENT)
    return ImageChops.difference(board, bare).convert("L").point(lambda v: 255 if v > 4 else 0)
