"""The translation catalogues: gettext `.po` files per language, loaded with Babel once per
process, for every word the bot shows (replies, commands, boards, alt text). The host's own
words are in `render/locales/`; each game ships its own catalogue in its package and names it
under the entry point group `boardgame_host.catalogues` (engine/plugins.py). They are loaded
here because render is the lowest layer that shows players anything; the bot imports them
from here, the engine never does.

A missing entry falls back to English; `tests/test_translations.py` fails when any English
message lacks its translation or a placeholder differs.
"""

from __future__ import annotations

import contextlib
import gettext
from collections.abc import Callable, Iterator, Mapping
from contextvars import ContextVar
from functools import cache
from typing import TYPE_CHECKING

from engine import plugins
from engine.i18n import ENGLISH, Catalog, English

if TYPE_CHECKING:
    # babel reads the .po files; it is imported when a first one is read, so English alone
    # (the console by default) never loads it.
    from importlib.resources.abc import Traversable

    from babel.messages.catalog import Catalog as PoFile

LANGUAGES = ("en", "es")
# Discord's locales for each language the bot speaks.
DISCORD_LOCALES = {"es": ("es-ES", "es-419")}


def language_of(locale: str | None) -> str:
    """'es-ES', 'es-419', 'es' → 'es'; anything the bot does not speak → 'en'."""
    base = (locale or "en").replace("_", "-").split("-")[0].lower()
    return base if base in LANGUAGES else "en"


_Entries = tuple[dict[tuple[str | None, str], str], dict[tuple[str | None, str], tuple[str, ...]]]

# The game whose words are being said (its slug), set around a command, a button press, a board
# or a notice of that game: its own catalogue is looked at before the host's, so two games may
# word one English text differently (a seat is a "color" in one and a "puesto" in another).
_GAME: ContextVar[str | None] = ContextVar("game", default=None)


@contextlib.contextmanager
def playing(game: str | None) -> Iterator[None]:
    """Say every Message in this block (this task or thread) with `game`'s own words first."""
    token = _GAME.set(game)
    try:
        yield
    finally:
        _GAME.reset(token)


def _entries(po: PoFile) -> _Entries:
    single: dict[tuple[str | None, str], str] = {}
    plurals: dict[tuple[str | None, str], tuple[str, ...]] = {}
    for message in po:
        if not message.id or not message.string or message.fuzzy:
            continue
        if isinstance(message.id, tuple | list):
            forms = tuple(message.string)
            if all(forms):
                plurals[(message.context, message.id[0])] = forms
        else:
            single[(message.context, message.id)] = str(message.string)
    return single, plurals


class PoCatalog:
    """A language's catalogue: the merged .po files (the host's, then every game's), with each
    game's own entries kept apart too, looked at first while that game is `playing`."""

    def __init__(self, locale: str, po: PoFile, games: Mapping[str, PoFile] | None = None) -> None:
        self.locale = locale
        self._po = po
        expression = po.plural_expr or "(n != 1)"
        self._plural: Callable[[int], int] = gettext.c2py(expression)
        self._single, self._plurals = _entries(po)
        self._games = {slug: _entries(own) for slug, own in (games or {}).items()}

    def _own(self) -> _Entries | None:
        game = _GAME.get()
        return None if game is None else self._games.get(game)

    def gettext(self, text: str, context: str | None = None) -> str:
        own = self._own()
        if own is not None and (context, text) in own[0]:
            return own[0][(context, text)]
        return self._single.get((context, text), text)

    def ngettext(self, singular: str, plural: str, count: int, context: str | None = None) -> str:
        own = self._own()
        forms = own[1].get((context, singular)) if own is not None else None
        forms = forms or self._plurals.get((context, singular))
        if forms is None:
            return ENGLISH.ngettext(singular, plural, count)
        return forms[min(self._plural(count), len(forms) - 1)]

    def form(self, word: str, spec: str) -> str:
        if spec == "cap":
            return word[:1].upper() + word[1:]
        return word  # Spanish templates place their own "de" and articles

    def entries(self) -> Iterator[tuple[str | None, str, str | tuple[str, ...]]]:
        for (context, text), translated in self._single.items():
            yield context, text, translated
        for (context, text), forms in self._plurals.items():
            yield context, text, forms


@cache
def po_file(language: str) -> PoFile:
    """The language's whole catalogue: the host's (`render/locales/<language>.po` and its parts
    `<language>-*.po`), then each installed game's own, in slug order. An entry already there
    is kept: a game cannot change the host's words, and a text two games share reads alike."""
    merged = host_po_file(language)
    for slug in plugins.names(plugins.CATALOGUES):
        for message in game_po_file(slug, language):
            if message.id and merged.get(message.id, context=message.context) is None:
                merged[message.id] = message
    return merged


def host_po_file(language: str) -> PoFile:
    """The host's own catalogue: `<language>.po` with its parts `<language>-*.po` merged in (kept
    apart while several people translate at once)."""
    from importlib import resources  # read when a catalogue is: English needs none (the console's start)

    from babel.messages.pofile import read_po

    folder = resources.files("render").joinpath("locales")
    names = sorted(entry.name for entry in folder.iterdir() if entry.name.startswith(f"{language}-"))
    with folder.joinpath(f"{language}.po").open("rb") as handle:
        merged = read_po(handle, locale=language)
    for name in names:
        if name.endswith(".po"):
            _merge(merged, folder.joinpath(name), language)
    return merged


@cache
def game_po_file(slug: str, language: str) -> PoFile:
    """A game's own catalogue for the language: `<language>.po` (and any `<language>-*.po`) in the
    package its `boardgame_host.catalogues` entry point names; empty if it has none."""
    from babel.messages.catalog import Catalog as PoFile

    merged = PoFile(locale=language)
    package = plugins.load(plugins.CATALOGUES, slug)
    if package is None:
        return merged
    from importlib import resources

    folder = resources.files(package)
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name == f"{language}.po" or (entry.name.startswith(f"{language}-") and entry.name.endswith(".po")):
            _merge(merged, entry, language)
    return merged


def _merge(into: PoFile, file: Traversable, language: str) -> None:
    from babel.messages.pofile import read_po

    with file.open("rb") as handle:
        for message in read_po(handle, locale=language):
            if message.id:
                into[message.id] = message


@cache
def catalog(locale: str | None) -> Catalog:
    """The catalogue for a Discord locale (or a language code); English when unknown."""
    language = language_of(locale)
    if language == "en":
        return ENGLISH
    games = {slug: game_po_file(slug, language) for slug in plugins.names(plugins.CATALOGUES)}
    return PoCatalog(language, po_file(language), games)


__all__ = [
    "DISCORD_LOCALES", "LANGUAGES", "English", "PoCatalog", "catalog", "game_po_file", "host_po_file", "language_of",
    "playing", "po_file",
]  # fmt: skip
