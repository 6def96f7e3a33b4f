"""A turn: charge a flat piece through empty squares the way it points, perhaps capturing
the first piece in its line, then turn it or not; or turn a piece in place to a new
orientation. There is no passing."""

from __future__ import annotations

import pytest
from pikemen_scenarios import after, events, game, legal, play, refusal

from engine.errors import IllegalAction
from engine.pikemen.actions import Charge
from engine.pikemen.game import GAME
from engine.pikemen.geometry import Orientation, parse_square_name

# Red's large pikeman on d4 points north; Blue has enough on the board to keep the game open.
OPEN = "R6:d4Ln B6:a1Lu,h1Lu,b3Mu R/12/0"
SIZES = ("S", "M", "L")


def charges_from(position: str, square: str) -> set[str]:
    """Where the piece on `square` may charge to (its plain charges' arrival squares)."""
    return {m[3:5] for m in legal(position) if m.startswith(square) and m[2] in "-x"}


def test_a_charge_moves_any_number_of_empty_squares_the_way_the_piece_points():
    assert charges_from(OPEN, "d4") == {"d5", "d6", "d7", "d8"}
    assert after(OPEN, "d4-d8") == "R6:d8Ln B6:a1Lu,h1Lu,b3Mu B/12/1"


def test_a_charge_is_blocked_by_an_own_piece():
    position = "R6:d4Ln,d7Su B6:a1Lu,h1Lu,b3Mu R/12/0"
    assert charges_from(position, "d4") == {"d5", "d6"}
    assert refusal(position, "d4-d8") == "the way from d4 to d8 is blocked at d7"


def test_you_never_capture_your_own_piece():
    position = "R6:d4Ln,d7Sn B6:a1Lu,h1Lu,b3Mu R/12/0"
    assert refusal(position, "d4xd7") == "d7 is your own pikeman: you never capture your own pieces"


def test_a_charge_is_blocked_by_an_enemy_piece_it_cannot_capture():
    position = "R6:d4Ln B6:d7Lu,a1Lu,h1Lu R/12/0"
    assert charges_from(position, "d4") == {"d5", "d6"}
    assert refusal(position, "d4xd7") == (
        "d7 is upright and as large as yours: it cannot be captured (only a larger pikeman takes an upright one)"
    )
    assert refusal(position, "d4-d8") == "the way from d4 to d8 is blocked at d7"


def test_a_charge_cannot_jump_over_a_piece_to_capture_beyond_it():
    position = "R6:d4Ln B6:d6Lu,d8Sn,a1Lu R/12/0"
    assert "d4xd8" not in legal(position)
    assert refusal(position, "d4xd8") == "the way from d4 to d8 is blocked at d6"


@pytest.mark.parametrize("charger", SIZES)
@pytest.mark.parametrize("target", SIZES)
def test_a_flat_piece_of_every_size_is_captured_by_every_size(charger, target):
    position = f"R6:c2{charger}ne B6:f5{target}sw,a8Lu,h1Lu R/12/0"
    assert "c2xf5" in legal(position)
    points = SIZES.index(target) + 1
    assert after(position, "c2xf5") == f"R{6 + points}:f5{charger}ne B6:h1Lu,a8Lu B/12/0"


@pytest.mark.parametrize("charger", SIZES)
@pytest.mark.parametrize("target", SIZES)
def test_upright_pieces_fall_only_to_strictly_larger_chargers(charger, target):
    position = f"R6:c2{charger}ne B6:f5{target}u,a8Lu,h1Lu R/12/0"
    if SIZES.index(charger) > SIZES.index(target):
        assert "c2xf5" in legal(position)
        assert play(position, "c2xf5").position.scores == (6 + SIZES.index(target) + 1, 6)
    else:
        than = "as large as" if charger == target else "larger than"
        assert charges_from(position, "c2") == {"d3", "e4"}
        assert refusal(position, "c2xf5").startswith(f"f5 is upright and {than} yours: it cannot be captured")


def test_an_upright_large_piece_can_never_be_captured():
    position = "R6:a1Lne,c3Mn B6:h8Lu,e5Lu R/12/0"
    assert not any("x" in move for move in legal(position))


