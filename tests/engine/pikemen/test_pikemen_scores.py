"""Scores: a captured piece scores its size (S 1, M 2, L 3); the first to the target (12,
15 or 20) wins at once; a seat with no pieces is skipped but keeps its points."""

from __future__ import annotations

import pytest
from pikemen_scenarios import after, described, events, game, legal, play, reason

from engine.errors import GameOver
from engine.pikemen.game import GAME


@pytest.mark.parametrize(("size", "points"), [("S", 1), ("M", 2), ("L", 3)])
def test_a_capture_scores_the_captured_pieces_size(size, points):
    position = f"R6:c2Mne B5:f5{size}w,a8Lu,h8Lu R/12/7"
    assert after(position, "c2xf5") == f"R{6 + points}:f5Mne B5:a8Lu,h8Lu B/12/0"
    assert events(position, "c2xf5") == [
        {"event": "charged", "seat": "red", "from": "c2", "to": "f5", "size": "M", "orientation": "ne",
         "captured": {"seat": "blue", "size": size}, "points": points, "score": 6 + points},
    ]  # fmt: skip


@pytest.mark.parametrize("target", [12, 15, 20])
def test_reaching_the_target_exactly_wins_at_once(target):
    position = f"R{target - 3}:c2Mne,a1Su B4:f5Lw,a8Lu,h8Lu R/{target}/3"
    state = play(position, "c2xf5")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == {"red"} and not outcome.drawn
    assert outcome.reason == "target" and outcome.summary == f"Red reaches {target} points and wins"
    assert outcome.scores == (("red", target), ("blue", 4)) == GAME.score(state)
    assert GAME.to_act(state) is None and GAME.legal_actions(state) == []
    assert GAME.notation(state) == f"R{target}:a1Su,f5Mne B4:a8Lu,h8Lu B/{target}/0"
    assert events(position, "c2xf5")[-1] == {
        "event": "ended",
        "reason": "target",
        "winners": ["red"],
        "drawn": [],
        "summary": outcome.summary,
    }
    with pytest.raises(GameOver, match=f"the game is over: Red reaches {target} points and wins"):
        GAME.apply(state, GAME.parse_action("a1 n"))


@pytest.mark.parametrize("target", [12, 15, 20])
def test_one_point_short_of_the_target_plays_on(target):
    state = play(f"R{target - 3}:c2Mne,a1Su B4:f5Mw,a8Lu,h8Lu R/{target}/3", "c2xf5")
    assert GAME.outcome(state) is None and GAME.to_act(state) == "blue"
    assert state.position.scores == (target - 1, 4)


def test_going_past_the_target_wins_with_the_real_score():
    state = play("R11:c2Mne,a1Su B4:f5Lw,a8Lu,h8Lu R/12/0", "c2xf5")
    assert reason(state) == "target" and GAME.outcome(state).summary == "Red reaches 14 points and wins"


def test_a_capture_that_wins_is_described_with_the_win():
    assert described("R9:c2Mne,a1Su B4:f5Lw,a8Lu,h8Lu R/12/3", "c2xf5 u") == (
        "Red charged c2 to f5, capturing Blue's large pikeman (+3, now 12), and stood it upright"
        " — Red reaches 12 points and wins"
    )


def test_a_seat_without_pieces_is_skipped():
    position = "R8:a8Lu,c3Mne Y7:- B4:a1Lu,h8Lu R/12/5"
    state = play(position, "a8 s")
    assert GAME.to_act(state) == "blue" and GAME.notation(state).endswith(" B/12/6")
    state = play(state, "a1 n")
    assert GAME.to_act(state) == "red"
    assert state.position.scores == (8, 7, 4)  # the skipped seat keeps its points


def test_a_seat_that_loses_its_last_piece_is_skipped_from_then_on():
    position = "R2:c2Mne,a8Lu Y3:f5Sw G0:h2Lu B4:a1Lu,h8Lu R/12/0"
    assert events(position, "c2xf5")[1:] == [{"event": "out-of-pieces", "seat": "yellow"}]
    assert described(position, "c2xf5") == (
        "Red charged c2 to f5, capturing Yellow's small pikeman (+1, now 3) — Yellow has no pieces left and will be "
        "skipped"
    )
    state = play(position, "c2xf5")
    assert GAME.to_act(state) == "green"
    assert GAME.seats_in_play(state) == ("red", "yellow", "green", "blue")  # still in the game
    assert GAME.notation(state) == "R3:f5Mne,a8Lu Y3:- G0:h2Lu B4:a1Lu,h8Lu G/12/0"


def test_skipped_seats_do_not_count_as_quiet_turns():
    state = game("R8:a8Lu,c3Mne Y7:- G3:- B4:a1Lu,h8Lu R/12/10")
    state = play(state, "a8 s", "a1 n")
    assert state.position.quiet == 12 and GAME.to_act(state) == "red"


def test_only_the_seat_to_act_has_moves():
    moves = legal("R2:a8Lu Y7:b2Sn B4:a1Lu,h8Lu R/12/10")
    assert moves == {f"a8 {o}" for o in ("n", "ne", "e", "se", "s", "sw", "w", "nw")}
