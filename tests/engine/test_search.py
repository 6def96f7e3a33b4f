"""The shared computer player (engine/search.py), through the `Game` interface only.

Budgets are small so the file runs in seconds: a level's effort scales down with the
budget, and the wall clock is never what stops a search here.
"""

from __future__ import annotations

import pickle
import random
from typing import Any

import pytest

from engine import games, get_game
from engine.__main__ import answer, new_playable
from engine.nika import GameState
from engine.search import BUDGET_MS, LEVELS, accepts_draw, concedes_claim, think

NIKA = get_game("nika")
QUICK_MS = 40.0  # for a whole turn

START = GameState.start().notation()


def notations(actions: list[Any]) -> list[str]:
    return [action.notation() for action in actions]


def random_states(count: int, seed: int) -> list[Any]:
    """Positions along seeded random games, at assorted depths and both actions of a turn."""
    rng = random.Random(seed)
    states = []
    for _ in range(count):
        state = NIKA.new(4, {}, 0)
        for _ in range(rng.randrange(0, 120)):
            if NIKA.outcome(state) is not None:
                break
            state, _ = NIKA.apply(state, rng.choice(list(NIKA.legal_actions(state))))
        if NIKA.outcome(state) is None:
            states.append(state)
    return states


def check_turn(game: Any, state: Any, actions: list[Any]) -> None:
    """The actions are the rest of the turn, each legal after the ones before it."""
    seat = game.to_act(state)
    assert 1 <= len(actions) <= game.actions_left(state)
    for action in actions:
        assert game.to_act(state) == seat
        assert action.notation() in notations(list(game.legal_actions(state)))
        state, _ = game.apply(state, action)
    assert game.outcome(state) is not None or game.to_act(state) != seat  # the turn is over


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_the_rest_of_the_turn_legally(level):
    for state in random_states(16, seed=7):
        actions = think(NIKA, state, level=level, budget_ms=QUICK_MS, seed=1)
        check_turn(NIKA, state, actions)


def _after(state: Any, actions: list[Any]) -> Any:
    for action in actions:
        state, _ = NIKA.apply(state, action)
    return state


def test_a_search_in_a_worker_process_gives_what_it_gives_here():
    # The bot thinks in a process pool: arguments and results cross by pickling.
    state = random_states(1, seed=3)[0]
    game_copy, state_copy = pickle.loads(pickle.dumps((NIKA, state)))
    there = pickle.loads(pickle.dumps(think(game_copy, state_copy, level="hard", budget_ms=QUICK_MS, seed=8)))
    assert notations(there) == notations(think(NIKA, state, level="hard", budget_ms=QUICK_MS, seed=8))


def test_a_city_with_one_action_left_gets_one_action():
    state = NIKA.load(START.replace(" A2", " A1"))
    assert len(think(NIKA, state, level="hard", budget_ms=QUICK_MS, seed=0)) == 1


@pytest.mark.parametrize("level", LEVELS)
def test_the_same_state_level_and_seed_give_the_same_actions(level):
    # A budget big enough for the hard level to search several actions deep.
    for state in random_states(2, seed=11):
        first = think(NIKA, state, level=level, budget_ms=200, seed=5)
        again = think(NIKA, NIKA.load(NIKA.notation(state)), level=level, budget_ms=200, seed=5)
        assert notations(first) == notations(again)


@pytest.mark.parametrize("level", LEVELS)
def test_it_takes_a_win_in_one_action_and_stops_when_the_game_ends(level):
    state = NIKA.load("A:k12e S:d8e M:j12w T:r8w A2")  # k13 is Athens' victory area
    actions = think(NIKA, state, level=level, budget_ms=QUICK_MS, seed=3)
    assert notations(actions) == ["move k12 n"]


def sparta_wins_next_turn(state: Any) -> bool:
    """Whether Sparta, to act, has a win within its two actions."""
    for first in NIKA.legal_actions(state):
        after, _ = NIKA.apply(state, first)
        outcome = NIKA.outcome(after)
        if outcome is not None:
            if "sparta" in outcome.winners:
                return True
            continue
        for second in NIKA.legal_actions(after):
            done, _ = NIKA.apply(after, second)
            outcome = NIKA.outcome(done)
            if outcome is not None and "sparta" in outcome.winners:
                return True
    return False


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_it_stops_an_enemy_win_on_the_next_turn_when_it_can(level):
    # Sparta's r8 is one step from its victory area s8; Athens' r9 can rout it (r8 faces east).
    state = NIKA.load("A:j4n,r9n S:d8e,r8e M:j12s T:p4w A2")
    assert sparta_wins_next_turn(_after(state, [NIKA.parse_action("pass"), NIKA.parse_action("pass")]))
    actions = think(NIKA, state, level=level, budget_ms=BUDGET_MS[level], seed=2)
    assert not sparta_wins_next_turn(_after(state, actions))


def test_a_finished_game_gets_no_actions():
    state = NIKA.load("A:k13n S:d8e M:j12w T:r8w S2")
    assert NIKA.outcome(state) is not None
    assert think(NIKA, state, level="hard", budget_ms=QUICK_MS, seed=0) == []


