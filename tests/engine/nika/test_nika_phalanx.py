"""Rulebook §6–7 and docs/nika.md, rules 5–7: phalanxes, lines and weight, pushing and routing."""

from __future__ import annotations

import pytest
from nika_scenarios import after, event_dicts, is_legal, legal, refusal

from engine.errors import IllegalAction
from engine.nika import Advance, GameState, describe_events, parse_square

# --- Forming a phalanx (docs/nika.md, rule 5) --------------------------------------------------------


def test_a_phalanx_rotates_as_a_unit():
    assert after("A:j4w,j5w,j6w S:- M:- T:- A2", "rotate j4,j5,j6 n") == "A:j4n,j5n,j6n S:- M:- T:- A1"
    assert event_dicts("A:j4w,j5w,j6w S:- M:- T:- A2", "rotate j4-j6 n") == [
        {"event": "rotated", "city": "athens", "squares": "j4,j5,j6", "facing": "n"}
    ]


def test_any_connected_part_of_a_phalanx_is_itself_a_phalanx():
    assert after("A:j4w,j5w,j6w S:- M:- T:- A2", "rotate j5,j6 n") == "A:j4w,j5n,j6n S:- M:- T:- A1"


def test_every_connected_sub_phalanx_is_listed_once():
    # A 2x2 block: 4 pairs side by side, 4 L-shaped triples, the whole block; diagonal pairs are not connected.
    rotations = {a for a in legal("A:k4n,k5n,l4n,l5n S:- M:- T:- A2") if a.startswith("rotate") and a.endswith(" e")}
    groups = {a.removeprefix("rotate ").removesuffix(" e") for a in rotations if "," in a}
    assert groups == {
        "k4,k5", "k4,l4", "k5,l5", "l4,l5",
        "k4,k5,l4", "k4,k5,l5", "k4,l4,l5", "k5,l4,l5",
        "k4,k5,l4,l5",
    }  # fmt: skip


def test_a_phalanx_must_be_connected_side_by_side():
    assert (
        refusal("A:j4w,j6w S:- M:- T:- A2", "rotate j4,j6 n")
        == "j4,j6 is not one connected group: a phalanx's pieces touch side by side"
    )
    assert "not one connected group" in refusal("A:j4n,k5n S:- M:- T:- A2", "advance j4,k5")  # diagonal


def test_a_phalanx_must_face_one_way():
    assert (
        refusal("A:j4w,j5n S:- M:- T:- A2", "rotate j4,j5 e")
        == "a phalanx's pieces all face the same way, but j4 faces w, j5 faces n"
    )
    assert "all face the same way" in refusal("A:k4n,k5e S:- M:- T:- A2", "advance k4,k5")


def test_a_phalanx_belongs_to_one_city():
    assert "it is Athens' turn; k5 is Messene's piece" in refusal("A:k4n S:- M:k5n T:- A2", "advance k4,k5")


def test_rotating_a_phalanx_to_its_own_facing_is_not_an_action():
    assert (
        refusal("A:j4w,j5w S:- M:- T:- A2", "rotate j4,j5 w")
        == "that phalanx already faces west: rotating must change the facing"
    )


# --- Advancing (rulebook §6; docs/nika.md, rule 6) ---------------------------------------------------


def test_a_phalanx_advances_one_square_the_way_it_faces():
    assert after("A:k4n,k5n S:- M:- T:- A2", "advance k4,k5") == "A:k5n,k6n S:- M:- T:- A1"
    assert after("A:j4e,j5e S:- M:- T:- A2", "advance j4,j5") == "A:k4e,k5e S:- M:- T:- A1"
    assert event_dicts("A:k4n,k5n S:- M:- T:- A2", "advance k4,k5") == [
        {"event": "advanced", "city": "athens", "squares": "k4,k5", "direction": "n"}
    ]


def test_a_single_piece_cannot_advance():
    with pytest.raises(IllegalAction, match="a single piece uses move"):
        GameState.from_notation("A:k4n S:- M:- T:- A2").apply(Advance((parse_square("k4"),)))


