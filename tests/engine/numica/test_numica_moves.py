"""How pieces move: the tile under a piece decides (rules 1, 2 and 4; the tile table).

Each side keeps at least five pieces, two of each shape, in these scenarios: with fewer,
its opponent would already have won by captures.
"""

from __future__ import annotations

import pytest
from numica_scenarios import after, game, position, reach, refusal

from engine.errors import IllegalAction
from engine.numica import Move
from engine.numica.game import GAME

# Bystanders, on squares none of the scenarios' moves reach.
RED_REST = "a1o,b1o,g1s,h1s"
BLUE_REST = "a8o,b8s,e8o,g8o,h8s"

# --- number tiles: exactly n squares in a straight line, 8 ways, jumping -------------------------


@pytest.mark.parametrize(
    ("tile", "targets"),
    [
        ("1", "b2 b3 b4 c2 c4 d2 d3 d4"),
        ("2", "a1 a3 a5 c1 c5 e1 e3 e5"),
        ("3", "c6 f3 f6"),
        ("4", "c7 g3 g7"),
        ("5", "c8 h3 h8"),
    ],
)
def test_a_number_tile_moves_exactly_that_many_squares_in_any_of_eight_straight_lines(tile, targets):
    board = position(red="c3s*,b1o,d1s,f1o,g1s", blue="a8o,b8s,d8o,e8s,f8o", tiles_at=f"c3={tile}")
    assert reach(board, "c3") == {f"c3-{sq}" for sq in targets.split()}


def test_a_number_tile_jumps_over_every_piece_between():
    # c3 on a 3: c4, c5, d4, e5 and d3 stand in the way; it lands on c6, captures on f6, and
    # may not land on its own piece on f3.
    board = position(red="c3s*,c5s*,f3o*,b1o,d1s", blue="d3o*,c4o*,d4s*,e5o*,f6s*", tiles_at="c3=3")
    assert reach(board, "c3") == {"c3-c6", "c3xf6"}


def test_a_piece_on_a_5_in_the_middle_of_the_board_cannot_move():
    board = position(red="d4s*,a1o,b1o,c1s,e1s", blue="a8o,b8s,c8o,d8s,e8o", tiles_at="d4=5")
    assert reach(board, "d4") == set()
    assert refusal(board, "d4-d8") == (
        "d4 stands on a 5 tile: it moves exactly 5 squares in a straight line, any of 8 ways, "
        "so from here it has no legal move"
    )


def test_a_number_tile_refuses_any_other_distance_and_says_where_it_can_go():
    board = position(red="c3s*,b1o,d1s,f1o,g1s", blue="a8o,b8s,d8o,e8s,f8o", tiles_at="c3=3")
    assert refusal(board, "c3-c5") == (
        "c3 stands on a 3 tile: it moves exactly 3 squares in a straight line, any of 8 ways, "
        "so from here it can go to f3, c6 or f6"
    )
    assert refusal(board, "c3-d5").startswith("c3 stands on a 3 tile")  # a knight's leap is no straight line


# --- knights: jump like a chess knight ----------------------------------------------------------


def test_a_knight_tile_moves_like_a_chess_knight():
    board = position(red=f"d4s*,{RED_REST}", blue=BLUE_REST, tiles_at="d4=K")
    assert reach(board, "d4") == {f"d4-{sq}" for sq in ["b3", "b5", "c2", "c6", "e2", "e6", "f3", "f5"]}


def test_a_knight_jumps_out_of_a_crowd():
    # Every neighbour of d4 is taken; the knight leaps over them, lands on f5 to capture, and
    # not on its own piece on b3.
    board = position(red="d4s*,c3s*,c5o*,e3o*,b3s*", blue="c4o*,d3o*,d5s*,e4s*,e5o*,f5s*", tiles_at="d4=K")
    assert reach(board, "d4") == {f"d4-{sq}" for sq in ["b5", "c2", "c6", "e2", "e6", "f3"]} | {"d4xf5"}


def test_a_piece_on_a_knight_tile_refuses_other_moves():
    board = position(red=f"c1s,{RED_REST}", blue=BLUE_REST, tiles_at="c1=K")
    assert refusal(board, "c1-c4") == (
        "c1 stands on a knight tile: it moves like a knight, so from here it can go to a2, e2, b3 or d3"
    )


# --- rooks and bishops: slide, stopped by the first piece in the way ----------------------------


def test_a_rook_tile_slides_any_distance_along_its_rank_or_file():
    board = position(red=f"d4s*,{RED_REST}", blue=BLUE_REST, tiles_at="d4=R")
    expected = ["d1", "d2", "d3", "d5", "d6", "d7", "d8", "a4", "b4", "c4", "e4", "f4", "g4", "h4"]
    assert reach(board, "d4") == {f"d4-{sq}" for sq in expected}


