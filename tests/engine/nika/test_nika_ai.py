"""Nika's evaluation and move ordering for the computer player (engine/nika/ai.py)."""

from __future__ import annotations

from nika_scenarios import START, game

from engine.nika import City, parse_action, parse_square
from engine.nika.ai import DISTANCE, WIN, actions_to_win, evaluate, order, routes

AM, ST = "athens-messene", "sparta-thebes"


def score(position: str, side: str = AM) -> float:
    return evaluate(game(position), side)


def first_choices(position: str, count: int) -> list[str]:
    state = game(position)
    return [action.notation() for action in order(state, state.legal_actions())[:count]]


def test_distance_to_the_victory_area_goes_around_the_central_area():
    # k6 is 7 squares south of k13 in a straight line, but the central area is in the way.
    assert DISTANCE[City.ATHENS][parse_square("k6")] == 16
    assert DISTANCE[City.ATHENS][parse_square("k12")] == 1
    assert DISTANCE[City.SPARTA][parse_square("r8")] == 1


def test_distance_never_crosses_an_enemy_victory_area():
    # Sparta's victory area s7-s9 is closed to Athens, so Athens' pieces never stand there.
    assert DISTANCE[City.ATHENS][parse_square("s8")] == 40


def test_routes_go_round_the_pieces_in_the_way():
    # j11 is two steps from Athens' victory area; with an enemy on j12 the way round via k12 is three.
    open_board = routes(game("A:j11n S:d4s M:- T:- A2"))[City.ATHENS][parse_square("j11")]
    walled = routes(game("A:j11n S:j12s M:- T:- A2"))[City.ATHENS][parse_square("j11")]
    assert (open_board, walled) == (2, 3)


def test_a_runner_with_an_open_path_is_better_than_one_facing_a_wall():
    # Sparta's three pieces face south across file k; Athens' k10 runner is walled in, its i10 runner is not.
    walled = score("A:k10n S:j11s,k11s,l11s M:- T:r4w A2")
    open_path = score("A:i10n S:j11s,k11s,l11s M:- T:r4w A2")
    assert open_path > walled


def test_the_evaluation_is_zero_sum_between_the_teams():
    for position in (START, "A:j4n,r9n S:d8e,r8e M:j12s T:p4w A2"):
        assert score(position, AM) == -score(position, ST)


def test_a_runner_nearer_its_victory_area_is_better():
    far = score("A:f10n S:d4s M:o12s T:r4w A2")
    near = score("A:f11n S:d4s M:o12s T:r4w A2")
    assert near > far


def test_the_last_steps_of_a_runner_count_the_most():
    steps = [score(f"A:{sq}n S:d4s M:o12s T:r4w A2") for sq in ("h12", "i12", "j12")]
    assert steps[2] - steps[1] > steps[1] - steps[0] > 0


def test_a_piece_on_the_board_is_worth_more_than_a_routed_one():
    assert score("A:j5n,o5n S:d4s M:o12s T:r4w A2") > score("A:j5n S:d4s M:o12s T:r4w A2")


def test_a_piece_not_facing_an_adjacent_enemy_is_in_danger():
    # Sparta's e8 can rout Athens' f8 unless f8 faces it.
    facing = score("A:f8w S:e8n M:o12s T:r4w A2")
    exposed = score("A:f8n S:e8n M:o12s T:r4w A2")
    assert facing > exposed


def test_an_exposed_piece_is_in_more_danger_when_the_attacker_acts_first():
    # Athens' f8 and Sparta's e8 could each rout the other: whoever acts first has the edge.
    assert score("A:f8n S:e8n M:o12s T:r4w A2") > score("A:f8n S:e8n M:o12s T:r4w S2")


def test_a_piece_near_an_enemy_goal_matters_when_an_enemy_runner_comes_near():
    # Messene's d10 stands two steps from Thebes' victory area c7-c9; m10 is far from it.
    def guard_worth(thebes: str) -> float:
        return score(f"A:- S:- M:d10s T:{thebes} A2") - score(f"A:- S:- M:m10s T:{thebes} A2")

    assert guard_worth("f8w") > guard_worth("q8w") + 10  # Thebes' runner 3 steps from c8, or 14


def test_a_won_game_is_worth_a_win_and_a_draw_nothing():
    won = game("A:k13n S:d8e M:j12w T:r8w S2")
    assert evaluate(won, AM) == WIN and evaluate(won, ST) == -WIN


def test_actions_to_win_is_the_nearest_piece_of_the_team():
    state = game("A:j4n,r9n S:d8e,r8e M:j12s T:p4w A2")
    assert actions_to_win(state, ST) == 1  # Sparta's r8 is next to s8
    # Athens' r9 (10 steps round the east side) is nearer than Messene's j12 (17).
    assert actions_to_win(state, AM) == DISTANCE[City.ATHENS][parse_square("r9")] == 10


def test_a_winning_move_is_tried_first():
    assert first_choices("A:k12e,j4n S:d8e M:j12w T:r8w A2", 1) == ["move k12 n"]


def test_a_rout_is_tried_before_quiet_moves_and_a_pass_last():
    state = game("A:j4n,r9n S:d8e,r8e M:j12s T:p4w A2")
    ordered = [action.notation() for action in order(state, state.legal_actions())]
    assert ordered.index("move r9 s") < ordered.index("rotate j4 e")
    assert ordered[-1] == "pass"


def test_ordering_keeps_every_action_once():
    state = game(START)
    actions = state.legal_actions()
    assert sorted(a.notation() for a in order(state, actions)) == sorted(a.notation() for a in actions)
    assert parse_action("pass") in actions
