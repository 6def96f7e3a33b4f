"""Nika's notation (docs/nika.md, "Notation"): actions parsed tolerantly and written canonically;
positions round trip exactly."""

from __future__ import annotations

import pytest
from nika_scenarios import START

from engine.errors import IllegalAction, NotationError
from engine.nika import (
    Advance,
    City,
    Direction,
    Move,
    Pass,
    Position,
    Rally,
    Rotate,
    parse_action,
    parse_direction,
    parse_square,
)


def sq(*names: str) -> tuple[int, ...]:
    return tuple(parse_square(name) for name in names)


# --- Canonical actions --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("action", "text"),
    [
        (Move(parse_square("j6"), Direction.W), "move j6 w"),
        (Rotate(sq("k5"), Direction.W), "rotate k5 w"),
        (Rotate(sq("j4", "j5", "j6"), Direction.N), "rotate j4,j5,j6 n"),
        (Advance(sq("j4", "j5", "j6")), "advance j4,j5,j6"),
        (Rally(parse_square("k1"), Direction.N), "rally k1 n"),
        (Pass(), "pass"),
    ],
)
def test_canonical_notation_of_each_action(action, text):
    assert action.notation() == text
    assert parse_action(text) == action


def test_squares_are_sorted_by_file_then_rank():
    assert parse_action("rotate l4, k5, k4, j12 s").notation() == "rotate j12,k4,k5,l4 s"
    assert parse_action("advance k11,k10").notation() == "advance k10,k11"


# --- Tolerant parsing ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "move j6 w",
        "MOVE J6 W",
        "  move   j6    w  ",
        "move j6 west",
        "Move J6 West",
        "move j6 left",
        "move j6 ←",
        "move j6 <",
        "m j6w",
        "move j6,w",
        "move j6 to i6",
        "move j6 i6",
        "move j6-i6",
    ],
)
def test_moves_are_read_tolerantly(text):
    assert parse_action(text).notation() == "move j6 w"


@pytest.mark.parametrize("word", ["n", "N", "north", "North", "up", "↑", "^"])
def test_north_has_many_names(word):
    assert parse_action(f"rotate k5 {word}").notation() == "rotate k5 n"
    assert parse_direction(word) == Direction.N


@pytest.mark.parametrize(("word", "letter"), [("east", "e"), ("→", "e"), ("down", "s"), ("↓", "s"), ("right", "e")])
def test_other_direction_words(word, letter):
    assert parse_action(f"rally k1 {word}").notation() == f"rally k1 {letter}"


@pytest.mark.parametrize(
    "text",
    [
        "rotate j4,j5,j6 n",
        "rotate j4, j5, j6 n",
        "rotate j4 j5 j6 n",
        "ROTATE J6,J4,J5 NORTH",
        "rotate j4-j6 n",
        "rotate j6-j4 n",
        "rotate j4 - j6 n",
        "rotate j4–j6 n",
        "rotate j4..j6 up",
        "r j4-j6 ↑",
        "turn j4-j6 to face north",
    ],
)
def test_phalanxes_are_read_tolerantly_including_ranges(text):
    assert parse_action(text).notation() == "rotate j4,j5,j6 n"


def test_ranges_run_along_ranks_too_and_mix_with_lists():
    assert parse_action("advance d5-f5, d6").notation() == "advance d5,d6,e5,f5"


@pytest.mark.parametrize("text", ["rally k1 facing north", "rally k1n", "RALLY K1 N", "rally k1 ↑"])
def test_rallies_are_read_tolerantly(text):
    assert parse_action(text).notation() == "rally k1 n"


@pytest.mark.parametrize("text", ["pass", "PASS", " Pass ", "skip"])
def test_pass(text):
    assert parse_action(text) == Pass()


# --- Friendly errors ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "an action is needed"),
        ("fly j6 w", "I can't read 'fly j6 w'"),
        ("hello", "write one of: move j6 w · rotate k5 w"),
        ("move z9 w", "'z9' is not a square: files run a–u and ranks 1–15, like j6"),
        ("move j16 w", "'j16' is not a square"),
        ("move k7 n", "k7 is in the central area"),
        ("move a1 n", "a1 is off the board"),
        ("rally h1 n", "h1 is in Athens' routed-pieces box"),
        ("move j6", "move needs the square(s) and then a direction, like move j6 w"),
        ("move j6 sideways", "'sideways' is not a direction: use n, e, s or w"),
        ("move j6,j5 w", "move takes one square: a single piece; a phalanx uses advance"),
        ("rally k1,k2 n", "rally takes one square: one piece at a time"),
        ("rotate j4,j4 n", "j4 is listed twice"),
        ("rotate j4-j6,j5 n", "j5 is listed twice"),
        ("rotate h6-i7 n", "h6-i7 is not a straight line"),
        ("advance j6", "advance needs the squares of a phalanx of 2 or more pieces"),
        ("advance j4,j5,j6 n", "a phalanx advances the way it faces, so leave out the direction"),
        ("pass now", "pass takes nothing after it"),
        ("move j6 j8", "j6 to j8 is not a single step"),
    ],
)
def test_garbage_gets_a_reason(text, reason):
    with pytest.raises(NotationError) as refused:
        parse_action(text)
    assert reason in str(refused.value)


