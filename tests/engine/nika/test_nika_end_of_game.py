"""Rulebook §1, §8, §9 and docs/nika.md, rules 10–12: winning, draws, and endings decided off the board."""

from __future__ import annotations

import json

import pytest
from nika_scenarios import START, event_dicts, game, play

from engine.errors import GameOver, IllegalAction, NotationError
from engine.nika import Drawn, GameState, Outcome, Pass, Reason, Team, parse_action

# --- Victory (rulebook §1; docs/nika.md, rule 10) ----------------------------------------------------


@pytest.mark.parametrize(
    ("position", "action", "team", "square"),
    [
        ("A:k12n S:- M:- T:- A2", "move k12 n", "athens-messene", "k13"),
        ("A:- S:- M:k4s T:- M2", "move k4 s", "athens-messene", "k3"),
        ("A:- S:r8n M:- T:- S2", "move r8 e", "sparta-thebes", "s8"),
        ("A:- S:- M:- T:d8n T2", "move d8 w", "sparta-thebes", "c8"),
    ],
)
def test_a_piece_entering_its_own_victory_area_wins_for_its_team(position, action, team, square):
    state = play(position, action)
    assert state.is_over and state.outcome is not None
    assert state.outcome.result == team
    assert state.outcome.reason == Reason.VICTORY
    assert event_dicts(position, action)[-1] == {
        "event": "win", "team": team, "city": game(position).to_act.name.lower(), "square": square,
    }  # fmt: skip


def test_a_win_is_immediate_the_second_action_of_the_turn_is_not_played():
    state = play("A:k12n S:- M:- T:- A2", "move k12 n")
    assert state.notation() == "A:k13n S:- M:- T:- A1"  # Athens still had an action left
    assert state.legal_actions() == []
    with pytest.raises(GameOver, match="the game is over: Athens–Messene reached the victory area"):
        state.apply(Pass())


def test_a_phalanx_advancing_into_its_victory_area_wins():
    state = play("A:k11n,k12n S:- M:- T:- A2", "advance k11,k12")
    assert state.outcome == Outcome(Team.ATHENS_MESSENE, Reason.VICTORY)


def test_a_piece_pushed_into_its_own_victory_area_wins_for_the_pushed_team():
    # Athens pushes Sparta's r8 east onto s8: Sparta's own victory area.
    position = "A:p8e,q8e S:r8w M:- T:- A2"
    state = play(position, "advance p8,q8")
    assert state.outcome == Outcome(Team.SPARTA_THEBES, Reason.VICTORY)
    assert event_dicts(position, "advance p8,q8")[1:] == [
        {"event": "pushed", "city": "sparta", "from": "r8", "to": "s8"},
        {"event": "win", "team": "sparta-thebes", "city": "sparta", "square": "s8"},
    ]


def test_a_piece_pushed_into_its_allys_victory_area_stands_there_without_winning():
    state = play("A:p8e,q8e S:- M:- T:r8w A2", "advance p8,q8")
    assert state.notation() == "A:q8e,r8e S:- M:- T:s8w A1"
    assert not state.is_over


def test_an_ally_on_your_victory_area_does_not_win():
    state = play("A:- S:- M:k12n T:- M2", "move k12 n")
    assert state.notation() == "A:- S:- M:k13n T:- M1" and not state.is_over


def test_a_position_already_won_is_over_when_loaded():
    state = game("A:k13n S:- M:- T:- S2")
    assert state.outcome == Outcome(Team.ATHENS_MESSENE, Reason.VICTORY)
    assert state.legal_actions() == []


# --- Draw by passing (rulebook §9.1; docs/nika.md, rule 11a) -----------------------------------------


def test_four_consecutive_city_turns_of_two_passes_draw():
    state = game(START)
    for _ in range(7):  # Athens, Sparta, Messene pass both actions; Thebes passes once
        state, happened = state.apply(Pass())
        assert not state.is_over
    state, happened = state.apply(Pass())
    assert state.outcome == Outcome(None, Reason.PASSES)
    assert happened[-1] == Drawn("passes")
    assert state.outcome.describe() == "Draw: four city turns in a row passed both actions"


