"""The hosted games, registered as data (compare python-chess's variants): find one by slug.

The built-in games register themselves when first looked up; tests register games of
their own with `register`, and the host then finds them like any other.
"""

from __future__ import annotations

import importlib
from typing import Any

from engine.api import Game

BUILT_IN = ("nika", "numica", "pikemen")
_GAMES: dict[str, Game[Any]] = {}


def register(game: Game[Any]) -> Game[Any]:
    """Add a game (replacing one with the same slug) and return it."""
    _GAMES[game.slug] = game
    return game


def unregister(slug: str) -> None:
    _GAMES.pop(slug, None)


def _load_built_ins() -> None:
    for slug in BUILT_IN:
        if slug not in _GAMES:
            try:
                module = importlib.import_module(f"engine.{slug}.game")
            except ModuleNotFoundError as error:
                if error.name != f"engine.{slug}" and error.name != f"engine.{slug}.game":
                    raise
                continue  # not built yet
            register(module.GAME)


def get_game(slug: str) -> Game[Any]:
    if slug not in _GAMES:
        _load_built_ins()
    try:
        return _GAMES[slug]
    except KeyError:
        raise KeyError(f"no game called {slug!r}") from None


def games() -> tuple[Game[Any], ...]:
    """Every registered game: the built-ins first, in their order, then the rest by slug."""
    _load_built_ins()
    order = {slug: i for i, slug in enumerate(BUILT_IN)}
    return tuple(sorted(_GAMES.values(), key=lambda g: (order.get(g.slug, len(order)), g.slug)))