@pytest.mark.parametrize(
    "text", ["move j6 nw", "move j6 northeast", "move j6 north-east", "move j6 ↗", "move j6ne", "rotate k5 se"]
)
def test_diagonal_words_are_refused_with_the_rule(text):
    with pytest.raises(NotationError, match="pieces never move or face diagonally: use n, e, s or w"):
        parse_action(text)


def test_a_diagonal_step_between_two_squares_is_refused():
    with pytest.raises(NotationError, match="never move or face diagonally"):
        parse_action("move j6 i7")


def test_notation_errors_are_illegal_actions():
    assert issubclass(NotationError, IllegalAction)


# --- Positions ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        START,
        "A:- S:- M:- T:- A2",
        "A:k1n S:a7e,b9s M:l15w T:u7n S1",
        "A:k13n S:- M:- T:- T1",  # a finished game is still a position
        "A:k3e S:c8w M:j13s T:s9n M2",  # pieces on their allies' victory areas
    ],
)
def test_position_notation_round_trips_exactly(text):
    assert Position.from_notation(text).notation() == text


def test_position_notation_is_read_tolerantly_and_written_canonically():
    messy = "a:K5N,j4w  s:-  m:-  t:- a1"
    assert Position.from_notation(messy).notation() == "A:j4w,k5n S:- M:- T:- A1"


def test_a_position_exposes_pieces_and_routed_counts():
    position = Position.from_notation("A:k5n S:d4e,e4e M:- T:- S1")
    assert [(p.city, p.square, p.facing) for p in position.pieces()] == [
        (City.SPARTA, parse_square("d4"), Direction.E),
        (City.SPARTA, parse_square("e4"), Direction.E),
        (City.ATHENS, parse_square("k5"), Direction.N),
    ]
    assert [position.routed(city) for city in City] == [5, 4, 6, 6]
    assert (position.to_act, position.actions_left) == (City.SPARTA, 1)


def test_equal_positions_are_equal_and_hash_alike():
    assert Position.from_notation(START) == Position.start()
    assert hash(Position.from_notation(START)) == hash(Position.start())
    assert len({Position.from_notation(START), Position.start()}) == 1


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("A:k5n", "a position has five fields"),
        ("S:- A:- M:- T:- A2", "should start with A:"),
        ("A:k5 S:- M:- T:- A2", "'k5' is not a square followed by a facing"),
        ("A:k5x S:- M:- T:- A2", "'k5x' is not a square followed by a facing"),
        ("A:k7n S:- M:- T:- A2", "k7 is in the central area"),
        ("A:a1n S:- M:- T:- A2", "a1 is off the board"),
        ("A:s8n S:- M:- T:- A2", "Athens cannot stand on s8, Sparta's victory area"),
        ("A:k5n,k5e S:- M:- T:- A2", "two pieces on k5"),
        ("A:k5n S:k5e M:- T:- A2", "two pieces on k5"),
        ("A:d4n,e4n,f4n,g4n,h4n,i4n,j4n S:- M:- T:- A2", "Athens has 7 pieces; a city has at most 6"),
        ("A:- S:- M:- T:- A3", "should be the city to act and its actions left"),
        ("A:- S:- M:- T:- X2", "should be the city to act"),
    ],
)
def test_bad_positions_get_a_reason(text, reason):
    with pytest.raises(NotationError) as refused:
        Position.from_notation(text)
    assert reason in str(refused.value)


def test_emoji_arrows_from_phone_keyboards_are_directions():
    for text, letter in [("⬆", "n"), ("⬆\ufe0f", "n"), ("➡️", "e"), ("⬇", "s"), ("⬅️", "w"), ("▶️", "e")]:
        assert parse_action(f"move j6 {text}").notation() == f"move j6 {letter}"
        assert parse_action(f"rotate k5 {text}").notation() == f"rotate k5 {letter}"
