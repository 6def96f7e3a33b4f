"""From the composed RGB picture to small, fast PNG and GIF bytes.

A palette image (at most 256 colours; the board needs about 120) encodes several
times faster than RGB and is far smaller. The palette is fixed for the process
(and identical in every process):
every flat colour of `colours.py` exactly, plus the blends that anti-aliasing
produces, found once by median cut over a swatch of everything we ever draw.
Mapping a picture onto a fixed palette without dithering is a cheap per-pixel
lookup, and it keeps output deterministic.
"""

from __future__ import annotations

import io
import struct
from collections.abc import Iterable

from PIL import GifImagePlugin, Image, ImageChops

from engine.nika.board import City, Direction, Team
from engine.nika.state import Reason
from render import colours as C
from render import sprites
from render.board import FROM_ALPHA
from render.layout import CELL, layout_for
from render.memo import built_once
from render.static_board import panel_box, static_board
from render.status import result_panel, turn_panel

PALETTE_SIZE = 256
NEAR = 6  # learned colours closer than this (per channel) to a kept one are dropped
PNG_LEVEL = 2  # zlib level: 2 costs ~4 ms here, 3 about 5.5 ms for 4 % less; higher levels cost far more


@built_once
def palette_image() -> Image.Image:
    """A 'P' image carrying the fixed palette, for `Image.quantize(palette=…)`."""
    flat = list(dict.fromkeys(C.FLAT_COLOURS))
    learned = _swatch().quantize(PALETTE_SIZE - len(flat), method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    raw = learned.getpalette() or []
    colours = list(flat)
    for i in range(0, len(raw), 3):
        colour = (raw[i], raw[i + 1], raw[i + 2])
        # Pillow maps through a coarse colour cache: a learned colour a step away from a flat
        # one could steal its pixels, so keep only blends that are really different.
        if all(max(abs(a - b) for a, b in zip(colour, kept, strict=True)) > NEAR for kept in colours):
            colours.append(colour)
    colours = colours[:PALETTE_SIZE]
    colours += [(0, 0, 0)] * (PALETTE_SIZE - len(colours))
    holder = Image.new("P", (1, 1))
    holder.putpalette([channel for colour in colours for channel in colour])
    return holder


def to_palette(image: Image.Image) -> Image.Image:
    return image.quantize(palette=palette_image(), dither=Image.Dither.NONE)


def png_bytes(image: Image.Image) -> bytes:
    """PNG of an RGB picture, through the fixed palette."""
    buffer = io.BytesIO()
    to_palette(image).save(buffer, "PNG", compress_level=PNG_LEVEL)
    return buffer.getvalue()


def gif_bytes(frames: Iterable[tuple[Image.Image, int]]) -> bytes:
    """An endlessly looping GIF of (RGB picture, milliseconds) frames, all the same size.

    Written frame by frame so that only the previous frame is held in memory (Pillow's
    save_all keeps a copy of every frame: 150 MB for a long game), each frame storing only
    the rectangle that changed, and every frame kept even if nothing changed, so a replay
    always has one frame per action. The frames use the fixed palette as the global table.
    """
    out = io.BytesIO()
    previous: Image.Image | None = None
    for picture, duration in frames:
        frame = to_palette(picture)
        if previous is None:
            out.write(_gif_header(frame.size))
            box: tuple[int, int, int, int] | None = (0, 0, *frame.size)
        else:
            box = ImageChops.subtract_modulo(frame, previous).getbbox(alpha_only=False)
        left, top, right, bottom = box or (0, 0, 1, 1)  # unchanged: a one-pixel frame keeps its time
        for chunk in GifImagePlugin.getdata(frame.crop((left, top, right, bottom)), (left, top),
                                            duration=duration, disposal=1):  # fmt: skip
            out.write(chunk)
        previous = frame
    out.write(b";")  # trailer
    return out.getvalue()


def _gif_header(size: tuple[int, int]) -> bytes:
    palette = bytes((palette_image().getpalette() or [])[: 3 * PALETTE_SIZE])
    screen = struct.pack("<HHBBB", size[0], size[1], 0xF7, 0, 0)  # global table of 2**(7+1) colours
    loop = b"!\xff\x0bNETSCAPE2.0\x03\x01" + struct.pack("<H", 0) + b"\x00"  # repeat forever
    return b"GIF89a" + screen + palette + loop


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