def test_an_advance_is_all_or_nothing_but_a_smaller_phalanx_may_go():
    position = "A:k4n,k5n,l4n,l5n,l6e S:- M:- T:- A2"
    assert refusal(position, "advance k4,k5,l4,l5") == "the line of pieces on file l is blocked by your own piece at l6"
    assert after(position, "advance k4,k5") == "A:k5n,k6n,l4n,l5n,l6e S:- M:- T:- A1"
    assert not is_legal(position, "advance k4,k5,l4,l5")
    assert is_legal(position, "advance k4,k5")


def test_an_ally_blocks_an_advance():
    position = "A:- S:q9n M:- T:q7n,q8n T2"
    assert refusal(position, "advance q7,q8") == "the line of pieces on file q is blocked by your ally at q9"
    position = "A:k10e S:- M:k11s,k12s T:- M2"
    assert refusal(position, "advance k11,k12") == "the line of pieces on file k is blocked by your ally at k10"


@pytest.mark.parametrize(
    ("position", "action", "reason"),
    [
        (
            "A:k5n,k6n S:- M:- T:- A2",
            "advance k5,k6",
            "the line of pieces on file k cannot advance: k7 is in the central area",
        ),
        (
            "A:d5w,e5w S:- M:- T:- A2",
            "advance d5,e5",
            "the line of pieces on rank 5 cannot advance: c5 is off the board",
        ),
        (
            "A:q8e,r8e S:- M:- T:- A2",
            "advance q8,r8",
            "the line of pieces on rank 8 cannot advance: s8 is Sparta's victory area",
        ),
    ],
)
def test_an_advance_cannot_enter_squares_its_pieces_may_not(position, action, reason):
    assert refusal(position, action) == reason


def test_a_phalanx_walks_through_its_own_rally_area_and_its_allys_victory_area():
    assert after("A:k1n,k2n S:- M:- T:- A2", "advance k1,k2", "advance k2,k3") == "A:k3n,k4n S:- M:- T:- S2"


# --- Routing with a phalanx (rulebook §7 "Important") -------------------------------------------


def test_an_enemy_not_facing_the_phalanx_is_routed_never_pushed():
    # Weight 2 against 1 and an empty square behind it, but it is not facing the phalanx: routed.
    assert after("A:f5n S:d5e,e5e M:- T:- S2", "advance d5,e5") == "A:- S:e5e,f5e M:- T:- S1"
    # Even with a piece facing the phalanx right behind it.
    assert after("A:f5n,g5w S:d5e,e5e M:- T:- S2", "advance d5,e5") == "A:g5w S:e5e,f5e M:- T:- S1"


def test_weight_does_not_matter_for_routing():
    # One line of 2 routs an enemy line of 3 whose front piece is not facing it.
    assert after("A:f5s,g5w,h5w S:d5e,e5e M:- T:- S2", "advance d5,e5") == "A:g5w,h5w S:e5e,f5e M:- T:- S1"


# --- Pushing: weight line by line (rulebook §7) -------------------------------------------------


def test_a_heavier_line_pushes_the_enemy_facing_it_back_one_square():
    position = "A:f5w S:d5e,e5e M:- T:- S2"
    assert after(position, "advance d5,e5") == "A:g5w S:e5e,f5e M:- T:- S1"
    assert event_dicts(position, "advance d5,e5") == [
        {"event": "advanced", "city": "sparta", "squares": "d5,e5", "direction": "e"},
        {"event": "pushed", "city": "athens", "from": "f5", "to": "g5"},
    ]


def test_a_tie_does_not_push():
    assert (
        refusal("A:- S:- M:q9s,q10e T:q7n,q8n T2", "advance q7,q8")
        == "Messene's hoplite on q9 faces you: weight 2 against 2, no push"
    )


