"""Numica's artist: the shared renderer interface over the Numica board picture."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image

from engine.numica.board import Colour
from engine.numica.setup import ARRANGEMENTS
from engine.numica.state import GameState
from render.api import Recent
from render.numica.board import compose
from render.numica.description import alt_text
from render.numica.palette import palette_image


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
        return compose(state, _last(recent), view, caption=caption)

    def alt_text(self, state: GameState, recent: Recent = (), *, locale: str = "en") -> str:
        return alt_text(state, _last(recent))

    def palette(self) -> Image.Image:
        return palette_image()

    def warm_up(self) -> None:
        import random

        from engine.numica.setup import deal, place
        from render.encode import png_bytes

        tiles = deal(random.Random(0))
        start = GameState.from_position(place(tiles, {c: ARRANGEMENTS[0] for c in Colour}))
        for view in ("red", "blue"):
            png_bytes(self.picture(start, perspective=view), self.palette())


ARTIST = NumicaArtist()
