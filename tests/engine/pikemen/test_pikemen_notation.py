"""Notation: squares, orientations (letters, words, arrows, emoji), moves with `-`/`x`
interchangeable and spaces optional, the position line, and the canonical form that
depends on the position."""

from __future__ import annotations

import random

import pytest
from pikemen_scenarios import START_2, game

from engine.errors import IllegalAction, NotationError
from engine.pikemen.actions import Charge, Reorient
from engine.pikemen.game import GAME
from engine.pikemen.geometry import Orientation, parse_square_name


def sq(name: str) -> int:
    found = parse_square_name(name)
    assert found is not None
    return found


def test_moves_are_written_canonically():
    assert Charge(sq("a6"), sq("a3")).notation() == "a6-a3"
    assert Charge(sq("a6"), sq("a3"), capture=True).notation() == "a6xa3"
    assert Charge(sq("a6"), sq("a3"), Orientation.U).notation() == "a6-a3 u"
    assert Charge(sq("a6"), sq("a3"), Orientation.NE, capture=True).notation() == "a6xa3 ne"
    assert Reorient(sq("b7"), Orientation.SE).notation() == "b7 se"
    assert Reorient(sq("b7"), Orientation.U).notation() == "b7 u"


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("a6-a3", "a6-a3"), ("a6xa3", "a6xa3"), ("A6 - A3", "a6-a3"), ("a6 a3", "a6-a3"), ("a6a3", "a6-a3"),
        ("a6×a3", "a6xa3"), ("a6 x a3 ne", "a6xa3 ne"), ("a6a3u", "a6-a3 u"), ("a6 a3 u", "a6-a3 u"),
        ("a6-a3 north-east", "a6-a3 ne"), ("a6-a3 North East", "a6-a3 ne"), ("a6-a3 northeast", "a6-a3 ne"),
        ("a6-a3 ↗", "a6-a3 ne"), ("a6-a3 ↗️", "a6-a3 ne"), ("a6–a3", "a6-a3"), ("a6 to a3", "a6-a3"),
        ("b7 se", "b7 se"), ("b7se", "b7 se"), ("B7 SE", "b7 se"), ("b7 south-east", "b7 se"), ("b7 ↘️", "b7 se"),
        ("b7 ⬆", "b7 n"), ("b7 ⬆️", "b7 n"), ("b7 ↑", "b7 n"), ("b7 north", "b7 n"),
        ("b7 ➡", "b7 e"), ("b7 ➡️", "b7 e"), ("b7 →", "b7 e"), ("b7 east", "b7 e"),
        ("b7 ⬇", "b7 s"), ("b7 ⬇️", "b7 s"), ("b7 ↓", "b7 s"), ("b7 south", "b7 s"),
        ("b7 ⬅", "b7 w"), ("b7 ⬅️", "b7 w"), ("b7 ←", "b7 w"), ("b7 west", "b7 w"),
        ("b7 ↙", "b7 sw"), ("b7 ↙️", "b7 sw"), ("b7 south west", "b7 sw"),
        ("b7 ↖", "b7 nw"), ("b7 ↖️", "b7 nw"), ("b7 northwest", "b7 nw"),
        ("b7 u", "b7 u"), ("b7 up", "b7 u"), ("b7 upright", "b7 u"), ("b7 U", "b7 u"), ("turn b7 up", "b7 u"),
    ],
)  # fmt: skip
def test_moves_are_read_tolerantly(typed, read):
    assert GAME.parse_action(typed).notation() == read


@pytest.mark.parametrize(
    ("typed", "reason"),
    [
        ("", "a move is needed: write a charge like a6-a3"),
        ("hello", "I can't read 'hello': write a charge like a6-a3"),
        ("i9 n", "'i9' is not a square: files run a–h and ranks 1–8, like b7"),
        ("a6-b4", "a6 to b4 is not a straight line: a pikeman charges along a rank, a file or a diagonal"),
        ("a6-a6", "a6-a6 goes nowhere: a charge moves at least one square"),
        ("b7", "b7 alone is not a move: add where it charges (like a6-a3) or how it turns (b7 se)"),
        ("b7 sideways", "'sideways' is not an orientation: use n, ne, e, se, s, sw, w, nw, or u for upright"),
        ("a1 a2 a3", "a move names one or two squares"),
        ("b7 n s", "give one orientation at the end, like a6-a3 ne"),
        ("n b7", "the orientation comes last"),
        ("b7 se!", "I can't read 'b7 se!'"),
    ],
)
def test_unreadable_moves_say_how_to_write_them(typed, reason):
    with pytest.raises(NotationError) as refused:
        GAME.parse_action(typed)
    assert str(refused.value).startswith(reason)


CAPTURE = "R6:c2Lne B6:f5Lw,a8Lu,h1Lu R/12/0"


def test_canonical_writes_x_exactly_for_a_capture():
    state = game(CAPTURE)
    assert GAME.canonical(state, GAME.parse_action("c2-f5")).notation() == "c2xf5"
    assert GAME.canonical(state, GAME.parse_action("c2xe4")).notation() == "c2-e4"
    assert GAME.canonical(state, GAME.parse_action("c2 f5 u")).notation() == "c2xf5 u"


