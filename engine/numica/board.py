"""The 8×8 board: squares, the tile set, the two colours and the two shapes of pieces.

Squares are numbers 0–63, `rank * 8 + file` with a1 = 0, h1 = 7, a8 = 56: sorting
squares by number gives the notation's order a1, b1, …, h1, a2, ….
"""

from __future__ import annotations

import re
from enum import IntEnum

from engine.errors import NotationError
from engine.i18n import M, Message, P, T, Term

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
            raise NotationError(M("{text} is off the board: files run a–h and ranks 1–8, like c4", text=shown(text)))
        raise NotationError(
            M("{text} is not a square: a square is a file a–h and a rank 1–8, like c4", text=shown(text))
        )
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
        """The seat's title, in English as seats are (the host translates it as a term)."""
        return ("Red", "Blue")[self]

    @property
    def term(self) -> Term:
        """The side's name in a sentence, in the reader's language."""
        return _COLOUR_TERMS[self]

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
        raise NotationError(not_a_side(slug))


COLOURS: tuple[Colour, Colour] = (Colour.RED, Colour.BLUE)
# The context is spelled out: the extractor reads a T call's context only when it is written.
_COLOUR_TERMS = (T("Red", "term"), T("Blue", "term"))


def not_a_side(text: str) -> Message:
    return M("{text} is not a side of Numica: red or blue", text=shown(text))


class Shape(IntEnum):
    """Shape never changes how a piece moves; it only counts for victory."""

    SQUARE = 0
    ROUND = 1

    @property
    def letter(self) -> str:
        return "so"[self]

    @property
    def word(self) -> str:
        """The shape in the JSON of events (not for players: see `term`)."""
        return ("square", "round")[self]

    @property
    def term(self) -> Term:
        """The shape's word in a sentence about one piece, in the reader's language."""
        return _SHAPE_TERMS[self]


# Their own context: in Spanish the word agrees with "pieza" (cuadrada, redonda), and must
# not be confused with a board's square.
_SHAPE_TERMS = (T("square", "shape"), T("round", "shape"))
SHAPES: tuple[Shape, Shape] = (Shape.SQUARE, Shape.ROUND)
PIECES_PER_SHAPE = 4

# --- tiles --------------------------------------------------------------------------

# The basic tile set of the rules: symbol → copies. 64 in all, one per square.
TILE_COUNTS: dict[str, int] = {"1": 11, "2": 10, "3": 9, "4": 8, "5": 7, "K": 6, "X": 5, "R": 4, "B": 4}
TILE_SET = "".join(symbol * copies for symbol, copies in TILE_COUNTS.items())
NUMBER_TILES = "12345"
# What the alt text calls a tile: numbers and X are read as they are written.
TILE_WORDS: dict[str, str | Term] = {
    **{n: n for n in NUMBER_TILES},
    "X": "X",
    "K": T("knight", "term"),
    "R": T("rook", "term"),
    "B": T("bishop", "term"),
}
_TILE_PHRASES = {"K": M("a knight tile"), "R": M("a rook tile"), "B": M("a bishop tile"), "X": M("an X tile")}
_HOW_IT_MOVES = {
    "K": M("it moves like a knight"),
    "R": M("it moves like a rook, any distance along its rank or file"),
    "B": M("it moves like a bishop, any distance diagonally"),
    "X": M("it moves to any empty square"),
}


def tile_phrase(symbol: str) -> Message:
    """'a 3 tile', 'a knight tile', 'an X tile'."""
    if symbol in NUMBER_TILES:
        return M("a {number} tile", number=symbol)
    return _TILE_PHRASES[symbol]


def how_it_moves(symbol: str) -> Message:
    """How a piece standing on the tile moves, in a player's words."""
    if symbol in NUMBER_TILES:
        return P(
            "it moves exactly {count} square in a straight line, any of 8 ways",
            "it moves exactly {count} squares in a straight line, any of 8 ways",
            count=int(symbol),
        )
    return _HOW_IT_MOVES[symbol]


def tile_text(tiles: str) -> str:
    """The tiles field of a position: rank 8 first, ranks joined by '/'."""
    return "/".join(tiles[rank * SIZE : (rank + 1) * SIZE] for rank in reversed(range(SIZE)))


def parse_tiles(text: str) -> str:
    """The 64 tile symbols in square order from the tiles field; NotationError otherwise."""
    ranks = text.strip().upper().split("/")
    if len(ranks) != SIZE or any(len(rank) != SIZE for rank in ranks):
        raise NotationError(
            M("the tiles are 8 ranks of 8 symbols, rank 8 first, joined by '/', like 13K2X4B5/K13XK33R/…")
        )
    tiles = "".join(reversed(ranks))
    unknown = sorted(set(tiles) - set(TILE_COUNTS))
    if unknown:
        raise NotationError(
            M("{symbol} is not a tile: tiles are 1, 2, 3, 4, 5, K, R, B and X", symbol=repr(unknown[0]))
        )
    for symbol, copies in TILE_COUNTS.items():
        found = tiles.count(symbol)
        if found != copies:
            raise NotationError(
                P(
                    "the board has {count} {symbol} tile; Numica's 64 tiles are {tiles}",
                    "the board has {count} {symbol} tiles; Numica's 64 tiles are {tiles}",
                    count=found,
                    symbol=symbol,
                    tiles=", ".join(f"{n}×{s}" for s, n in TILE_COUNTS.items()),
                )
            )
    return tiles