def test_the_rulebook_example_top_line_tied_two_to_two_bottom_line_three_to_two():
    # Athens faces east: rank 5 is g5,h5 against Thebes i5,j5; rank 4 is f4,g4,h4 against i4,j4.
    position = "A:f4e,g4e,g5e,h4e,h5e S:- M:- T:i4w,i5w,j4e,j5n A2"
    assert refusal(position, "advance f4,g4,g5,h4,h5") == "Thebes' hoplite on i5 faces you: weight 2 against 2, no push"
    assert not is_legal(position, "advance f4,g4,g5,h4,h5")
    # The bottom line alone outweighs its enemies 3 to 2 and pushes both back.
    assert after(position, "advance f4,g4,h4") == "A:g4e,g5e,h4e,h5e,i4e S:- M:- T:i5w,j4w,j5n,k4e A1"
    assert event_dicts(position, "advance f4,g4,h4")[1:] == [
        {"event": "pushed", "city": "thebes", "from": "i4", "to": "j4"},
        {"event": "pushed", "city": "thebes", "from": "j4", "to": "k4"},
    ]
    # Only the pieces that move count: two of the three are not enough.
    assert "weight 2 against 2" in refusal(position, "advance g4,h4")


def test_attacker_weight_is_the_run_in_that_line_not_the_whole_phalanx():
    # A 2x2 block has weight 2 in each line, not 4.
    assert "weight 2 against 2" in refusal("A:f5w,g5n S:d5e,d6e,e5e,e6e M:- T:- S2", "advance d5,d6,e5,e6")


def test_defenders_count_both_allied_cities_whatever_their_facing_beyond_the_contact():
    # Athens faces the phalanx; Messene behind it faces away and still adds weight.
    assert (
        refusal("A:f5w S:d5e,e5e M:g5e T:- S2", "advance d5,e5")
        == "Athens' hoplite on f5 faces you: weight 2 against 2, no push"
    )
    assert "weight 3 against 3" in refusal("A:g5w,i5s S:d5e,e5e,f5e M:h5n T:- S2", "advance d5,e5,f5")


def test_only_contiguous_defenders_add_weight():
    # A gap behind the contact piece ends the defending line.
    assert after("A:f5w S:d5e,e5e M:h5w T:- S2", "advance d5,e5") == "A:g5w S:e5e,f5e M:h5w T:- S1"


def test_an_allied_piece_in_front_is_never_pushed():
    assert "blocked by your ally at f5" in refusal("A:- S:d5e,e5e M:- T:f5w S2", "advance d5,e5")


def test_a_push_moves_the_whole_defending_line():
    position = "A:g5w,h5e S:d5e,e5e,f5e M:- T:- S2"
    assert after(position, "advance d5,e5,f5") == "A:h5w,i5e S:e5e,f5e,g5e M:- T:- S1"


# --- Where a push routs (rulebook §7 "Pushing and Routing"; docs/nika.md, rule 7) ---------------------


@pytest.mark.parametrize("facing", ["n", "e", "s", "w"])
def test_a_pushed_piece_is_routed_by_an_enemy_piece_behind_it_whatever_its_facing(facing):
    # Athens f5 is pushed toward g5, where a Thebes piece (Athens' enemy) stands.
    position = f"A:f5w S:d5e,e5e M:- T:g5{facing} S2"
    assert after(position, "advance d5,e5") == f"A:- S:e5e,f5e M:- T:g5{facing} S1"
    routed = {"event": "routed", "city": "athens", "square": "f5", "pushed_into": "g5"}
    assert event_dicts(position, "advance d5,e5")[1:] == [routed]


def test_a_pushed_piece_is_routed_by_a_piece_of_the_pushing_city_outside_the_phalanx():
    assert after("A:f5w S:d5e,e5e,g5n M:- T:- S2", "advance d5,e5") == "A:- S:e5e,f5e,g5n M:- T:- S1"


def test_only_the_last_piece_of_a_pushed_line_is_routed():
    position = "A:g5w S:d5e,e5e,f5e,i5n M:h5e T:- S2"
    assert after(position, "advance d5,e5,f5") == "A:h5w S:e5e,f5e,g5e,i5n M:- T:- S1"
    assert event_dicts(position, "advance d5,e5,f5")[1:] == [
        {"event": "pushed", "city": "athens", "from": "g5", "to": "h5"},
        {"event": "routed", "city": "messene", "square": "h5", "pushed_into": "i5"},
    ]


def test_a_pushed_piece_is_routed_by_an_enemy_victory_area():
    # Thebes pushes Messene west from d8 toward c8, Thebes' victory area.
    assert after("A:- S:- M:d8e T:e8w,f8w T2", "advance e8,f8") == "A:- S:- M:- T:d8w,e8w T1"


