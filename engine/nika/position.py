"""The hashable position: pieces with facings, the city to act and its actions left."""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from engine.errors import NotationError
from engine.i18n import M
from engine.nika.board import (
    ENTERABLE,
    GRID_SIZE,
    IN_PLAY,
    START_LAYOUT,
    VICTORY_OWNER,
    City,
    Direction,
    Square,
    Team,
    not_in_play_text,
    parse_square_name,
    sort_key,
    square_name,
    victory_owner,
)

PIECES_PER_CITY = 6
ACTIONS_PER_TURN = 2
EMPTY = 0


class Piece(NamedTuple):
    city: City
    square: Square
    facing: Direction


def encode(city: City, facing: Direction) -> int:
    """A cell value: 0 is empty, otherwise 1 + city * 4 + facing."""
    return 1 + city * 4 + facing


# Lookup tables: building enum members from ints is slow on the hot paths.
_CELL_CITY: tuple[City, ...] = tuple(City(max(cell - 1, 0) >> 2) for cell in range(17))
_CELL_FACING: tuple[Direction, ...] = tuple(Direction(max(cell - 1, 0) & 3) for cell in range(17))


def cell_city(cell: int) -> City:
    """The city of a non-empty cell."""
    return _CELL_CITY[cell]


def cell_facing(cell: int) -> Direction:
    """The facing of a non-empty cell."""
    return _CELL_FACING[cell]


class Position:
    """An immutable board position. Equal positions hash equally (for repetition draws)."""

    __slots__ = ("_hash", "actions_left", "cells", "to_act")

    cells: tuple[int, ...]
    to_act: City
    actions_left: int

    def __init__(self, cells: tuple[int, ...], to_act: City, actions_left: int) -> None:
        self.cells = cells
        self.to_act = to_act
        self.actions_left = actions_left
        self._hash = hash((cells, to_act, actions_left))

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return (
            self._hash == other._hash
            and self.to_act == other.to_act
            and self.actions_left == other.actions_left
            and self.cells == other.cells
        )

    def __repr__(self) -> str:
        return f"Position({self.notation()!r})"

    @classmethod
    def start(cls) -> Position:
        return cls.from_notation(START_LAYOUT)

    @classmethod
    def from_pieces(cls, pieces: list[Piece], to_act: City = City.ATHENS, actions_left: int = 2) -> Position:
        cells = [EMPTY] * GRID_SIZE
        for piece in pieces:
            cells[piece.square] = encode(piece.city, piece.facing)
        return cls(tuple(cells), to_act, actions_left)

    def piece_at(self, sq: Square) -> Piece | None:
        cell = self.cells[sq] if 0 <= sq < GRID_SIZE else EMPTY
        if cell == EMPTY:
            return None
        return Piece(cell_city(cell), sq, cell_facing(cell))

    def pieces(self, city: City | None = None) -> Iterator[Piece]:
        """Pieces in canonical square order (by file, then rank)."""
        for sq in _CANONICAL_ORDER:
            cell = self.cells[sq]
            if cell and (city is None or cell_city(cell) == city):
                yield Piece(cell_city(cell), sq, cell_facing(cell))

    def squares_of(self, city: City) -> list[Square]:
        low, high = 1 + city * 4, 4 + city * 4
        return [sq for sq in _CANONICAL_ORDER if low <= self.cells[sq] <= high]

    def on_board(self, city: City) -> int:
        low, high = 1 + city * 4, 4 + city * 4
        return sum(1 for cell in self.cells if low <= cell <= high)

    def routed(self, city: City) -> int:
        return PIECES_PER_CITY - self.on_board(city)

    def winner(self) -> Team | None:
        """The team with a piece on its own city's victory area, if any."""
        for sq, owner in _VICTORY_SQUARES:
            cell = self.cells[sq]
            if cell and cell_city(cell) == owner:
                return owner.team
        return None

    def notation(self) -> str:
        fields = []
        for city in City:
            pieces = ",".join(f"{square_name(p.square)}{p.facing.letter}" for p in self.pieces(city))
            fields.append(f"{city.letter}:{pieces or '-'}")
        fields.append(f"{self.to_act.letter}{self.actions_left}")
        return " ".join(fields)

    @classmethod
    def from_notation(cls, text: str) -> Position:
        """Parse the five-field position notation; raises NotationError with the reason."""
        fields = text.split()
        if len(fields) != 5:
            raise NotationError(
                M("a position has five fields: A:… S:… M:… T:… and the city to act with its actions left (e.g. A2); "
                  "got {count}", count=len(fields))
            )  # fmt: skip
        cells = [EMPTY] * GRID_SIZE
        for expected, field in zip(City, fields[:4], strict=True):
            letter, colon, body = field.partition(":")
            if not colon or letter.upper() != expected.letter:
                raise NotationError(
                    M("field {field} should start with {letter}: (cities go A, S, M, T)", field=repr(field),
                      letter=expected.letter)
                )  # fmt: skip
            if body == "-":
                continue
            entries = body.split(",")
            if len(entries) > PIECES_PER_CITY:
                raise NotationError(
                    M("{city} has {count} pieces; a city has at most 6", city=expected.term, count=len(entries))
                )
            for entry in entries:
                sq = parse_square_name(entry[:-1]) if len(entry) >= 3 else None
                facing = "nesw".find(entry[-1:].lower())
                if sq is None or facing < 0:
                    raise NotationError(
                        M("{entry} is not a square followed by a facing (n, e, s, w)", entry=repr(entry))
                    )
                if not IN_PLAY[sq]:
                    raise NotationError(not_in_play_text(sq))
                if not ENTERABLE[expected.team][sq]:
                    raise NotationError(
                        M("{city} cannot stand on {square}, {owner:poss} victory area", city=expected.term,
                          square=entry[:-1], owner=victory_owner(sq).term)
                    )  # fmt: skip
                if cells[sq]:
                    raise NotationError(M("two pieces on {square}", square=square_name(sq)))
                cells[sq] = encode(expected, Direction(facing))
        turn = fields[4]
        if len(turn) != 2 or turn[0].upper() not in "ASMT" or turn[1] not in "12":
            raise NotationError(
                M("{turn} should be the city to act and its actions left, like A2 or S1", turn=repr(turn))
            )
        return cls(tuple(cells), City.from_letter(turn[0]), int(turn[1]))


_CANONICAL_ORDER: tuple[Square, ...] = tuple(sorted((sq for sq in range(GRID_SIZE) if IN_PLAY[sq]), key=sort_key))
_VICTORY_SQUARES: tuple[tuple[Square, City], ...] = tuple(
    (sq, owner) for sq in range(GRID_SIZE) if (owner := VICTORY_OWNER[sq]) is not None
)
