"""Pure, deterministic game logic for the hosted games.

Each game lives in a package of its own and implements the small interface in
`engine/api.py`; `engine/registry.py` finds the installed games through their entry
points (`engine/plugins.py`). The host knows games only through that interface.
"""

from __future__ import annotations

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
