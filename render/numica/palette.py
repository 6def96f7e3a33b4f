"""Numica's fixed palette: every flat colour of `colours.py`, plus the blends anti-aliasing
produces, learned once from a swatch of everything the Numica artist draws."""

from __future__ import annotations

from PIL import Image

from engine.i18n import ENGLISH, using
from engine.numica.board import COLOURS, SHAPES, TILE_COUNTS, Colour
from render.compose import shared
from render.encode import learn_palette
from render.memo import built_once
from render.numica import colours as C
from render.numica import panels, sprites
from render.numica.board import page
from render.numica.layout import CELL

STATUSES = ("to move", "", "wins", "draw", "arranging")


def palette_image() -> Image.Image:
    """A 'P' image carrying the fixed palette, for `Image.quantize(palette=…)`. One palette
    serves every language: it is learned from the English board."""
    with using(ENGLISH):
        return _learned()


palette = shared(palette_image)  # the palette boards are composed in


@built_once
def _learned() -> Image.Image:
    return learn_palette(C.FLAT_COLOURS, _swatch())


def _swatch() -> Image.Image:
    """Every sprite on every tile it can stand on, every kind of band and status line, the page."""
    cells: list[Image.Image] = []
    marks = [sprites.frame(C.TO_MARK, 6)]
    for symbol in TILE_COUNTS:
        base = sprites.tile(symbol)
        cells += [base, sprites.tile(symbol, True), _on(base, marks[0])]
        for colour in COLOURS:
            for shape in SHAPES:
                for moved in (False, True):
                    on_tile = _on(base, sprites.piece(colour, shape, moved, symbol))
                    cells.append(on_tile)
                    cells.append(_on(_on(on_tile, marks[0]), sprites.capture_badge(), corner=True))
    columns = 16
    rows = (len(cells) + columns - 1) // columns
    sheet = Image.new("RGB", (columns * CELL, rows * CELL), C.PAPER)
    for index, cell in enumerate(cells):
        sheet.paste(cell, ((index % columns) * CELL, (index // columns) * CELL))
    strips = [panels.band(colour, status) for colour in COLOURS for status in STATUSES]
    strips += [panels.captures(colour, (2, 1), SHAPES[1]) for colour in COLOURS]
    strips += [panels.arranging_note(colour) for colour in COLOURS]
    for text, detail, accent in _headlines():
        strips += [panels.status_words(text, accent, with_detail=bool(detail)), panels.status_detail(detail)]
    height = sum(strip.height for strip in strips)
    panel = Image.new("RGB", (max(strip.width for strip in strips), height), C.PAPER)
    y = 0
    for strip in strips:
        panel.paste(strip, (0, y), strip)
        y += strip.height
    board = page(COLOURS[0])
    swatch = Image.new("RGB", (board.width + sheet.width, max(board.height, sheet.height + panel.height)), C.PAPER)
    swatch.paste(board, (0, 0))
    swatch.paste(sheet, (board.width, 0))
    swatch.paste(panel, (board.width, sheet.height))
    return swatch


def _headlines() -> list[tuple[str, str, Colour | None]]:
    red, blue = COLOURS
    return [
        ("Red to move", "", red),
        ("Blue to move", "64 of 100 moves without a capture", blue),
        ("Blue wins", "2 square and 2 round pieces captured", blue),
        ("Draw", "the same position occurred three times", None),
        ("Both sides are arranging their back rows", "each in secret · then Red moves first", None),
    ]


def _on(base: Image.Image, sprite: Image.Image, *, corner: bool = False) -> Image.Image:
    out = base.copy()
    position = (CELL - sprite.width, 0) if corner else ((CELL - sprite.width) // 2, (CELL - sprite.height) // 2)
    out.paste(sprite, position, sprite)
    return out
