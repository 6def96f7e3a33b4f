"""Square ↔ pixel geometry of the board image, for every perspective.

The image grid is the engine's 21 × 15 grid turned so that one direction of the
board points up: north for the default view, a city's forward direction for its
perspective. Screen directions are numbered like `Direction`: 0 up, 1 right,
2 down, 3 left.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from engine.nika.board import FILE_COUNT, FILES, RANK_COUNT, City, Direction, Square, file_of, rank_of, square

CELL = 54  # pixels from one square to the next
MARGIN = 33  # room for the coordinate labels on every side
# Screen offsets (dx, dy) of the screen directions up, right, down, left.
SCREEN_STEP: tuple[tuple[int, int], ...] = ((0, -1), (1, 0), (0, 1), (-1, 0))


@dataclass(frozen=True, slots=True)
class Layout:
    """Where everything goes when `up` points to the top of the image."""

    up: Direction

    @property
    def is_upright(self) -> bool:
        """True when files run left-right (north or south up); otherwise ranks do."""
        return self.up.is_vertical

    @property
    def columns(self) -> int:
        return FILE_COUNT if self.is_upright else RANK_COUNT

    @property
    def rows(self) -> int:
        return RANK_COUNT if self.is_upright else FILE_COUNT

    @property
    def size(self) -> tuple[int, int]:
        return (self.columns * CELL + 2 * MARGIN, self.rows * CELL + 2 * MARGIN)

    def cell_of(self, sq: Square) -> tuple[int, int]:
        """(column, row) of a square in the image grid, row 0 at the top."""
        x, y = file_of(sq), rank_of(sq) - 1
        if self.up == Direction.N:
            return x, RANK_COUNT - 1 - y
        if self.up == Direction.E:  # facing east, north is on the left
            return RANK_COUNT - 1 - y, FILE_COUNT - 1 - x
        if self.up == Direction.S:
            return FILE_COUNT - 1 - x, y
        return y, x  # west up: north is on the right

    def square_at(self, column: int, row: int) -> Square:
        """The grid square drawn in an image cell (the inverse of `cell_of`)."""
        if self.up == Direction.N:
            x, y = column, RANK_COUNT - 1 - row
        elif self.up == Direction.E:
            x, y = FILE_COUNT - 1 - row, RANK_COUNT - 1 - column
        elif self.up == Direction.S:
            x, y = FILE_COUNT - 1 - column, row
        else:
            x, y = row, column
        return square(x, y + 1)

    def box(self, sq: Square) -> tuple[int, int, int, int]:
        """The square's cell (left, top, right, bottom), right/bottom exclusive."""
        column, row = self.cell_of(sq)
        left, top = MARGIN + column * CELL, MARGIN + row * CELL
        return (left, top, left + CELL, top + CELL)

    def center(self, sq: Square) -> tuple[int, int]:
        left, top, _, _ = self.box(sq)
        return (left + CELL // 2, top + CELL // 2)

    def screen(self, direction: Direction) -> int:
        """The screen direction (0 up, 1 right, 2 down, 3 left) a board direction points to."""
        return (direction - self.up) % 4

    def column_label(self, column: int) -> str:
        sq = self.square_at(column, 0)
        return FILES[file_of(sq)] if self.is_upright else str(rank_of(sq))

    def row_label(self, row: int) -> str:
        sq = self.square_at(0, row)
        return str(rank_of(sq)) if self.is_upright else FILES[file_of(sq)]


@cache
def layout_for(perspective: City | None) -> Layout:
    """The layout of a city's view (its forward direction up), or north up for None."""
    return Layout(Direction.N if perspective is None else perspective.forward)


def square_center(sq: Square, perspective: City | None = None) -> tuple[int, int]:
    """Pixel centre of a square in the image rendered for `perspective`."""
    return layout_for(perspective).center(sq)


def square_box(sq: Square, perspective: City | None = None) -> tuple[int, int, int, int]:
    """Pixel cell (left, top, right, bottom) of a square in the image rendered for `perspective`."""
    return layout_for(perspective).box(sq)


def image_size(perspective: City | None = None) -> tuple[int, int]:
    return layout_for(perspective).size


def region_box(layout: Layout, squares: frozenset[Square]) -> tuple[int, int, int, int]:
    """The pixel bounding box of a block of squares (a tray, the central area…)."""
    boxes = [layout.box(sq) for sq in squares]
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))
