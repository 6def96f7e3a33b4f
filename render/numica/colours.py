"""Numica's colours: a parchment page, a walnut board, tiles told apart by hue as well as
symbol, and red and blue pieces that never share a hue with any tile.

Every flat colour lives here so the PNG palette holds each one exactly (see
`render/encode.py`) and tests can look for them.
"""

from __future__ import annotations

from engine.numica.board import Colour

RGB = tuple[int, int, int]

PAPER: RGB = (238, 227, 200)  # the page
INK: RGB = (52, 36, 24)  # lettering and outlines
LABEL: RGB = (110, 82, 56)  # coordinates and small print
RIM: RGB = (92, 62, 38)  # the board's wooden frame and the gaps between tiles
RIM_DARK: RGB = (62, 40, 24)
STRIP: RGB = (246, 239, 222)  # the bands above and below the board
CREAM: RGB = (250, 245, 232)  # symbols on dark tiles and on pieces
WHITE: RGB = (255, 255, 255)
SHADOW: RGB = (0, 0, 0)

# Tiles. Number tiles are light and deepen from 1 to 5; the others each have a hue of their own.
TILE: dict[str, RGB] = {
    "1": (250, 245, 231),
    "2": (245, 236, 212),
    "3": (240, 226, 194),
    "4": (234, 214, 174),
    "5": (227, 201, 154),
    "K": (104, 118, 60),  # olive
    "R": (74, 82, 88),  # slate
    "B": (124, 82, 98),  # plum
    "X": (212, 160, 58),  # gold
}
TILE_SYMBOL: dict[str, RGB] = {**{n: INK for n in "12345"}, "K": CREAM, "R": CREAM, "B": CREAM, "X": INK}

# Pieces: the fill, a darker rim, and the colour words alt text uses.
PIECE: dict[Colour, RGB] = {Colour.RED: (212, 58, 44), Colour.BLUE: (30, 72, 154)}  # apart in lightness too
PIECE_RIM: dict[Colour, RGB] = {Colour.RED: (104, 20, 14), Colour.BLUE: (14, 38, 88)}
UNMOVED: RGB = (246, 206, 80)  # the seal on a piece that has not moved yet

# The last move.
FROM_MARK: RGB = (255, 232, 120)  # washes the square a piece left
TO_MARK: RGB = (240, 140, 20)
CAPTURE: RGB = (200, 20, 30)

FLAT_COLOURS: tuple[RGB, ...] = (
    PAPER, INK, LABEL, RIM, RIM_DARK, STRIP, CREAM, WHITE,
    *TILE.values(), *PIECE.values(), *PIECE_RIM.values(), UNMOVED, FROM_MARK, TO_MARK, CAPTURE,
)  # fmt: skip


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """The colour `t` of the way from `a` to `b`."""
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))
