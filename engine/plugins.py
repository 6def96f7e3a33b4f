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

import functools
import importlib
import importlib.machinery
import importlib.util
import logging
import os
import re
import sys
from dataclasses import dataclass
from functools import cache
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


@dataclass(frozen=True)
class EntryPoint:
    """One declared entry point: `name = value` in `group`, from the package installed at `info`
    (its `.dist-info` or `.egg-info` folder; None when the standard library's reader found it)."""

    name: str
    value: str
    group: str
    info: str | None = None
    package: str | None = None  # the package's name, when known without reading its metadata

    @property
    def module(self) -> str:
        match = _VALUE.match(self.value)
        return match.group("module") if match is not None else self.value

    def load(self) -> Any:
        """What the value names, imported (`module:attr.attr`, or a module), as importlib.metadata does."""
        match = _VALUE.match(self.value)
        if match is None:
            raise ValueError(f"not an entry point's value: {self.value!r}")
        module = importlib.import_module(match.group("module"))
        return functools.reduce(getattr, filter(None, (match.group("attr") or "").split(".")), module)

    @property
    def dist_name(self) -> str | None:
        """The package's name as its metadata spells it ("other-game"), read when asked (errors)."""
        if self.package is not None or self.info is None:
            return self.package
        for leaf in ("METADATA", "PKG-INFO"):
            try:
                with open(os.path.join(self.info, leaf), encoding="utf-8", errors="replace") as metadata:
                    for line in metadata:
                        if not line.strip():
                            break
                        if line.lower().startswith("name:"):
                            return line[5:].strip()
            except OSError:
                continue
        return None


_VALUE = re.compile(r"(?P<module>[\w.]+)\s*(:\s*(?P<attr>[\w.]+)\s*)?((?P<extras>\[.*\])\s*)?$")


def _declared(group: str) -> list[EntryPoint]:
    """Every entry point of `group` that the installed packages declare.

    Read straight from the `entry_points.txt` of each package's metadata folder on `sys.path`,
    the first package of a name winning, as `importlib.metadata.entry_points` chooses: that
    module and the email, zip and CSV readers it brings cost a tenth of the console's start-up.
    Where packages could be installed in ways this reader does not follow (a zip on the path, an
    import hook that lists distributions), the standard library is asked instead."""
    listing = [f for f in sys.meta_path if hasattr(f, "find_distributions")]
    if any(os.path.isfile(entry) for entry in sys.path) or listing != [importlib.machinery.PathFinder]:
        from importlib.metadata import entry_points

        return [
            EntryPoint(p.name, p.value, group, package=p.dist.name if p.dist is not None else None)
            for p in entry_points(group=group)
        ]
    points: list[EntryPoint] = []
    packages: set[str] = set()
    for entry in sys.path:
        folder = entry or "."
        try:
            names = sorted(os.listdir(folder))
        except OSError:  # not a folder (an import hook's marker), or gone
            continue
        for name in names:
            stem, dot, kind = name.rpartition(".")
            if kind not in ("dist-info", "egg-info") or not dot:
                continue
            package = re.sub(r"[-_.]+", "_", stem.partition("-")[0]).lower()
            if package in packages:
                continue
            packages.add(package)
            info = os.path.join(folder, name)
            try:
                with open(os.path.join(info, "entry_points.txt"), encoding="utf-8") as declared:
                    text = declared.read()
            except OSError:  # no entry points (or an egg-info file): nothing declared
                continue
            points += [EntryPoint(key, value, group, info) for key, value in _section(text, group)]
    return points


def _section(text: str, group: str) -> list[tuple[str, str]]:
    """The `name = value` lines of the `[group]` section of an entry_points.txt (an INI file)."""
    lines: list[tuple[str, str]] = []
    inside = False
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            inside = line[1:-1].strip() == group
        elif inside and "=" in line:
            key, _, value = line.partition("=")
            lines.append((key.strip(), value.strip()))
    return lines


@cache
def found(group: str) -> dict[str, EntryPoint]:
    """The installed entry points of a group, by name (the game's slug), in name order.

    The same entry point seen twice (a package on the path twice) counts once; two packages
    that claim one slug are an error, since the host could not tell which one to run."""
    chosen: dict[str, EntryPoint] = {}
    for point in sorted(_declared(group), key=lambda p: (p.name, p.value)):
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


def folder_of(group: str, name: str) -> Path | None:
    """The folder of the package an entry point names (a game's catalogues), found on the path
    without running the package's parents: importing `render.<game>.locales` would import
    `render.<game>` and, with it, Pillow and the artist, for a folder of .po files. A package that
    is not a plain folder on the path (a zip, an import hook's) is imported to find it."""
    module = module_of(group, name)
    if module is None:
        return None
    top, *parts = module.split(".")
    spec = importlib.util.find_spec(top)  # an imported one's own spec; else found, not imported
    for base in (spec.submodule_search_locations or []) if spec is not None else []:
        folder = Path(base).joinpath(*parts)
        if folder.is_dir():
            return folder
    loaded = load(group, name)
    files = getattr(loaded, "__path__", None)
    return Path(next(iter(files))) if files else None


def module_of(group: str, name: str) -> str | None:
    """The dotted module an entry point names (without importing it), e.g. to find its files."""
    point = found(group).get(name)
    return None if point is None else point.module


def forget() -> None:
    """Look the entry points up again (after installing a package while running, and in tests)."""
    found.cache_clear()
    load.cache_clear()


def _origin(point: EntryPoint) -> str:
    name = point.dist_name
    return f"the package {name}" if name is not None else "an installed package"


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
