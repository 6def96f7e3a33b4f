"""Pikemen's artist: the shared artist shell (`render/artist.py`) over the Pikemen board picture."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from PIL import Image

from engine.i18n import using
from engine.pikemen.game import GAME
from engine.pikemen.state import GameState
from render.artist import GameArtist
from render.compose import Palette
from render.pikemen.board import compose, warm_pieces
from render.pikemen.colours import SEAT
from render.pikemen.description import alt_text
from render.pikemen.numbering import shown
from render.pikemen.palette import palette
from render.words import LANGUAGES, catalog

WARM_MOVES = 40  # random moves drawn at start-up: their lines' words and stamps are ready after


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

    def seat_colours(self) -> Mapping[str, tuple[int, int, int]]:
        """The clocks strip marks each seat in its pieces' colour."""
        return dict(SEAT)

    def samples(self) -> Iterable[tuple[GameState, str | None]]:
        return [(GAME.new(players, {}, 0), None) for players in (2, 3, 4)]

    def warm_up(self) -> None:
        super().warm_up()
        warm_pieces(palette())
        for language in LANGUAGES:  # the words of moves' lines, set once in each language
            with using(catalog(language)):
                state = GAME.new(4, {}, 0)
                rng = random.Random(0)
                for _ in range(WARM_MOVES):
                    if GAME.outcome(state) is not None:
                        break
                    after, events = GAME.apply(state, rng.choice(list(GAME.legal_actions(state))))
                    self.picture(after, (events,), locale=language)
                    state = after


ARTIST = PikemenArtist()
