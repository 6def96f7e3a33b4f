"""Pikemen's artist: the shared artist shell (`render/artist.py`) over the Pikemen board picture."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from PIL import Image

from engine.pikemen.game import GAME
from engine.pikemen.state import GameState
from render.artist import GameArtist
from render.compose import Palette
from render.pikemen.board import compose
from render.pikemen.description import alt_text
from render.pikemen.numbering import shown
from render.pikemen.palette import palette


class PikemenArtist(GameArtist):
    slug = "pikemen"

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
        earlier = shown([*earlier, latest])[:-1]
        return compose(
            state, latest, perspective, caption=caption, title=title, earlier=earlier, palette=palette()
        )

    def describe(
        self, state: GameState, latest: Sequence[Any], earlier: Sequence[Sequence[Any]], *, live: bool
    ) -> str:
        return alt_text(state, latest, earlier=shown([*earlier, latest])[:-1], live=live)

    def composing(self) -> Palette:
        return palette()

    def samples(self) -> Iterable[tuple[GameState, str | None]]:
        return [(GAME.new(players, {}, 0), None) for players in (2, 3, 4)]


ARTIST = PikemenArtist()
