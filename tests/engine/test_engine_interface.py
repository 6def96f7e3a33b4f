"""The shared `Game` interface the bot hosts games through (engine/__init__.py)."""

from __future__ import annotations

import pytest
from nika_scenarios import START

from engine import Game, GameOver, IllegalAction, NotationError, StateLike, get_game
from engine.nika import GameState


def test_nika_is_hosted_through_the_game_interface():
    nika: Game = get_game("nika")
    assert (nika.slug, nika.title) == ("nika", "Nika")
    assert nika.seats == ("athens", "sparta", "messene", "thebes")
    state: StateLike = nika.start()
    assert state.notation() == START and state.seat_to_act() == "athens" and not state.is_over
    after, events = state.apply(nika.parse_action("advance k4,k5"))
    assert after.notation() == nika.load(after.notation()).notation()
    assert [event.to_dict()["event"] for event in events] == ["advanced"]
    assert "pass" in [action.notation() for action in nika.load(START).legal_actions()]


def test_an_unknown_game_is_a_key_error():
    with pytest.raises(KeyError, match="no game called 'chess'"):
        get_game("chess")


def test_errors_share_one_base_players_can_read():
    assert issubclass(NotationError, IllegalAction) and issubclass(GameOver, IllegalAction)
    assert isinstance(GameState.start(), GameState)
