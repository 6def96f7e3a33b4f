"""The 8 × 8 board: squares, the nine orientations, and every ray precomputed.

Squares are ints 0–63, `file + 8 * (rank - 1)`, so ascending order is the order the
position notation lists pieces in (a1, b1, …, h1, a2, …).
"""

from __future__ import annotations

from enum import IntEnum

from engine.i18n import T, Term

FILES = "abcdefgh"
SIZE = 8
SQUARES = range(SIZE * SIZE)

Square = int


def square(file: int, rank: int) -> Square:
    """The square on `file` 0–7 (a–h) and `rank` 1–8."""
    return file + SIZE * (rank - 1)


def file_of(sq: Square) -> int:
    return sq % SIZE


def rank_of(sq: Square) -> int:
    """1–8."""
    return sq // SIZE + 1


def square_name(sq: Square) -> str:
    return f"{FILES[sq % SIZE]}{sq // SIZE + 1}"


def parse_square_name(text: str) -> Square | None:
    """The square called `text` ('b7', 'B7'), or None."""
    if len(text) != 2:
        return None
    file, rank = FILES.find(text[0].lower()), text[1]
    if file < 0 or rank not in "12345678":
        return None
    return square(file, int(rank))


class Orientation(IntEnum):
    """The eight compass directions, clockwise from north (toward rank 8), then upright."""

    N = 0
    NE = 1
    E = 2
    SE = 3
    S = 4
    SW = 5
    W = 6
    NW = 7
    U = 8

    @property
    def letter(self) -> str:
        """As notation writes it: n, ne, … nw, u."""
        return self.name.lower()

    @property
    def word(self) -> Term:
        """The direction's name, translated where it is read ("north-east", "noreste")."""
        return _WORDS[self]

    @property
    def arrow(self) -> str:
        return _ARROWS[self]

    @property
    def is_upright(self) -> bool:
        return self is Orientation.U

    @property
    def step(self) -> tuple[int, int]:
        """(files, ranks) one square this way; upright has none."""
        return STEPS[self]


DIRECTIONS = tuple(o for o in Orientation if o is not Orientation.U)
UPRIGHT = Orientation.U
STEPS: dict[Orientation, tuple[int, int]] = {
    Orientation.N: (0, 1), Orientation.NE: (1, 1), Orientation.E: (1, 0), Orientation.SE: (1, -1),
    Orientation.S: (0, -1), Orientation.SW: (-1, -1), Orientation.W: (-1, 0), Orientation.NW: (-1, 1),
    Orientation.U: (0, 0),
}  # fmt: skip
_WORDS = {
    Orientation.N: T("north", "term"), Orientation.NE: T("north-east", "term"), Orientation.E: T("east", "term"),
    Orientation.SE: T("south-east", "term"), Orientation.S: T("south", "term"), Orientation.SW: T("south-west", "term"),
    Orientation.W: T("west", "term"), Orientation.NW: T("north-west", "term"), Orientation.U: T("upright", "term"),
}  # fmt: skip
_ARROWS = {
    Orientation.N: "↑", Orientation.NE: "↗", Orientation.E: "→", Orientation.SE: "↘",
    Orientation.S: "↓", Orientation.SW: "↙", Orientation.W: "←", Orientation.NW: "↖", Orientation.U: "▲",
}  # fmt: skip


def _ray(sq: Square, direction: Orientation) -> tuple[Square, ...]:
    df, dr = STEPS[direction]
    f, r = file_of(sq) + df, rank_of(sq) + dr
    found = []
    while 0 <= f < SIZE and 1 <= r <= SIZE:
        found.append(square(f, r))
        f, r = f + df, r + dr
    return tuple(found)


# RAYS[square][orientation]: the squares a piece there pointing that way passes, nearest first
# (empty for upright). The rules only ever walk these tuples.
RAYS: tuple[tuple[tuple[Square, ...], ...], ...] = tuple(
    tuple(_ray(sq, o) if o is not UPRIGHT else () for o in Orientation) for sq in SQUARES
)


def direction_between(frm: Square, to: Square) -> Orientation | None:
    """The compass direction from `frm` straight to `to` (a rank, file or diagonal), or None."""
    return _BETWEEN.get((frm, to))


_BETWEEN: dict[tuple[Square, Square], Orientation] = {
    (sq, to): direction for sq in SQUARES for direction in DIRECTIONS for to in RAYS[sq][direction]
}
