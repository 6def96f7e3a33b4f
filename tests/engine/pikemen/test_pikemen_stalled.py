"""Stalled games (nobody can still reach the target, the third repetition, 100 turns without
a capture) go to the highest score among the seats still in; a tie is a draw between the
tied seats. Also: the order of the end-of-game checks, and positions that show an ending."""

from __future__ import annotations

import pytest
from pikemen_scenarios import end, game, play, reason

from engine.api import EndingKind, result_text
from engine.pikemen.game import GAME

CYCLE = ("a8 s", "h1 n", "a8 u", "h1 u")  # four turns that come back to where they started
OPEN = "R8:a8Lu,c3Mne B5:h1Lu,h8Ln R/12/0"


def test_the_game_ends_when_nobody_can_reach_the_target():
    # Yellow could reach 12 (6 + Red's 3 + Blue's 3) until Red takes its last piece.
    position = "R4:a1Lne,h8Lu Y6:c3Mn B3:h1Lu R/12/0"
    assert GAME.outcome(game(position)) is None
    state = play(position, "a1xc3")
    assert reason(state) == "unreachable"


def test_a_tie_on_points_is_a_draw_between_the_tied_seats():
    state = play("R4:a1Lne,h8Lu Y6:c3Mn B3:h1Lu R/12/0", "a1xc3")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.drawn == {"red", "yellow"} and not outcome.winners
    assert outcome.summary == "Draw between Red and Yellow on 6 points: no one can reach 12 points any more"
    assert result_text(GAME, outcome, GAME.state_seats(state)) == "draw:red,yellow"
    assert outcome.score_of("blue") == 0 and outcome.score_of("red") == 0.5


def test_the_third_occurrence_of_a_position_ends_the_game():
    state = play(OPEN, *CYCLE, *CYCLE[:-1])
    assert GAME.outcome(state) is None
    state = play(state, CYCLE[-1])  # the loaded position, for the third time
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.reason == "repetition" and outcome.winners == {"red"}
    assert outcome.summary == "Red wins with 8 points: the same position occurred three times"
    assert state.times_seen() == 3


def test_the_hundredth_turn_without_a_capture_ends_the_game():
    state = play(OPEN.replace("R/12/0", "R/12/98"), "a8 s")
    assert GAME.outcome(state) is None and state.position.quiet == 99
    state = play(state, "h1 n")
    assert reason(state) == "quiet-turns" and state.position.quiet == 100
    assert GAME.outcome(state).summary == "Red wins with 8 points: 100 turns without a capture"


def test_a_capture_starts_the_quiet_count_again():
    state = play("R8:a1Lne,a8Lu B5:c3Sn,h1Lu,h2Lu R/12/99", "a1xc3")
    assert GAME.outcome(state) is None and state.position.quiet == 0


def test_a_tie_among_four_leaves_the_others_losing():
    state = play("R5:a8Lu,a7Mu Y5:h8Lu,h7Lu G2:h1Lu B5!:- R/12/99", "a8 s")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.reason == "quiet-turns" and outcome.drawn == {"red", "yellow"}
    assert outcome.score_of("green") == 0 and outcome.score_of("blue") == 0


def test_a_seat_out_of_the_game_cannot_win_on_points_even_with_the_highest_score():
    state = play("R8:a8Lu,a7Mu Y9!:- B4:h1Lu,h2Lu R/12/99", "a8 s")
    assert GAME.outcome(state).winners == {"red"}


def test_a_seat_without_pieces_still_in_the_game_can_win_on_points():
    state = play("R8:a8Lu,a7Mu Y9:- B4:h1Lu,h2Lu R/12/99", "a8 s")
    assert GAME.outcome(state).winners == {"yellow"}


def test_taking_the_last_enemy_piece_ends_the_game_on_points():
    position = "R9:c2Mne,a8Lu B7:f5Sw R/12/0"
    state = play(position, "c2xf5")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.reason == "unreachable" and outcome.winners == {"red"}
    assert GAME.notation(state) == "R10:f5Mne,a8Lu B7:- R/12/0"  # red would act again: nobody else can


def test_reaching_the_target_wins_even_when_the_game_would_also_stall():
    state = play("R9:c2Mne B0:f5Lw R/12/99", "c2xf5")
    assert reason(state) == "target"


def test_one_seat_left_wins_before_the_stalled_checks():
    state = game("R3:a8Lu Y0!:- B0!:- R/12/100")
    assert reason(state) == "last-player" and GAME.outcome(state).winners == {"red"}


def test_unreachable_is_reported_before_repetition_and_quiet_turns():
    assert reason(game("R3:a8Lu B2:h1Su R/12/150")) == "unreachable"


def test_repetition_is_reported_before_quiet_turns():
    state = play(OPEN.replace("R/12/0", "R/12/92"), *CYCLE, *CYCLE)
    assert state.position.quiet == 100 and reason(state) == "repetition"


def test_a_finished_game_writes_the_next_player_in_the_final_field():
    state = play("R9:c2Mne Y4:- B0:f5Lw,a1Lu R/12/0", "c2xf5")
    assert reason(state) == "target"
    assert GAME.notation(state) == "R12:f5Mne Y4:- B0:a1Lu B/12/0"  # yellow has no pieces: blue is next
    assert GAME.to_act(state) is None and GAME.legal_actions(state) == []


@pytest.mark.parametrize(
    ("position", "why"),
    [
        ("R12:a8Lu B0:h1Lu B/12/0", "target"),
        ("R3:a8Lu Y5!:- B0!:- R/12/0", "last-player"),
        ("R3:a8Lu B2:h1Su R/12/0", "unreachable"),
        ("R8:c3Mne,a8Lu B5:h1Lu,h8Ln R/12/100", "quiet-turns"),
    ],
)
def test_a_loaded_position_that_shows_an_ending_is_over(position, why):
    state = game(position)
    assert reason(state) == why and GAME.legal_actions(state) == [] and GAME.to_act(state) is None
    assert GAME.notation(state) == position


def test_an_agreed_draw_is_not_part_of_the_position():
    state, _ = end(OPEN, EndingKind.AGREEMENT)
    assert GAME.outcome(state) is not None
    assert GAME.outcome(game(GAME.notation(state))) is None
