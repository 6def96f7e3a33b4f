"""Where everything goes: the status line, a band for each side, the board, the legend.

The board is seen from Red's side (rank 1 at the bottom) unless Blue's view is asked
for, which turns it 180°. The side whose view it is has its band below the board, as
a player sits before their own pieces.
"""

from __future__ import annotations

from engine.numica.board import SIZE, Colour, file_of, rank_of

CELL = 84  # pixels from one square to the next
GAP = 2  # the rim showing between neighbouring tiles, on each side
PAD = 18  # the page's margin
LABEL = 24  # room for coordinates, left of and below the board
RIM = 8  # the board's frame

HEADER = 58  # the status line
BAND = 60  # a side's band: name, turn, captures

WIDTH = 2 * (PAD + LABEL + RIM) + SIZE * CELL
BOARD_LEFT = PAD + LABEL + RIM
BOARD_TOP = HEADER + BAND + RIM + 6
BOARD_SIZE = SIZE * CELL
TOP_BAND = HEADER
BOTTOM_BAND = BOARD_TOP + BOARD_SIZE + RIM + LABEL + 4
LEGEND_TOP = BOTTOM_BAND + BAND + 8
LEGEND = 108
HEIGHT = LEGEND_TOP + LEGEND


def bottom_side(perspective: Colour) -> Colour:
    """The side whose pieces start at the bottom of the picture."""
    return perspective


def cell_of(sq: int, perspective: Colour) -> tuple[int, int]:
    """(column, row) of a square, row 0 at the top."""
    if perspective is Colour.BLUE:
        return SIZE - 1 - file_of(sq), rank_of(sq)
    return file_of(sq), SIZE - 1 - rank_of(sq)


def box(sq: int, perspective: Colour) -> tuple[int, int, int, int]:
    """The square's cell (left, top, right, bottom), right/bottom exclusive."""
    column, row = cell_of(sq, perspective)
    left, top = BOARD_LEFT + column * CELL, BOARD_TOP + row * CELL
    return (left, top, left + CELL, top + CELL)


def centre(sq: int, perspective: Colour) -> tuple[int, int]:
    left, top, _, _ = box(sq, perspective)
    return (left + CELL // 2, top + CELL // 2)


def band_top(colour: Colour, perspective: Colour) -> int:
    """The top of a side's band: below the board for the viewer's side, above it otherwise."""
    return BOTTOM_BAND if colour is bottom_side(perspective) else TOP_BAND
