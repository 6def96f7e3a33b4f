"""The shell every game's artist shares, so a game writes only how it draws and describes.

`GameArtist` implements `render.api.Artist`: it sets the reader's language around drawing and
describing (words drawn on the board and cached layers agree), splits the recent actions into
the one just played and those before it, gives the game its palette to compose in, and warms
the caches at start-up in every language. A game subclasses it with `draw`, `describe`,
`composing` (its `render.compose.Palette`) and the `samples` a first board needs.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from PIL import Image

from engine.i18n import using
from render.api import Recent
from render.compose import Palette
from render.encode import png_bytes
from render.words import LANGUAGES, catalog, language_of


class GameArtist(ABC):
    slug: str

    def picture(
        self,
        state: Any,
        recent: Recent = (),
        *,
        perspective: str | None = None,
        caption: str | None = None,
        title: str | None = None,
        locale: str = "en",
    ) -> Image.Image:
        language = language_of(locale)
        with using(catalog(language)):
            latest, earlier = split(recent)
            return self.draw(
                state, latest, earlier, perspective=perspective, caption=caption, title=title, locale=language
            )

    def alt_text(self, state: Any, recent: Recent = (), *, locale: str = "en", title: str | None = None) -> str:
        """The alt text; with a `title`, of that kind of picture: whose turn it is goes unsaid."""
        with using(catalog(language_of(locale))):
            text = self.describe(state, *split(recent), live=title is None)
            return f"{title}. {text}" if title else text

    def palette(self) -> Image.Image:
        return self.composing().holder

    def seat_colours(self) -> Mapping[str, tuple[int, int, int]]:
        """Each seat's colour for the clocks strip under a board (`render/clocks.py`); none: names alone."""
        return {}

    def warm_up(self) -> None:
        for language in LANGUAGES:  # cached layers hold words: drawn once per language
            for state, perspective in self.samples():
                png_bytes(self.picture(state, perspective=perspective, locale=language))

    @abstractmethod
    def draw(
        self,
        state: Any,
        latest: Sequence[Any],
        earlier: Sequence[Sequence[Any]],
        *,
        perspective: str | None,
        caption: str | None,
        title: str | None,
        locale: str,
    ) -> Image.Image:
        """The board in the game's palette, in the active language (`locale`); with a `title`,
        a picture of that kind (a replay frame, a rules example) rather than a live board."""

    @abstractmethod
    def describe(self, state: Any, latest: Sequence[Any], earlier: Sequence[Sequence[Any]], *, live: bool) -> str:
        """The alt text, in the active language; not `live` (a rules example, a replay frame):
        without whose turn it is."""

    @abstractmethod
    def composing(self) -> Palette:
        """The game's palette, boards composed in it."""

    @abstractmethod
    def samples(self) -> Iterable[tuple[Any, str | None]]:
        """(state, perspective) pairs whose boards hold every cached layer a first board needs."""


def split(recent: Recent) -> tuple[Sequence[Any], Sequence[Sequence[Any]]]:
    """(the events of the action just played, the actions before it, oldest first)."""
    return (recent[-1], recent[:-1]) if recent else ((), ())
