"""Rulebook §4–5 and docs/nika.md, rules 1–4, 8, 9: moving, routing, rotating, rallying and passing."""

from __future__ import annotations

import pytest
from nika_scenarios import START, after, event_dicts, game, is_legal, legal, refusal

from engine.errors import IllegalAction
from engine.nika import City, Move

# --- Move: one square, orthogonally, ending facing the way it moved -----------------------------


@pytest.mark.parametrize(
    ("action", "result"),
    [
        ("move k5 n", "A:k6n S:- M:- T:- A1"),
        ("move k5 e", "A:l5e S:- M:- T:- A1"),
        ("move k5 s", "A:k4s S:- M:- T:- A1"),
        ("move k5 w", "A:j5w S:- M:- T:- A1"),
    ],
)
def test_a_piece_moves_one_square_any_way_and_ends_facing_it(action, result):
    assert after("A:k5n S:- M:- T:- A2", action) == result


def test_a_move_reports_where_the_piece_went():
    assert event_dicts("A:k5n S:- M:- T:- A2", "move k5 w") == [
        {"event": "moved", "city": "athens", "from": "k5", "to": "j5"}
    ]


def test_there_are_no_diagonal_moves():
    moves = {a for a in legal("A:k5n S:- M:- T:- A2") if a.startswith("move")}
    assert moves == {"move k5 n", "move k5 e", "move k5 s", "move k5 w"}


def test_moving_a_piece_that_is_not_yours_is_refused():
    assert refusal(START.replace(" A2", " S2"), "move j6 w") == "j6 is not one of your pieces: it is Athens' piece"
    assert refusal(START, "move k6 n") == "k6 is not one of your pieces: it is empty"
    assert refusal(START, "move k11 s").startswith("it is Athens' turn; k11 is Messene's piece")


def test_a_piece_cannot_move_into_the_central_area():
    assert refusal("A:k6n S:- M:- T:- A2", "move k6 n") == "k6 cannot move north: k7 is in the central area"


def test_a_piece_cannot_move_off_the_board():
    assert refusal("A:d5n S:- M:- T:- A2", "move d5 w") == "d5 cannot move west: c5 is off the board"
    assert refusal("A:k1n S:- M:- T:- A2", "move k1 s") == "k1 cannot move south: that is off the board"


def test_a_piece_cannot_move_into_an_occupied_square_of_its_own_side():
    assert refusal("A:k5n,k6e S:- M:- T:- A2", "move k5 n") == "k6 is occupied by your own piece"
    assert refusal("A:k5n S:- M:k6e T:- A2", "move k5 n") == "k6 is occupied by your ally Messene's piece"


# --- Routing (rulebook §5; docs/nika.md, rule 3) -----------------------------------------------------


@pytest.mark.parametrize("facing", ["n", "e", "w"])
def test_a_single_piece_routs_an_enemy_that_is_not_facing_it(facing):
    # Athens moves north onto k6: only a piece facing south faces it.
    position = f"A:k5n S:d4n,k6{facing} M:- T:- A2"
    assert after(position, "move k5 n") == "A:k6n S:d4n M:- T:- A1"
    assert event_dicts(position, "move k5 n") == [
        {"event": "moved", "city": "athens", "from": "k5", "to": "k6"},
        {"event": "routed", "city": "sparta", "square": "k6"},
    ]
    assert game(after(position, "move k5 n")).position.routed(City.SPARTA) == 5


def test_a_single_piece_cannot_rout_an_enemy_facing_it():
    position = "A:k5n S:k6s M:- T:- A2"
    assert "Sparta's hoplite on k6 faces you" in refusal(position, "move k5 n")
    assert not is_legal(position, "move k5 n")


def test_a_single_piece_never_pushes():
    # Even with an empty square behind the enemy, a single piece cannot shove it.
    assert refusal("A:k5n S:k6s M:- T:- A2", "move k5 n").endswith(
        "a single piece can only rout an enemy that is not facing it (a phalanx may push)"
    )


def test_you_may_never_rout_your_own_or_allied_pieces():
    assert not is_legal("A:k5n,k6e S:- M:- T:- A2", "move k5 n")
    assert not is_legal("A:k5n S:- M:k6e T:- A2", "move k5 n")


# --- Who may stand where (docs/nika.md, rule 2) ------------------------------------------------------


def test_pieces_move_through_their_own_rally_area_and_their_allys_victory_area():
    # Athens rallies on k1 and walks out through k2 (its rally area) and k3 (Messene's victory area).
    assert after("A:k1n S:- M:- T:- A2", "move k1 n", "move k2 n") == "A:k3n S:- M:- T:- S2"
    assert is_legal("A:k3n S:- M:- T:- A2", "move k3 n")
    # Messene does the same from the north, through Athens' victory area.
    assert after("A:- S:- M:k14s T:- M2", "move k14 s", "move k13 s") == "A:- S:- M:k12s T:- T2"


