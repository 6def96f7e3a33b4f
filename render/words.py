"""The translation catalogues: one gettext `.po` file per language in `render/locales/`,
loaded with Babel once per process, for every word the bot shows (replies, commands,
boards, alt text). They live beside the pictures because render is the lowest layer that
shows players anything; the bot imports them from here, the engine never does.

A missing entry falls back to English; `tests/test_translations.py` fails when any English
message lacks its translation or a placeholder differs.
"""

from __future__ import annotations

import gettext
from collections.abc import Callable, Iterator
from functools import cache
from importlib import resources

from babel.messages.catalog import Catalog as PoFile
from babel.messages.pofile import read_po

from engine.i18n import ENGLISH, Catalog, English

LANGUAGES = ("en", "es")
# Discord's locales for each language the bot speaks.
DISCORD_LOCALES = {"es": ("es-ES", "es-419")}


def language_of(locale: str | None) -> str:
    """'es-ES', 'es-419', 'es' → 'es'; anything the bot does not speak → 'en'."""
    base = (locale or "en").replace("_", "-").split("-")[0].lower()
    return base if base in LANGUAGES else "en"


class PoCatalog:
    """A language's catalogue read from its .po file."""

    def __init__(self, locale: str, po: PoFile) -> None:
        self.locale = locale
        self._po = po
        expression = po.plural_expr or "(n != 1)"
        self._plural: Callable[[int], int] = gettext.c2py(expression)
        self._single: dict[tuple[str | None, str], str] = {}
        self._plurals: dict[tuple[str | None, str], tuple[str, ...]] = {}
        for message in po:
            if not message.id or not message.string or message.fuzzy:
                continue
            if isinstance(message.id, tuple | list):
                forms = tuple(message.string)
                if all(forms):
                    self._plurals[(message.context, message.id[0])] = forms
            else:
                self._single[(message.context, message.id)] = str(message.string)

    def gettext(self, text: str, context: str | None = None) -> str:
        return self._single.get((context, text), text)

    def ngettext(self, singular: str, plural: str, count: int, context: str | None = None) -> str:
        forms = self._plurals.get((context, singular))
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
    """The language's catalogue: `<language>.po`, with any parts `<language>-*.po` (kept apart
    while several people translate at once) merged into it."""
    folder = resources.files("render").joinpath("locales")
    names = sorted(entry.name for entry in folder.iterdir() if entry.name.startswith(f"{language}-"))
    with folder.joinpath(f"{language}.po").open("rb") as handle:
        merged = read_po(handle, locale=language)
    for name in names:
        if not name.endswith(".po"):
            continue
        with folder.joinpath(name).open("rb") as handle:
            for message in read_po(handle, locale=language):
                if message.id:
                    merged[message.id] = message
    return merged


@cache
def catalog(locale: str | None) -> Catalog:
    """The catalogue for a Discord locale (or a language code); English when unknown."""
    language = language_of(locale)
    if language == "en":
        return ENGLISH
    return PoCatalog(language, po_file(language))


__all__ = ["DISCORD_LOCALES", "LANGUAGES", "English", "PoCatalog", "catalog", "language_of", "po_file"]