def test_a_pushed_piece_is_routed_off_the_board():
    assert after("A:d5s,d6s S:d4n M:- T:- A2", "advance d5,d6") == "A:d4s,d5s S:- M:- T:- A1"


def test_a_push_into_the_central_area_is_told_as_a_push_off_the_board():
    """A piece pushed into the central area is not simply routed where it stood: it was pushed
    off the board, and the words (and the board's arrow) say so."""
    game = GameState.from_notation("A:- S:- M:k10n T:k11s,k12s T2")
    _, events = game.parse_and_apply("advance k11,k12")
    assert [e.to_dict() for e in events][1:] == [
        {"event": "routed", "city": "messene", "square": "k10", "pushed_into": "k9"}
    ]
    assert describe_events(events) == "Thebes advanced k11,k12: pushed Messene's k10 off the board"


def test_a_pushed_piece_is_routed_by_the_central_area():
    assert after("A:k4n,k5n S:k6s M:- T:- A2", "advance k4,k5") == "A:k5n,k6n S:- M:- T:- A1"


def test_a_push_may_push_in_some_lines_and_rout_in_others():
    # Rank 5 pushes Athens (facing the phalanx); rank 6 routs Messene (not facing it).
    position = "A:f5w S:d5e,d6e,e5e,e6e M:f6n T:- S2"
    assert after(position, "advance d5,d6,e5,e6") == "A:g5w S:e5e,e6e,f5e,f6e M:- T:- S1"
    assert event_dicts(position, "advance d5,d6,e5,e6") == [
        {"event": "advanced", "city": "sparta", "squares": "d5,d6,e5,e6", "direction": "e"},
        {"event": "pushed", "city": "athens", "from": "f5", "to": "g5"},
        {"event": "routed", "city": "messene", "square": "f6"},
    ]


# --- A pushed piece meeting the advancing phalanx itself (docs/nika.md, rule 13) ---------------


def test_a_piece_pushed_into_a_square_the_phalanx_is_leaving_moves_into_it():
    # Athens faces north; file q holds q4,q5 and, beyond Sparta's q6, q7 (joined through file r).
    position = "A:q4n,q5n,q7n,r5n,r6n,r7n S:q6s M:- T:- A2"
    assert after(position, "advance q4,q5,q7,r5,r6,r7") == "A:q5n,q6n,q8n,r6n,r7n,r8n S:q7s M:- T:- A1"
    assert event_dicts(position, "advance q4,q5,q7,r5,r6,r7")[1:] == [
        {"event": "pushed", "city": "sparta", "from": "q6", "to": "q7"}
    ]


def test_a_piece_pushed_into_a_piece_of_the_pushing_city_that_stays_is_routed():
    # The same shape, but q7 is not part of the advancing phalanx.
    position = "A:q4n,q5n,q7e,r5n,r6n,r7n S:q6s M:- T:- A2"
    assert after(position, "advance q4,q5,r5,r6,r7") == "A:q5n,q6n,q7e,r6n,r7n,r8n S:- M:- T:- A1"


def test_each_run_of_a_gapped_line_is_weighed_on_its_own():
    # File q: q4 alone (weight 1) against Sparta's q5; q6,q7 behind the enemy do not add weight.
    position = "A:q4n,q6n,q7n,r4n,r5n,r6n S:q5s M:- T:- A2"
    assert "weight 1 against 1" in refusal(position, "advance q4,q6,q7,r4,r5,r6")


# --- Typed actions (docs/nika.md, rule 24) -------------------------------------------------


def test_typed_phalanx_squares_may_come_in_any_order_but_not_twice():
    state = GameState.from_notation("A:k4n,k5n S:- M:- T:- A2")
    k4, k5 = parse_square("k4"), parse_square("k5")
    after_unsorted, happened = state.apply(Advance((k5, k4)))
    assert after_unsorted == state.apply(Advance((k4, k5)))[0]
    assert happened[0].to_dict()["squares"] == "k4,k5"
    with pytest.raises(IllegalAction, match="k4 is listed twice"):
        state.apply(Advance((k4, k4, k5)))
