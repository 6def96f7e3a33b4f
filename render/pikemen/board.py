"""One picture: the cached empty board, the last move's marks, the pieces, then the panel."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from PIL import Image

from engine.pikemen.geometry import UPRIGHT
from engine.pikemen.pieces import ORIENTATION_OF, SEAT_OF, SIZE_OF
from engine.pikemen.position import Position
from engine.pikemen.state import GameState
from render.compose import Palette, Picture, Placement, serial
from render.pikemen import colours as C
from render.pikemen import numbering, sprites
from render.pikemen.highlights import highlights
from render.pikemen.layout import Layout, layout_for
from render.pikemen.panel import draw_panel
from render.pikemen.static_board import static_board

WASH_ALPHA = 170
BADGE_INSET = sprites.BADGE // 2 - 3  # seals overhang their square's corner a little


def compose(
    state: GameState,
    events: Sequence[Any] = (),
    perspective: str | None = None,
    *,
    caption: str | None = None,
    title: str | None = None,
    earlier: Sequence[Sequence[Any]] = (),
    palette: Palette | None = None,
) -> Image.Image:
    """The board in Pikemen's palette ('P'; RGB with `palette` None, while it is learned).
    `events` are the latest move's; `earlier` the moves before it since the viewer's
    previous turn, oldest first. With earlier moves, every move gets a numbered badge in its
    seat's colour on the square it ended on, and every earlier charge a trail from where it
    began (`render/pikemen/numbering.py`), so a player back after days sees each of them."""
    position = state.position
    layout = layout_for(perspective)
    picture = Picture(static_board(layout.turns, len(position.seats)), palette)
    moves = [*earlier, events] if earlier else []
    for trail in numbering.trails(layout, moves):  # under everything else: what earlier moves did
        for edge in (True, False):
            for point in trail.steps:
                _paste_centred(picture, sprites.path_step(trail.seat, trail.screen, edge=edge), point)
        _paste_centred(picture, sprites.path_start(trail.seat), trail.start)
        _paste_centred(picture, sprites.path_head(trail.seat, trail.screen), trail.head)
    marks = highlights(events)
    if marks.origin is not None and marks.direction is not None:
        picture.paste(sprites.square_wash(C.FROM_WASH, WASH_ALPHA), layout.box(marks.origin)[:2])
        (x0, y0), (x1, y1) = layout.center(marks.origin), layout.center(marks.arrival or marks.origin)
        steps = 2 * marks.squares  # a dot every half square, a big one where the charge began
        for step in range(steps):
            dot = sprites.trail_dot(9.0 if step == 0 else 5.5)
            _paste_centred(picture, dot, (x0 + (x1 - x0) * step / steps, y0 + (y1 - y0) * step / steps))
    if marks.arrival is not None:
        picture.paste(sprites.square_frame(C.TO_FRAME), layout.box(marks.arrival)[:2])
    if palette is None:
        picture.paste_all(_pieces(layout, position.board, position.seats))
    else:
        picture.place_all(_placed(palette, static_board(layout.turns, len(position.seats)), layout, position))
    if marks.arrival is not None:
        left, top, right, _ = layout.box(marks.arrival)
        if marks.captured:
            _paste_centred(picture, sprites.capture_badge(), (right - BADGE_INSET, top + BADGE_INSET))
        if marks.turned:
            _paste_centred(picture, sprites.turn_badge(), (left + BADGE_INSET, top + BADGE_INSET))
    for badge in numbering.numbered(layout, moves):
        sprite = sprites.number_badge(badge.seat, badge.number, latest=badge.latest)
        _paste_centred(picture, sprite, badge.centre)
    draw_panel(picture, state, events, caption, title)
    return picture.image


def _pieces(
    layout: Layout, board: Sequence[int], seats: Sequence[str]
) -> list[tuple[Image.Image, tuple[int, int], tuple[int, int, int, int]]]:
    """Each piece's sprite, where it goes (sprites are all SPRITE square, centred on their
    square) and its square's box."""
    places = _places(layout.turns)
    return [(_sprite(seats[SEAT_OF[code]], code, layout.turns), *places[sq]) for sq, code in enumerate(board) if code]


def _placed(palette: Palette, base: Image.Image, layout: Layout, position: Position) -> list[Placement]:
    """Each piece placed on `base` (as `_pieces` gives them), kept per square and piece: a board
    places dozens, and a piece on a square is placed the same on every board."""
    seats, turns = position.seats, layout.turns
    table, places = _placements(palette, serial(base), seats), _places(turns)
    found = []
    for sq, code in enumerate(position.board):
        if code:
            row = table[sq]
            placed = row.get(code)
            if placed is None:
                placed = row[code] = palette.placement(base, _sprite(seats[SEAT_OF[code]], code, turns), *places[sq])
            if placed is not None:  # (a piece is always on the picture)
                found.append(placed)
    return found


@functools.cache
def _placements(palette: Palette, board: int, seats: tuple[str, ...]) -> list[dict[int, Placement | None]]:
    """The kept placements on one empty board (by its serial) for these seats: by square, then piece code."""
    return [{} for _ in range(64)]


@functools.cache
def _places(turns: int) -> tuple[tuple[tuple[int, int], tuple[int, int, int, int]], ...]:
    layout = Layout(turns)
    half = sprites.SPRITE // 2
    return tuple(((x - half, y - half), layout.box(sq)) for sq in range(64) for x, y in [layout.center(sq)])


@functools.cache
def _sprite(seat: str, code: int, turns: int) -> Image.Image:
    """A piece's sprite for a view: they carry no words, so one serves every language."""
    orientation = ORIENTATION_OF[code]
    if orientation == UPRIGHT:
        return sprites.upright(seat, SIZE_OF[code])
    return sprites.flat(seat, SIZE_OF[code], Layout(turns).screen(orientation))


def warm_pieces(palette: Palette) -> None:
    """Compose every piece on an inside light and dark square as boards do (whole cells, cached),
    so that the first boards after a start find them ready."""
    layout = Layout(0)
    base = static_board(0, 4)
    light, dark = layout.square_at(2, 2), layout.square_at(5, 2)  # one of each colour, far apart
    for seat in C.SEAT:
        for size in (1, 2, 3):
            for sprite in (sprites.upright(seat, size), *(sprites.flat(seat, size, screen) for screen in range(8))):
                half = sprite.width // 2
                places = [(sq, layout.center(sq), layout.box(sq)) for sq in (light, dark)]
                Picture(base, palette).paste_all([(sprite, (x - half, y - half), box) for _, (x, y), box in places])


def _paste_centred(picture: Picture, sprite: Image.Image, centre: tuple[float, float]) -> None:
    picture.paste(sprite, (round(centre[0] - sprite.width / 2), round(centre[1] - sprite.height / 2)))
