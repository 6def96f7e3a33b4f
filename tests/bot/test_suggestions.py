"""Autocomplete offers only what is legal, filtered by what was typed, at most 25."""

from __future__ import annotations

from bot import suggestions
from engine.nika import GameState

START = GameState.start()
# Athens has two routed pieces, so it may rally; j1 is taken.
RALLY = GameState.from_notation("A:j1n,j4w,j5w,k4n S:d7s M:l10e T:r9n A2")


def values(pairs: list[tuple[str, str]]) -> list[str]:
    return [value for _, value in pairs]


def test_movable_pieces_are_the_squares_of_legal_moves() -> None:
    assert sorted(values(suggestions.movable_pieces(START.legal_actions(), ""))) == [
        "j4", "j5", "j6", "k4", "k5", "l4",
    ]  # fmt: skip
    assert values(suggestions.movable_pieces(START.legal_actions(), "J5")) == ["j5"]


def test_move_directions_are_those_legal_for_the_chosen_piece() -> None:
    # j5 faces west with j4 and j6 beside it, k5 behind: only west is open.
    assert values(suggestions.move_directions(START.legal_actions(), "j5", "")) == ["w"]
    assert values(suggestions.move_directions(START.legal_actions(), "l4", "")) == ["n", "e", "s"]
    assert values(suggestions.move_directions(START.legal_actions(), "l4", "ea")) == ["e"]
    assert values(suggestions.move_directions(START.legal_actions(), "", "")) == ["n", "e", "s", "w"]
    assert suggestions.move_directions(START.legal_actions(), "k7", "") == []  # no piece there
    assert suggestions.move_directions([], "", "") == []


def test_rotate_facings_accept_the_squares_in_any_order() -> None:
    assert values(suggestions.rotate_facings(START.legal_actions(), "j6, j4,j5", "")) == ["n", "e", "s"]
    assert suggestions.rotate_facings(START.legal_actions(), "j4,k5", "") == []  # not a phalanx


def test_advancing_formations_are_ready_made_square_lists() -> None:
    assert values(suggestions.advancing_formations(START.legal_actions(), "")) == [
        "j4,j5", "j5,j6", "k4,k5", "j4,j5,j6",
    ]  # fmt: skip
    # What starts with the typed text comes first; what merely contains it follows.
    assert values(suggestions.advancing_formations(START.legal_actions(), "j5,")) == ["j5,j6", "j4,j5,j6"]


def test_rally_squares_are_the_empty_squares_of_the_rally_area() -> None:
    assert sorted(values(suggestions.rally_squares(RALLY.legal_actions(), ""))) == ["j2", "k1", "k2", "l1", "l2"]
    assert suggestions.rally_squares(START.legal_actions(), "") == []


def test_never_more_than_25_choices() -> None:
    everything = suggestions.any_action(START.legal_actions(), "")
    assert len(everything) == 25
    assert all(value in {a.notation() for a in START.legal_actions()} for value in values(everything))
    assert values(suggestions.any_action(START.legal_actions(), "advance j4,j5,j")) == ["advance j4,j5,j6"]


def test_menus_list_the_largest_formations_first() -> None:
    # A 2x3 block facing north has 40 rotatable groups; a menu shows 25, the big ones first.
    block = GameState.from_notation("A:j4n,j5n,j6n,k4n,k5n,k6n S:d7s M:l10e T:r9n A2")
    groups = values(suggestions.groups_largest_first(block.legal_actions()))
    assert len(groups) == 25 and groups[0] == "j4,j5,j6,k4,k5,k6"
    assert [g.count(",") for g in groups] == sorted((g.count(",") for g in groups), reverse=True)
