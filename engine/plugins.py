"""Games are plugins: the host finds them through Python entry points, never by name.

A package that provides a game declares, in its `pyproject.toml`, one entry point named
after the game's slug in each group it fills:

    [project.entry-points."boardgame_host.games"]        # required: the rules
    checkers  = "checkers.game:GAME"                     #   an engine.api.Game
    [project.entry-points."boardgame_host.evaluations"]  # optional: the computer's judgement
    checkers  = "checkers.ai"                            #   evaluate(state, side), … (engine/search.py)
    [project.entry-points."boardgame_host.artists"]      # optional: the pictures
    checkers  = "checkers.artist:ARTIST"                 #   a render.api.Artist
    [project.entry-points."boardgame_host.front_ends"]   # optional: the Discord surface
    checkers  = "checkers.front_end:FRONT_END"           #   a bot.commands.front_end.FrontEnd
    [project.entry-points."boardgame_host.catalogues"]   # optional: the words in other languages
    checkers  = "checkers.locales"                       #   a package holding es.po, …

The built-in games register the same way, in this project's own `pyproject.toml`. Each
layer reads only its own group (the engine its games and evaluations, render its artists
and catalogues, the bot its front ends), so importing the rules never imports Pillow or
discord.py. What a group's entry point names is imported the first time it is asked for.
"""

from __future__ import annotations

import importlib.util
import logging
from functools import cache
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

GAMES = "boardgame_host.games"
EVALUATIONS = "boardgame_host.evaluations"
ARTISTS = "boardgame_host.artists"
FRONT_ENDS = "boardgame_host.front_ends"
CATALOGUES = "boardgame_host.catalogues"
GROUPS = (GAMES, EVALUATIONS, ARTISTS, FRONT_ENDS, CATALOGUES)


class PluginError(Exception):
    """An installed game package that cannot be used: what is wrong, for the server's owner."""


@cache
def found(group: str) -> dict[str, EntryPoint]:
    """The installed entry points of a group, by name (the game's slug), in name order.

    The same entry point seen twice (a package on the path twice) counts once; two packages
    that claim one slug are an error, since the host could not tell which one to run."""
    chosen: dict[str, EntryPoint] = {}
    for point in sorted(entry_points(group=group), key=lambda p: (p.name, p.value)):
        earlier = chosen.get(point.name)
        if earlier is not None and earlier.value != point.value:
            raise PluginError(
                f"two installed packages provide {group} {point.name!r}: {_origin(earlier)} ({earlier.value}) "
                f"and {_origin(point)} ({point.value}); uninstall one of them"
            )
        chosen[point.name] = point
    return chosen


def names(group: str) -> tuple[str, ...]:
    return tuple(found(group))


@cache
def load(group: str, name: str) -> Any | None:
    """What the entry point `name` of `group` names, imported; None when no package provides it.
    A package that fails to import raises PluginError saying which package and why."""
    point = found(group).get(name)
    if point is None:
        return None
    try:
        return point.load()
    except Exception as error:  # a broken third-party package: say which one, and why
        raise PluginError(f"{group} {name!r} from {_origin(point)} does not load ({point.value}): {error!r}") from error


def module_of(group: str, name: str) -> str | None:
    """The dotted module an entry point names (without importing it), e.g. to find its files."""
    point = found(group).get(name)
    return None if point is None else point.module


def forget() -> None:
    """Look the entry points up again (after installing a package while running, and in tests)."""
    found.cache_clear()
    load.cache_clear()


def _origin(point: EntryPoint) -> str:
    dist = getattr(point, "dist", None)
    return f"the package {dist.name}" if dist is not None else "an installed package"


def source_paths(name: str) -> tuple[Path, ...]:
    """The files and folders that belong to the game `name`: for each of its entry points, the
    package folder its module lives in, or only the module's own file when that package holds
    other games' entry points too (as this project's `bot/games/` does). Found without
    importing the game; used to collect a game's words and to check that the host names none."""
    modules = [found(group)[name].module for group in GROUPS if name in found(group)]
    shared_parents = {_parent(p.module) for group in GROUPS for other, p in found(group).items() if other != name}
    paths: list[Path] = []
    for module in modules:
        parent = _parent(module)
        own = module if not parent or parent in shared_parents else parent
        spec = importlib.util.find_spec(own)
        if spec is None or spec.origin is None:
            continue
        origin = Path(spec.origin)
        paths.append(origin.parent if origin.name == "__init__.py" else origin)
    # A folder inside another of the game's folders is already covered.
    kept = [p for p in paths if not any(other != p and other in p.parents for other in paths)]
    return tuple(dict.fromkeys(sorted(kept)))


def _parent(module: str) -> str:
    return module.rpartition(".")[0]
