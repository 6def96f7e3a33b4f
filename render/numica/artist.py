"""Numica's artist: the shared artist shell (`render/artist.py`) over the Numica board picture."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from PIL import Image

from engine.numica.board import Colour
from engine.numica.setup import ARRANGEMENTS, deal, place
from engine.numica.state import GameState
from render.artist import GameArtist
from render.compose import Palette
from render.numica.board import compose
from render.numica.colours import PIECE
from render.numica.description import alt_text
from render.numica.palette import palette


class NumicaArtist(GameArtist):
    slug = "numica"

    def draw(
        self,
        state: GameState,
        latest: Sequence[Any],
        earlier: Sequence[Sequence[Any]],
        *,
        perspective: str | None,
        caption: str | None,
        title: str | None,
        locale: str,
    ) -> Image.Image:
        view = Colour.from_slug(perspective) if perspective else Colour.RED
        return compose(state, latest, view, caption=caption, title=title, locale=locale, palette=palette())

    def describe(
        self, state: GameState, latest: Sequence[Any], earlier: Sequence[Sequence[Any]], *, live: bool
    ) -> str:
        return alt_text(state, latest, live=live)

    def composing(self) -> Palette:
        return palette()

    def seat_colours(self) -> Mapping[str, tuple[int, int, int]]:
        """The clocks strip marks each seat in its pieces' colour."""
        return {colour.slug: rgb for colour, rgb in PIECE.items()}

    def samples(self) -> Iterable[tuple[GameState, str | None]]:
        tiles = deal(random.Random(0))
        start = GameState.from_position(place(tiles, dict.fromkeys(Colour, ARRANGEMENTS[0])))
        return [(start, "red"), (start, "blue")]


ARTIST = NumicaArtist()
