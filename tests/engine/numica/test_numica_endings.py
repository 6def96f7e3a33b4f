"""How a game ends (rules 6–9): victory by captures, a side that cannot move, draws by
repetition and by 100 moves without a capture, the order of those checks, and endings
decided off the board."""

from __future__ import annotations

import pytest
from numica_scenarios import events, game, legal, outcome_of, play, position

from engine.api import Ending, EndingKind
from engine.errors import GameOver, IllegalAction, NotationError
from engine.numica.game import GAME

RED_REST = "a1o,b1o,g1s,h1s"
# Blue's pieces on 5 tiles with nowhere to go: d5 in the middle reaches off the board, and
# a4/f4 and b4/g4 can each reach only the other, their own piece.
STUCK_TILES = "a4=5 f4=5 b4=5 g4=5 d5=5"


def capture_by_red(blue: str) -> str:
    """Red's knight on d4 is about to take a moved blue piece on f5."""
    return position(red=f"d4s*,{RED_REST}", blue=blue, tiles_at="d4=K")


# --- victory by captures (rule 6) -------------------------------------------------------------


@pytest.mark.parametrize(
    ("blue", "summary"),
    [
        ("f5s*,a8o,c8o,e8o,h8o,h7s*", "Red wins: 3 square pieces captured"),
        ("f5o*,a8s,c8s,e8s,h8s,h7o*", "Red wins: 3 round pieces captured"),
        ("f5o*,a8s,c8s,e8o,h8o", "Red wins: 2 square and 2 round pieces captured"),
    ],
    ids=["three-square", "three-round", "two-and-two"],
)
def test_capturing_three_of_a_shape_or_two_of_each_wins_at_once(blue, summary):
    board = capture_by_red(blue)
    state = play(board, "d4xf5")
    assert outcome_of(state) == ("red", "captures")
    assert str(GAME.outcome(state).summary) == summary
    assert events(board, "d4xf5")[-1] == {"event": "end", "result": "red", "reason": "captures", "summary": summary}


@pytest.mark.parametrize(
    "blue",
    ["f5o*,a8s,c8s,e8o,g8o,h8o", "f5s*,a8o,c8o,e8s,g8s,h8s"],
    ids=["two-square-one-round", "one-square-two-round"],
)
def test_two_of_one_shape_and_one_of_the_other_is_not_yet_a_win(blue):
    state = play(capture_by_red(blue), "d4xf5")
    assert outcome_of(state) is None and GAME.to_act(state) == "blue"


def test_blue_wins_by_its_own_captures():
    board = position(red="f4s*,a1o,c1o,e1s,h2o*", blue="d5s*,a8o,b8o,g8s,h8s", tiles_at="d5=K", turn="blue/3")
    state = play(board, "d5xf4")
    assert outcome_of(state) == ("blue", "captures")
    assert str(GAME.outcome(state).summary) == "Blue wins: 3 square pieces captured"


def test_a_finished_game_has_no_legal_moves_and_refuses_more():
    state = play(capture_by_red("f5s*,a8o,c8o,e8o,h8o,h7s*"), "d4xf5")
    assert GAME.legal_actions(state) == []
    with pytest.raises(GameOver, match=r"^the game is over: Red wins: 3 square pieces captured$"):
        GAME.apply(state, GAME.parse_action("a1-a2"))


def test_the_turn_and_count_still_pass_after_the_winning_move():
    state = play(capture_by_red("f5s*,a8o,c8o,e8o,h8o,h7s*"), "d4xf5")
    assert GAME.notation(state).endswith(" blue/0")


# --- a side that cannot move loses (rule 7) -------------------------------------------------------


def stuck_blue(red: str = f"c3s*,{RED_REST}", turn: str = "red/0", tiles_at: str = "c3=1") -> str:
    return position(red=red, blue="a4s*,f4o*,b4s*,g4o*,d5o*", tiles_at=f"{STUCK_TILES} {tiles_at}", turn=turn)


def test_a_side_left_without_a_legal_move_loses():
    state = play(stuck_blue(), "c3-c2")
    assert outcome_of(state) == ("red", "no-moves")
    assert str(GAME.outcome(state).summary) == "Blue cannot move: Red wins"
    assert legal(state) == set()


def test_a_position_where_the_side_to_move_cannot_move_loads_as_lost():
    state = game(stuck_blue(red="c2s*,a1o,b1o,g1s,h1s", turn="blue/1"))
    assert outcome_of(state) == ("red", "no-moves")


# --- draws (rule 8) ---------------------------------------------------------------------------

SHUFFLE = ("c3-c4", "f6-f5", "c4-c3", "f5-f6")


def shuffling(turn: str = "red/0", red: str = f"c3s*,{RED_REST}") -> str:
    """Both sides step a piece back and forth between two 1 tiles."""
    return position(red=red, blue="f6o*,a8o,b8s,g8o,h8s", tiles_at="c3=1 c4=1 a1=1 a2=1 f6=1 f5=1", turn=turn)


def test_the_third_occurrence_of_a_position_is_a_draw():
    start = game(shuffling())
    # The loaded position is the first occurrence; it recurs after 4 and 8 moves.
    assert outcome_of(play(start, *SHUFFLE, *SHUFFLE[:3])) is None
    state = play(start, *SHUFFLE, *SHUFFLE)
    assert outcome_of(state) == ("draw", "repetition")
    assert str(GAME.outcome(state).summary) == "Draw: the same position occurred three times"
    assert GAME.outcome(state).drawn == frozenset({"red", "blue"})


