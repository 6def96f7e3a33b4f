"""The hosted games, found by slug: every game an installed package declares under the entry
point group `boardgame_host.games` (engine/plugins.py), and any a program registers itself.

Nothing here names a game: the built-in games are found exactly as a game installed from
elsewhere is.
"""

from __future__ import annotations

import logging
from typing import Any

from engine import plugins
from engine.api import Game

log = logging.getLogger(__name__)

_REGISTERED: dict[str, Game[Any, Any, Any]] = {}  # registered while running (tests, tools)
_LOADED: dict[str, Game[Any, Any, Any]] = {}


def register(game: Game[Any, Any, Any]) -> Game[Any, Any, Any]:
    """Add a game while running (replacing one with the same slug) and return it."""
    _REGISTERED[game.slug] = game
    return game


def unregister(slug: str) -> None:
    _REGISTERED.pop(slug, None)


def _installed(slug: str) -> Game[Any, Any, Any] | None:
    if slug not in _LOADED:
        game = plugins.load(plugins.GAMES, slug)
        if game is None:
            return None
        if not isinstance(game, Game) or game.slug != slug:
            raise plugins.PluginError(
                f"the entry point {plugins.GAMES} {slug!r} must name a Game whose slug is {slug!r}, not {game!r}"
            )
        _LOADED[slug] = game
    return _LOADED[slug]


def get_game(slug: str) -> Game[Any, Any, Any]:
    found = _REGISTERED.get(slug) or _installed(slug)
    if found is None:
        installed = ", ".join(installed_slugs()) or "none (is the project installed? pip install -e .)"
        raise KeyError(f"no game called {slug!r}; installed: {installed}")
    return found


def installed_slugs() -> tuple[str, ...]:
    """Every game's slug, in alphabetical order, without importing any game."""
    return tuple(sorted({*plugins.names(plugins.GAMES), *_REGISTERED}))


def games() -> tuple[Game[Any, Any, Any], ...]:
    """Every game, by slug. A package whose game does not load is left out, with an error in
    the log: one broken plugin does not take the others down."""
    loaded = []
    for slug in installed_slugs():
        try:
            loaded.append(get_game(slug))
        except plugins.PluginError as error:
            log.error("a game package does not load", extra={"game": slug, "error": str(error)})
    return tuple(loaded)
