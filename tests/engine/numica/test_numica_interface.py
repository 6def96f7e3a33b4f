"""Numica behind the shared `Game` interface: the table, words for the channel, menu paths."""

from __future__ import annotations

from numica_scenarios import game, play, position

from engine.api import Seat, Step, UndoScope
from engine.numica import parse_action
from engine.numica.game import GAME
from engine.registry import get_game


def test_numica_is_registered_with_its_table():
    numica = get_game("numica")
    assert numica is GAME
    assert (numica.slug, numica.title, numica.player_counts) == ("numica", "Numica", (2,))
    assert numica.seats(2) == (Seat("red", "Red", "red"), Seat("blue", "Blue", "blue"))
    assert [side.slug for side in numica.sides(2)] == ["red", "blue"]
    assert (numica.actions_per_turn, numica.undo_scope, numica.claim, numica.seat_word, numica.has_setup) == (
        1,
        UndoScope.UNTIL_NEXT_ACTION,
        None,
        "side",
        True,
    )
    assert [(o.name, [c.value for c in o.choices], o.default) for o in numica.options] == [
        ("setup", ["choose", "random"], "choose")
    ]


BOARD = position(red="d4s*,a1o,b1o,c1s,g1s,h1s", blue="f5o*,a8s,b8o,c8s,g8s,h8o", tiles_at="d4=K c1=K f5=K")


def test_a_move_is_described_in_a_line():
    _, happened = GAME.apply(game(BOARD), parse_action("c1-d3"))
    assert GAME.describe(happened) == "Red moved c1 to d3"


def test_a_capture_is_described_with_the_piece_taken():
    _, happened = GAME.apply(game(BOARD), parse_action("d4xf5"))
    assert GAME.describe(happened) == "Red captured Blue's round piece on f5 (d4xf5)"


def test_the_ending_follows_the_move_that_caused_it():
    board = position(red="d4s*,a1o,b1o,g1s,h1s", blue="f5o*,a8s,c8s,e8s,h8s,h7o*", tiles_at="d4=K")
    _, happened = GAME.apply(game(board), parse_action("d4xf5"))
    assert GAME.describe(happened) == (
        "Red captured Blue's round piece on f5 (d4xf5) — Red wins: 3 round pieces captured"
    )


def test_several_moves_are_described_in_turn():
    state, first = GAME.apply(game(BOARD), parse_action("c1-d3"))
    _, second = GAME.apply(state, parse_action("f5-e3"))
    assert GAME.describe([*first, *second]) == "Red moved c1 to d3; then Blue moved f5 to e3"


def test_a_move_is_chosen_in_a_menu_by_its_from_and_to_squares():
    assert GAME.action_path(parse_action("c1-c4")) == (Step("c1", "c1"), Step("c4", "c4"))
    capture = next(m for m in GAME.legal_actions(game(BOARD)) if m.capture)
    assert GAME.action_path(capture) == (Step("d4", "d4"), Step("f5", "f5 ✕ captures", -1))


def test_every_legal_move_has_its_own_menu_path():
    state = play(BOARD, "c1-d3")
    paths = [tuple(s.value for s in GAME.action_path(m)) for m in GAME.legal_actions(state)]
    assert len(paths) == len(set(paths))


def test_states_and_moves_pickle_for_a_computer_player_in_another_process():
    import pickle

    state = play(BOARD, "c1-d3")
    again = pickle.loads(pickle.dumps(state))
    assert again == state and GAME.notation(again) == GAME.notation(state)
    move = GAME.legal_actions(state)[0]
    assert pickle.loads(pickle.dumps(move)).listed
