"""The board without pieces, drawn once per view and player count, then copied per picture:
the page, the walnut frame with coordinates and each seat's home marked on it, the squares."""

from __future__ import annotations

from PIL import Image

from engine.pikemen.geometry import SQUARES, file_of, rank_of
from engine.pikemen.pieces import TABLES
from engine.pikemen.setup import home_squares
from render.canvas import Canvas
from render.memo import built_once
from render.pikemen import colours as C
from render.pikemen.layout import BOARD, CELL, FRAME, HEIGHT, ORIGIN, PAD, WIDTH, Layout
from render.pikemen.sprites import seat_sign

CHIP = 15  # a home's colour chip on the frame


@built_once
def static_board(turns: int, players: int) -> Image.Image:
    """The empty board turned `turns` quarter turns clockwise (RGB; treat as read-only)."""
    layout = Layout(turns)
    canvas = Canvas((WIDTH, HEIGHT), C.PAGE, scale=3, mode="RGB")
    _draw_frame(canvas)
    for sq in SQUARES:
        left, top, right, bottom = layout.box(sq)
        light = (file_of(sq) + rank_of(sq)) % 2 == 1
        canvas.rect((left, top, right, bottom), C.LIGHT if light else C.DARK)
    _draw_labels(canvas, layout)
    for slug in TABLES[players]:
        _draw_home_chip(canvas, layout, players, slug)
    return canvas.result()


def _draw_frame(canvas: Canvas) -> None:
    outer = (PAD, PAD, WIDTH - PAD, PAD + 2 * FRAME + BOARD)
    canvas.rect((outer[0] + 2, outer[1] + 3, outer[2] + 2, outer[3] + 3), C.mix(C.PAGE, C.FRAME_EDGE, 0.35), radius=10)
    canvas.rect(outer, C.FRAME_EDGE, radius=10)
    canvas.rect((outer[0] + 1.5, outer[1] + 1.5, outer[2] - 1.5, outer[3] - 1.5), C.FRAME, radius=9)
    # A thin lit bevel along the top and left of the frame, and a dark line round the squares.
    canvas.rect((outer[0] + 6, outer[1] + 3, outer[2] - 6, outer[1] + 4.5), C.mix(C.FRAME, C.WHITE, 0.22), radius=1)
    canvas.rect((ORIGIN - 2.5, ORIGIN - 2.5, ORIGIN + BOARD + 2.5, ORIGIN + BOARD + 2.5), C.FRAME_EDGE, radius=2)


def _draw_labels(canvas: Canvas, layout: Layout) -> None:
    mid = PAD + FRAME / 2
    far = ORIGIN + BOARD + FRAME / 2
    for index in range(8):
        along = ORIGIN + index * CELL + CELL / 2
        column, row = layout.column_label(index), layout.row_label(index)
        for y in (mid, far):
            canvas.text((along, y), column, 16, C.FRAME_TEXT, mark=True, stroke=0.3, stroke_fill=C.FRAME_TEXT)
        for x in (mid, far):
            canvas.text((x, along), row, 16, C.FRAME_TEXT, mark=True, stroke=0.3, stroke_fill=C.FRAME_TEXT)


def _draw_home_chip(canvas: Canvas, layout: Layout, players: int, slug: str) -> None:
    """A small chip in the seat's colour on the frame beside its home (a corner, or the
    middle of a side), so every view shows where each seat started."""
    boxes = [layout.box(sq) for sq in home_squares(players, slug)]
    left, top = min(b[0] for b in boxes), min(b[1] for b in boxes)
    right, bottom = max(b[2] for b in boxes), max(b[3] for b in boxes)
    x, y = (left + right) / 2, (top + bottom) / 2
    edge_x = {ORIGIN: PAD + FRAME / 2, ORIGIN + BOARD: ORIGIN + BOARD + FRAME / 2}
    at_left, at_right = left == ORIGIN, right == ORIGIN + BOARD
    at_top, at_bottom = top == ORIGIN, bottom == ORIGIN + BOARD
    if (at_left or at_right) and (at_top or at_bottom):  # a corner: the chip sits on the frame's corner
        point = (edge_x[ORIGIN if at_left else ORIGIN + BOARD], edge_x[ORIGIN if at_top else ORIGIN + BOARD])
    elif at_left or at_right:
        point = (edge_x[ORIGIN if at_left else ORIGIN + BOARD], y)
    else:
        point = (x, edge_x[ORIGIN if at_top else ORIGIN + BOARD])
    h = CHIP / 2
    canvas.rect((point[0] - h - 1.2, point[1] - h - 1.2, point[0] + h + 1.2, point[1] + h + 1.2), C.FRAME_EDGE,
                radius=3)  # fmt: skip
    canvas.rect((point[0] - h, point[1] - h, point[0] + h, point[1] + h), C.SEAT[slug], radius=2.5)
    seat_sign(canvas, point, slug, 9.5)
