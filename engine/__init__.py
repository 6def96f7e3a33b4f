"""Pure, deterministic game logic for the hosted games.

Each game lives in its own subpackage (`engine/nika`, …) and implements the small
interface in `engine/api.py`; `engine/registry.py` finds a game by its slug. The
host knows games only through that interface.
"""

from __future__ import annotations

from engine.api import (
    ActionLike,
    Choice,
    ClaimSpec,
    Ending,
    EndingKind,
    EventLike,
    Game,
    OptionSpec,
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
    "ActionLike", "Choice", "ClaimSpec", "Ending", "EndingKind", "EventLike", "Game", "GameOver", "IllegalAction",
    "NotationError", "OptionSpec", "Outcome", "Seat", "Side", "Step", "UndoScope", "games", "get_game", "register",
    "result_text",
]  # fmt: skip