def test_a_rook_is_stopped_by_the_first_piece_and_captures_only_an_enemy_there():
    board = position(red="d4s*,d6o*,a1o,g1s,h1s", blue="b4o*,f4s*,h4o*,d1s*,a8s", tiles_at="d4=R")
    assert reach(board, "d4") == {"d4-d5", "d4-d3", "d4-d2", "d4xd1", "d4-c4", "d4xb4", "d4-e4", "d4xf4"}
    assert refusal(board, "d4-d7") == (
        "the way from d4 to d7 is blocked at d6: rooks slide and cannot jump, so from here it can go to "
        "d1, d2, d3, b4, c4, e4, f4 or d5"
    )
    assert refusal(board, "d4-h4").startswith("the way from d4 to h4 is blocked at f4")


def test_a_bishop_tile_slides_any_distance_diagonally():
    board = position(red="d4s*,b1o,c1o,e1s,f1s", blue="a8o,b8s,c8o,d8s,e8o", tiles_at="d4=B")
    expected = ["a1", "b2", "c3", "e5", "f6", "g7", "h8", "a7", "b6", "c5", "e3", "f2", "g1"]
    assert reach(board, "d4") == {f"d4-{sq}" for sq in expected}


def test_a_bishop_is_stopped_by_the_first_piece_and_captures_only_an_enemy_there():
    board = position(red="d4s*,f6o*,a1s,b1o,c1s", blue="b2s*,b6o*,f2s*,g1o*,a8o", tiles_at="d4=B")
    assert reach(board, "d4") == {"d4-c3", "d4xb2", "d4-e5", "d4-c5", "d4xb6", "d4-e3", "d4xf2"}
    assert refusal(board, "d4-g1").startswith("the way from d4 to g1 is blocked at f2: bishops slide")
    assert refusal(board, "d4-d5").startswith("d4 stands on a bishop tile: it moves like a bishop")


# --- X: any empty square, never a capture -------------------------------------------------------


def test_an_x_tile_moves_to_any_empty_square():
    red, blue = "d4s*,a1o,b1o,c1s,e1s", "a8o,b8s,c8o,d8s,e8o"
    board = position(red=red, blue=blue, tiles_at="d4=X")
    taken = {piece[:2] for piece in f"{red},{blue}".split(",")}
    assert reach(board, "d4") == {f"d4-{sq}" for sq in _names() if sq not in taken}


def test_an_x_tile_moves_only_to_empty_squares_even_on_a_full_board():
    # All sixteen pieces on the board: the piece on X has exactly the 48 empty squares.
    red = "a1s,b1o,c1s,d1o,e1s,f1o,g1s,d4o*"
    blue = "a8o,b8s,c8o,d8s,e8o,f8s,g8o,c5s*"
    board = position(red=red, blue=blue, tiles_at="d4=X")
    moves = reach(board, "d4")
    assert len(moves) == 48 and all("x" not in move for move in moves)
    assert refusal(board, "d4xc5") == (
        "d4 stands on an X tile: X tiles move only to empty squares, so it cannot capture"
    )


# --- what every move needs ----------------------------------------------------------------------


def test_a_piece_never_lands_on_its_own_piece():
    board = position(red="d4s*,c6o*,a1o,g1s,h1s", blue=BLUE_REST, tiles_at="d4=K")
    assert "d4-c6" not in reach(board, "d4")
    assert refusal(board, "d4-c6") == "c6 is your own piece: pieces never stack"


def test_only_the_side_to_move_moves_its_own_pieces():
    board = position(red=f"c1s,{RED_REST}", blue=BLUE_REST, tiles_at="c1=K a8=1")
    assert refusal(board, "a8-a7") == "a8 is Blue's piece: it is Red's turn"
    assert refusal(board, "d4-d5") == "there is no piece on d4: move one of Red's pieces"
    assert refusal(board.replace("red/0", "blue/0"), "c1-d3") == "c1 is Red's piece: it is Blue's turn"


def test_a_piece_cannot_stay_where_it_is():
    board = position(red=f"c1s,{RED_REST}", blue=BLUE_REST, tiles_at="c1=X")
    assert refusal(board, "c1-c1") == "a move goes to another square: a piece cannot stay where it is"


def test_a_move_marks_the_piece_as_moved_and_passes_the_turn():
    board = position(red=f"c1s,{RED_REST}", blue=BLUE_REST, tiles_at="c1=K")
    assert after(board, "c1-d3") == position(red="a1o,b1o,g1s,h1s,d3s*", blue=BLUE_REST, tiles_at="c1=K", turn="blue/1")


def test_only_moves_between_two_squares_of_the_board_are_played():
    board = game(position(red=f"c1s,{RED_REST}", blue=BLUE_REST, tiles_at="c1=K"))
    for action in (Move(2, 64), Move(-1, 19), "c1-d3"):
        with pytest.raises(IllegalAction, match="a Numica action is a move"):
            GAME.apply(board, action)


def _names() -> list[str]:
    return [f"{f}{r}" for r in range(1, 9) for f in "abcdefgh"]
