"""Helpers for Numica scenarios, written as position and move notation.

A scenario names only the tiles that matter (`tiles="c1=K d4=3"`); the other squares get
the rest of the 64-tile set in a fixed order, so every scenario is a legal deal.
(Named uniquely, not `helpers.py`: test folders have no __init__.py.)
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from engine.errors import IllegalAction
from engine.numica import TILE_COUNTS, GameState, parse_action, parse_square
from engine.numica.board import tile_text
from engine.numica.game import GAME

# Filler order: the least mobile tiles first, so unnamed squares rarely matter.
_FILLER_ORDER = "54321KBRX"

# The example start position of the rules reference, tiles and all.
EXAMPLE = (
    "RK14R155/K13XK33R/X1223114/23243213/2BK55R21/1X1B344K/X4K34552/1X5BB422 "
    "red:a1s,b1o,c1s,d1o,e1s,f1o,g1s,h1o blue:a8o,b8s,c8o,d8s,e8o,f8s,g8o,h8s red/0"
)
EXAMPLE_TILES = EXAMPLE.split()[0]


def tiles(spec: str = "") -> str:
    """The tiles field with the named squares' tiles (`"c1=K d4=3"`) and the rest filled in."""
    named: dict[int, str] = {}
    for item in spec.split():
        name, _, symbol = item.partition("=")
        named[parse_square(name)] = symbol.upper()
    left = Counter(TILE_COUNTS) - Counter(named.values())
    assert sum(left.values()) == 64 - len(named), f"more tiles named than the set holds: {spec}"
    filler = iter("".join(symbol * left[symbol] for symbol in _FILLER_ORDER))
    return tile_text("".join(named.get(sq) or next(filler) for sq in range(64)))


def position(red: str = "-", blue: str = "-", *, tiles_at: str = "", turn: str = "red/0") -> str:
    return f"{tiles(tiles_at)} red:{red} blue:{blue} {turn}"


def game(notation: str) -> GameState:
    return GAME.load(notation)


def play(notation: str | GameState, *moves: str) -> GameState:
    """The state after playing `moves` (typed, tolerant notation) from a position."""
    state = game(notation) if isinstance(notation, str) else notation
    for text in moves:
        state, _ = GAME.apply(state, GAME.parse_action(text))
    return state


def after(notation: str, *moves: str) -> str:
    return GAME.notation(play(notation, *moves))


def events(notation: str, move: str) -> list[dict[str, Any]]:
    _, happened = GAME.apply(game(notation), parse_action(move))
    return [event.to_dict() for event in happened]


def refusal(notation: str | GameState, move: str) -> str:
    """The reason the rules give for refusing `move`; checks that nothing changed."""
    state = game(notation) if isinstance(notation, str) else notation
    before = (GAME.notation(state), [m.notation() for m in GAME.legal_actions(state)])
    with pytest.raises(IllegalAction) as refused:
        GAME.apply(state, GAME.parse_action(move))
    assert (GAME.notation(state), [m.notation() for m in GAME.legal_actions(state)]) == before
    return str(refused.value)


def legal(notation: str | GameState) -> set[str]:
    """The legal moves in notation; also checks each is listed once and in canonical form."""
    state = game(notation) if isinstance(notation, str) else notation
    listed = [move.notation() for move in GAME.legal_actions(state)]
    assert len(listed) == len(set(listed))
    assert all(parse_action(text).notation() == text for text in listed)
    return set(listed)


def reach(notation: str, frm: str) -> set[str]:
    """Where the piece on `frm` may go, as moves in notation."""
    return {text for text in legal(notation) if text[:2] == frm}


def outcome_of(state: GameState) -> tuple[str, str] | None:
    """(result, reason): result is the winner's slug or "draw"."""
    found = GAME.outcome(state)
    if found is None:
        return None
    return (next(iter(found.winners)) if found.winners else "draw", found.reason)
