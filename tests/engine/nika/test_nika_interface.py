"""Nika through the shared `Game` interface the host plays every game through (engine/api.py)."""

from __future__ import annotations

from nika_scenarios import START

from engine import AnyGame, get_game


def test_nika_is_hosted_through_the_game_interface():
    nika: AnyGame = get_game("nika")
    assert (nika.slug, nika.title) == ("nika", "Nika")
    assert tuple(seat.slug for seat in nika.seats(4)) == ("athens", "sparta", "messene", "thebes")
    assert [side.slug for side in nika.sides(2)] == ["athens-messene", "sparta-thebes"]
    state = nika.new(4, {}, 0)
    assert nika.notation(state) == START and nika.to_act(state) == "athens" and nika.outcome(state) is None
    after, events = nika.apply(state, nika.parse_action("advance k4,k5"))
    assert nika.notation(after) == nika.notation(nika.load(nika.notation(after)))
    assert [event.to_dict()["event"] for event in events] == ["advanced"]
    assert "pass" in [action.notation() for action in nika.legal_actions(nika.load(START))]
