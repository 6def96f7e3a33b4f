"""The tic-tac-toe plugin composes its boards straight in its palette, through the host's public
drawing interface alone: the same pixels as its board drawn in RGB and mapped at the end."""

from __future__ import annotations

import random
from typing import Any

import pytest
from tictactoe.artist import ARTIST
from tictactoe.game import GAME, Marked

from engine.i18n import using
from render.api import to_palette
from render.words import catalog, playing


def _boards(count: int, seed: int) -> list[tuple[Any, list[Any]]]:
    rng = random.Random(seed)
    found = []
    for _ in range(count):
        state, recent = GAME.new(2, {}, 0), []
        for _ in range(rng.randrange(0, 10)):
            if GAME.outcome(state) is not None:
                break
            state, events = GAME.apply(state, rng.choice(list(GAME.legal_actions(state))))
            recent = [events]
        found.append((state, recent))
    return found


@pytest.mark.parametrize("locale", ["en", "es"])
def test_a_board_composed_in_the_palette_is_the_board_drawn_and_mapped(locale: str) -> None:
    for index, (state, recent) in enumerate(_boards(40, 3)):
        caption = f"{index} / 40 · a replay's caption" if index % 3 == 1 else None
        title = "Replay" if index % 3 else None
        with using(catalog(locale)), playing("tictactoe"):  # as the host draws: in the viewer's language
            palette = ARTIST.palette()  # learned from the letters of each language
            drawn = to_palette(ARTIST._drawn(state, recent, caption, title), palette)
            composed = ARTIST.picture(state, recent, caption=caption, title=title, locale=locale)
        assert composed.mode == "P" and composed.getpalette() == palette.getpalette()
        assert composed.tobytes() == drawn.tobytes(), (locale, index)


def test_every_mark_on_every_square_shaded_or_not_is_the_mark_drawn() -> None:
    """Each square's inside is kept once and pasted on every square: it must be every square's."""
    with using(catalog("en")), playing("tictactoe"):
        palette = ARTIST.palette()
        for square in range(9):
            for mark in ("x", "o", "."):
                cells = "".join(mark if index == square else "." for index in range(9))
                state = GAME.load(f"{cells[:3]}/{cells[3:6]}/{cells[6:]} x")
                for recent in ([], [[Marked(mark if mark != "." else "x", square)]]):
                    drawn = to_palette(ARTIST._drawn(state, recent, None, None), palette)
                    assert ARTIST.picture(state, recent).tobytes() == drawn.tobytes(), (square, mark, recent)
