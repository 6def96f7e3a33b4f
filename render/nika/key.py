"""What the board's symbols mean, drawn on the empty board: a key to the laurel, staff and
tray, and a caption beside each tray saying whose routed pieces it holds, in the active
language (the empty board is cached per language)."""

from __future__ import annotations

from engine.i18n import M
from engine.nika.board import CENTRAL_AREA, ROUTED_TRAY, SQUARES, City, Square
from render import fonts
from render.canvas import Canvas
from render.nika import colours as C
from render.nika.emblems import laurel, rod_and_snake
from render.nika.layout import CELL, MARGIN, Layout, region_box

Box = tuple[int, int, int, int]
KEY_ROWS = (("victory", M("victory area")), ("rally", M("rally area")), ("tray", M("routed pieces")))
KEY_SIZE = 17  # the key's lettering, shrunk if its block is narrow
KEY_SHRINK = 0.7  # shrunk below this (12 px), long labels go on two lines instead
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
    """The city's name over 'routed', on the side of the tray that has room, close to it; a
    word too wide for a narrow tray is drawn smaller."""
    left, top, right, bottom = tray_label_box(layout, city)
    above = bottom <= region_box(layout, ROUTED_TRAY[city])[1]
    x, pitch = (left + right) / 2, LABEL_SIZE * 1.15
    first = bottom - LABEL_GAP - pitch - LABEL_SIZE / 2 if above else top + LABEL_GAP + LABEL_SIZE / 2
    name, routed = str(city.term).upper(), str(M("routed"))
    room = right - left - 6
    canvas.text((x, first), name, _fitted(name, LABEL_SIZE, 800, room), C.INK, weight=800)
    canvas.text((x, first + pitch), routed, _fitted(routed, LABEL_SIZE - 2, 700, room), C.LABEL, weight=700)


def key_lines(room: float) -> tuple[list[tuple[str, list[str]]], float]:
    """Each row's icon and the lines of its label, and the size that fits them all in `room`
    pixels. Where one long label would shrink them all past reading on a phone, long labels
    take two lines."""
    rows = [(icon, [str(text).upper()]) for icon, text in KEY_ROWS]
    size = _key_size(rows, room)
    if size < KEY_SIZE * KEY_SHRINK:
        rows = [(icon, _two_lines(lines[0]) if _width(lines[0], KEY_SIZE, 700) > room else lines)
                for icon, lines in rows]  # fmt: skip
        size = _key_size(rows, room)
    return rows, size


def draw_key(canvas: Canvas, box: Box) -> None:
    """Three rows, each a small picture and what it means, centred in `box`."""
    left, top, right, bottom = box
    rows, size = key_lines(right - left - ICON - 10 - 12)
    width = ICON + 10 + max(_width(line, size, 700) for _, lines in rows for line in lines)
    x = (left + right - width) / 2
    pitch = ICON + 12
    y0 = (top + bottom) / 2 - pitch * (len(rows) - 1) / 2
    for index, (icon, lines) in enumerate(rows):
        y = y0 + index * pitch
        _icon(canvas, icon, (x + ICON / 2, y))
        for number, line in enumerate(lines):
            middle = y + (number - (len(lines) - 1) / 2) * size * 1.1
            canvas.text((x + ICON + 10, middle + 0.5), line, size, C.INK, weight=700, anchor="lm")


def _key_size(rows: list[tuple[str, list[str]]], room: float) -> float:
    """The size at which every line of the key fits in `room`, at most KEY_SIZE."""
    return min(KEY_SIZE, *(room * KEY_SIZE / _width(line, KEY_SIZE, 700) for _, lines in rows for line in lines))


def _two_lines(text: str) -> list[str]:
    """A label broken at the space that makes its longer line shortest."""
    words = text.split(" ")
    if len(words) < 2:
        return [text]
    splits = [[" ".join(words[:cut]), " ".join(words[cut:])] for cut in range(1, len(words))]
    return min(splits, key=lambda lines: max(_width(line, KEY_SIZE, 700) for line in lines))


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


def _fitted(text: str, size: float, weight: int, room: float) -> float:
    """`size`, or smaller if `text` would not fit in `room` pixels."""
    return min(size, room * size / _width(text, size, weight))
