"""The board without pieces: drawn once per perspective (and language, for its words), then
copied for every image."""

from __future__ import annotations

from PIL import Image

from engine.i18n import M
from engine.nika.board import (
    CENTRAL_AREA,
    HOME_STRIP,
    RALLY_OWNER,
    ROUTED_TRAY,
    SQUARES,
    VICTORY_OWNER,
    City,
    Direction,
    Square,
)
from render import fonts
from render.canvas import Canvas
from render.memo import built_once
from render.nika import colours as C
from render.nika.emblems import laurel, meander_band, meander_frame, rod_and_snake
from render.nika.key import draw_key, draw_tray_label
from render.nika.layout import CELL, MARGIN, Layout, region_box
from render.nika.sprites import shield

GUTTER = 2  # half the gap between neighbouring squares
SLAB_BORDER = 4  # the board's rim around its outermost squares
PANEL_INSET = 3
MEANDER_UNIT = 2.0
TRAY_SLOT_RADIUS = 15
# Coordinates big and bold enough to read when Discord shows the board 400 px wide on a phone.
LABEL_SIZE = 27
LABEL_STROKE = 1.0
TOP_LEFT, TOP_RIGHT, BOTTOM_RIGHT = 0, 1, 2  # corners of the grid, for `free_corner`


def square_colour(sq: Square) -> C.RGB:
    """A square's own colour: its victory area's owner, else its rally area's or home strip's tint."""
    owner = VICTORY_OWNER[sq]
    if owner is not None:
        return C.VICTORY[owner]
    owner = RALLY_OWNER[sq]
    if owner is not None:
        return C.TINT[owner]
    return next(C.TINT[city] for city, strip in HOME_STRIP.items() if sq in strip)


def panel_box(layout: Layout) -> tuple[int, int, int, int]:
    """The central plaque's inner area, inside its Greek-key border: where the status goes."""
    left, top, right, bottom = region_box(layout, CENTRAL_AREA)
    inset = PANEL_INSET + 7 * MEANDER_UNIT + 4
    return (round(left + inset), round(top + inset), round(right - inset), round(bottom - inset))


def tray_slots(layout: Layout, city: City) -> list[tuple[int, int]]:
    """Centres of a city's six routed-piece slots, filled in reading order."""
    centres = [layout.center(sq) for sq in ROUTED_TRAY[city]]
    return sorted(centres, key=lambda c: (c[1], c[0]))


@built_once
def static_board(up: Direction) -> Image.Image:
    """The empty board for the view with `up` at the top (RGB; treat as read-only)."""
    layout = Layout(up)
    canvas = Canvas(layout.size, C.PARCHMENT, scale=3, mode="RGB")
    _draw_labels(canvas, layout)
    _draw_slab(canvas, layout)
    for sq in SQUARES:
        _draw_square(canvas, layout, sq)
    _draw_panel(canvas, layout)
    for city in City:
        _draw_tray(canvas, layout, city)
        draw_tray_label(canvas, layout, city)
    _draw_title(canvas, free_corner(layout, TOP_LEFT))
    draw_key(canvas, free_corner(layout, TOP_RIGHT))
    _draw_legend(canvas, free_corner(layout, BOTTOM_RIGHT))
    return canvas.result()


def free_corner(layout: Layout, corner: int) -> tuple[int, int, int, int]:
    """The pixel box of the largest empty block of cells tucked into a corner of the grid.

    The board is the same under quarter turns, so the blocks only change shape with the
    perspective: the top-left one is 9 × 3 cells when north or south is up, 6 × 3 otherwise.
    """
    taken = set(SQUARES) | CENTRAL_AREA
    for tray in ROUTED_TRAY.values():
        taken |= tray
    flip_columns, flip_rows = corner in (TOP_RIGHT, BOTTOM_RIGHT), corner == BOTTOM_RIGHT

    def free(column: int, row: int) -> bool:
        if flip_columns:
            column = layout.columns - 1 - column
        if flip_rows:
            row = layout.rows - 1 - row
        return layout.square_at(column, row) not in taken

    width = next(c for c in range(layout.columns) if not free(c, 0))
    height = next(r for r in range(layout.rows) if not all(free(c, r) for c in range(width)))
    left = MARGIN + (layout.columns - width) * CELL if flip_columns else MARGIN
    top = MARGIN + (layout.rows - height) * CELL if flip_rows else MARGIN
    return (left, top, left + width * CELL, top + height * CELL)


def _draw_title(canvas: Canvas, box: tuple[int, int, int, int]) -> None:
    """The game's name, as if cut in stone, over a short band of Greek key."""
    left, top, right, bottom = box
    x, y = (left + right) / 2, (top + bottom) / 2
    canvas.text((x, y - 6), "NIKA", 56, C.INK, weight=900)
    band = 6 * MEANDER_UNIT * 18
    meander_band(canvas, (x - band / 2, y + 32), band, MEANDER_UNIT, C.MEANDER)