def test_a_turn_with_one_pass_does_not_count_toward_the_passing_draw():
    # Athens rotates and passes; then Sparta, Messene and Thebes pass twice: three turns, not four.
    state = play(START, "rotate k5 e", "pass", *["pass"] * 6)
    assert not state.is_over and state.all_pass_turns == 3
    # Athens passing twice makes the fourth.
    assert play(START, "rotate k5 e", "pass", *["pass"] * 8).outcome == Outcome(None, Reason.PASSES)


def test_a_single_action_breaks_a_run_of_passing_turns():
    state = play(START, *["pass"] * 6, "rotate p7 e", "pass", *["pass"] * 6)
    assert not state.is_over
    assert state.all_pass_turns == 3


def test_a_position_loaded_mid_turn_does_not_count_the_unknown_first_action_as_a_pass():
    state = play(START.replace(" A2", " A1"), *["pass"] * 7)
    assert not state.is_over  # Athens' turn is not known to be all passes: S, M, T make three
    assert play(START.replace(" A2", " A1"), *["pass"] * 9).outcome == Outcome(None, Reason.PASSES)


# --- Draw by repetition (rulebook §9.2; docs/nika.md, rule 11b) --------------------------------------

# Athens turns k5 away and back; everyone else passes: the start position comes back every 8 actions.
_CYCLE = ["rotate k5 e", "rotate k5 n", *["pass"] * 6]


def test_the_same_position_a_third_time_draws_counting_the_start():
    state = game(START)
    for action in [*_CYCLE, *_CYCLE[:-1]]:
        state, _ = state.apply(parse_action(action))
        assert not state.is_over
    assert state.times_seen(game(START).position) == 2
    state, happened = state.apply(Pass())
    assert state.notation() == START
    assert state.times_seen() == 3
    assert state.outcome == Outcome(None, Reason.REPETITION)
    assert happened[-1] == Drawn("repetition")


def test_repetition_counts_every_position_not_only_the_start_of_turns():
    state = play(START, *_CYCLE, "rotate k5 e")  # k5 facing east with Athens to act once more: twice now
    assert state.times_seen() == 2
    assert state.times_seen(game(START).position) == 2


def test_a_position_differs_by_the_city_to_act_and_its_actions_left():
    assert game(START).position != game(START.replace(" A2", " A1")).position
    assert game(START).position != game(START.replace(" A2", " S2")).position


def test_repetition_counts_the_loaded_position_as_its_first_occurrence():
    loaded = "A:k5n S:- M:- T:- A2"
    cycle = ["rotate k5 e", "rotate k5 n", *["pass"] * 6]
    assert play(loaded, *cycle, *cycle).outcome == Outcome(None, Reason.REPETITION)


def test_branching_from_an_earlier_state_keeps_each_line_of_play_separate():
    start = game(START)
    line = start
    for action in _CYCLE:
        line, _ = line.apply(parse_action(action))
    branch, _ = start.apply(parse_action("move k5 n"))  # start already has a child: history is copied
    assert line.times_seen() == 2
    assert branch.times_seen(start.position) == 1
    assert branch.plies == 2 and branch.times_seen() == 1
    assert line.plies == 9 and line.times_seen(start.position) == 2
    # Each line counts its own repetitions: replaying the cycle on a branch taken after one cycle.
    again = line
    for action in _CYCLE[:-1]:
        again, _ = again.apply(parse_action(action))
    fork, _ = again.apply(Pass())
    assert fork.outcome == Outcome(None, Reason.REPETITION)
    other, _ = again.apply(parse_action("rotate p7 e"))  # Thebes ends its turn differently instead
    assert not other.is_over and other.times_seen() == 1


# --- Endings decided away from the board (rulebook §8, §9.3; docs/nika.md, rules 11c, 12) -------------


@pytest.mark.parametrize(
    ("outcome", "result", "text"),
    [
        (Outcome(None, Reason.AGREEMENT), "draw", "Draw by agreement"),
        (
            Outcome(Team.ATHENS_MESSENE, Reason.CONCESSION),
            "athens-messene",
            "Athens–Messene declared Nika and the opponents conceded",
        ),
        (Outcome(Team.SPARTA_THEBES, Reason.RESIGNATION), "sparta-thebes", "Sparta–Thebes won by resignation"),
    ],
)
def test_conclude_ends_the_game_with_an_outcome_from_outside_the_board(outcome, result, text):
    state = game(START).conclude(outcome)
    assert state.outcome == outcome and state.outcome.result == result
    assert state.outcome.describe() == text
    assert state.notation() == START
    with pytest.raises(GameOver):
        state.apply(Pass())


