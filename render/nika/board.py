"""One board picture: the cached empty board, then highlights, pieces, trays and the status.

Everything here pastes cached sprites onto a copy of the cached board, in an
order that keeps the marks readable: washes and frames under the pieces,
phalanx links under the shields, arrows and seals on top.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from engine.nika.board import NEIGHBOUR, OFF_GRID, City, Direction, Square
from engine.nika.events import Event
from engine.nika.position import Position
from engine.nika.state import GameState
from render.nika import colours as C
from render.nika import sprites, status
from render.nika.highlights import Highlights, highlights
from render.nika.layout import Layout, layout_for
from render.nika.static_board import panel_box, static_board, tray_slots

FROM_ALPHA = 190
BADGE_INSET = sprites.BADGE // 2 - 5  # badges overhang their square's corner a little


def compose(
    state: GameState,
    events: Sequence[Event] = (),
    perspective: City | None = None,
    *,
    caption: str | None = None,
) -> Image.Image:
    """The board as an RGB image (before the palette is applied). A `caption` (replay frames)
    goes at the foot of the central plaque, unless the game is over and the plaque is a banner."""
    layout = layout_for(perspective)
    image = static_board(layout.up).copy()
    marks = highlights(events)
    position = state.position
    _draw_under(image, layout, position, marks)
    _draw_links(image, layout, position)
    _draw_pieces(image, layout, position, marks)
    _draw_over(image, layout, marks)
    _draw_trays(image, layout, position, marks)
    left, top, right, bottom = panel_box(layout)
    panel = status.panel_for((right - left, bottom - top), position.to_act, position.actions_left, state.outcome)
    image.paste(panel, (left, top), panel)
    if caption is not None and state.outcome is None:
        # In the plaque, which changes every action anyway: a replay frame then differs from
        # the one before only around the plaque and the squares that changed, which keeps GIFs small.
        column = status.text_column((right - left, bottom - top))
        words = status.caption(right - left - column, caption, centred=column == 0)
        image.paste(words, (left + column, bottom - words.height), words)
    return image


def _paste_on(image: Image.Image, sprite: Image.Image, centre: tuple[float, float]) -> None:
    x = round(centre[0] - sprite.width / 2)
    y = round(centre[1] - sprite.height / 2)
    image.paste(sprite, (x, y), sprite)


def _draw_under(image: Image.Image, layout: Layout, position: Position, marks: Highlights) -> None:
    wash = sprites.square_fill(C.FROM_FILL, FROM_ALPHA)
    frame = sprites.square_frame(C.TO_FRAME)
    for sq in marks.origins:
        image.paste(wash, layout.box(sq)[:2], wash)
    for city, sq in marks.routs:
        if position.piece_at(sq) is None:
            ghost = sprites.rout_ghost(city)
            image.paste(ghost, layout.box(sq)[:2], ghost)
    rallied = sprites.square_frame(C.RALLY_MARK)
    for sq in marks.arrivals:
        image.paste(rallied if sq in marks.rallied else frame, layout.box(sq)[:2], frame)


def _draw_links(image: Image.Image, layout: Layout, position: Position) -> None:
    """Join orthogonal neighbours of one city that share a facing: a phalanx reads as one body."""
    for piece in position.pieces():
        for direction in (Direction.N, Direction.E):  # each pair once
            other = NEIGHBOUR[direction][piece.square]
            if other == OFF_GRID:
                continue
            neighbour = position.piece_at(other)
            if neighbour is None or neighbour.city != piece.city or neighbour.facing != piece.facing:
                continue
            (x0, y0), (x1, y1) = layout.center(piece.square), layout.center(other)
            bar = sprites.link(piece.city, vertical=x0 == x1)
            _paste_on(image, bar, ((x0 + x1) / 2, (y0 + y1) / 2))


def _draw_pieces(image: Image.Image, layout: Layout, position: Position, marks: Highlights) -> None:
    if marks.winner is not None:
        _paste_on(image, sprites.victory_wreath(), layout.center(marks.winner))
    for piece in position.pieces():
        sprite = sprites.token(piece.city, layout.screen(piece.facing))
        image.paste(sprite, layout.box(piece.square)[:2], sprite)


def _edge_centre(layout: Layout, frm: Square, to: Square) -> tuple[float, float]:
    (x0, y0), (x1, y1) = layout.center(frm), layout.center(to)
    return ((x0 + x1) / 2, (y0 + y1) / 2)


def _screen_step(layout: Layout, frm: Square, to: Square) -> int:
    (x0, y0), (x1, y1) = layout.center(frm), layout.center(to)
    if x0 == x1:
        return 0 if y1 < y0 else 2
    return 1 if x1 > x0 else 3


def _draw_over(image: Image.Image, layout: Layout, marks: Highlights) -> None:
    # The acting pieces' own steps need no arrow: the wash behind and the spear ahead show them.
    for frm, to in marks.pushes:
        _paste_on(image, sprites.arrow(C.PUSH, _screen_step(layout, frm, to)), _edge_centre(layout, frm, to))
    for _, sq in marks.routs:
        _paste_on(image, sprites.rout_badge(), rout_badge_centre(layout, sq))
    for sq in marks.rallied:
        _paste_on(image, sprites.rally_badge(), rally_badge_centre(layout, sq))


def rout_badge_centre(layout: Layout, sq: Square) -> tuple[int, int]:
    """The routed-here seal sits on the square's top-right corner, clear of the shield."""
    _, top, right, _ = layout.box(sq)
    return (right - BADGE_INSET, top + BADGE_INSET)


def rally_badge_centre(layout: Layout, sq: Square) -> tuple[int, int]:
    """The rallied-here seal sits on the square's top-left corner."""
    left, top, _, _ = layout.box(sq)
    return (left + BADGE_INSET, top + BADGE_INSET)


def _draw_trays(image: Image.Image, layout: Layout, position: Position, marks: Highlights) -> None:
    fresh = {city: sum(1 for c, _ in marks.routs if c == city) for city in City}
    ring = sprites.ring(C.ROUT, sprites.TRAY_TOKEN_RADIUS + 3)
    for city in City:
        routed = position.routed(city)
        slots = tray_slots(layout, city)
        token = sprites.tray_token(city)
        for index, centre in enumerate(slots[:routed]):
            _paste_on(image, token, centre)
            if index >= routed - fresh[city]:  # routed by the action just played
                _paste_on(image, ring, centre)
