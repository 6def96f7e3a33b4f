"""Boards composed straight in the palette are the boards composed in RGB and mapped onto the
palette at the end, within a step of the palette where translucent edges overlap: composing in
the palette changes what players see by next to nothing."""

from __future__ import annotations

import random
from typing import Any

import pytest
from PIL import Image, ImageChops

from engine.i18n import using
from engine.registry import get_game
from render.compose import Palette, Picture
from render.encode import to_palette
from render.nika.board import compose as nika
from render.numica.board import compose as numica
from render.pikemen.board import compose as pikemen
from render.registry import artist_for
from render.words import catalog

PLAYERS = {"nika": 4, "numica": 2, "pikemen": 4}


def _states(game: str, count: int, seed: int) -> list[tuple[Any, list[Any]]]:
    """States after random playouts, each with the events of its last few actions."""
    rules = get_game(game)
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = rules.new(PLAYERS[game], rules.option_defaults(), len(found))
        pending = rules.setup_pending(state)
        if pending:
            choices = {seat: rng.choice(list(rules.setup_choices(state, seat))).value for seat in pending}
            state = rules.apply_setup(state, choices)[0]
        recent: list[Any] = []
        for _ in range(rng.randrange(4, 60)):
            if rules.outcome(state) is not None:
                break
            state, events = rules.apply(state, rng.choice(list(rules.legal_actions(state))))
            recent = [*recent[-3:], events]
        found.append((state, recent))
    return found


def _in_rgb(game: str, state: Any, recent: list[Any], caption: str | None, locale: str) -> Image.Image:
    latest, earlier = recent[-1], recent[:-1]
    if game == "nika":
        return nika(state, latest, earlier=earlier, caption=caption, title="Replay" if caption else None)
    if game == "numica":
        return numica(state, latest, caption=caption, title="Replay" if caption else None, locale=locale)
    return pikemen(state, latest, earlier=earlier, caption=caption, title="Replay" if caption else None)


@pytest.mark.parametrize("game", ["nika", "numica", "pikemen"])
@pytest.mark.parametrize("locale", ["en", "es"])
def test_a_board_composed_in_the_palette_is_the_board_composed_in_rgb(game: str, locale: str) -> None:
    artist = artist_for(game)
    for index, (state, recent) in enumerate(_states(game, 6, 11)):
        caption = "12 / 40 · a caption of a replay frame" if index % 2 else None
        with using(catalog(locale)):
            expected = to_palette(_in_rgb(game, state, recent, caption, locale), artist.palette()).convert("RGB")
        drawn = artist.picture(state, recent, caption=caption, title="Replay" if caption else None, locale=locale)
        assert drawn.mode == "P" and drawn.getpalette() == artist.palette().getpalette()
        error = ImageChops.difference(drawn.convert("RGB"), expected).convert("L").histogram()
        pixels = drawn.width * drawn.height
        assert sum(error[1:]) <= 0.005 * pixels, (index, sum(error[1:]))  # a few edge pixels at most
        assert sum(error[40:]) <= 0.0005 * pixels, (index, sum(error[40:]))


def test_a_paste_is_remembered_by_what_lies_under_it() -> None:
    holder = Image.new("P", (1, 1))
    holder.putpalette([value for index in range(256) for value in (index, index, index)])
    palette = Palette(holder)
    base = Image.new("RGB", (40, 20), (100, 100, 100))
    base.paste((200, 200, 200), (20, 0, 40, 20))
    sprite = Image.new("RGBA", (10, 10), (0, 0, 0, 128))
    picture = Picture(base, palette)
    for x in (2, 5, 25):
        picture.paste(sprite, (x, 5))
    expected = base.copy()
    for x in (2, 5, 25):
        expected.paste(sprite, (x, 5), sprite)
    assert picture.image.convert("RGB").tobytes() == to_palette(expected, holder).convert("RGB").tobytes()
    assert len(palette._pastes) == 3  # on grey, on grey half-darkened already, on light grey
