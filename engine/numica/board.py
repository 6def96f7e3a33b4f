"""The 8×8 board: squares, the tile set, the two colours and the two shapes of pieces.

Squares are numbers 0–63, `rank * 8 + file` with a1 = 0, h1 = 7, a8 = 56: sorting
squares by number gives the notation's order a1, b1, …, h1, a2, ….
"""

from __future__ import annotations

import re
from enum import IntEnum

from engine.errors import NotationError

SIZE = 8
FILES = "abcdefgh"
SQUARES = range(SIZE * SIZE)
SQUARE_NAMES: tuple[str, ...] = tuple(f"{FILES[sq % SIZE]}{sq // SIZE + 1}" for sq in SQUARES)
_SQUARE_BY_NAME = {name: sq for sq, name in enumerate(SQUARE_NAMES)}
_SQUARE_TEXT = re.compile(r"^([a-z])(\d+)$")


def square_name(sq: int) -> str:
    return SQUARE_NAMES[sq]


def file_of(sq: int) -> int:
    return sq % SIZE


def rank_of(sq: int) -> int:
    """0 for rank 1 … 7 for rank 8."""
    return sq // SIZE


def square(file: int, rank: int) -> int:
    return rank * SIZE + file


def shown(text: str, limit: int = 30) -> str:
    """What a player typed, quoted for an error message and cut short if it is long."""
    text = text.strip()
    return repr(text if len(text) <= limit else text[: limit - 1] + "…")


def parse_square(text: str) -> int:
    """A square from its name (`c4`, `C4`); NotationError with what squares look like otherwise."""
    name = text.strip().lower()
    sq = _SQUARE_BY_NAME.get(name)
    if sq is None:
        if _SQUARE_TEXT.match(name):
            raise NotationError(f"{shown(text)} is off the board: files run a–h and ranks 1–8, like c4")
        raise NotationError(f"{shown(text)} is not a square: a square is a file a–h and a rank 1–8, like c4")
    return sq


class Colour(IntEnum):
    """A side. Red's back row is rank 1 and Red moves first; Blue's back row is rank 8."""

    RED = 0
    BLUE = 1

    @property
    def slug(self) -> str:
        return ("red", "blue")[self]

    @property
    def title(self) -> str:
        return ("Red", "Blue")[self]

    @property
    def possessive(self) -> str:
        return ("Red's", "Blue's")[self]

    @property
    def opponent(self) -> Colour:
        return COLOURS[1 - self]

    @property
    def back_rank(self) -> int:
        return (0, SIZE - 1)[self]

    @classmethod
    def from_slug(cls, slug: str) -> Colour:
        for colour in COLOURS:
            if colour.slug == slug.strip().lower():
                return colour
        raise NotationError(f"{shown(slug)} is not a side of Numica: red or blue")


COLOURS: tuple[Colour, Colour] = (Colour.RED, Colour.BLUE)


class Shape(IntEnum):
    """Shape never changes how a piece moves; it only counts for victory."""

    SQUARE = 0
    ROUND = 1

    @property
    def letter(self) -> str:
        return "so"[self]

    @property
    def word(self) -> str:
        return ("square", "round")[self]


SHAPES: tuple[Shape, Shape] = (Shape.SQUARE, Shape.ROUND)
PIECES_PER_SHAPE = 4

# --- tiles --------------------------------------------------------------------------

# The basic tile set of the rules: symbol → copies. 64 in all, one per square.
TILE_COUNTS: dict[str, int] = {"1": 11, "2": 10, "3": 9, "4": 8, "5": 7, "K": 6, "X": 5, "R": 4, "B": 4}
TILE_SET = "".join(symbol * copies for symbol, copies in TILE_COUNTS.items())
NUMBER_TILES = "12345"
TILE_WORDS: dict[str, str] = {
    "1": "1", "2": "2", "3": "3", "4": "4", "5": "5", "K": "knight", "R": "rook", "B": "bishop", "X": "X",
}  # fmt: skip


def tile_phrase(symbol: str) -> str:
    """'a 3 tile', 'a knight tile', 'an X tile'."""
    word = TILE_WORDS[symbol]
    return f"{'an' if word == 'X' else 'a'} {word} tile"


def how_it_moves(symbol: str) -> str:
    """How a piece standing on the tile moves, in a player's words."""
    if symbol in NUMBER_TILES:
        return f"it moves exactly {symbol} square{'s' if symbol != '1' else ''} in a straight line, any of 8 ways"
    return {
        "K": "it moves like a knight",
        "R": "it moves like a rook, any distance along its rank or file",
        "B": "it moves like a bishop, any distance diagonally",
        "X": "it moves to any empty square",
    }[symbol]


def tile_text(tiles: str) -> str:
    """The tiles field of a position: rank 8 first, ranks joined by '/'."""
    return "/".join(tiles[rank * SIZE : (rank + 1) * SIZE] for rank in reversed(range(SIZE)))


def parse_tiles(text: str) -> str:
    """The 64 tile symbols in square order from the tiles field; NotationError otherwise."""
    ranks = text.strip().upper().split("/")
    if len(ranks) != SIZE or any(len(rank) != SIZE for rank in ranks):
        raise NotationError("the tiles are 8 ranks of 8 symbols, rank 8 first, joined by '/', like 13K2X4B5/K13XK33R/…")
    tiles = "".join(reversed(ranks))
    unknown = sorted(set(tiles) - set(TILE_COUNTS))
    if unknown:
        raise NotationError(f"{unknown[0]!r} is not a tile: tiles are 1, 2, 3, 4, 5, K, R, B and X")
    for symbol, copies in TILE_COUNTS.items():
        found = tiles.count(symbol)
        if found != copies:
            raise NotationError(
                f"the board has {found} {symbol} tile{'s' if found != 1 else ''}; Numica's 64 tiles are "
                + ", ".join(f"{n}×{s}" for s, n in TILE_COUNTS.items())
            )
    return tiles
