"""Leaving the game and endings decided off the board: a seat that resigns or runs out of
time is out (its pieces leave, nobody scores them, it cannot win); the last seat left
wins, and with two players leaving loses; a draw by agreement; no claims."""

from __future__ import annotations

import pytest
from pikemen_scenarios import START_2, end, game, play, reason

from engine.api import Ending, EndingKind, result_text
from engine.errors import GameOver, IllegalAction
from engine.pikemen.game import GAME

RESIGN, TIMEOUT, AGREE = EndingKind.RESIGNATION, EndingKind.TIMEOUT, EndingKind.AGREEMENT


def test_resigning_with_two_players_loses():
    state, happened = end(START_2, RESIGN, "red")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == {"blue"} and outcome.reason == "resignation"
    assert outcome.summary == "Red resigned: Blue wins"
    assert GAME.notation(state) == "R0!:- " + START_2.split(" ")[1] + " B/12/0"
    assert happened == [
        {"event": "left", "seat": "red", "how": "resignation", "removed": 15, "already_out": False},
        {"event": "ended", "reason": "resignation", "winners": ["blue"], "drawn": [], "summary": outcome.summary},
    ]
    assert result_text(GAME, outcome, GAME.state_seats(state)) == "blue"
    assert GAME.describe(GAME.end(game(START_2), Ending(RESIGN, "red"))[1]) == "Red resigned: Blue wins"


def test_running_out_of_time_with_two_players_loses():
    state, _ = end(START_2, TIMEOUT, "red")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == {"blue"} and outcome.reason == "timeout"
    assert outcome.summary == "Red ran out of time: Blue wins"


def test_only_the_seat_to_act_runs_out_of_time():
    with pytest.raises(IllegalAction, match="it is Red's turn: only the seat to act can run out of time"):
        end(START_2, TIMEOUT, "blue")


def test_the_other_seat_may_resign_out_of_turn():
    state, _ = end(START_2, RESIGN, "blue")
    assert GAME.outcome(state).winners == {"red"}
    assert GAME.notation(state).endswith(" B0!:- R/12/0")


def test_in_four_players_the_game_goes_on_until_one_player_is_left():
    state = GAME.new(4, {}, 0)
    state, happened = end(state, RESIGN, "yellow")  # out of turn
    assert happened == [{"event": "left", "seat": "yellow", "how": "resignation", "removed": 9, "already_out": False}]
    assert GAME.outcome(state) is None and GAME.to_act(state) == "red"
    assert GAME.seats_in_play(state) == ("red", "green", "blue")
    assert " Y0!:- " in GAME.notation(state)
    state = play(state, "a8 se")
    assert GAME.to_act(state) == "green"  # yellow is out: its turn is skipped
    state, _ = end(state, TIMEOUT, "green")
    assert GAME.outcome(state) is None and GAME.to_act(state) == "blue"
    assert GAME.describe(GAME.end(play(GAME.new(4, {}, 0), "a8 se", "h8 sw"), Ending(TIMEOUT, "green"))[1]) == (
        "Green ran out of time and left the game, 9 pieces removed"
    )
    state, happened = end(state, RESIGN, "blue")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == {"red"} and outcome.reason == "last-player"
    assert outcome.summary == "Red is the last player left in the game and wins"
    assert outcome.scores == (("red", 0), ("yellow", 0), ("green", 0), ("blue", 0))
    assert GAME.notation(state).startswith("R0:") and GAME.notation(state).endswith(" Y0!:- G0!:- B0!:- R/12/1")


def test_when_the_seat_to_act_resigns_the_next_seat_acts():
    state, _ = end(GAME.new(3, {}, 0), RESIGN, "red")
    assert GAME.to_act(state) == "yellow" and GAME.outcome(state) is None


def test_a_departure_does_not_count_as_a_quiet_turn():
    state, _ = end(game("R8:a8Lu,c3Mne Y0:b1Sn B4:a1Lu,h8Lu R/12/37"), RESIGN, "yellow")
    assert GAME.notation(state) == "R8:c3Mne,a8Lu Y0!:- B4:a1Lu,h8Lu R/12/37"


def test_a_seat_without_pieces_can_resign_and_loses_its_chance_on_points():
    state, _ = end(game("R8:a8Lu,c3Mne Y9:- B4:a1Lu,h8Lu R/12/98"), RESIGN, "yellow")
    state = play(state, "a8 s", "a1 n")  # the hundredth quiet turn
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.reason == "quiet-turns"
    assert outcome.winners == {"red"}  # yellow had the most points, but it left
    assert outcome.summary == "Red wins with 8 points: 100 turns without a capture"


def test_a_seat_already_out_resigning_changes_nothing():
    position = "R8:a8Lu,c3Mne Y5!:- B4:a1Lu,h8Lu R/12/3"
    state, happened = end(position, RESIGN, "yellow")
    assert GAME.notation(state) == GAME.notation(game(position)) and GAME.outcome(state) is None
    assert happened == [{"event": "left", "seat": "yellow", "how": "resignation", "removed": 0, "already_out": True}]
    assert GAME.describe(GAME.end(game(position), Ending(RESIGN, "yellow"))[1]) == (
        "Yellow resigned (already out of the game)"
    )


def test_a_departure_that_leaves_nobody_able_to_reach_the_target_ends_the_game():
    state, happened = end("R8:a8Lu Y0:c3Mn,d4Ln B5:a1Lu R/12/0", RESIGN, "yellow")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.reason == "unreachable" and outcome.winners == {"red"}
    assert outcome.summary == "Red wins with 8 points: no one can reach 12 points any more"
    assert [e["event"] for e in happened] == ["left", "ended"]


def test_a_draw_by_agreement_is_shared_by_the_seats_still_in():
    state, _ = end(GAME.new(4, {}, 0), RESIGN, "yellow")
    state, happened = end(state, AGREE)
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.drawn == {"red", "green", "blue"} and not outcome.winners
    assert outcome.reason == "agreement" and outcome.summary == "Draw by agreement between Red, Green and Blue"
    assert result_text(GAME, outcome, GAME.state_seats(state)) == "draw:red,green,blue"
    assert happened == [{"event": "ended", "reason": "agreement", "winners": [], "drawn": ["red", "green", "blue"],
                         "summary": outcome.summary}]  # fmt: skip
    two, _ = end(START_2, AGREE)
    assert GAME.outcome(two).summary == "Draw by agreement" and GAME.outcome(two).drawn == {"red", "blue"}
    assert result_text(GAME, GAME.outcome(two), ("red", "blue")) == "draw"


def test_pikemen_has_no_claims_to_concede():
    with pytest.raises(IllegalAction, match="Pikemen has no claims to concede"):
        GAME.end(game(START_2), Ending(EndingKind.CONCESSION, side="red"))


def test_nothing_ends_a_finished_game_again():
    state, _ = end(START_2, RESIGN, "red")
    for kind, seat in ((RESIGN, "blue"), (TIMEOUT, "blue"), (AGREE, None)):
        with pytest.raises(GameOver, match="the game is over: Red resigned: Blue wins"):
            GAME.end(state, Ending(kind, seat))


def test_only_a_seat_of_the_game_can_leave_it():
    with pytest.raises(IllegalAction, match="'green' is not a seat in this game: the seats are red, blue"):
        GAME.end(game(START_2), Ending(RESIGN, "green"))
    assert reason(end(GAME.new(3, {}, 0), RESIGN, "YELLOW")[0]) is None  # seat names in any case
