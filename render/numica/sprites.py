"""Small pictures drawn once and pasted many times: tiles, pieces, and the marks of a move.

A piece covers the middle of its tile, so it carries the tile's symbol itself, in cream
on its own colour: what a piece can do is read off the piece. The tile's hue still shows
in the ring around it. Sliding tiles have small arrowheads pointing the ways they slide.
"""

from __future__ import annotations

import math

from PIL import Image, ImageFilter

from engine.numica.board import Colour, Shape
from render.canvas import Canvas, Point
from render.memo import built_once
from render.numica import colours as C
from render.numica.layout import CELL, GAP

CLEAR = (0, 0, 0, 0)
HALF = CELL / 2
SYMBOL_SIZE = 50  # a tile's symbol, in pixels of type
PIECE_SYMBOL_SIZE = 36
SQUARE_HALF = 28.5  # half the side of a square piece
ROUND_RADIUS = 31.0
SEAL_RADIUS = 8.0
BADGE = 28


def symbol_text(canvas: Canvas, centre: Point, symbol: str, size: float, colour: C.RGB) -> None:
    """A tile symbol in heavy sans: thickened by a stroke of its own colour, it stays legible
    when the picture is shrunk to a phone's width."""
    canvas.text(centre, symbol, size, colour, mark=True, stroke=size * 0.045, stroke_fill=colour)


def _arrowheads(canvas: Canvas, symbol: str, colour: C.RGB) -> None:
    """Rooks: four heads at the edges' middles; bishops: four at the corners, pointing out."""
    if symbol == "R":
        angles = (0, 90, 180, 270)
        reach = HALF - GAP - 7
    else:
        angles = (45, 135, 225, 315)
        reach = (HALF - GAP - 7) * math.sqrt(2) - 5
    for degrees in angles:
        a = math.radians(degrees)
        dx, dy = math.cos(a), -math.sin(a)
        tip = (HALF + dx * reach, HALF + dy * reach)
        back = (tip[0] - dx * 7, tip[1] - dy * 7)
        side = (-dy * 6, dx * 6)
        canvas.polygon([tip, (back[0] + side[0], back[1] + side[1]), (back[0] - side[0], back[1] - side[1])], colour)


def draw_tile(canvas: Canvas, origin: Point, symbol: str, size: float = CELL, *, with_symbol: bool = True) -> None:
    """A tile as a raised counter: its hue, a lit top edge, a shaded bottom edge, its symbol."""
    x, y = origin
    k = size / CELL
    fill = C.TILE[symbol]
    inner = (x + GAP * k, y + GAP * k, x + size - GAP * k, y + size - GAP * k)
    canvas.rect(inner, fill, radius=6 * k)
    canvas.rect((inner[0] + 3 * k, inner[1] + 1.5 * k, inner[2] - 3 * k, inner[1] + 3 * k),
                C.mix(fill, C.WHITE, 0.4), radius=1.5 * k)  # fmt: skip
    canvas.rect((inner[0] + 3 * k, inner[3] - 3 * k, inner[2] - 3 * k, inner[3] - 1.5 * k),
                C.mix(fill, C.SHADOW, 0.16), radius=1.5 * k)  # fmt: skip
    if with_symbol:
        symbol_text(canvas, (x + size / 2, y + size / 2 + 1 * k), symbol, SYMBOL_SIZE * k, C.TILE_SYMBOL[symbol])


@built_once
def tile(symbol: str, lit: bool = False) -> Image.Image:
    """An opaque square cell: the tile on the board's rim colour; `lit` for a move's origin."""
    canvas = Canvas((CELL, CELL), C.RIM, scale=4, mode="RGB")
    draw_tile(canvas, (0, 0), symbol)
    if lit:  # a glowing rim in the arrival frame's orange, thinner: where the move began
        canvas.rect((1, 1, CELL - 1, CELL - 1), None, radius=8, outline=C.TO_MARK, width=3.5)
        canvas.rect((4.5, 4.5, CELL - 4.5, CELL - 4.5), None, radius=5, outline=C.FROM_MARK, width=4)
    if symbol in "RB":
        _arrowheads(canvas, symbol, C.mix(C.TILE[symbol], C.CREAM, 0.55))
    return canvas.result()