def test_conclude_cannot_claim_what_only_the_board_decides():
    for reason in (Reason.VICTORY, Reason.PASSES, Reason.REPETITION):
        with pytest.raises(IllegalAction, match="only the board decides"):
            game(START).conclude(Outcome(Team.ATHENS_MESSENE if reason == Reason.VICTORY else None, reason))


def test_conclude_checks_the_outcome_makes_sense():
    with pytest.raises(IllegalAction, match="a draw by agreement has no winner"):
        game(START).conclude(Outcome(Team.ATHENS_MESSENE, Reason.AGREEMENT))
    with pytest.raises(IllegalAction, match="a concession or resignation has one"):
        game(START).conclude(Outcome(None, Reason.RESIGNATION))


def test_a_finished_game_cannot_be_concluded_again():
    won = play("A:k12n S:- M:- T:- A2", "move k12 n")
    with pytest.raises(GameOver):
        won.conclude(Outcome(None, Reason.AGREEMENT))


def test_game_state_is_a_value():
    assert game(START) == GameState.start()
    assert hash(game(START)) == hash(GameState.start())


def test_a_pass_draw_and_a_third_repetition_together_report_the_passes():
    # Athens and Thebes turn a piece away and back, so the start recurs with no all-pass run;
    # then eight passes bring it back a third time on the action ending the fourth all-pass turn.
    cycle = ["rotate k5 e", "rotate k5 n", *["pass"] * 4, "rotate p7 e", "rotate p7 s"]
    state = play(START, *cycle, *["pass"] * 7)
    assert not state.is_over
    state, happened = state.apply(Pass())
    assert state.times_seen() == 3 and state.all_pass_turns == 4
    assert state.outcome == Outcome(None, Reason.PASSES)
    assert happened[-1] == Drawn("passes")


def test_declaring_nika_for_the_opponents_yields_the_game():
    """docs/nika.md, rule 22: a player who declares for the other team concedes for their own."""
    from engine.api import Ending, EndingKind
    from engine.nika.game import GAME

    state = GAME.new(4, {}, 0)
    conceded, _ = GAME.end(state, Ending(EndingKind.CONCESSION, seat="athens", side="sparta-thebes"))
    outcome = GAME.outcome(conceded)
    assert outcome is not None and outcome.winners == {"sparta", "thebes"} and outcome.reason == "yielded"
    assert outcome.summary == "Sparta–Thebes won: Athens–Messene conceded"
    declared, _ = GAME.end(state, Ending(EndingKind.CONCESSION, seat="thebes", side="sparta-thebes"))
    assert GAME.outcome(declared).summary == "Sparta–Thebes declared Nika and the opponents conceded"


def test_a_turn_that_runs_out_passes_the_rest_of_it():
    """An expired turn in Nika passes what is left of it (one or both actions), not the game."""
    from engine.api import Ending, EndingKind
    from engine.nika.game import GAME

    state = GAME.new(4, {}, 0)
    once, _ = GAME.apply(state, GAME.parse_action("move j6 w"))
    after, events = GAME.end(once, Ending(EndingKind.TIMEOUT, seat="athens"))
    assert [e.to_dict()["event"] for e in events] == ["passed"] and GAME.to_act(after) == "sparta"
    whole, events = GAME.end(state, Ending(EndingKind.TIMEOUT, seat="athens"))
    assert len(events) == 2 and GAME.to_act(whole) == "sparta"


def test_a_restored_snapshot_still_counts_the_positions_before_it():
    """The host saves long matches as snapshots; a repetition begun before one is still a repetition."""
    state = play(START, *_CYCLE, *_CYCLE[:-1])  # the start position seen twice, one pass short of a third
    restored = GameState.restore(state.snapshot())
    assert restored.times_seen(game(START).position) == 2 and restored.plies == state.plies
    drawn, _ = restored.apply(Pass())
    assert drawn.outcome == Outcome(None, Reason.REPETITION)


def test_a_snapshot_whose_history_does_not_end_at_its_position_is_refused():
    state = play(START, *_CYCLE[:3])
    other = json.loads(play(START, *_CYCLE[:2]).snapshot())
    forged = json.dumps({**json.loads(state.snapshot()), "history": other["history"]})
    with pytest.raises(NotationError):
        GameState.restore(forged)
    with pytest.raises(NotationError):
        GameState.restore("not json")
