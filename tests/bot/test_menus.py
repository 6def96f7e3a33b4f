"""Autocomplete and the button panel offer only what is legal, step by step, from the
games' action paths (bot/menus.py), filtered by what was typed, at most 25."""

from __future__ import annotations

from bot import menus
from bot.commands.dispatch import path_values
from bot.commands.group import commands_for
from engine.nika import GameState
from engine.registry import get_game

NIKA = get_game("nika")
START = GameState.start()
# Athens has two routed pieces, so it may rally; j1 is taken.
RALLY = GameState.from_notation("A:j1n,j4w,j5w,k4n S:d7s M:l10e T:r9n A2")


def values(steps) -> list[str]:
    return [step.value for step in steps]


def test_the_first_step_is_the_kind_of_action() -> None:
    assert values(menus.next_steps(NIKA, START.legal_actions(), [])) == ["move", "rotate", "advance", "pass"]
    assert "rally" in values(menus.next_steps(NIKA, RALLY.legal_actions(), []))


def test_movable_pieces_are_the_squares_of_legal_moves() -> None:
    pieces = values(menus.next_steps(NIKA, START.legal_actions(), ["move"]))
    assert sorted(pieces) == ["j4", "j5", "j6", "k4", "k5", "l4"]
    assert values(menus.matching(menus.next_steps(NIKA, START.legal_actions(), ["move"]), "J5")) == ["j5"]


def test_move_directions_are_those_legal_for_the_chosen_piece() -> None:
    # j5 faces west with j4 and j6 beside it, k5 behind: only west is open.
    assert values(menus.next_steps(NIKA, START.legal_actions(), ["move", "j5"])) == ["w"]
    assert values(menus.next_steps(NIKA, START.legal_actions(), ["move", "l4"])) == ["n", "e", "s"]
    directions = menus.next_steps(NIKA, START.legal_actions(), ["move", "l4"])
    assert values(menus.matching(directions, "ea")) == ["e"]
    # No piece chosen yet: every direction some piece can take.
    assert values(menus.next_steps(NIKA, START.legal_actions(), ["move", None])) == ["n", "e", "s", "w"]
    assert menus.next_steps(NIKA, START.legal_actions(), ["move", "k7"]) == []  # no piece there
    assert menus.next_steps(NIKA, [], ["move"]) == []


def test_rotate_facings_accept_the_squares_in_any_order() -> None:
    rotate = commands_for("nika")["rotate"]
    chosen = path_values(rotate, {"pieces": "j6, j4,j5"}, 2)
    assert chosen == ["rotate", "j4,j5,j6"]
    assert values(menus.next_steps(NIKA, START.legal_actions(), chosen)) == ["n", "e", "s"]
    assert menus.next_steps(NIKA, START.legal_actions(), ["rotate", "j4,k5"]) == []  # not a phalanx


def test_advancing_formations_are_ready_made_square_lists() -> None:
    formations = menus.next_steps(NIKA, START.legal_actions(), ["advance"])
    assert values(formations) == ["j4,j5,j6", "j4,j5", "j5,j6", "k4,k5"]  # the largest first
    # What starts with the typed text comes first; what merely contains it follows.
    assert values(menus.matching(formations, "j5,")) == ["j5,j6", "j4,j5,j6"]


def test_rally_squares_are_the_empty_squares_of_the_rally_area() -> None:
    squares = values(menus.next_steps(NIKA, RALLY.legal_actions(), ["rally"]))
    assert sorted(squares) == ["j2", "k1", "k2", "l1", "l2"]
    assert menus.next_steps(NIKA, START.legal_actions(), ["rally"]) == []


def test_a_complete_path_names_exactly_one_action() -> None:
    legal = START.legal_actions()
    assert menus.action_at(NIKA, legal, ["move", "l4", "e"]).notation() == "move l4 e"
    assert menus.action_at(NIKA, legal, ["pass"]).notation() == "pass"
    assert menus.action_at(NIKA, legal, ["move", "l4"]) is None
    assert menus.action_at(NIKA, legal, ["move", "j5", "n"]) is None  # not legal


def test_never_more_than_25_choices() -> None:
    block = GameState.from_notation("A:j4n,j5n,j6n,k4n,k5n,k6n S:d7s M:l10e T:r9n A2")
    groups = menus.next_steps(NIKA, block.legal_actions(), ["rotate"])
    assert len(groups) > 25
    shown = values(menus.matching(groups, ""))
    assert len(shown) == 25 and shown[0] == "j4,j5,j6,k4,k5,k6"
    # The largest formations first: a menu holds 25 choices, and big phalanxes matter most.
    assert [g.count(",") for g in shown] == sorted((g.count(",") for g in shown), reverse=True)
