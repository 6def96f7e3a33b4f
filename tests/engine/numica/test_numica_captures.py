"""Capturing (rules 3–5): landing on an enemy piece removes it, never from an X tile, and the
first-move capture rule."""

from __future__ import annotations

import pytest
from numica_scenarios import after, events, game, legal, position, reach, refusal

from engine.numica import Colour, Shape


def test_landing_on_an_enemy_piece_captures_it():
    board = position(red="d4s*,a1o,b1o,g1s,h1s", blue="f5o*,a8s,b8o,c8s,g8s,h8o", tiles_at="d4=K", turn="red/7")
    assert events(board, "d4xf5") == [
        {"event": "moved", "side": "red", "piece": "square", "from": "d4", "to": "f5", "first": False},
        {"event": "captured", "side": "blue", "piece": "round", "square": "f5"},
    ]
    # The captured piece leaves the board, and the count of moves without a capture starts again.
    assert after(board, "d4xf5") == position(
        red="a1o,b1o,g1s,h1s,f5s*", blue="a8s,b8o,c8s,g8s,h8o", tiles_at="d4=K", turn="blue/0"
    )
    # What each side has captured is what the other is missing: Blue now has 3 square, 2 round.
    state = game(after(board, "d4xf5"))
    assert state.captures(Colour.RED) == (1, 2)
    assert state.position.captured(Colour.BLUE, Shape.ROUND) == 2


@pytest.mark.parametrize(
    ("red", "blue", "move", "allowed"),
    [
        ("a1s", "a8o", "a1xa8", False),  # neither has moved: no capture
        ("a1s", "a5o*", "a1xa5", True),  # an unmoved piece may capture one that has moved
        ("a4s*", "a8o", "a4xa8", True),  # a moved piece may capture one that has not
        ("a4s*", "a6o*", "a4xa6", True),  # both have moved
    ],
    ids=["unmoved-takes-unmoved", "unmoved-takes-moved", "moved-takes-unmoved", "moved-takes-moved"],
)
def test_the_first_move_capture_rule(red, blue, move, allowed):
    board = position(red=f"{red},c1o,d1o,g1s,h1s", blue=f"{blue},c8s,d8s,f8o,h8o", tiles_at=f"{move[:2]}=R")
    if allowed:
        assert move in legal(board)
    else:
        assert move not in legal(board) and move.replace("x", "-") not in legal(board)
        assert refusal(board, move) == (
            "neither piece has moved yet: no capture on a first move (a piece that has not moved may capture "
            "only pieces that have)"
        )


def test_an_enemy_the_first_move_rule_protects_still_blocks_a_slide():
    board = position(red="a1s,c1o,d1o,g1s,h1s", blue="a8o,c8s,d8s,f8o,h8o", tiles_at="a1=R")
    assert reach(board, "a1") == {f"a1-{sq}" for sq in ["a2", "a3", "a4", "a5", "a6", "a7", "b1"]}


def test_after_its_first_move_a_piece_may_capture_an_unmoved_one():
    board = position(red="a1s,c1o,d1o,g1s,h1s", blue="a8o,c8s,d8s,f8o,h8o", tiles_at="a1=R a2=R h8=1")
    state = game(after(board, "a1-a2", "h8-h7"))
    assert "a2xa8" in legal(state)


def test_an_x_tile_never_captures_even_a_piece_that_has_moved():
    board = position(red="d4s*,a1o,b1o,g1s,h1s", blue="c5s*,a8o,b8s,e8o,g8o", tiles_at="d4=X")
    assert not any("x" in move for move in reach(board, "d4"))
    assert "X tiles move only to empty squares" in refusal(board, "d4xc5")


def test_a_piece_never_captures_its_own_side():
    board = position(red="d4s*,f5o*,a1o,g1s,h1s", blue="a8o,b8s,e8o,g8o,h8s", tiles_at="d4=K")
    assert refusal(board, "d4xf5") == "f5 is your own piece: pieces never stack"
