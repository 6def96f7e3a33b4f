"""Nika's artist: the shared artist shell (`render/artist.py`) over the Nika board picture."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from PIL import Image

from engine.nika.board import City
from engine.nika.state import GameState
from render.artist import GameArtist
from render.compose import Palette
from render.nika.board import compose
from render.nika.colours import CITY
from render.nika.description import alt_text
from render.nika.palette import palette


class NikaArtist(GameArtist):
    slug = "nika"

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
        city = City[perspective.upper()] if perspective else None
        return compose(state, latest, city, earlier=earlier, caption=caption, title=title, palette=palette())

    def describe(
        self, state: GameState, latest: Sequence[Any], earlier: Sequence[Sequence[Any]], *, live: bool
    ) -> str:
        return alt_text(state, latest, earlier=earlier, live=live)

    def composing(self) -> Palette:
        return palette()

    def seat_colours(self) -> Mapping[str, tuple[int, int, int]]:
        """The clocks strip marks each seat in its pieces' colour."""
        return {city.name.lower(): rgb for city, rgb in CITY.items()}

    def samples(self) -> Iterable[tuple[GameState, str | None]]:
        return [(GameState.start(), None)]


ARTIST = NikaArtist()
