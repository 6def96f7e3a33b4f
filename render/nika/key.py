"""What the board's symbols mean, drawn on the empty board: a key to the laurel, staff and
tray, and a caption beside each tray saying whose routed pieces it holds."""

from __future__ import annotations

from engine.nika.board import CENTRAL_AREA, ROUTED_TRAY, SQUARES, City, Square
from render import fonts
from render.canvas import Canvas
from render.nika import colours as C
from render.nika.emblems import laurel, rod_and_snake
from render.nika.layout import CELL, MARGIN, Layout, region_box

Box = tuple[int, int, int, int]
KEY_ROWS = (("victory", "victory area"), ("rally", "rally area"), ("tray", "routed pieces"))
KEY_SIZE = 17  # the key's lettering, shrunk if its block is narrow
ICON = 30
LABEL_SIZE = 15  # tray captions
LABEL_GAP = 8  # from the tray's edge to its caption


def _taken() -> frozenset[Square]:
    return SQUARES | CENTRAL_AREA | frozenset().union(*ROUTED_TRAY.values())


def tray_label_box(layout: Layout, city: City) -> Box:
    """The free row of cells just above a tray, or else just below it, as wide as the tray."""
    left, top, right, bottom = region_box(layout, ROUTED_TRAY[city])
    taken = _taken()
    columns = range((left - MARGIN) // CELL, (right - MARGIN) // CELL)
    for row, box_top in (((top - MARGIN) // CELL - 1, top - CELL), ((bottom - MARGIN) // CELL, bottom)):
        if 0 <= row < layout.rows and all(layout.square_at(column, row) not in taken for column in columns):
            return (left, box_top, right, box_top + CELL)
    raise AssertionError(f"no room beside {city.title}'s tray")  # the board's shape always leaves one


def draw_tray_label(canvas: Canvas, layout: Layout, city: City) -> None:
    """The city's name over 'routed', on the side of the tray that has room, close to it."""
    left, top, right, bottom = tray_label_box(layout, city)
    above = bottom <= region_box(layout, ROUTED_TRAY[city])[1]
    x, pitch = (left + right) / 2, LABEL_SIZE * 1.15
    first = bottom - LABEL_GAP - pitch - LABEL_SIZE / 2 if above else top + LABEL_GAP + LABEL_SIZE / 2
    canvas.text((x, first), city.title.upper(), LABEL_SIZE, C.INK, weight=800)
    canvas.text((x, first + pitch), "routed", LABEL_SIZE - 2, C.LABEL, weight=700)


def draw_key(canvas: Canvas, box: Box) -> None:
    """Three rows, each a small picture and what it means, centred in `box`."""
    left, top, right, bottom = box
    room = right - left - ICON - 10 - 12
    size = min(KEY_SIZE, *(room * KEY_SIZE / _width(text.upper(), KEY_SIZE, 700) for _, text in KEY_ROWS))
    width = ICON + 10 + max(_width(text.upper(), size, 700) for _, text in KEY_ROWS)
    x = (left + right - width) / 2
    pitch = ICON + 12
    y0 = (top + bottom) / 2 - pitch * (len(KEY_ROWS) - 1) / 2
    for index, (icon, text) in enumerate(KEY_ROWS):
        y = y0 + index * pitch
        _icon(canvas, icon, (x + ICON / 2, y))
        canvas.text((x + ICON + 10, y + 0.5), text.upper(), size, C.INK, weight=700, anchor="lm")


def _icon(canvas: Canvas, kind: str, centre: tuple[float, float]) -> None:
    """A small tile like the board's own: a neutral one, since every city has its own colours."""
    x, y = centre
    half = ICON / 2
    box = (x - half, y - half, x + half, y + half)
    if kind == "tray":
        canvas.rect(box, C.SLAB_EDGE, radius=5)
        canvas.rect((box[0] + 2.5, box[1] + 2.5, box[2] - 2.5, box[3] - 2.5), C.TRAY_WOOD, radius=3)
        for dx in (-1, 1):
            for dy in (-1, 1):
                canvas.circle((x + dx * 6, y + dy * 6), 4.2, C.mix(C.TRAY_WOOD, C.SLAB_EDGE, 0.45))
        return
    fill = C.TINT[City.ATHENS]
    canvas.rect((box[0] - 1, box[1] - 1, box[2] + 1, box[3] + 1), C.SLAB_EDGE, radius=5)
    canvas.rect(box, fill, radius=4)
    if kind == "victory":
        laurel(canvas, (x, y), half * 0.62, C.LAUREL[City.ATHENS], leaves=5)
    else:
        rod_and_snake(canvas, (x, y), ICON * 0.78, C.mix(fill, C.INK, 0.45), C.mix(fill, C.OLIVE, 0.8))


def _width(text: str, size: float, weight: int) -> float:
    return fonts.display(100, weight).getlength(text) * size / 100
