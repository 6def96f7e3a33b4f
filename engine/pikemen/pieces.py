"""Seats, sizes and pieces. A piece on the board is a small int code, so a board is a
tuple of ints that hashes fast for the repetition count; the tables decode it."""

from __future__ import annotations

from enum import IntEnum
from typing import NamedTuple

from engine.i18n import T, Term
from engine.pikemen.geometry import Orientation


class Size(IntEnum):
    """A pikeman's size, which is also the points it scores when captured."""

    S = 1
    M = 2
    L = 3

    @property
    def letter(self) -> str:
        return self.name

    @property
    def word(self) -> Term:
        return _SIZE_WORDS[self - 1]

    @property
    def points(self) -> int:
        return int(self)


_SIZE_WORDS = (T("small", "term"), T("medium", "term"), T("large", "term"))

# Every seat there is, in the order tables list them; a game uses 2, 3 or 4 of them.
COLOURS = ("red", "yellow", "green", "blue")
LETTERS = {"red": "R", "yellow": "Y", "green": "G", "blue": "B"}
TABLES: dict[int, tuple[str, ...]] = {2: ("red", "blue"), 3: ("red", "yellow", "blue"), 4: COLOURS}


def seat_title(slug: str) -> str:
    """The seat's English title; players read it as a Term (`words.seat_term`)."""
    return slug.capitalize()


class Piece(NamedTuple):
    """A decoded piece: `seat` is an index into the game's seats, in turn order."""

    seat: int
    size: Size
    orientation: Orientation

    @property
    def code(self) -> int:
        return code_of(self.seat, self.size, self.orientation)


EMPTY = 0
_ORIENTATIONS = len(Orientation)


def code_of(seat: int, size: int, orientation: int) -> int:
    return 1 + seat * 3 * _ORIENTATIONS + (size - 1) * _ORIENTATIONS + orientation


CODES = range(1, 1 + 4 * 3 * _ORIENTATIONS)
# Decoding tables indexed by code (index 0, the empty square, holds placeholders).
SEAT_OF: tuple[int, ...] = (-1, *((c - 1) // (3 * _ORIENTATIONS) for c in CODES))
SIZE_OF: tuple[int, ...] = (0, *((c - 1) // _ORIENTATIONS % 3 + 1 for c in CODES))
ORIENTATION_OF: tuple[int, ...] = (-1, *((c - 1) % _ORIENTATIONS for c in CODES))
PIECE_OF: tuple[Piece | None, ...] = (
    None,
    *(Piece(SEAT_OF[c], Size(SIZE_OF[c]), Orientation(ORIENTATION_OF[c])) for c in CODES),
)
# The same piece turned to each orientation: TURNED[code][orientation] -> code.
TURNED: tuple[tuple[int, ...], ...] = (
    (),
    *(tuple(code_of(SEAT_OF[c], SIZE_OF[c], o) for o in Orientation) for c in CODES),
)
