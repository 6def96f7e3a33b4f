"""One picture: the cached empty board, the last move's marks, the pieces, then the panel."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image

from engine.pikemen.geometry import UPRIGHT
from engine.pikemen.pieces import ORIENTATION_OF, SEAT_OF, SIZE_OF
from engine.pikemen.state import GameState
from render.pikemen import colours as C
from render.pikemen import sprites
from render.pikemen.highlights import highlights
from render.pikemen.layout import layout_for
from render.pikemen.panel import draw_panel
from render.pikemen.static_board import static_board

WASH_ALPHA = 170
BADGE_INSET = sprites.BADGE // 2 - 3  # seals overhang their square's corner a little


def compose(
    state: GameState, events: Sequence[Any] = (), perspective: str | None = None, *, caption: str | None = None
) -> Image.Image:
    position = state.position
    layout = layout_for(perspective)
    image = static_board(layout.turns, len(position.seats)).copy()
    marks = highlights(events)
    if marks.origin is not None and marks.direction is not None:
        wash = sprites.square_wash(C.FROM_WASH, WASH_ALPHA)
        image.paste(wash, layout.box(marks.origin)[:2], wash)
        (x0, y0), (x1, y1) = layout.center(marks.origin), layout.center(marks.arrival or marks.origin)
        steps = 2 * marks.squares  # a dot every half square, a big one where the charge began
        for step in range(steps):
            dot = sprites.trail_dot(9.0 if step == 0 else 5.5)
            _paste_centred(image, dot, (x0 + (x1 - x0) * step / steps, y0 + (y1 - y0) * step / steps))
    if marks.arrival is not None:
        frame = sprites.square_frame(C.TO_FRAME)
        image.paste(frame, layout.box(marks.arrival)[:2], frame)
    for sq, code in enumerate(position.board):
        if code:
            seat = position.seats[SEAT_OF[code]]
            orientation = ORIENTATION_OF[code]
            if orientation == UPRIGHT:
                sprite = sprites.upright(seat, SIZE_OF[code])
            else:
                sprite = sprites.flat(seat, SIZE_OF[code], layout.screen(orientation))
            _paste_centred(image, sprite, layout.center(sq))
    if marks.arrival is not None:
        left, top, right, _ = layout.box(marks.arrival)
        if marks.captured:
            _paste_centred(image, sprites.capture_badge(), (right - BADGE_INSET, top + BADGE_INSET))
        if marks.turned:
            _paste_centred(image, sprites.turn_badge(), (left + BADGE_INSET, top + BADGE_INSET))
    draw_panel(image, state, events, caption)
    return image


def _paste_centred(image: Image.Image, sprite: Image.Image, centre: tuple[float, float]) -> None:
    image.paste(sprite, (round(centre[0] - sprite.width / 2), round(centre[1] - sprite.height / 2)), sprite)
