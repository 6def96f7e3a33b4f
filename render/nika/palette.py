"""Nika's fixed palette: every flat colour of `colours.py`, plus the blends anti-aliasing
produces, learned once from a swatch of everything the Nika artist draws.

One palette serves every language: it is learned from the English board, and words in
other languages are drawn in the same colours on the same plaques, so the same board
encodes to the same bytes whichever language the encoding happens in."""

from __future__ import annotations

from PIL import Image

from engine.i18n import ENGLISH, using
from engine.nika.board import City, Direction, Team
from engine.nika.state import Reason
from render.compose import shared
from render.encode import learn_palette
from render.memo import built_once
from render.nika import colours as C
from render.nika import sprites
from render.nika.board import EARLIER_FROM_ALPHA, FROM_ALPHA
from render.nika.layout import CELL, layout_for
from render.nika.static_board import panel_box, static_board
from render.nika.status import result_panel, turn_panel

RECENT_MAX = 12  # the most actions a board numbers (the host's limit)


def palette_image() -> Image.Image:
    """A 'P' image carrying the fixed palette, for `Image.quantize(palette=…)`."""
    with using(ENGLISH):
        return _learned()


palette = shared(palette_image)  # the palette boards are composed in


@built_once
def _learned() -> Image.Image:
    return learn_palette(C.FLAT_COLOURS, _swatch())


def _swatch() -> Image.Image:
    """Everything the renderer draws, on every background it is drawn on."""
    backgrounds = list(dict.fromkeys([*C.TINT.values(), *C.VICTORY.values(), C.FROM_FILL, C.PANEL]))
    tiles: list[Image.Image] = []
    for background in backgrounds:
        for city in City:
            for facing in range(4):
                tiles.append(_tile(background, sprites.token(city, facing)))
            tiles.append(_tile(background, sprites.link(city, vertical=False)))
            tiles.append(_tile(background, sprites.tray_token(city)))
            tiles.append(_tile(background, sprites.rout_ghost(city)))
            tiles.append(_tile(background, sprites.thin_frame(city)))
            for latest in (False, True):  # a badge of each size on every background
                tiles.append(_tile(background, sprites.number_badge(city, 10 if latest else 7, latest=latest)))
        for facing in range(4):
            tiles.append(_tile(background, sprites.arrow(C.PUSH, facing)))
        for mark in (sprites.rout_badge(), sprites.rally_badge(), sprites.victory_wreath()):
            tiles.append(_tile(background, mark))
        tiles.append(_tile(background, sprites.square_frame(C.TO_FRAME)))
        tiles.append(_tile(background, sprites.square_frame(C.RALLY_MARK)))
        tiles.append(_tile(background, sprites.ring(C.ROUT, sprites.TRAY_TOKEN_RADIUS + 3)))
        tiles.append(_tile(background, sprites.square_fill(C.FROM_FILL, FROM_ALPHA)))
        tiles.append(_tile(background, sprites.square_hatch(C.FROM_FILL, EARLIER_FROM_ALPHA)))
    # Numbers and pass tags on the squares and trays they are drawn on.
    for city in City:
        for number in range(1, RECENT_MAX + 1):
            tiles.append(_tile(C.TINT[city], sprites.number_badge(city, number, latest=False)))
            tiles.append(_tile(C.VICTORY[city], sprites.number_badge(city, number, latest=True)))
    tags = [sprites.pass_tag(city, numbers, latest=len(numbers) == 2) for city in City for numbers in ((1,), (2, 3))]
    columns = 16
    rows = (len(tiles) + columns - 1) // columns
    sheet = Image.new("RGB", (columns * CELL, rows * CELL), C.PARCHMENT)
    for index, tile in enumerate(tiles):
        sheet.paste(tile, ((index % columns) * CELL, (index // columns) * CELL))
    layout = layout_for(None)
    left, top, right, bottom = panel_box(layout)
    size = (right - left, bottom - top)
    panels = [turn_panel(size, city, left_) for city in City for left_ in (1, 2)]
    panels += [result_panel(size, team, Reason.VICTORY) for team in Team] + [result_panel(size, None, Reason.PASSES)]
    strip = Image.new("RGB", (size[0], size[1] * len(panels)), C.PANEL)
    for index, panel in enumerate(panels):
        strip.paste(panel, (0, index * size[1]), panel)
    shelf = Image.new("RGB", (sum(tag.width for tag in tags), tags[0].height), C.TRAY_WOOD)
    x = 0
    for tag in tags:
        shelf.paste(tag, (x, 0), tag)
        x += tag.width
    board = static_board(Direction.N)
    right = max(sheet.width, strip.width, shelf.width)
    swatch = Image.new("RGB", (board.width + right, max(board.height, sheet.height + strip.height + shelf.height)))
    swatch.paste(board, (0, 0))
    swatch.paste(sheet, (board.width, 0))
    swatch.paste(strip, (board.width, sheet.height))
    swatch.paste(shelf, (board.width, sheet.height + strip.height))
    return swatch


def _tile(background: C.RGB, sprite: Image.Image) -> Image.Image:
    tile = Image.new("RGB", (CELL, CELL), background)
    tile.paste(sprite, ((CELL - sprite.width) // 2, (CELL - sprite.height) // 2), sprite)
    return tile