def piece_shape(canvas: Canvas, centre: Point, shape: Shape, scale: float, fill: C.RGB, rim: C.RGB) -> None:
    """A piece's body: a rounded square or a disc, with a darker rim and an inner bevel line."""
    x, y = centre
    if shape is Shape.SQUARE:
        h = SQUARE_HALF * scale
        canvas.rect((x - h, y - h, x + h, y + h), rim, radius=7 * scale)
        w = 3.2 * scale
        canvas.rect((x - h + w, y - h + w, x + h - w, y + h - w), fill, radius=5 * scale)
        b = 6.5 * scale
        canvas.rect((x - h + b, y - h + b, x + h - b, y + h - b), None, radius=3 * scale,
                    outline=C.mix(fill, C.WHITE, 0.22), width=1.3 * scale)  # fmt: skip
    else:
        r = ROUND_RADIUS * scale
        canvas.circle((x, y), r, rim)
        canvas.circle((x, y), r - 3.2 * scale, fill)
        canvas.circle((x, y), r - 6.5 * scale, None, outline=C.mix(fill, C.WHITE, 0.22), width=1.3 * scale)


def seal_point(shape: Shape, centre: Point = (HALF, HALF), scale: float = 1.0) -> Point:
    """Where the not-yet-moved seal sits: on the piece's top-right shoulder."""
    if shape is Shape.SQUARE:
        return (centre[0] + (SQUARE_HALF - 3) * scale, centre[1] - (SQUARE_HALF - 3) * scale)
    reach = (ROUND_RADIUS - 4) * scale / math.sqrt(2)
    return (centre[0] + reach, centre[1] - reach)


def seal(canvas: Canvas, centre: Point, radius: float = SEAL_RADIUS) -> None:
    """A small gold seal: this piece has not moved yet."""
    canvas.circle(centre, radius + 1.6, C.INK)
    canvas.circle(centre, radius, C.UNMOVED)
    canvas.circle((centre[0] - radius * 0.3, centre[1] - radius * 0.3), radius * 0.32, C.mix(C.UNMOVED, C.WHITE, 0.6))


@built_once
def piece(colour: Colour, shape: Shape, moved: bool, symbol: str) -> Image.Image:
    """A piece as it stands on a tile: its body with a soft shadow, the tile's symbol on it,
    and the seal while it has not moved."""
    shadow = Canvas((CELL, CELL), CLEAR)
    offset = (HALF + 1.2, HALF + 2.4)
    piece_shape(shadow, offset, shape, 1.0, (0, 0, 0, 120), (0, 0, 0, 120))  # type: ignore[arg-type]
    art = Canvas((CELL, CELL), CLEAR)
    piece_shape(art, (HALF, HALF), shape, 1.0, C.PIECE[colour], C.PIECE_RIM[colour])
    symbol_text(art, (HALF, HALF + 1), symbol, PIECE_SYMBOL_SIZE, C.CREAM)
    if not moved:
        seal(art, seal_point(shape))
    shadow.image = shadow.image.filter(ImageFilter.GaussianBlur(1.6 * shadow.scale))
    shadow.image.alpha_composite(art.image)
    return shadow.result()


@built_once
def frame(colour: C.RGB, width: float) -> Image.Image:
    """A bold frame inside a square's edge: where the last move came from or went to."""
    canvas = Canvas((CELL, CELL), CLEAR)
    canvas.rect((1, 1, CELL - 1, CELL - 1), colour, radius=8)
    canvas.rect((1 + width, 1 + width, CELL - 1 - width, CELL - 1 - width), CLEAR, radius=5)
    return canvas.result()


def cross(canvas: Canvas, centre: Point, arm: float, width: float, colour: C.RGB) -> None:
    x, y = centre
    canvas.line([(x - arm, y - arm), (x + arm, y + arm)], colour, width)
    canvas.line([(x - arm, y + arm), (x + arm, y - arm)], colour, width)


@built_once
def capture_badge() -> Image.Image:
    """A red seal with a white cross, on the corner of the square where a capture happened."""
    canvas = Canvas((BADGE, BADGE), CLEAR)
    m = BADGE / 2
    canvas.circle((m, m), m - 0.5, C.WHITE)
    canvas.circle((m, m), m - 2.5, C.CAPTURE)
    cross(canvas, (m, m), m * 0.36, 3.0, C.WHITE)
    return canvas.result()


@built_once
def back_row_frame(colour: Colour) -> Image.Image:
    """During setup: the row a side is filling, outlined in its colour."""
    width = 8 * CELL
    canvas = Canvas((width, CELL), CLEAR)
    canvas.rect((0, 0, width, CELL), C.PIECE[colour], radius=9)
    canvas.rect((4, 4, width - 4, CELL - 4), CLEAR, radius=6)
    return canvas.result()