def test_canonical_drops_a_turn_to_the_direction_charged_in():
    state = game(CAPTURE)
    assert GAME.canonical(state, GAME.parse_action("c2xf5 ne")).notation() == "c2xf5"
    assert GAME.canonical(state, GAME.parse_action("c2-d3 northeast")).notation() == "c2-d3"


def test_canonical_leaves_moves_that_are_not_legal_alone():
    state = game(CAPTURE)
    for text in ("c2-g6", "c2xg6", "h1 u", "f5-a5", "c2-c4"):
        typed = GAME.parse_action(text)
        assert GAME.canonical(state, typed) is typed


def test_apply_takes_moves_in_the_form_the_legal_list_writes():
    state = game(CAPTURE)
    with pytest.raises(IllegalAction, match="write that move as c2xf5: it captures Blue's large pikeman on f5"):
        GAME.apply(state, GAME.parse_action("c2-f5"))
    with pytest.raises(IllegalAction, match="write that move as c2-e4: e4 is empty, so it captures nothing"):
        GAME.apply(state, GAME.parse_action("c2xe4"))
    GAME.apply(state, GAME.parse_action("c2xf5"))


@pytest.mark.parametrize(
    "position",
    [
        START_2,
        "R0:a6Mu,b6Mu,c6Su,d6Su,a7Lu,b7Lu,c7Mu,d7Su,a8Lu,b8Lu,c8Mu,d8Su Y0:f3Su,g3Mu,h3Mu,f4Su,g4Lu,h4Lu,f5Su,g5Lu,"
        "h5Lu,f6Su,g6Mu,h6Mu B0:a1Lu,b1Lu,c1Mu,d1Su,a2Lu,b2Lu,c2Mu,d2Su,a3Mu,b3Mu,c3Su,d3Su R/12/0",
        "R7:c3Mne,a8Lu Y5!:- G0:- B2:a1Lnw,h8Ss G/15/42",
        "R14:f5Mne Y4:- B0:a1Lu B/12/0",
    ],
)
def test_positions_round_trip_exactly(position):
    assert GAME.notation(GAME.load(position)) == position


def test_positions_are_read_tolerantly_and_written_canonically():
    assert GAME.notation(GAME.load("  r7:A8LU,c3mNE   b2:h8ss,a1lnw  r/12/3 ")) == "R7:c3Mne,a8Lu B2:a1Lnw,h8Ss R/12/3"


@pytest.mark.parametrize(
    ("position", "reason"),
    [
        ("R0:a8Lu", "a position is one field per seat and a final field"),
        ("R0:a8Lu Y0:h1Lu R/12/0", "the seats are R B (2 players), R Y B (3 players) or R Y G B (4 players)"),
        ("B0:a8Lu R0:h1Lu R/12/0", "the seats are R B (2 players)"),
        ("R0:a8Lu,a8Mn B9:h1Lu R/12/0", "a8 holds two pieces"),
        ("R0:a8Lu,h1Mn B9:h1Lu R/12/0", "h1 holds two pieces"),
        ("R0:a8Lx B9:h1Lu R/12/0", "'a8Lx' is not a piece: write its square, size (S, M or L) and orientation"),
        ("R0:a9Lu B9:h1Lu R/12/0", "'a9Lu' is not a piece"),
        ("R:a8Lu B9:h1Lu R/12/0", "'R:a8Lu' is not a seat field"),
        ("R9:a8Lu Y3!:b2Sn B9:h1Lu R/12/0", "Yellow is out of the game (!) and has no pieces on the board"),
        ("R9:a8Lu B9:h1Lu R12/0", "the last field is the seat to act, the target and the turns since the last capture"),
        ("R9:a8Lu B9:h1Lu Y/12/0", "Y is not a seat of this game: the seat to act is one of R, B"),
        ("R9:a8Lu B9:h1Lu R/31/0", "the target is from 12 to 30 points with 2 players"),
        ("R9:a8Lu B9:h1Lu R/11/0", "the target is from 12 to 30 points with 2 players"),
        ("R12:a8Lu B13:h1Lu R/12/0", "Red and Blue cannot both have reached the target"),
        ("R9:a8Lu Y3:- B9:h1Lu Y/12/0", "Yellow has no pieces and is skipped: the seat to act must be in the game"),
        ("R9:a8Lu Y3!:- B9:h1Lu Y/12/0", "Yellow is out of the game: the seat to act must be in the game"),
        ("R0!:- B0!:- R/12/0", "at least one seat must still be in the game"),
    ],
)
def test_impossible_positions_are_refused_with_a_reason(position, reason):
    with pytest.raises(NotationError) as refused:
        GAME.load(position)
    assert str(refused.value).startswith(reason)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_legal_move_parses_back_to_itself(players):
    rng = random.Random(players)
    state = GAME.new(players, {}, 0)
    for _ in range(40):
        for action in GAME.legal_actions(state):
            assert GAME.parse_action(action.notation()) == action
        state = GAME.apply(state, rng.choice(list(GAME.legal_actions(state))))[0]
