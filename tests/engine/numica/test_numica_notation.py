"""Notation: squares, moves (`c1-c4`, `d2xf4`, read tolerantly), positions in four fields with
`*` for pieces that have moved, and the setup state's two fields."""

from __future__ import annotations

import pytest
from numica_scenarios import EXAMPLE, EXAMPLE_TILES, game, play, position

from engine.errors import IllegalAction, NotationError
from engine.numica import Move, parse_action, parse_square
from engine.numica.game import GAME

C1, C4 = parse_square("c1"), parse_square("c4")
CAPTURE = position(red="d4s*,a1o,b1o,c1s,g1s,h1s", blue="f5o*,a8s,b8o,c8s,g8s,h8o", tiles_at="d4=K c1=K")


def test_squares_are_files_a_to_h_and_ranks_1_to_8():
    assert (parse_square("a1"), parse_square("h1"), parse_square("a2"), parse_square("H8")) == (0, 7, 8, 63)
    with pytest.raises(NotationError, match=r"^'i4' is off the board: files run a–h and ranks 1–8, like c4$"):
        parse_square("i4")
    with pytest.raises(NotationError, match=r"^'4c' is not a square"):
        parse_square("4c")


def test_a_move_is_written_with_a_dash_and_a_capture_with_an_x():
    assert Move(C1, C4).notation() == "c1-c4"
    assert Move(parse_square("d2"), parse_square("f4"), capture=True).notation() == "d2xf4"


@pytest.mark.parametrize(
    "text", ["c1-c4", "c1 c4", "c1c4", "C1 - C4", "c1xc4", "c1 X c4", "c1–c4", "c1×c4", "c1 to c4", "move c1 c4"]
)
def test_moves_are_read_tolerantly(text):
    assert parse_action(text) == Move(C1, C4)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "a move is needed: write a move as two squares, like c1-c4 (or d2xf4 for a capture)"),
        ("pass", "I can't read 'pass': write a move as two squares, like c1-c4 (or d2xf4 for a capture)"),
        ("c1-c9", "'c9' is off the board: files run a–h and ranks 1–8, like c4"),
        ("c1", "I can't read 'c1': write a move as two squares, like c1-c4 (or d2xf4 for a capture)"),
    ],
)
def test_unreadable_moves_say_how_to_write_one(text, reason):
    with pytest.raises(NotationError) as refused:
        parse_action(text)
    assert str(refused.value) == reason


def test_dash_and_x_are_interchangeable_on_input():
    assert GAME.notation(play(CAPTURE, "d4-f5")) == GAME.notation(play(CAPTURE, "d4xf5"))
    assert GAME.notation(play(CAPTURE, "c1xd3")) == GAME.notation(play(CAPTURE, "c1-d3"))


def test_the_canonical_form_of_a_move_uses_the_right_mark():
    state = game(CAPTURE)
    assert GAME.canonical(state, parse_action("d4-f5")).notation() == "d4xf5"
    assert GAME.canonical(state, parse_action("c1 x d3")).notation() == "c1-d3"
    illegal = parse_action("c1-c4")
    assert GAME.canonical(state, illegal) is illegal


def test_parsed_and_listed_moves_are_equal_when_they_name_the_same_squares():
    listed = next(m for m in GAME.legal_actions(game(CAPTURE)) if m.notation() == "d4xf5")
    assert parse_action("d4 f5") == listed and hash(parse_action("d4 f5")) == hash(listed)
    assert parse_action(listed.notation()).notation() == "d4xf5"


def test_a_listed_move_claims_its_mark_and_is_refused_where_it_is_the_other_kind_of_move():
    elsewhere = game(CAPTURE.replace("f5o*,", "").replace("b8o", "b8o,d8o"))
    capture = next(m for m in GAME.legal_actions(game(CAPTURE)) if m.notation() == "d4xf5")
    with pytest.raises(IllegalAction, match=r"^f5 is empty, so nothing is captured there: the move is d4-f5$"):
        GAME.apply(elsewhere, capture)
    quiet = next(m for m in GAME.legal_actions(elsewhere) if m.notation() == "d4-f5")
    with pytest.raises(IllegalAction, match=r"^d4-f5 captures the piece on f5: it is written d4xf5$"):
        GAME.apply(game(CAPTURE), quiet)


# --- positions ------------------------------------------------------------------------------------


def test_the_example_start_position_round_trips():
    assert GAME.notation(game(EXAMPLE)) == EXAMPLE
    state = game(EXAMPLE)
    assert state.position.tiles[parse_square("a8")] == "R" and state.position.tiles[parse_square("h1")] == "2"
    assert state.position.tiles[parse_square("b1")] == "X"


def test_a_position_is_written_in_order_with_marks_for_moved_pieces():
    messy = f"{EXAMPLE_TILES.lower()} RED:h1o,c4s*,a1s,b1o,c1o blue:h8s,a8o,g8o,e5s*,b8s Blue/37"
    assert GAME.notation(game(messy)) == (f"{EXAMPLE_TILES} red:a1s,b1o,c1o,h1o,c4s* blue:e5s*,a8o,b8s,g8o,h8s blue/37")


def test_a_side_with_no_pieces_is_written_with_a_dash():
    text = f"{EXAMPLE_TILES} red:- blue:a8o,b8s,c8o,d8s,e8o red/0"
    assert GAME.notation(game(text)) == text


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        (f"{EXAMPLE_TILES} red:a1s blue:a8o", "a Numica position has four fields"),
        (EXAMPLE.replace("RK14R155/", ""), "the tiles are 8 ranks of 8 symbols"),
        (EXAMPLE.replace("RK14R155", "RK14Q155"), "'Q' is not a tile"),
        (EXAMPLE.replace("RK14R155", "RK14R115"), "the board has 12 1 tiles; Numica's 64 tiles are 11×1, 10×2"),
        (EXAMPLE.replace("a1s,", "a1q,"), "'a1q' is not a piece"),
        (EXAMPLE.replace("b1o,", "a1o,"), "two pieces are on a1: pieces never stack"),
        (EXAMPLE.replace("c1s,", "c4s,"), "Red's c4s has not moved but stands off its back row (rank 1): write c4s*"),
        (EXAMPLE.replace("b1o,", "b1s,"), "Red has only 4 square pieces"),
        (EXAMPLE.replace("red/0", "green/0"), "the last field is the side to move"),
        (EXAMPLE.replace("red/0", "red/101"), "the count of moves without a capture runs from 0 to 100"),
        (EXAMPLE.replace(" blue:", " bleu:"), "the third field lists Blue's pieces: blue:…"),
    ],
)
def test_positions_that_cannot_be_read_say_why(text, reason):
    with pytest.raises(NotationError) as refused:
        GAME.load(text)
    assert reason in str(refused.value)


def test_the_setup_state_is_written_as_the_tiles_and_the_word_setup():
    text = f"{EXAMPLE_TILES} setup"
    state = GAME.load(text)
    assert GAME.notation(state) == text and GAME.setup_pending(state) == ("red", "blue")
    assert GAME.notation(GAME.load(f"{EXAMPLE_TILES.lower()}  SETUP ")) == text
