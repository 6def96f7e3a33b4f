"""Where a piece may go from each square, by the tile under it, computed once per deal.

Number tiles and knights jump: their targets are a fixed list per square. Rooks and
bishops slide: their targets are rays, walked until the first occupied square. X goes
to any empty square. Tables are built once per square and tile, then once per deal
(tiles never move), so finding a piece's moves is a few tuple lookups.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from engine.numica.board import NUMBER_TILES, SIZE, SQUARES, file_of, rank_of, square

JUMP, SLIDE, ANYWHERE = 0, 1, 2

Ray = tuple[int, ...]
_LINES = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))  # the 8 straight ways
_ORTHOGONAL = ((0, 1), (1, 0), (0, -1), (-1, 0))
_DIAGONAL = ((1, 1), (1, -1), (-1, -1), (-1, 1))
_KNIGHT = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))


def _on_board(file: int, rank: int) -> bool:
    return 0 <= file < SIZE and 0 <= rank < SIZE


def _jumps(sq: int, offsets: tuple[tuple[int, int], ...], distance: int = 1) -> tuple[int, ...]:
    f, r = file_of(sq), rank_of(sq)
    found = [
        square(f + df * distance, r + dr * distance)
        for df, dr in offsets
        if _on_board(f + df * distance, r + dr * distance)
    ]
    return tuple(sorted(found))


def _rays(sq: int, directions: tuple[tuple[int, int], ...]) -> tuple[Ray, ...]:
    rays = []
    for df, dr in directions:
        f, r, ray = file_of(sq) + df, rank_of(sq) + dr, []
        while _on_board(f, r):
            ray.append(square(f, r))
            f, r = f + df, r + dr
        if ray:
            rays.append(tuple(ray))
    return tuple(rays)


# Per tile symbol, per square.
JUMP_TARGETS: dict[str, tuple[tuple[int, ...], ...]] = {
    **{n: tuple(_jumps(sq, _LINES, int(n)) for sq in SQUARES) for n in NUMBER_TILES},
    "K": tuple(_jumps(sq, _KNIGHT) for sq in SQUARES),
}
SLIDE_RAYS: dict[str, tuple[tuple[Ray, ...], ...]] = {
    "R": tuple(_rays(sq, _ORTHOGONAL) for sq in SQUARES),
    "B": tuple(_rays(sq, _DIAGONAL) for sq in SQUARES),
}


@dataclass(frozen=True, slots=True)
class MoveTable:
    """One deal's moves per square: how a piece there moves (`kinds`), and its jump targets
    or slide rays (empty for the other kinds)."""

    kinds: tuple[int, ...]
    jumps: tuple[tuple[int, ...], ...]
    rays: tuple[tuple[Ray, ...], ...]


@lru_cache(maxsize=256)
def move_table(tiles: str) -> MoveTable:
    """The move table of a deal (`tiles` in square order); cached, as a game uses one deal."""
    kinds = tuple(JUMP if t in JUMP_TARGETS else SLIDE if t in SLIDE_RAYS else ANYWHERE for t in tiles)
    jumps = tuple(JUMP_TARGETS[t][sq] if t in JUMP_TARGETS else () for sq, t in enumerate(tiles))
    rays = tuple(SLIDE_RAYS[t][sq] if t in SLIDE_RAYS else () for sq, t in enumerate(tiles))
    return MoveTable(kinds, jumps, rays)