def test_has_moved_marks_are_part_of_what_repeats():
    # a1 has not moved yet. After two trips a1-a2-a1 the pieces stand where they started for the
    # third time, but a1 now carries its moved mark: that is not the starting position, and
    # only the position after a1-a2 (already marked) reaches its third occurrence, one move later.
    start = game(shuffling(red="a1s,b1o,c1s,g1o,h1s"))
    trip = ("a1-a2", "f6-f5", "a2-a1", "f5-f6")
    assert outcome_of(play(start, *trip, *trip)) is None
    assert outcome_of(play(start, *trip, *trip, "a1-a2")) == ("draw", "repetition")


def test_a_hundred_moves_without_a_capture_draw():
    state = play(shuffling(turn="red/99"), "c3-c4")
    assert outcome_of(state) == ("draw", "quiet-moves")
    assert str(GAME.outcome(state).summary) == "Draw: 100 moves in a row without a capture"
    assert GAME.notation(state).endswith(" blue/100")


def test_a_capture_starts_the_count_again():
    board = position(red="d4s*,a1o,b1o,g1s,h1s", blue="f5o*,a8s,b8o,c8s,g8s,h8o", tiles_at="d4=K", turn="red/99")
    state = play(board, "d4xf5")
    assert outcome_of(state) is None and GAME.notation(state).endswith(" blue/0")


def test_a_position_with_a_count_of_100_loads_as_drawn():
    assert outcome_of(game(shuffling(turn="red/100"))) == ("draw", "quiet-moves")


# --- the order of checks after a move (rule 9) ------------------------------------------------


def test_a_winning_capture_wins_by_captures_even_if_the_loser_cannot_move():
    # Blue has lost two square pieces; Red takes a third on h8, and Blue's five left are stuck.
    board = position(
        red="h1s*,a1o,b1o,c1s,e1s",
        blue="h8s*,a4s*,f4o*,b4o*,g4o*,d5o*",
        tiles_at=f"{STUCK_TILES} h1=R",
    )
    state = play(board, "h1xh8")
    assert outcome_of(state) == ("red", "captures")


def test_a_side_that_cannot_move_loses_even_on_the_hundredth_quiet_move():
    state = play(stuck_blue(turn="red/99"), "c3-c2")
    assert outcome_of(state) == ("red", "no-moves")


def test_repetition_is_reported_when_it_falls_on_the_hundredth_quiet_move():
    # Loaded at 92: the position recurs after 4 and 8 moves, and the eighth is the 100th quiet move.
    state = play(shuffling(turn="red/92"), *SHUFFLE, *SHUFFLE)
    assert GAME.notation(state).endswith(" red/100")
    assert outcome_of(state) == ("draw", "repetition")


def test_a_position_already_won_by_captures_loads_as_won():
    board = position(red=f"c3s*,{RED_REST}", blue="a8o,c8o,e8o,h8o,h7s*", tiles_at="c3=1", turn="blue/0")
    assert outcome_of(game(board)) == ("red", "captures")


def test_a_position_where_both_sides_have_lost_is_refused():
    board = position(red="c3s*,a1o,b1o,c1o,d1o", blue="a8o,c8o,e8o,h8o,h7s*", tiles_at="c3=1")
    with pytest.raises(NotationError, match="both sides have lost enough pieces"):
        game(board)


# --- endings off the board ------------------------------------------------------------------------


def test_resigning_loses():
    state, happened = GAME.end(game(shuffling()), Ending(EndingKind.RESIGNATION, "blue"))
    assert outcome_of(state) == ("red", "resignation")
    assert str(GAME.outcome(state).summary) == "Blue resigned: Red wins"
    assert GAME.describe(happened) == "Blue resigned: Red wins"
    assert GAME.to_act(state) is None and GAME.legal_actions(state) == []


def test_running_out_of_time_loses_for_the_side_to_move_only():
    state, _ = GAME.end(game(shuffling()), Ending(EndingKind.TIMEOUT, "red"))
    assert outcome_of(state) == ("blue", "timeout")
    assert str(GAME.outcome(state).summary) == "Red ran out of time: Blue wins"
    with pytest.raises(IllegalAction, match=r"^it is Red's turn: Blue cannot run out of time now$"):
        GAME.end(game(shuffling()), Ending(EndingKind.TIMEOUT, "blue"))


def test_agreeing_draws():
    state, _ = GAME.end(game(shuffling()), Ending(EndingKind.AGREEMENT))
    assert outcome_of(state) == ("draw", "agreement")
    assert str(GAME.outcome(state).summary) == "Draw by agreement"


def test_numica_has_no_claims_to_concede():
    with pytest.raises(IllegalAction, match="Numica has no claims"):
        GAME.end(game(shuffling()), Ending(EndingKind.CONCESSION, side="red"))


def test_a_finished_game_refuses_every_ending():
    state, _ = GAME.end(game(shuffling()), Ending(EndingKind.AGREEMENT))
    for kind in EndingKind:
        with pytest.raises(GameOver, match=r"^the game is over: Draw by agreement$"):
            GAME.end(state, Ending(kind, "red", "red"))


def test_an_ending_names_a_side_of_numica():
    with pytest.raises(IllegalAction, match="not a side of Numica"):
        GAME.end(game(shuffling()), Ending(EndingKind.RESIGNATION, "athens"))
