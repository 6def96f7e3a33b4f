"""The table and the start positions: seats in turn order, every piece of every start
square by square (2, 3 and 4 players), all upright, and the target option."""

from __future__ import annotations

import pytest
from pikemen_scenarios import START_2

from engine.api import Seat, UndoScope
from engine.errors import NotationError
from engine.pikemen.game import GAME
from engine.pikemen.geometry import parse_square_name
from engine.pikemen.setup import most_points


def board_of(players: int) -> dict[str, str]:
    """Every occupied square of the start: 'a8' -> 'R L' (seat letter, size)."""
    position = GAME.new(players, {}, 0).position
    found = {}
    for sq, piece in position.pieces():
        assert piece.orientation.is_upright
        found[f"{'abcdefgh'[sq % 8]}{sq // 8 + 1}"] = f"{position.seats[piece.seat][0].upper()} {piece.size.letter}"
    return found


def diagram(rows: str) -> dict[str, str]:
    """Squares of a diagram drawn with rank 8 on top, as 'R L' per square."""
    found = {}
    for line in rows.strip().splitlines():
        rank, *cells = line.split()
        for file, cell in zip("abcdefgh", cells, strict=True):
            if cell != ".":
                found[f"{file}{rank}"] = f"{cell[0]} {cell[1]}"
    return found


def test_the_table_for_each_player_count_in_turn_order():
    assert GAME.seats(2) == (Seat("red", "Red", "red"), Seat("blue", "Blue", "blue"))
    assert [s.slug for s in GAME.seats(3)] == ["red", "yellow", "blue"]
    assert [s.slug for s in GAME.seats(4)] == ["red", "yellow", "green", "blue"]
    assert all(seat.side == seat.slug for n in (2, 3, 4) for seat in GAME.seats(n))
    with pytest.raises(ValueError, match="2, 3 or 4 players"):
        GAME.seats(5)


def test_the_games_settings():
    assert (GAME.slug, GAME.title, GAME.player_counts) == ("pikemen", "Pikemen", (2, 3, 4))
    assert GAME.actions_per_turn == 1 and GAME.undo_scope is UndoScope.UNTIL_NEXT_ACTION
    assert GAME.claim is None and GAME.seat_word == "seat" and GAME.seat_sets_differ()


def test_the_two_player_start_square_by_square():
    assert board_of(2) == diagram("""
        8 RL RL RL RM RS .  .  .
        7 RL RM RM RS .  .  .  .
        6 RL RM RS .  .  .  .  .
        5 RM RS .  .  .  .  .  BS
        4 RS .  .  .  .  .  BS BM
        3 .  .  .  .  .  BS BM BL
        2 .  .  .  .  BS BM BM BL
        1 .  .  .  BS BM BL BL BL
    """)
    assert GAME.notation(GAME.new(2, {}, 0)) == START_2


def test_the_three_player_start_square_by_square():
    assert board_of(3) == diagram("""
        8 RL RL RM RS .  .  .  .
        7 RL RL RM RS .  .  .  .
        6 RM RM RS RS .  YS YM YM
        5 .  .  .  .  .  YS YL YL
        4 .  .  .  .  .  YS YL YL
        3 BM BM BS BS .  YS YM YM
        2 BL BL BM BS .  .  .  .
        1 BL BL BM BS .  .  .  .
    """)


def test_the_four_player_start_square_by_square():
    assert board_of(4) == diagram("""
        8 RL RL RM .  .  YM YL YL
        7 RL RM RS .  .  YS YM YL
        6 RM RS RS .  .  YS YS YM
        5 .  .  .  .  .  .  .  .
        4 .  .  .  .  .  .  .  .
        3 BM BS BS .  .  GS GS GM
        2 BL BM BS .  .  GS GM GL
        1 BL BL BM .  .  GM GL GL
    """)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_seat_starts_with_equal_trios_all_upright_and_red_to_act(players):
    state = GAME.new(players, {}, 0)
    position = state.position
    trios = {2: 5, 3: 4, 4: 3}[players]
    for seat in range(players):
        sizes = sorted(piece.size for _, piece in position.pieces(seat))
        assert sizes == sorted([1, 2, 3] * trios)
    assert GAME.to_act(state) == "red" and position.scores == (0,) * players and position.quiet == 0
    assert GAME.outcome(state) is None and GAME.seats_in_play(state) == GAME.state_seats(state)


def test_the_first_moves_can_only_turn_pieces():
    moves = {action.notation() for action in GAME.legal_actions(GAME.new(2, {}, 0))}
    assert len(moves) == 15 * 8 and "a6 s" in moves and "a6 u" not in moves
    assert all(parse_square_name(text.split()[0]) is not None and " " in text for text in moves)


def test_the_start_does_not_depend_on_the_seed():
    assert GAME.notation(GAME.new(4, {}, 0)) == GAME.notation(GAME.new(4, {}, 987654321))


@pytest.mark.parametrize(("given", "target"), [({}, 12), ({"target": "15"}, 15), ({"target": "20 points"}, 20)])
def test_the_target_option(given, target):
    state = GAME.new(3, GAME.option_defaults(given), 0)
    assert state.position.target == target
    assert GAME.notation(state).endswith(f" R/{target}/0")


def test_any_target_from_12_to_the_points_on_the_board_is_allowed_12_15_20_offered():
    """Issue 23 point 19: the rules let players "agree to a higher number" than 12. The offered
    choices stay 12, 15 and 20; any whole number from 12 up to the points the other players have
    on the board (30, 48 and 54 with 2, 3 and 4 players) is accepted."""
    (option,) = GAME.options
    assert (option.name, option.description, option.default) == ("target", "Points needed to win", "12")
    assert [choice.value for choice in option.choices] == ["12", "15", "20"]
    assert [most_points(n) for n in (2, 3, 4)] == [30, 48, 54]
    for players, most in ((2, 30), (3, 48), (4, 54)):
        for target in (12, 13, 21, most):
            state = GAME.new(players, GAME.option_defaults({"target": str(target)}), 0)
            assert GAME.notation(state).endswith(f" R/{target}/0")
            assert GAME.load(GAME.notation(state)).position.target == target
        if most < 54:  # past 54 the option itself refuses (below)
            with pytest.raises(NotationError, match=f"with {players} players the target is at most {most} points"):
                GAME.new(players, GAME.option_defaults({"target": str(most + 1)}), 0)
    for wrong in ("11", "55", "0", "-12", "twelve", "1e3"):
        with pytest.raises(NotationError, match=r"target is a whole number from 12 to 54, e\.g\. 12, 15, 20"):
            GAME.option_defaults({"target": wrong})
