"""Words for players in any language, without the engine knowing any.

Every sentence a player may read is a `Message`: an English template with named
placeholders (`"{square} is empty"`), written whole, never assembled from fragments,
and its values. Words that are themselves translated (a city, a direction, a tile) are
`Term`s. Rendering looks each template up in the active `Catalog` (the host sets one per
player, from Discord's locale), so English code stays readable and other languages may
reorder, inflect and pluralise freely.

Placeholders may carry a format spec that a language's template chooses: `{city:poss}` is
the English possessive ("Achilles'", "Hector's"), `{city:the}` a word with its article where
a language has one. A Term formats through the catalog, so "North" becomes "Norte".

The engine stays pure: it builds Messages; catalogs are loaded by the host
(`render/words.py`).
"""

from __future__ import annotations

import contextlib
import functools
import string
import unicodedata
from collections.abc import Iterable, Iterator, Mapping
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, Protocol


class Catalog(Protocol):
    """One language's translations (English is the identity)."""

    locale: str

    def gettext(self, text: str, context: str | None = None) -> str: ...

    def ngettext(self, singular: str, plural: str, count: int, context: str | None = None) -> str: ...

    def form(self, word: str, spec: str) -> str:
        """A word in a grammatical form a template asks for (`poss`, `the`, …)."""


class English:
    locale = "en"

    def gettext(self, text: str, context: str | None = None) -> str:
        return text

    def ngettext(self, singular: str, plural: str, count: int, context: str | None = None) -> str:
        return singular if count == 1 else plural

    def form(self, word: str, spec: str) -> str:
        if spec == "poss":
            return f"{word}'" if word.endswith("s") else f"{word}'s"
        if spec == "cap":
            return word[:1].upper() + word[1:]
        return word


ENGLISH = English()
_ACTIVE: ContextVar[Catalog] = ContextVar("catalog", default=ENGLISH)


def active() -> Catalog:
    return _ACTIVE.get()


@contextlib.contextmanager
def using(catalog: Catalog) -> Iterator[Catalog]:
    """Render every Message in this block (this task or thread) in `catalog`'s language."""
    token = _ACTIVE.set(catalog)
    try:
        yield catalog
    finally:
        _ACTIVE.reset(token)


@dataclass(frozen=True, slots=True)
class Term:
    """A word players read that is translated too: a city, a side, a direction, a tile."""

    text: str
    context: str = "term"

    def render(self, catalog: Catalog | None = None) -> str:
        return (catalog or active()).gettext(self.text, self.context)

    def __str__(self) -> str:
        return self.render()

    def __format__(self, spec: str) -> str:  # f"{city:poss}" in code renders in the active language
        text = self.render()
        return active().form(text, spec) if spec else text


@dataclass(frozen=True, slots=True)
class Message:
    """A whole sentence (or label) for players: an English template and its values."""

    template: str
    params: Mapping[str, Any] = field(default_factory=dict)
    plural: str | None = None  # the English plural template, chosen by params["count"]
    context: str | None = None  # disambiguates a short template used in different senses

    def render(self, catalog: Catalog | None = None) -> str:
        catalog = catalog or active()
        if self.plural is not None:
            text = catalog.ngettext(self.template, self.plural, int(self.params.get("count", 0)), self.context)
        else:
            text = catalog.gettext(self.template, self.context)
        parts = _parsed(text)
        if parts is None:
            return _Formatter(catalog).vformat(text, (), self.params)
        out = []
        for literal, name, spec in parts:
            out.append(literal)
            if name is not None:
                out.append(_format_field(catalog, self.params[name], spec))
        return "".join(out)

    def __str__(self) -> str:
        return self.render()

    def __format__(self, spec: str) -> str:
        text = self.render()
        return active().form(text, spec) if spec else text

    def __add__(self, other: object) -> str:  # a Message is text wherever text is expected
        return str(self) + str(other)

    def __radd__(self, other: object) -> str:
        return str(other) + str(self)