def test_a_city_without_pieces_still_gets_legal_actions():
    state = NIKA.load("A:- S:d8e M:j12w T:r8w A2")  # only rallies and passes
    for level in LEVELS:
        check_turn(NIKA, state, think(NIKA, state, level=level, budget_ms=QUICK_MS, seed=0))


def test_an_unknown_level_is_refused():
    with pytest.raises(ValueError, match="easy, normal, hard"):
        think(NIKA, NIKA.load(START), level="grandmaster", budget_ms=QUICK_MS, seed=0)


@pytest.mark.parametrize("game", games(), ids=lambda game: game.slug)
def test_every_hosted_game_gets_legal_actions_at_every_level(game):
    # Through the interface alone: Numica writes a capture differently from a plain move, so
    # an action remembered from one position must be played as this position lists it.
    rng = random.Random(5)
    for players in game.player_counts:
        for seed in range(2):
            state = new_playable(game, players, {}, seed)
            for _ in range(rng.randrange(0, 40)):
                if game.outcome(state) is not None:
                    break
                state, _ = game.apply(state, rng.choice(list(game.legal_actions(state))))
            if game.outcome(state) is not None:
                continue
            for level in LEVELS:
                check_turn(game, state, think(game, state, level=level, budget_ms=60, seed=seed))


def test_a_game_without_an_evaluation_module_is_searched_for_wins_and_losses():
    tictactoe = get_game("tictactoe")
    win = tictactoe.load("xx./oo./... x")
    assert notations(think(tictactoe, win, level="hard", budget_ms=100, seed=0)) == ["c3"]
    block = tictactoe.load("xx./o../... o")
    assert notations(think(tictactoe, block, level="hard", budget_ms=100, seed=0)) == ["c3"]


# --- draws and claims ----------------------------------------------------------------------

LOSING_BADLY = "A:k2n S:d7s,d8e,d9n,e8e,e9n,f9n M:- T:p7s,q7s,q8w,r7s,r8w,r9n A2"


def test_a_draw_is_accepted_only_by_a_side_clearly_worse():
    losing = NIKA.load(LOSING_BADLY)
    assert accepts_draw(NIKA, losing, "athens") and accepts_draw(NIKA, losing, "messene")
    assert not accepts_draw(NIKA, losing, "sparta")
    assert not accepts_draw(NIKA, NIKA.load(START), "athens")
    assert not accepts_draw(NIKA, NIKA.load(START), "thebes")


def test_a_claim_is_conceded_when_the_claimed_side_is_to_act_with_a_win():
    state = NIKA.load("A:j4n S:d8e,r8e M:j12s T:p4w S2")
    assert concedes_claim(NIKA, state, "athens", "sparta-thebes")


def test_a_claim_is_conceded_when_no_action_of_ours_can_stop_it():
    state = NIKA.load("A:j4n S:d8e,r8e M:j12s T:p4w A2")  # nothing of Athens' is near r8
    assert concedes_claim(NIKA, state, "athens", "sparta-thebes")


def test_a_claim_is_challenged_when_we_can_still_stop_it():
    state = NIKA.load("A:j4n,r9n S:d8e,r8e M:j12s T:p4w A2")  # r9 routs the runner
    assert not concedes_claim(NIKA, state, "athens", "sparta-thebes")


def test_a_claim_far_from_a_win_is_challenged():
    assert not concedes_claim(NIKA, NIKA.load(START), "sparta", "athens-messene")
    assert not concedes_claim(NIKA, NIKA.load(START), "athens", "sparta-thebes")


def test_a_claim_for_its_own_side_is_not_for_it_to_concede():
    state = NIKA.load("A:j4n S:d8e,r8e M:j12s T:p4w S2")
    assert not concedes_claim(NIKA, state, "sparta", "sparta-thebes")


# --- the command line's serve -------------------------------------------------------------


def test_serve_answers_a_think_request_with_the_actions_of_the_turn():
    reply = answer({"position": "start", "think": {"ms": 50, "level": "normal", "seed": 4}}, NIKA)
    assert set(reply) == {"actions"} and len(reply["actions"]) == 2
    state = NIKA.load(START)
    for text in reply["actions"]:
        state, _ = NIKA.apply(state, NIKA.parse_action(text))
    again = answer({"position": START, "think": {"ms": 50, "level": "normal", "seed": 4}}, NIKA)
    assert again == reply


def test_serve_names_the_levels_when_one_is_unknown():
    reply = answer({"position": "start", "think": {"ms": 50, "level": "expert"}}, NIKA)
    assert reply == {"error": '"level" is one of easy, normal, hard'}


def test_a_draw_offered_during_a_secret_setup_is_declined_not_searched() -> None:
    """Before the back rows are set there is no position to judge; the computer plays it out
    (it used to search a state with no actions and fail)."""
    numica = get_game("numica")
    arranging = numica.new(2, {"setup": "choose"}, 3)
    assert numica.setup_pending(arranging)
    assert not accepts_draw(numica, arranging, "red") and not accepts_draw(numica, arranging, "blue")
