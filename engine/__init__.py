"""Pure, deterministic game logic for the hosted games.

Each game lives in its own subpackage and offers a `Game` (the small interface
below) so the bot can host it without knowing its rules. Nika is the first.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from engine.errors import GameOver, IllegalAction, NotationError


class ActionLike(Protocol):
    def notation(self) -> str: ...


class EventLike(Protocol):
    def to_dict(self) -> dict[str, Any]: ...


class StateLike(Protocol):
    """An immutable game state."""

    @property
    def is_over(self) -> bool: ...

    def notation(self) -> str: ...

    def seat_to_act(self) -> str: ...

    def legal_actions(self) -> Sequence[ActionLike]: ...

    def apply(self, action: Any) -> tuple[StateLike, Sequence[EventLike]]: ...


class Game(Protocol):
    """What the host needs from a game: seats, a start, notation in and out."""

    slug: str
    title: str
    seats: tuple[str, ...]

    def start(self) -> StateLike: ...

    def load(self, position: str) -> StateLike: ...

    def parse_action(self, text: str) -> ActionLike: ...


def get_game(slug: str) -> Game:
    if slug == "nika":
        from engine.nika.game import NIKA

        return NIKA
    raise KeyError(f"no game called {slug!r}")


__all__ = ["ActionLike", "EventLike", "Game", "GameOver", "IllegalAction", "NotationError", "StateLike", "get_game"]