def _draw_legend(canvas: Canvas, box: tuple[int, int, int, int]) -> None:
    """Who fights beside whom: the two teams, with their cities' shields."""
    left, top, right, bottom = box
    rows = ((City.ATHENS, City.MESSENE), (City.SPARTA, City.THEBES))
    size, gap = 17, 16
    labels = [str(M("{first} & {second}", first=first.term, second=second.term)).upper() for first, second in rows]
    width = 52 + gap + max(fonts.display(size * 4, 700).getlength(label) / 4 for label in labels)
    x = (left + right - width) / 2
    for index, (cities, label) in enumerate(zip(rows, labels, strict=True)):
        y = top + (bottom - top) * (0.32 + 0.36 * index)
        for offset, city in zip((12, 40), cities, strict=True):
            shield(canvas, (x + offset, y), 11.5, city, outline=1.5)
        canvas.text((x + 52 + gap, y + 0.5), label, size, C.INK, weight=700, anchor="lm")


def _draw_labels(canvas: Canvas, layout: Layout) -> None:
    width, height = layout.size
    mid = MARGIN / 2
    for column in range(layout.columns):
        x = MARGIN + column * CELL + CELL / 2
        text = layout.column_label(column)
        for y in (mid, height - mid):
            canvas.text((x, y), text, LABEL_SIZE, C.INK, mark=True, stroke=LABEL_STROKE, stroke_fill=C.INK)
    for row in range(layout.rows):
        y = MARGIN + row * CELL + CELL / 2
        text = layout.row_label(row)
        for x in (mid, width - mid):
            canvas.text((x, y), text, LABEL_SIZE, C.INK, mark=True, stroke=LABEL_STROKE, stroke_fill=C.INK)


def _draw_slab(canvas: Canvas, layout: Layout) -> None:
    """The board's body: one block under every square and the central plaque, with a shadow."""
    blocks = [layout.box(sq) for sq in SQUARES] + [region_box(layout, CENTRAL_AREA)]
    grow = SLAB_BORDER - GUTTER
    for dx, dy, colour in ((2, 3, C.mix(C.PARCHMENT, C.SLAB_EDGE, 0.35)), (0, 0, C.SLAB_EDGE)):
        for left, top, right, bottom in blocks:
            canvas.rect((left - grow + dx, top - grow + dy, right + grow + dx, bottom + grow + dy), colour, radius=5)
    for left, top, right, bottom in blocks:
        canvas.rect((left - grow + 1, top - grow + 1, right + grow - 1, bottom + grow - 1), C.SLAB, radius=4)


def _draw_square(canvas: Canvas, layout: Layout, sq: Square) -> None:
    left, top, right, bottom = layout.box(sq)
    fill = square_colour(sq)
    inner = (left + GUTTER, top + GUTTER, right - GUTTER, bottom - GUTTER)
    canvas.rect(inner, fill, radius=4)
    # A lit top edge and a shaded bottom edge make the tiles read as raised stones.
    canvas.rect((inner[0] + 2, inner[1] + 1, inner[2] - 2, inner[1] + 2), C.mix(fill, C.WHITE, 0.35), radius=1)
    canvas.rect((inner[0] + 2, inner[3] - 2, inner[2] - 2, inner[3] - 1), C.mix(fill, C.SHADOW, 0.12), radius=1)
    centre = ((left + right) / 2, (top + bottom) / 2)
    owner = VICTORY_OWNER[sq]
    if owner is not None:
        laurel(canvas, centre, CELL * 0.3, C.LAUREL[owner])
        return
    owner = RALLY_OWNER[sq]
    if owner is not None:
        staff = C.mix(fill, C.INK, 0.28)
        snake = C.mix(fill, C.OLIVE, 0.55)
        rod_and_snake(canvas, centre, CELL * 0.72, staff, snake)


def _draw_panel(canvas: Canvas, layout: Layout) -> None:
    """The central area is out of play: a marble plaque with a Greek key border."""
    left, top, right, bottom = region_box(layout, CENTRAL_AREA)
    i = PANEL_INSET
    canvas.rect((left + i, top + i, right - i, bottom - i), C.PANEL, radius=4)
    meander_frame(canvas, (left + i + 3, top + i + 3, right - i - 3, bottom - i - 3), MEANDER_UNIT, C.MEANDER)


def _draw_tray(canvas: Canvas, layout: Layout, city: City) -> None:
    """A box beside the rally area, rimmed in the city's colour, with six shallow slots."""
    left, top, right, bottom = region_box(layout, ROUTED_TRAY[city])
    i = 4
    wood = C.TRAY_WOOD
    shadow = C.mix(C.PARCHMENT, C.SLAB_EDGE, 0.35)
    canvas.rect((left + i + 1, top + i + 2, right - i + 1, bottom - i + 2), shadow, radius=9)
    canvas.rect((left + i, top + i, right - i, bottom - i), C.SLAB_EDGE, radius=9)
    canvas.rect((left + i + 1.5, top + i + 1.5, right - i - 1.5, bottom - i - 1.5), C.CITY[city], radius=8)
    canvas.rect((left + i + 4.5, top + i + 4.5, right - i - 4.5, bottom - i - 4.5), C.SLAB_EDGE, radius=6)
    canvas.rect((left + i + 5.5, top + i + 5.5, right - i - 5.5, bottom - i - 5.5), wood, radius=5)
    for x, y in tray_slots(layout, city):
        canvas.circle((x, y), TRAY_SLOT_RADIUS, C.mix(wood, C.SLAB_EDGE, 0.45))
        canvas.circle((x + 0.5, y + 1.2), TRAY_SLOT_RADIUS - 1.2, C.mix(wood, C.SLAB_EDGE, 0.22))
