"""The translation catalogues: gettext `.po` files per language, read once per process (by
render/po.py; Babel reads the same files for the tools and checks), for every word the bot
shows (replies, commands, boards, alt text). The host's own words are in `render/locales/`;
each game ships its own catalogue in its package and names it
under the entry point group `boardgame_host.catalogues` (engine/plugins.py). They are loaded
here because render is the lowest layer that shows players anything; the bot imports them
from here, the engine never does.

A missing entry falls back to English; `tests/test_translations.py` fails when any English
message lacks its translation or a placeholder differs.
"""

from __future__ import annotations

import contextlib
import gettext
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextvars import ContextVar
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from engine import plugins
from engine.i18n import ENGLISH, Catalog, English, active

if TYPE_CHECKING:
    # babel reads the .po files for the tools and translation checks; the bot never loads it.
    from babel.messages.catalog import Catalog as PoFile

    from render.po import Entry

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


def voice() -> tuple[object, str | None]:
    """What a sentence's wording depends on besides its values: the active catalogue and the game
    being played (a key for sentences kept once said)."""
    return active(), _GAME.get()


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

    def __init__(
        self, locale: str, entries: _Entries, games: Mapping[str, _Entries] | None = None, plural: str | None = None
    ) -> None:
        self.locale = locale
        self._plural: Callable[[int], int] = gettext.c2py(plural or "(n != 1)")
        self._single, self._plurals = entries
        self._games = dict(games or {})

    @classmethod
    def from_po(cls, locale: str, po: PoFile, games: Mapping[str, PoFile] | None = None) -> PoCatalog:
        """The catalogue of Babel's reading of the files (the translation checks compare it)."""
        return cls(locale, _entries(po), {slug: _entries(own) for slug, own in (games or {}).items()}, po.plural_expr)

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
    from babel.messages.pofile import read_po

    first, *parts = _host_files(language)
    with first.open("rb") as handle:
        merged = read_po(handle, locale=language)
    for part in parts:
        _merge(merged, part, language)
    return merged


def _host_files(language: str) -> list[Path]:
    """`render/locales/<language>.po`, then its parts `<language>-*.po` in name order."""
    main = Path(__file__).parent / "locales" / f"{language}.po"
    return [main, *(file for file in _language_files(main.parent, language) if file != main)]


def _game_files(slug: str, language: str) -> list[Path]:
    """A game's `<language>.po` and `<language>-*.po`, in name order, from the package its
    `boardgame_host.catalogues` entry point names; none if it names none."""
    folder = plugins.folder_of(plugins.CATALOGUES, slug)
    return [] if folder is None else _language_files(folder, language)


def _language_files(folder: Path, language: str) -> list[Path]:
    """A folder's catalogue files of a language (`<language>.po`, `<language>-*.po`), in name order."""
    return sorted((e for e in folder.iterdir() if e.suffix == ".po" and e.stem.split("-")[0] == language),
                  key=lambda e: e.name)  # fmt: skip


@cache
def game_po_file(slug: str, language: str) -> PoFile:
    """A game's own catalogue for the language: `<language>.po` (and any `<language>-*.po`) in the
    package its `boardgame_host.catalogues` entry point names; empty if it has none."""
    from babel.messages.catalog import Catalog as PoFile

    merged = PoFile(locale=language)
    for file in _game_files(slug, language):
        _merge(merged, file, language)
    return merged


def _merge(into: PoFile, file: Path, language: str) -> None:
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
    from render.po import plural_expression, read_file

    # As po_file merges them: the host's file, its parts over it, then each game's entries the
    # host lacks; a game's own entries are also kept apart, looked at first while it is playing.
    host_files = [read_file(file) for file in _host_files(language)]
    host = _keyed(entry for entries in host_files for entry in entries)
    games = {slug: _keyed(e for file in _game_files(slug, language) for e in read_file(file))
             for slug in plugins.names(plugins.CATALOGUES)}  # fmt: skip
    merged = dict(host)
    for own in games.values():
        for key, entry in own.items():
            merged.setdefault(key, entry)
    header = next((e for e in host_files[0] if not e.id), None)  # the language's own file heads it
    return PoCatalog(language, _read_entries(merged.values()), {slug: _read_entries(own.values()) for slug, own in
                                                                 games.items()}, plural_expression(header))  # fmt: skip


def _keyed(entries: Iterator[Entry]) -> dict[tuple[str | None, str], Entry]:
    """Entries by (context, message), a later one replacing an earlier (a part over its file)."""
    return {entry.key: entry for entry in entries if entry.id}


def _read_entries(entries: Iterable[Entry]) -> _Entries:
    """What `_entries` keeps of Babel's reading: translated, not fuzzy, every plural form given."""
    single: dict[tuple[str | None, str], str] = {}
    plurals: dict[tuple[str | None, str], tuple[str, ...]] = {}
    for entry in entries:
        if entry.fuzzy or not entry.id or not entry.strings:
            continue
        if entry.plural is not None:
            forms = tuple(entry.strings.get(n, "") for n in range(max(2, max(entry.strings) + 1)))
            if all(forms):
                plurals[entry.key] = forms
        elif entry.strings.get(0):
            single[entry.key] = entry.strings[0]
    return single, plurals


__all__ = [
    "DISCORD_LOCALES", "LANGUAGES", "English", "PoCatalog", "catalog", "game_po_file", "host_po_file", "language_of",
    "playing", "po_file",
]  # fmt: skip
