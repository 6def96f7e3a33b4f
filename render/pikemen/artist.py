"""Pikemen's artist: the shared renderer interface over the Pikemen board picture.

Words are drawn and described in `locale`'s language: the artist sets that catalogue, so a
caller need not (render_state and replays set it too)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image

from engine.i18n import using
from engine.pikemen.state import GameState
from render.api import Recent
from render.pikemen.board import compose
from render.pikemen.description import alt_text
from render.pikemen.palette import palette_image
from render.words import LANGUAGES, catalog


def _last(recent: Recent) -> Sequence[Any]:
    return recent[-1] if recent else ()


def _earlier(recent: Recent) -> Sequence[Sequence[Any]]:
    """The moves before the latest since the viewer's previous turn (with 3 or 4 players)."""
    return recent[:-1]


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
        with using(catalog(locale)):
            return compose(state, _last(recent), perspective, caption=caption, earlier=_earlier(recent))

    def alt_text(self, state: GameState, recent: Recent = (), *, locale: str = "en") -> str:
        with using(catalog(locale)):
            return alt_text(state, _last(recent), earlier=_earlier(recent))

    def palette(self) -> Image.Image:
        return palette_image()

    def warm_up(self) -> None:
        from engine.pikemen.game import GAME
        from render.encode import png_bytes

        for players in (2, 3, 4):
            png_bytes(self.picture(GAME.new(players, {}, 0)), self.palette())
        for language in LANGUAGES:  # the panel's tags are drawn once per language
            self.picture(GAME.new(4, {}, 0), locale=language)


ARTIST = PikemenArtist()
