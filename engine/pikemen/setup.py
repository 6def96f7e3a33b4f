"""The start positions for 2, 3 and 4 players: every piece upright, trios in each home.

L, M and S are the sizes; each seat's squares are listed per size.
"""

from __future__ import annotations

from engine.pikemen.geometry import UPRIGHT, Square, parse_square_name
from engine.pikemen.pieces import TABLES, Size, code_of

_HOMES: dict[int, dict[str, dict[Size, str]]] = {
    2: {
        "red": {Size.L: "a8 b8 c8 a7 a6", Size.M: "d8 b7 c7 b6 a5", Size.S: "e8 d7 c6 b5 a4"},
        "blue": {Size.L: "h1 g1 f1 h2 h3", Size.M: "e1 g2 f2 g3 h4", Size.S: "d1 e2 f3 g4 h5"},
    },
    3: {
        "red": {Size.L: "a8 b8 a7 b7", Size.M: "c8 c7 a6 b6", Size.S: "d8 d7 c6 d6"},
        "yellow": {Size.L: "g5 h5 g4 h4", Size.M: "g6 h6 g3 h3", Size.S: "f6 f5 f4 f3"},
        "blue": {Size.L: "a1 b1 a2 b2", Size.M: "c1 c2 a3 b3", Size.S: "d1 d2 c3 d3"},
    },
    4: {
        "red": {Size.L: "a8 b8 a7", Size.M: "c8 b7 a6", Size.S: "c7 b6 c6"},
        "yellow": {Size.L: "h8 g8 h7", Size.M: "f8 g7 h6", Size.S: "f7 g6 f6"},
        "green": {Size.L: "h1 g1 h2", Size.M: "f1 g2 h3", Size.S: "f2 g3 f3"},
        "blue": {Size.L: "a1 b1 a2", Size.M: "c1 b2 a3", Size.S: "c2 b3 c3"},
    },
}


def _squares(names: str) -> list[Square]:
    found = [parse_square_name(name) for name in names.split()]
    assert all(sq is not None for sq in found), names
    return [sq for sq in found if sq is not None]


def start_board(players: int) -> tuple[int, ...]:
    """The 64 cells of the start position for this many players."""
    cells = [0] * 64
    for seat, slug in enumerate(TABLES[players]):
        for size, names in _HOMES[players][slug].items():
            for sq in _squares(names):
                assert cells[sq] == 0, f"two pieces on one square in the {players}-player start"
                cells[sq] = code_of(seat, size, UPRIGHT)
    return tuple(cells)


def home_squares(players: int, slug: str) -> frozenset[Square]:
    """Where a seat's pieces start (the picture turns a seat's home toward its player)."""
    return frozenset(sq for names in _HOMES[players][slug].values() for sq in _squares(names))


def most_points(players: int) -> int:
    """The highest target a match may set: every point on the board but a player's own (30, 48
    and 54 for 2, 3 and 4 players). The rules let players "agree to a higher number" than 12."""
    total = sum(int(size) * len(names.split()) for home in _HOMES[players].values() for size, names in home.items())
    return total - total // players
