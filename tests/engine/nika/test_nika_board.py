"""The board, regions, neighbours, cities and start position, as docs/nika.md draws them."""

from __future__ import annotations

import pytest
from nika_scenarios import START

from engine.nika import City, Direction, GameState, Pass, Position, Team, parse_square, square_name
from engine.nika.board import (
    CENTRAL_AREA,
    HOME_STRIP,
    IN_PLAY,
    NEIGHBOUR,
    OFF_GRID,
    RALLY_AREA,
    RING,
    SQUARES,
    VICTORY_AREA,
    file_of,
    rank_of,
    square,
)

# docs/nika.md's map, square for square (the legend letters, '.' for the ring, ' ' for not in play).
BOARD_MAP = """\
    a b c d e f g h i j k l m n o p q r s t u
 15                   M M M                    15
 14                   M M M                    14
 13                   a a a                    13
 12       . . . . . . . . . . . . . . .        12
 11       . . . . . . . . . . . . . . .        11
 10       . . . . . . . . . . . . . . .        10
  9 S S t . . .                   . . . s T T  9
  8 S S t . . .                   . . . s T T  8
  7 S S t . . .                   . . . s T T  7
  6       . . . . . . . . . . . . . . .        6
  5       . . . . . . . . . . . . . . .        5
  4       . . . . . . . . . . . . . . .        4
  3                   m m m                    3
  2                   A A A                    2
  1                   A A A                    1
    a b c d e f g h i j k l m n o p q r s t u"""


def _legend(sq: int) -> str:
    for city, letters in zip(City, ("Aa", "Ss", "Mm", "Tt"), strict=True):
        if sq in RALLY_AREA[city]:
            return letters[0]
        if sq in VICTORY_AREA[city]:
            return letters[1]
    return "." if sq in RING else " "


def test_the_board_is_drawn_as_in_board_md():
    files = "    " + " ".join("abcdefghijklmnopqrstu")
    rows = [files]
    for rank in range(15, 0, -1):
        cells = " ".join(_legend(square(f, rank)) for f in range(21))
        rows.append(f"{rank:>3} {cells}  {rank}")
    rows.append(files)
    assert "\n".join(rows) == BOARD_MAP


def test_144_squares_are_in_play_108_of_them_the_ring():
    assert len(SQUARES) == 144
    assert len(RING) == 108
    assert sum(IN_PLAY) == 144


def test_the_central_area_is_g_to_o_by_7_to_9_and_not_in_play():
    assert {square_name(sq) for sq in CENTRAL_AREA} == {f"{f}{r}" for f in "ghijklmno" for r in (7, 8, 9)}
    assert not any(IN_PLAY[sq] for sq in CENTRAL_AREA)


@pytest.mark.parametrize(
    ("city", "victory", "rally"),
    [
        (City.ATHENS, "j13 k13 l13", "j1 j2 k1 k2 l1 l2"),
        (City.MESSENE, "j3 k3 l3", "j14 j15 k14 k15 l14 l15"),
        (City.SPARTA, "s7 s8 s9", "a7 a8 a9 b7 b8 b9"),
        (City.THEBES, "c7 c8 c9", "t7 t8 t9 u7 u8 u9"),
    ],
)
def test_victory_and_rally_areas(city, victory, rally):
    assert {square_name(sq) for sq in VICTORY_AREA[city]} == set(victory.split())
    assert {square_name(sq) for sq in RALLY_AREA[city]} == set(rally.split())


def test_each_rally_area_lies_directly_behind_the_allys_victory_area():
    for city in City:
        behind = {NEIGHBOUR[city.ally.forward][sq] for sq in VICTORY_AREA[city.ally]}
        assert behind <= RALLY_AREA[city]


def test_home_strips_hold_each_citys_start_formation():
    start = Position.start()
    for piece in start.pieces():
        assert piece.square in HOME_STRIP[piece.city]


def test_adjacency_is_orthogonal_and_symmetric():
    k5 = parse_square("k5")
    assert {square_name(NEIGHBOUR[d][k5]) for d in Direction} == {"k6", "l5", "k4", "j5"}
    for sq in SQUARES:
        for direction in Direction:
            nxt = NEIGHBOUR[direction][sq]
            if nxt != OFF_GRID:
                assert NEIGHBOUR[direction.opposite][nxt] == sq
                assert abs(file_of(nxt) - file_of(sq)) + abs(rank_of(nxt) - rank_of(sq)) == 1


def test_the_grid_edge_has_no_neighbour():
    assert NEIGHBOUR[Direction.W][parse_square("a8")] == OFF_GRID
    assert NEIGHBOUR[Direction.S][parse_square("k1")] == OFF_GRID
    assert NEIGHBOUR[Direction.N][parse_square("k15")] == OFF_GRID
    assert NEIGHBOUR[Direction.E][parse_square("u8")] == OFF_GRID


def test_the_start_position_is_board_mds():
    assert GameState.start().notation() == START
    pieces = {(p.city.letter, square_name(p.square), p.facing.letter) for p in Position.start().pieces()}
    assert pieces == {
        ("A", "j4", "w"), ("A", "j5", "w"), ("A", "j6", "w"), ("A", "k4", "n"), ("A", "k5", "n"), ("A", "l4", "e"),
        ("S", "d7", "s"), ("S", "d8", "e"), ("S", "d9", "n"), ("S", "e8", "e"), ("S", "e9", "n"), ("S", "f9", "n"),
        ("M", "j12", "w"), ("M", "k11", "s"), ("M", "k12", "s"),
        ("M", "l10", "e"), ("M", "l11", "e"), ("M", "l12", "e"),
        ("T", "p7", "s"), ("T", "q7", "s"), ("T", "q8", "w"), ("T", "r7", "s"), ("T", "r8", "w"), ("T", "r9", "n"),
    }  # fmt: skip
    assert all(Position.start().routed(city) == 0 for city in City)


def test_every_city_starts_in_the_same_formation_in_its_own_frame():
    # In the frame of a city facing "forward": back file faces forward (2 squares), left file faces left.
    for city in City:
        forward = city.forward
        left, right = Direction((forward - 1) % 4), Direction((forward + 1) % 4)
        facings = sorted(p.facing for p in Position.start().pieces(city))
        assert facings == sorted([left, left, left, forward, forward, right])


def test_teams_allies_and_turn_order():
    assert [c.title for c in City] == ["Athens", "Sparta", "Messene", "Thebes"]
    assert City.ATHENS.ally == City.MESSENE and City.SPARTA.ally == City.THEBES
    assert City.ATHENS.team == City.MESSENE.team == Team.ATHENS_MESSENE
    assert City.SPARTA.team == City.THEBES.team == Team.SPARTA_THEBES
    assert City.ATHENS.is_enemy_of(City.SPARTA) and not City.ATHENS.is_enemy_of(City.MESSENE)
    assert [c.forward for c in City] == [Direction.N, Direction.E, Direction.S, Direction.W]


def test_each_city_takes_two_actions_clockwise_from_athens():
    state = GameState.start()
    seen = [state.notation()[-2:]]
    for _ in range(8):
        state, _ = state.apply(Pass())
        seen.append(state.notation()[-2:])
    assert seen == ["A2", "A1", "S2", "S1", "M2", "M1", "T2", "T1", "A2"]
