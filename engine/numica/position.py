"""The position: the deal of tiles, the pieces with their "has moved" marks, the side to
move and the count of moves without a capture; with its one-line notation."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import NamedTuple

from engine.errors import NotationError
from engine.i18n import M
from engine.numica.board import (
    COLOURS,
    PIECES_PER_SHAPE,
    SHAPES,
    SQUARES,
    Colour,
    Shape,
    parse_square,
    parse_tiles,
    rank_of,
    shown,
    square_name,
    tile_text,
)
from engine.numica.moves import MoveTable, move_table

QUIET_MOVES_FOR_DRAW = 100

# A cell is 0 when empty, else PRESENT with a bit each for Blue, round and "has moved":
# one byte per square, so a position's cells are 64 bytes that compare and hash fast.
PRESENT, BLUE_BIT, ROUND_BIT, MOVED_BIT = 8, 1, 2, 4


def cell_of(colour: Colour, shape: Shape, moved: bool) -> int:
    return PRESENT | colour | shape << 1 | (MOVED_BIT if moved else 0)


class Piece(NamedTuple):
    colour: Colour
    shape: Shape
    square: int
    moved: bool

    def notation(self) -> str:
        return f"{square_name(self.square)}{self.shape.letter}{'*' if self.moved else ''}"


def piece_in(cell: int, sq: int) -> Piece:
    """The piece a non-empty cell holds."""
    return Piece(COLOURS[cell & BLUE_BIT], SHAPES[(cell & ROUND_BIT) >> 1], sq, bool(cell & MOVED_BIT))


@dataclass(frozen=True, slots=True)
class Position:
    """Immutable. `cells` holds one byte per square (see `cell_of`); `tiles` one symbol per square."""

    tiles: str
    cells: bytes
    to_act: Colour
    quiet: int  # consecutive moves without a capture
    table: MoveTable = field(compare=False, repr=False)  # the deal's moves, shared by its positions

    @classmethod
    def of(cls, tiles: str, cells: bytes, to_act: Colour = Colour.RED, quiet: int = 0) -> Position:
        return cls(tiles, cells, to_act, quiet, move_table(tiles))

    @classmethod
    def empty(cls, tiles: str) -> Position:
        """The dealt board before either side has placed its pieces."""
        return cls.of(tiles, bytes(len(SQUARES)))

    @property
    def key(self) -> bytes:
        """What makes two positions the same for repetition: every piece with its shape and
        "has moved" mark, and the side to move (the deal is the game's, the count is not)."""
        return self.cells + bytes((self.to_act,))

    def piece_at(self, sq: int) -> Piece | None:
        cell = self.cells[sq]
        return piece_in(cell, sq) if cell else None

    def pieces(self, colour: Colour | None = None) -> Iterator[Piece]:
        """The pieces in square order (a1, b1, …, h1, a2, …), of one colour or both."""
        for sq, cell in enumerate(self.cells):
            if cell and (colour is None or cell & BLUE_BIT == colour):
                yield piece_in(cell, sq)

    def on_board(self, colour: Colour, shape: Shape) -> int:
        plain = cell_of(colour, shape, False)
        return self.cells.count(plain) + self.cells.count(plain | MOVED_BIT)

    def captured(self, colour: Colour, shape: Shape) -> int:
        """How many of `colour`'s pieces of `shape` its opponent has captured."""
        return PIECES_PER_SHAPE - self.on_board(colour, shape)

    def notation(self) -> str:
        sides = " ".join(
            f"{colour.slug}:{','.join(p.notation() for p in self.pieces(colour)) or '-'}" for colour in COLOURS
        )
        return f"{tile_text(self.tiles)} {sides} {self.to_act.slug}/{self.quiet}"

    @classmethod
    def from_notation(cls, text: str) -> Position:
        fields = text.split()
        if len(fields) != 4:
            raise NotationError(
                M(
                    "a Numica position has four fields: the tiles, red:…, blue:… and the side to move with "
                    "the count of moves without a capture, like red/0"
                )
            )
        tiles = parse_tiles(fields[0])
        cells = bytearray(len(SQUARES))
        for colour, text_field in zip(COLOURS, fields[1:3], strict=True):
            _place_pieces(cells, colour, text_field)
        to_act, quiet = _parse_turn(fields[3])
        return cls.of(tiles, bytes(cells), to_act, quiet)


def _place_pieces(cells: bytearray, colour: Colour, text: str) -> None:
    label, colon, listed = text.lower().partition(":")
    if not colon or label != colour.slug:
        raise NotationError(
            M("the second field lists Red's pieces: red:…")
            if colour is Colour.RED
            else M("the third field lists Blue's pieces: blue:…")
        )
    if listed == "-":
        return
    counts = [0, 0]
    for item in listed.split(","):
        moved = item.endswith("*")
        body = item[:-1] if moved else item
        if len(body) < 3 or body[-1] not in "so":
            raise NotationError(
                M(
                    "{text} is not a piece: write its square, s (square) or o (round), and * once it has moved, "
                    "like c4s*",
                    text=shown(item),
                )
            )
        sq = parse_square(body[:-1])
        shape = Shape.SQUARE if body[-1] == "s" else Shape.ROUND
        if cells[sq]:
            raise NotationError(M("two pieces are on {square}: pieces never stack", square=square_name(sq)))
        if not moved and rank_of(sq) != colour.back_rank:
            raise NotationError(
                M(
                    "{side:poss} {piece} has not moved but stands off its back row (rank {rank}): write {piece}*",
                    side=colour.term,
                    piece=f"{square_name(sq)}{shape.letter}",
                    rank=colour.back_rank + 1,
                )
            )
        counts[shape] += 1
        if counts[shape] > PIECES_PER_SHAPE:
            raise NotationError(
                M("{side} has only 4 square pieces", side=colour.term)
                if shape is Shape.SQUARE
                else M("{side} has only 4 round pieces", side=colour.term)
            )
        cells[sq] = cell_of(colour, shape, moved)


def _parse_turn(text: str) -> tuple[Colour, int]:
    side, slash, count = text.lower().partition("/")
    if not slash or side not in ("red", "blue") or not (count.isascii() and count.isdigit()) or len(count) > 3:
        raise NotationError(
            M("the last field is the side to move and the count of moves without a capture, like red/0 or blue/37")
        )
    quiet = int(count)
    if quiet > QUIET_MOVES_FOR_DRAW:
        raise NotationError(M("the count of moves without a capture runs from 0 to {most}", most=QUIET_MOVES_FOR_DRAW))
    return Colour.from_slug(side), quiet
