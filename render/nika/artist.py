"""Nika's artist: the shared renderer interface over the Nika board picture.

Words are drawn and described in `locale`'s language: the artist sets that catalogue, so a
caller need not (render_state and replays set it too)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image

from engine.i18n import using
from engine.nika.board import City
from engine.nika.state import GameState
from render.api import Recent
from render.nika.board import compose
from render.nika.description import alt_text
from render.nika.palette import palette_image
from render.words import LANGUAGES, catalog


def _last(recent: Recent) -> Sequence[Any]:
    return recent[-1] if recent else ()


def _earlier(recent: Recent) -> Sequence[Sequence[Any]]:
    """The actions before the last, oldest first: the board numbers them all."""
    return recent[:-1]


class NikaArtist:
    slug = "nika"

    def picture(
        self,
        state: GameState,
        recent: Recent = (),
        *,
        perspective: str | None = None,
        caption: str | None = None,
        locale: str = "en",
    ) -> Image.Image:
        city = City[perspective.upper()] if perspective else None
        with using(catalog(locale)):
            return compose(state, _last(recent), city, earlier=_earlier(recent), caption=caption)

    def alt_text(self, state: GameState, recent: Recent = (), *, locale: str = "en") -> str:
        with using(catalog(locale)):
            return alt_text(state, _last(recent), earlier=_earlier(recent))

    def palette(self) -> Image.Image:
        return palette_image()

    def warm_up(self) -> None:
        from render.encode import png_bytes

        png_bytes(self.picture(GameState.start()), self.palette())
        for language in LANGUAGES:  # the empty board and the plaques hold words: drawn once per language
            self.picture(GameState.start(), locale=language)


ARTIST = NikaArtist()
