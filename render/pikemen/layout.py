"""Square ↔ pixel geometry of the picture, for every perspective.

The board is drawn turned by a number of clockwise quarter turns: none for the default
view (rank 8 at the top), and for a seat's view whatever brings its home corner or side
to the bottom, nearest the viewer. Screen directions count eighths of a turn clockwise
from up, like the engine's orientations, so a piece's orientation o shows as o + 2 × turns.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from engine.pikemen.geometry import FILES, Square, file_of, rank_of, square

CELL = 84  # pixels per square
PAD = 14  # page around the frame
FRAME = 26  # the wooden frame, which carries the coordinates
BOARD = 8 * CELL
PANEL_GAP = 12
PANEL_HEIGHT = 168
WIDTH = 2 * (PAD + FRAME) + BOARD
HEIGHT = 2 * (PAD + FRAME) + BOARD + PANEL_GAP + PANEL_HEIGHT
ORIGIN = PAD + FRAME  # left and top of the squares
PANEL_TOP = ORIGIN + BOARD + FRAME + PANEL_GAP

# Quarter turns clockwise that bring each seat's home nearest the viewer: red's a8 corner
# (its top-left block with three players) turns to the bottom left, yellow's h8 corner (its
# right-hand block) to the bottom right; green and blue already sit at the bottom.
SEAT_TURNS = {"red": 3, "yellow": 1, "green": 0, "blue": 0}


@dataclass(frozen=True, slots=True)
class Layout:
    turns: int  # clockwise quarter turns of the picture

    def cell_of(self, sq: Square) -> tuple[int, int]:
        """(column, row) of a square, row 0 at the top."""
        column, row = file_of(sq), 8 - rank_of(sq)
        for _ in range(self.turns):
            column, row = 7 - row, column
        return column, row

    def square_at(self, column: int, row: int) -> Square:
        for _ in range(self.turns):
            column, row = row, 7 - column
        return square(column, 8 - row)

    def box(self, sq: Square) -> tuple[int, int, int, int]:
        """The square's pixels (left, top, right, bottom), right and bottom exclusive."""
        column, row = self.cell_of(sq)
        left, top = ORIGIN + column * CELL, ORIGIN + row * CELL
        return (left, top, left + CELL, top + CELL)

    def center(self, sq: Square) -> tuple[int, int]:
        left, top, _, _ = self.box(sq)
        return (left + CELL // 2, top + CELL // 2)

    def screen(self, orientation: int) -> int:
        """The screen direction (eighths clockwise from up) a compass direction shows as."""
        return (orientation + 2 * self.turns) % 8

    def column_label(self, column: int) -> str:
        sq = self.square_at(column, 0)
        return FILES[file_of(sq)] if self.turns % 2 == 0 else str(rank_of(sq))

    def row_label(self, row: int) -> str:
        sq = self.square_at(0, row)
        return str(rank_of(sq)) if self.turns % 2 == 0 else FILES[file_of(sq)]


@cache
def layout_for(perspective: str | None) -> Layout:
    """The default view (None) or the view of the seat with this slug."""
    return Layout(0 if perspective is None else SEAT_TURNS.get(perspective, 0))
