"""Helpers for engine tests: scenarios are written as position notation and action notation.

(Named uniquely, not `helpers.py`: test folders have no __init__.py, so module names must not clash.)
"""

from __future__ import annotations

import pytest

from engine.errors import IllegalAction
from engine.nika import Event, GameState, legal_actions, parse_action

START = (
    "A:j4w,j5w,j6w,k4n,k5n,l4e S:d7s,d8e,d9n,e8e,e9n,f9n M:j12w,k11s,k12s,l10e,l11e,l12e T:p7s,q7s,q8w,r7s,r8w,r9n A2"
)


def game(position: str) -> GameState:
    return GameState.from_notation(position)


def play(position: str, *actions: str) -> GameState:
    """The state after playing `actions` from `position`."""
    state = game(position)
    for text in actions:
        state, _ = state.apply(parse_action(text))
    return state


def after(position: str, *actions: str) -> str:
    """The position notation after playing `actions` from `position`."""
    return play(position, *actions).notation()


def events(position: str, action: str) -> list[Event]:
    _, happened = game(position).apply(parse_action(action))
    return happened


def event_dicts(position: str, action: str) -> list[dict[str, str]]:
    return [event.to_dict() for event in events(position, action)]


def refusal(position: str, action: str) -> str:
    """The reason the rules give for refusing `action`; checks the state is left as it was."""
    state = game(position)
    before = (state.notation(), state.legal_actions())
    with pytest.raises(IllegalAction) as refused:
        state.apply(parse_action(action))
    assert (state.notation(), state.legal_actions()) == before
    return str(refused.value)


def legal(position: str) -> set[str]:
    """The legal actions in notation; also checks every one is listed once and is canonical."""
    listed = [action.notation() for action in legal_actions(game(position).position)]
    assert len(listed) == len(set(listed))
    assert all(parse_action(text).notation() == text for text in listed)
    return set(listed)


def is_legal(position: str, action: str) -> bool:
    return parse_action(action).notation() in legal(position)
