"""Pikemen's artist: the shared renderer interface over the Pikemen board picture."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image

from engine.pikemen.state import GameState
from render.api import Recent
from render.pikemen.board import compose
from render.pikemen.description import alt_text
from render.pikemen.palette import palette_image


def _last(recent: Recent) -> Sequence[Any]:
    return recent[-1] if recent else ()


class PikemenArtist:
    slug = "pikemen"

    def picture(
        self,
        state: GameState,
        recent: Recent = (),
        *,
        perspective: str | None = None,
        caption: str | None = None,
        locale: str = "en",
    ) -> Image.Image:
        return compose(state, _last(recent), perspective, caption=caption)

    def alt_text(self, state: GameState, recent: Recent = (), *, locale: str = "en") -> str:
        return alt_text(state, _last(recent))

    def palette(self) -> Image.Image:
        return palette_image()

    def warm_up(self) -> None:
        from engine.pikemen.game import GAME
        from render.encode import png_bytes

        for players in (2, 3, 4):
            png_bytes(self.picture(GAME.new(players, {}, 0)), self.palette())


ARTIST = PikemenArtist()