def test_an_upright_piece_cannot_charge():
    position = "R6:d4Lu B6:a1Lu,h1Lu,b3Mu R/12/0"
    assert charges_from(position, "d4") == set()
    assert refusal(position, "d4-d6") == "the large pikeman on d4 stands upright: only charge it after reorienting"


def test_a_charge_goes_only_the_way_the_piece_points():
    assert refusal(OPEN, "d4-f6") == (
        "the large pikeman on d4 points north: it charges only that way (toward d5); turn it first to go elsewhere"
    )
    assert refusal(OPEN, "d4-d2").startswith("the large pikeman on d4 points north: it charges only that way")


def test_a_piece_pointing_off_the_board_can_only_turn():
    position = "R6:a8Mn B6:a1Lu,h1Lu,b3Mu R/12/0"
    assert legal(position) == {f"a8 {o.letter}" for o in Orientation if o is not Orientation.N}
    assert refusal(position, "a8-a1") == "the medium pikeman on a8 points north, off the board: turn it first"


def test_after_a_charge_the_piece_may_turn_to_any_other_orientation_or_stay():
    position = "R6:d7Ln B6:a1Lu,h1Lu,b3Mu R/12/0"
    assert legal(position) == (
        {"d7-d8"} | {f"d7-d8 {o.letter}" for o in Orientation if o is not Orientation.N}
        | {f"d7 {o.letter}" for o in Orientation if o is not Orientation.N}
    )  # fmt: skip
    assert after(position, "d7-d8") == "R6:d8Ln B6:a1Lu,h1Lu,b3Mu B/12/1"
    assert after(position, "d7-d8 u") == "R6:d8Lu B6:a1Lu,h1Lu,b3Mu B/12/1"
    assert after(position, "d7-d8 sw") == "R6:d8Lsw B6:a1Lu,h1Lu,b3Mu B/12/1"


def test_a_charge_turned_to_the_way_it_charged_is_the_plain_charge():
    state = game(OPEN)
    typed = GAME.parse_action("d4-d6 n")
    assert typed == Charge(parse_square_name("d4"), parse_square_name("d6"), Orientation.N)
    assert GAME.canonical(state, typed).notation() == "d4-d6"
    assert after(OPEN, "d4-d6 n") == after(OPEN, "d4-d6")
    with pytest.raises(IllegalAction, match="write that move as d4-d6: the pikeman already points north"):
        GAME.apply(state, typed)


def test_turning_a_piece_to_the_orientation_it_has_is_refused_so_there_is_no_pass():
    assert refusal(OPEN, "d4 n") == (
        "d4 already points north: turn it to another orientation (a move must change something)"
    )
    position = "R6:d4Lu B6:a1Lu,h1Lu,b3Mu R/12/0"
    assert refusal(position, "d4 u").startswith("d4 already stands upright: turn it to another orientation")
    assert "pass" not in " ".join(legal(position))


def test_a_turn_in_place_changes_only_the_orientation():
    assert after(OPEN, "d4 se") == "R6:d4Lse B6:a1Lu,h1Lu,b3Mu B/12/1"
    assert after(OPEN, "d4 u") == "R6:d4Lu B6:a1Lu,h1Lu,b3Mu B/12/1"
    assert events(OPEN, "d4 se") == [
        {"event": "turned", "seat": "red", "square": "d4", "size": "L", "from": "n", "orientation": "se"}
    ]


def test_only_your_own_pieces_move():
    position = "R6:a8Lu Y0:f6Ms G0:h1Lu B6:a1Lu R/12/0"
    assert refusal(position, "f6-f2") == "f6 is not yours: it is Yellow's"
    assert refusal(position, "f6 n") == "f6 is not yours: it is Yellow's"
    assert refusal(position, "e5 n") == "there is no pikeman on e5: choose one of yours"


def test_turns_go_round_in_seat_order():
    state = GAME.new(4, {}, 0)
    seen = []
    for move in ("a8 se", "h8 sw", "h1 nw", "a1 ne", "b8 s"):
        seen.append(GAME.to_act(state))
        state = play(state, move)
    assert seen == ["red", "yellow", "green", "blue", "red"]
