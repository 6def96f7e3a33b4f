"""Helpers for Pikemen tests: scenarios are written in position and move notation.

(Named uniquely, not `helpers.py`: test folders have no __init__.py, so module names must not clash.)
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.api import Ending, EndingKind
from engine.errors import IllegalAction
from engine.pikemen.game import GAME
from engine.pikemen.state import GameState

START_2 = (
    "R0:a4Su,a5Mu,b5Su,a6Lu,b6Mu,c6Su,a7Lu,b7Mu,c7Mu,d7Su,a8Lu,b8Lu,c8Lu,d8Mu,e8Su "
    "B0:d1Su,e1Mu,f1Lu,g1Lu,h1Lu,e2Su,f2Mu,g2Mu,h2Lu,f3Su,g3Mu,h3Lu,g4Su,h4Mu,h5Su R/12/0"
)


def game(position: str) -> GameState:
    return GAME.load(position)


def play(position: str | GameState, *moves: str) -> GameState:
    """The state after `moves` (each put in canonical form first, as the host does)."""
    state = game(position) if isinstance(position, str) else position
    for text in moves:
        state, _ = GAME.apply(state, GAME.canonical(state, GAME.parse_action(text)))
    return state


def after(position: str, *moves: str) -> str:
    return GAME.notation(play(position, *moves))


def events(position: str | GameState, move: str) -> list[dict[str, Any]]:
    state = game(position) if isinstance(position, str) else position
    _, happened = GAME.apply(state, GAME.canonical(state, GAME.parse_action(move)))
    return [event.to_dict() for event in happened]


def described(position: str, move: str) -> str:
    state = game(position)
    _, happened = GAME.apply(state, GAME.canonical(state, GAME.parse_action(move)))
    return GAME.describe(happened)


def refusal(position: str, move: str) -> str:
    """Why the rules refuse `move` (after canonical form); checks nothing changed."""
    state = game(position)
    before = (GAME.notation(state), [a.notation() for a in GAME.legal_actions(state)])
    with pytest.raises(IllegalAction) as refused:
        GAME.apply(state, GAME.canonical(state, GAME.parse_action(move)))
    assert (GAME.notation(state), [a.notation() for a in GAME.legal_actions(state)]) == before
    return str(refused.value)


def legal(position: str | GameState) -> set[str]:
    """The legal moves in notation; checks each is listed once and parses back to itself."""
    state = game(position) if isinstance(position, str) else position
    listed = [action.notation() for action in GAME.legal_actions(state)]
    assert len(listed) == len(set(listed))
    assert all(GAME.parse_action(text).notation() == text for text in listed)
    return set(listed)


def end(position: str | GameState, kind: EndingKind, seat: str | None = None) -> tuple[GameState, list[dict[str, Any]]]:
    state = game(position) if isinstance(position, str) else position
    after_state, happened = GAME.end(state, Ending(kind, seat))
    return after_state, [event.to_dict() for event in happened]


def reason(state: GameState) -> str | None:
    outcome = GAME.outcome(state)
    return None if outcome is None else outcome.reason