def test_a_piece_may_never_enter_an_enemy_victory_area():
    assert refusal("A:r8e S:- M:- T:- A2", "move r8 e") == "s8 is Sparta's victory area: Athens may never enter it"
    assert refusal("A:- S:k4s M:- T:- S2", "move k4 s") == "k3 is Messene's victory area: Sparta may never enter it"
    assert not is_legal("A:r8e S:- M:- T:- A2", "move r8 e")


def test_a_piece_may_not_rout_an_enemy_standing_where_it_may_not_go():
    # A Thebes piece on Sparta's victory area (its ally's) is out of Athens' reach.
    assert "Athens may never enter it" in refusal("A:r8e S:- M:- T:s8n A2", "move r8 e")


# --- Rotate (rulebook §4; docs/nika.md, rule 4) ------------------------------------------------------


@pytest.mark.parametrize(("facing", "word"), [("e", "east"), ("s", "south"), ("w", "west")])
def test_a_piece_rotates_in_place_to_any_other_facing(facing, word):
    assert after("A:k5n S:- M:- T:- A2", f"rotate k5 {facing}") == f"A:k5{facing} S:- M:- T:- A1"
    assert event_dicts("A:k5n S:- M:- T:- A2", f"rotate k5 {facing}") == [
        {"event": "rotated", "city": "athens", "squares": "k5", "facing": facing}
    ]


def test_rotating_to_the_facing_a_piece_already_has_is_not_an_action():
    assert refusal("A:k5n S:- M:- T:- A2", "rotate k5 n") == "k5 already faces north: rotating must change the facing"
    assert not is_legal("A:k5n S:- M:- T:- A2", "rotate k5 n")


def test_a_move_then_a_rotation_takes_two_actions():
    assert after("A:k5n S:- M:- T:- A2", "move k5 e", "rotate l5 n") == "A:l5n S:- M:- T:- S2"


# --- Rally (rulebook §4; docs/nika.md, rule 8) -------------------------------------------------------


@pytest.mark.parametrize("facing", ["n", "e", "s", "w"])
def test_a_routed_piece_rallies_on_the_rally_area_facing_any_direction(facing):
    position = "A:k5n S:- M:- T:- A2"
    assert after(position, f"rally k1 {facing}") == f"A:k1{facing},k5n S:- M:- T:- A1"
    assert event_dicts(position, f"rally k1 {facing}") == [
        {"event": "rallied", "city": "athens", "square": "k1", "facing": facing}
    ]


def test_every_empty_rally_square_and_facing_is_a_legal_rally():
    rallies = {a for a in legal("A:k1n S:- M:- T:- A2") if a.startswith("rally")}
    assert rallies == {f"rally {sq} {d}" for sq in ("j1", "j2", "k2", "l1", "l2") for d in "nesw"}


@pytest.mark.parametrize(
    ("position", "action", "reason"),
    [
        (START, "rally k1 n", "Athens has no routed pieces to rally"),
        ("A:k1n S:- M:- T:- A2", "rally k1 e", "k1 is occupied: rally onto an empty square"),
        ("A:- S:- M:- T:- A2", "rally k4 n", "k4 is not in your rally area: Athens rallies on j1–l2"),
        ("A:- S:- M:- T:- S2", "rally k1 n", "k1 is not in your rally area: Sparta rallies on a7–b9"),
        ("A:- S:- M:- T:- M2", "rally k3 n", "k3 is not in your rally area: Messene rallies on j14–l15"),
        ("A:- S:- M:- T:- T2", "rally s8 w", "s8 is not in your rally area: Thebes rallies on t7–u9"),
    ],
)
def test_rally_refusals(position, action, reason):
    assert refusal(position, action) == reason


def test_a_city_with_no_routed_pieces_has_no_rally_actions():
    assert not any(a.startswith("rally") for a in legal(START))


# --- Pass (docs/nika.md, rule 9) ---------------------------------------------------------------------


def test_pass_does_nothing_but_spend_an_action():
    assert after(START, "pass") == START.replace(" A2", " A1")
    assert after(START, "pass", "pass") == START.replace(" A2", " S2")
    assert event_dicts(START, "pass") == [{"event": "passed", "city": "athens"}]
    assert "pass" in legal("A:- S:- M:- T:- A2")


def test_the_same_piece_may_act_twice_in_a_turn():
    assert after("A:k5n S:- M:- T:- A2", "move k5 n", "move k6 e") == "A:l6e S:- M:- T:- S2"


def test_a_typed_action_on_a_square_outside_the_board_is_refused():
    state = game(START)
    for bad in (Move(-1, 0), Move(10_000, 0)):
        with pytest.raises(IllegalAction, match="is not a square of the board"):
            state.apply(bad)  # type: ignore[arg-type]
