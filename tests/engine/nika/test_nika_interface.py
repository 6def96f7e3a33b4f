"""The shared `Game` interface the bot hosts games through (engine/api.py)."""

from __future__ import annotations

import pytest
from nika_scenarios import START

from engine import Game, GameOver, IllegalAction, NotationError, get_game
from engine.nika import GameState


def test_nika_is_hosted_through_the_game_interface():
    nika: Game = get_game("nika")
    assert (nika.slug, nika.title) == ("nika", "Nika")
    assert tuple(seat.slug for seat in nika.seats(4)) == ("athens", "sparta", "messene", "thebes")
    assert [side.slug for side in nika.sides(2)] == ["athens-messene", "sparta-thebes"]
    state = nika.new(4, {}, 0)
    assert nika.notation(state) == START and nika.to_act(state) == "athens" and nika.outcome(state) is None
    after, events = nika.apply(state, nika.parse_action("advance k4,k5"))
    assert nika.notation(after) == nika.notation(nika.load(nika.notation(after)))
    assert [event.to_dict()["event"] for event in events] == ["advanced"]
    assert "pass" in [action.notation() for action in nika.legal_actions(nika.load(START))]


def test_an_unknown_game_is_a_key_error():
    with pytest.raises(KeyError, match="no game called 'chess'"):
        get_game("chess")


def test_errors_share_one_base_players_can_read():
    assert issubclass(NotationError, IllegalAction) and issubclass(GameOver, IllegalAction)
    assert isinstance(GameState.start(), GameState)
