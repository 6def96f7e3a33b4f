"""Nika's fixed palette: every flat colour of `colours.py`, plus the blends anti-aliasing
produces, learned once from a swatch of everything the Nika artist draws."""

from __future__ import annotations

from PIL import Image

from engine.nika.board import City, Direction, Team
from engine.nika.state import Reason
from render.encode import learn_palette
from render.memo import built_once
from render.nika import colours as C
from render.nika import sprites
from render.nika.board import FROM_ALPHA
from render.nika.layout import CELL, layout_for
from render.nika.static_board import panel_box, static_board
from render.nika.status import result_panel, turn_panel


@built_once
def palette_image() -> Image.Image:
    """A 'P' image carrying the fixed palette, for `Image.quantize(palette=…)`."""
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
        for facing in range(4):
            tiles.append(_tile(background, sprites.arrow(C.PUSH, facing)))
        for mark in (sprites.rout_badge(), sprites.rally_badge(), sprites.victory_wreath()):
            tiles.append(_tile(background, mark))
        tiles.append(_tile(background, sprites.square_frame(C.TO_FRAME)))
        tiles.append(_tile(background, sprites.square_frame(C.RALLY_MARK)))
        tiles.append(_tile(background, sprites.ring(C.ROUT, sprites.TRAY_TOKEN_RADIUS + 3)))
        tiles.append(_tile(background, sprites.square_fill(C.FROM_FILL, FROM_ALPHA)))
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
    board = static_board(Direction.N)
    swatch = Image.new(
        "RGB", (board.width + max(sheet.width, strip.width), max(board.height, sheet.height + strip.height))
    )
    swatch.paste(board, (0, 0))
    swatch.paste(sheet, (board.width, 0))
    swatch.paste(strip, (board.width, sheet.height))
    return swatch


def _tile(background: C.RGB, sprite: Image.Image) -> Image.Image:
    tile = Image.new("RGB", (CELL, CELL), background)
    tile.paste(sprite, ((CELL - sprite.width) // 2, (CELL - sprite.height) // 2), sprite)
    return tile
