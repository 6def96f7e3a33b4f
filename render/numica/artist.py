"""Numica's artist: the shared renderer interface over the Numica board picture."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image

from engine.i18n import using
from engine.numica.board import Colour
from engine.numica.setup import ARRANGEMENTS
from engine.numica.state import GameState
from render.api import Recent
from render.numica.board import compose
from render.numica.description import alt_text
from render.numica.palette import palette_image
from render.words import LANGUAGES, catalog, language_of


def _last(recent: Recent) -> Sequence[Any]:
    return recent[-1] if recent else ()


class NumicaArtist:
    slug = "numica"

    def picture(
        self,
        state: GameState,
        recent: Recent = (),
        *,
        perspective: str | None = None,
        caption: str | None = None,
        locale: str = "en",
    ) -> Image.Image:
        view = Colour.from_slug(perspective) if perspective else Colour.RED
        language = language_of(locale)
        with using(catalog(language)):  # the words drawn now and the cached layers agree
            return compose(state, _last(recent), view, caption=caption, locale=language)

    def alt_text(self, state: GameState, recent: Recent = (), *, locale: str = "en") -> str:
        with using(catalog(locale)):
            return alt_text(state, _last(recent))

    def palette(self) -> Image.Image:
        return palette_image()

    def warm_up(self) -> None:
        import random

        from engine.numica.setup import deal, place
        from render.encode import png_bytes

        tiles = deal(random.Random(0))
        start = GameState.from_position(place(tiles, {c: ARRANGEMENTS[0] for c in Colour}))
        for language in LANGUAGES:
            for view in ("red", "blue"):
                png_bytes(self.picture(start, perspective=view, locale=language), self.palette())


ARTIST = NumicaArtist()
