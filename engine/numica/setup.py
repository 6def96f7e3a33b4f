"""Before the first move: the seeded deal of the 64 tiles, and each side's back-row arrangement."""

from __future__ import annotations

import random
import re
from itertools import combinations

from engine.errors import NotationError
from engine.i18n import M
from engine.numica.board import COLOURS, PIECES_PER_SHAPE, SIZE, TILE_SET, Colour, Shape, shown, square
from engine.numica.position import Position, cell_of

# Every back row: 8 letters, files a to h, `s` square and `o` round, four of each (70 in all):
# the files of the four squares chosen among eight (not the 40,320 orderings of the letters, a
# cost every start of the bot paid).
ARRANGEMENTS: tuple[str, ...] = tuple(
    sorted("".join("s" if file in squares else "o" for file in range(8)) for squares in combinations(range(8), 4))
)
_SHAPE_MARK = {"s": "■", "o": "●"}
_WORDS = {
    "s": "s", "square": "s", "squares": "s", "sq": "s", "■": "s", "□": "s", "◼": "s", "◻": "s", "▪": "s",
    "o": "o", "round": "o", "rounds": "o", "circle": "o", "circles": "o", "●": "o", "○": "o", "•": "o", "◯": "o",
}  # fmt: skip
_SEPARATORS = re.compile(r"[\s,;/|·.\-–]+")


def deal(rng: random.Random) -> str:
    """The 64 tiles shuffled onto the board, one per square (in square order a1, b1, …)."""
    tiles = list(TILE_SET)
    rng.shuffle(tiles)
    return "".join(tiles)


def parse_arrangement(text: str) -> str:
    """A back row in canonical form (`sosoosos`), read tolerantly: any case, spaces or commas,
    the words square and round, or the symbols ■ and ●. NotationError says what is wrong."""
    letters: list[str] = []
    for token in _SEPARATORS.split(text.strip().lower()):
        if not token:
            continue
        if token in _WORDS:
            letters.append(_WORDS[token])
        elif all(ch in _WORDS for ch in token):
            letters.extend(_WORDS[ch] for ch in token)
        else:
            raise NotationError(
                M(
                    "I can't read {text}: a back row is 8 letters for files a to h, s for square and o for round, "
                    "four of each, like sosoosos",
                    text=shown(text),
                )
            )
    if len(letters) != SIZE:
        raise NotationError(
            M(
                "a back row has 8 pieces, one per file a to h, not {count}: a back row is 8 letters for files a to h, "
                "s for square and o for round, four of each, like sosoosos",
                count=len(letters),
            )
        )
    squares = letters.count("s")
    if squares != PIECES_PER_SHAPE:
        raise NotationError(
            M(
                "a back row has exactly 4 square (s) and 4 round (o) pieces, not {square} and {round}",
                square=squares,
                round=SIZE - squares,
            )
        )
    return "".join(letters)


def arrangement_label(row: str, tiles: str) -> str:
    """A row for a menu: each file's shape with the tile it would stand on, e.g. `■1 ●X … (sosoosos)`."""
    return " ".join(f"{_SHAPE_MARK[shape]}{tile}" for shape, tile in zip(row, tiles, strict=True)) + f" ({row})"


def back_row_tiles(tiles: str, colour: Colour) -> str:
    """The tiles of a side's back row, files a to h."""
    return "".join(tiles[square(file, colour.back_rank)] for file in range(SIZE))


def place(tiles: str, rows: dict[Colour, str]) -> Position:
    """The start position: each side's pieces on its back row, not yet moved, Red to move."""
    cells = bytearray(SIZE * SIZE)
    for colour in COLOURS:
        for file, letter in enumerate(rows[colour]):
            shape = Shape.SQUARE if letter == "s" else Shape.ROUND
            cells[square(file, colour.back_rank)] = cell_of(colour, shape, False)
    return Position.of(tiles, bytes(cells))