class Summary(Message):
    """An outcome's line for players. Outcomes outlive the request that made them, so the
    line stays a Message and renders in each reader's language; it also equals its English
    text, which records, the command line and earlier callers compare it with."""

    __slots__ = ()

    @classmethod
    def of(cls, message: Message) -> Summary:
        return cls(message.template, message.params, message.plural, message.context)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, str):
            return self.render(ENGLISH) == other
        return Message.__eq__(self, other)

    __hash__ = Message.__hash__


Text = str | Message | Term  # what a player reads: plain text, or words rendered in their language


def english(text: Text) -> str:
    """The English words, for keys a translator looks up again later (Discord's choice names)."""
    return text if isinstance(text, str) else text.render(ENGLISH)


def M(template: str, /, *, context: str | None = None, **params: Any) -> Message:
    """A sentence: `M("{square} is empty", square="d7")`."""
    return Message(template, params, context=context)


def P(singular: str, plural: str, /, count: int, *, context: str | None = None, **params: Any) -> Message:
    """A sentence whose form depends on a count: `P("{count} action", "{count} actions", count=n)`."""
    return Message(singular, {"count": count, **params}, plural=plural, context=context)


def T(text: str, /, context: str = "term") -> Term:
    return Term(text, context)


def choice_name(value: str) -> Term:
    """What a reader types and reads for a choice's value (`random` is `azar` in Spanish): the
    value itself stays language-neutral, in storage, custom ids and records."""
    return Term(value, "choice")


def plain(word: str) -> str:
    """Lower case without accents, so `fácil` may be typed `facil`."""
    return "".join(c for c in unicodedata.normalize("NFD", word.strip().lower()) if not unicodedata.combining(c))


def chosen(values: Iterable[str], typed: str, *labels: Iterable[str]) -> str | None:
    """The value that `typed` names: a value itself, or its name in the active language (with or
    without accents); `labels`, if given, are further names of each value in turn (its English label)."""
    values = list(values)
    key = plain(typed)
    for value in values:  # the neutral value first: it never means another choice
        if key == plain(value):
            return value
    catalog = active()
    for value in values:
        if key == plain(choice_name(value).render(catalog)):
            return value
    for names in labels:
        for value, label in zip(values, names, strict=True):
            if key in (plain(label), plain(catalog.gettext(label))):
                return value
    return None


def choices_shown(values: Iterable[str], separator: str = ", ") -> str:
    """Choices as the reader types them, in the active language."""
    return separator.join(choice_name(value).render() for value in values)


def placeholders(template: str) -> set[str]:
    """The names a template fills (format specs aside), to check translations against."""
    return {name.split(".")[0].split("[")[0] for _, name, _, _ in string.Formatter().parse(template) if name}


@functools.lru_cache(maxsize=4096)
def _parsed(template: str) -> tuple[tuple[str, str | None, str], ...] | None:
    """A template as (literal text, field name, format spec) parts, parsed once: rendering is
    most of what an alt text costs. None when a field is more than a name with a plain spec
    (`string.Formatter` renders those)."""
    parts = []
    for literal, name, spec, conversion in string.Formatter().parse(template):
        if name is not None and (not name.isidentifier() or conversion or "{" in (spec or "")):
            return None
        parts.append((literal, name, spec or ""))
    return tuple(parts)


def _format_field(catalog: Catalog, value: Any, format_spec: str) -> str:
    if isinstance(value, Term | Message):
        text = value.render(catalog)
        return catalog.form(text, format_spec) if format_spec else text
    if isinstance(value, str) and format_spec in ("poss", "cap", "the"):
        return catalog.form(value, format_spec)
    return format(value, format_spec)


class _Formatter(string.Formatter):
    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog

    def format_field(self, value: Any, format_spec: str) -> str:
        return _format_field(self.catalog, value, format_spec)
