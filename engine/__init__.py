"""Pure, deterministic game logic for the hosted games.

Each game lives in a package of its own and implements the small interface in
`engine/api.py`; `engine/registry.py` finds the installed games through their entry
points (`engine/plugins.py`). The host knows games only through that interface.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.api import (
        ActionLike,
        AnyGame,
        Choice,
        ClaimSpec,
        Ending,
        EndingKind,
        EventLike,
        Game,
        MatchOption,
        Outcome,
        Seat,
        Side,
        Step,
        UndoScope,
        result_text,
    )
    from engine.errors import GameOver, IllegalAction, NotationError
    from engine.registry import games, get_game, register

# Loaded when first asked for (PEP 562): importing any part of the engine (its words in
# `engine.i18n`, say) runs this file first, and the interface's hundred-odd lines of classes
# and the registry's entry-point lookup are a sizeable share of the console's start-up.
_LAZY = {
    **dict.fromkeys(
        ("ActionLike", "AnyGame", "Choice", "ClaimSpec", "Ending", "EndingKind", "EventLike", "Game", "MatchOption",
         "Outcome", "Seat", "Side", "Step", "UndoScope", "result_text"),
        "engine.api",
    ),
    **dict.fromkeys(("GameOver", "IllegalAction", "NotationError"), "engine.errors"),
    **dict.fromkeys(("games", "get_game", "register"), "engine.registry"),
}  # fmt: skip


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'engine' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


__all__ = [
    "ActionLike",
    "AnyGame",
    "Choice",
    "ClaimSpec",
    "Ending",
    "EndingKind",
    "EventLike",
    "Game",
    "GameOver",
    "IllegalAction",
    "MatchOption",
    "NotationError",
    "Outcome",
    "Seat",
    "Side",
    "Step",
    "UndoScope",
    "games",
    "get_game",
    "register",
    "result_text",
]  # fmt: skip
