"""What players read: one line per move or departure, and the menus built from action paths."""

from __future__ import annotations

from pikemen_scenarios import START_2, described, game, play

from engine.api import Step
from engine.pikemen.game import GAME

OPEN = "R3:a6Ls,c2Lne B6:a3Mn,f5Lw,h1Lu,b7Sse R/12/0"


def test_a_charge_is_described():
    assert described(OPEN, "a6-a4") == "Red charged a6 to a4"


def test_a_capture_is_described_with_the_points_and_the_new_score():
    assert described(OPEN, "a6xa3") == "Red charged a6 to a3, capturing Blue's medium pikeman (+2, now 5)"


def test_a_turn_after_a_charge_is_described():
    assert described(OPEN, "a6xa3 ne") == (
        "Red charged a6 to a3, capturing Blue's medium pikeman (+2, now 5), and turned it to point north-east"
    )
    assert described(OPEN, "a6-a4 u") == "Red charged a6 to a4 and stood it upright"


def test_a_turn_in_place_is_described():
    assert described(OPEN, "c2 n") == "Red turned c2 to point north"
    assert described(OPEN, "c2 u") == "Red stood c2 upright"
    assert described("R3:a8Lu Y4:b7Mu B6:a1Lu,h1Lu Y/12/0", "b7 ne") == "Yellow turned b7 to point north-east"


def test_several_moves_are_joined_in_order():
    state = game(OPEN)
    state, first = GAME.apply(state, GAME.parse_action("c2 n"))
    _, second = GAME.apply(state, GAME.parse_action("h1 n"))
    assert GAME.describe([*first, *second]) == "Red turned c2 to point north; then Blue turned h1 to point north"


def test_a_charge_is_a_path_of_piece_target_and_turn():
    (charge,) = [a for a in GAME.legal_actions(game(OPEN)) if a.notation() == "a6-a4"]
    assert GAME.action_path(charge) == (Step("a6", "a6"), Step("a4", "a4"), Step("keep", "keep pointing that way", -1))
    (capture,) = [a for a in GAME.legal_actions(game(OPEN)) if a.notation() == "a6xa3 ne"]
    assert GAME.action_path(capture) == (Step("a6", "a6"), Step("a3", "a3 ✕ captures"), Step("ne", "↗ north-east", 1))


def test_a_turn_in_place_is_a_path_of_piece_turn_and_orientation():
    (turn,) = [a for a in GAME.legal_actions(game(OPEN)) if a.notation() == "c2 u"]
    assert GAME.action_path(turn) == (Step("c2", "c2"), Step("turn", "turn in place", -1), Step("u", "▲ upright", 8))


def test_every_legal_path_is_distinct_and_none_is_a_prefix_of_another():
    for state in (game(OPEN), game(START_2), play(GAME.new(4, {}, 0), "a8 se", "h8 sw", "h1 nw", "a1 ne")):
        paths = [tuple(step.value for step in GAME.action_path(a)) for a in GAME.legal_actions(state)]
        assert len(paths) == len(set(paths)) and all(len(path) == 3 for path in paths)
        assert all(" " not in value and ":" not in value for path in paths for value in path)
