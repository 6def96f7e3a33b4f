"""The clocks strip under a board (issue 20, render/clocks.py), on real PNG bytes for every game:
the board above it is untouched, the strip changes with the time shown and nothing else, it
reads in Spanish too, its letters stay legible on a 400-pixel phone, and without clocks the
picture is exactly the board the artist drew (as before clocks existed)."""

from __future__ import annotations

import io
import random
from typing import Any

import pytest
from PIL import Image, ImageChops

from engine.registry import get_game
from render import render_state
from render.api import Clocks, SeatTime
from render.encode import png_bytes
from render.registry import artist_for

DAY, HOUR = 86400.0, 3600.0
GAMES = [("nika", 2), ("nika", 4), ("numica", 2), ("pikemen", 2), ("pikemen", 3), ("pikemen", 4), ("tictactoe", 2)]


def position(slug: str, players: int) -> tuple[Any, tuple[Any, ...]]:
    """A game a few random moves in, with its last move."""
    game = get_game(slug)
    rng = random.Random(7)
    state, events = game.new(players, {}, 7), ()
    for _ in range(6):
        legal = list(game.legal_actions(state))
        if game.outcome(state) is not None or not legal:
            break
        state, events = game.apply(state, rng.choice(legal))
    return state, ((tuple(events),) if events else ())


def clocks(slug: str, players: int, left: float, *, paused: bool = False, away: float | None = None) -> Clocks:
    """The first seat's clock runs with `left` (unless `paused`), the second's holder is `away`."""
    seats = get_game(slug).seats(players)
    times = [
        SeatTime(s.slug, s.title, left if i == 0 else 3 * DAY, i == 0 and not paused, away if i == 1 else None)
        for i, s in enumerate(seats)
    ]
    return Clocks(tuple(times), paused=paused)


def decoded(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


@pytest.mark.parametrize(("slug", "players"), GAMES)
def test_every_game_shows_the_clocks_under_an_untouched_board(slug: str, players: int) -> None:
    state, recent = position(slug, players)
    bare = render_state(slug, state, recent)
    # Without clocks: the artist's picture alone, encoded as before clocks existed.
    artist = artist_for(slug)
    assert bare.png == png_bytes(artist.picture(state, recent), artist.palette())
    assert render_state(slug, state, recent, clocks=Clocks(())).png == bare.png
    board = decoded(bare.png)
    morning = decoded(render_state(slug, state, recent, clocks=clocks(slug, players, 2 * DAY + 5 * HOUR)).png)
    evening = decoded(render_state(slug, state, recent, clocks=clocks(slug, players, 1 * DAY + 17 * HOUR)).png)
    assert morning.width == board.width and morning.height > board.height
    top = (0, 0, board.width, board.height)
    assert ImageChops.difference(morning.crop(top), board).getbbox() is None
    strip = (0, board.height, morning.width, morning.height)
    assert morning.size == evening.size
    assert ImageChops.difference(morning.crop(strip), evening.crop(strip)).getbbox() is not None
    # The same minute later shows the same hours: the same bytes (the strip shows words, not seconds).
    again = render_state(slug, state, recent, clocks=clocks(slug, players, 2 * DAY + 5 * HOUR + 59 * 60))
    assert decoded(again.png).tobytes() == morning.tobytes()
    # On a phone the picture is shown 400 pixels wide: a line of the strip keeps ≥ 18 of them.
    assert (morning.height - board.height) * 400 / board.width >= 18


def test_spanish_a_pause_and_a_vacation_are_drawn_and_the_running_clock_stands_out() -> None:
    state, recent = position("pikemen", 4)
    size = decoded(render_state("pikemen", state, recent).png).size
    plain = render_state("pikemen", state, recent, clocks=clocks("pikemen", 4, DAY))
    spanish = render_state("pikemen", state, recent, locale="es", clocks=clocks("pikemen", 4, DAY))
    paused = render_state("pikemen", state, recent, clocks=clocks("pikemen", 4, DAY, paused=True))
    away = render_state("pikemen", state, recent, clocks=clocks("pikemen", 4, DAY, away=1_800_000_000.0))
    pictures = [decoded(p.png) for p in (plain, spanish, paused, away)]
    strips = [p.crop((0, size[1], p.width, p.height)) for p in pictures]
    for one, other in [(0, 1), (0, 2), (0, 3)]:
        assert strips[one].size != strips[other].size or ImageChops.difference(strips[one], strips[other]).getbbox()
    # The running clock sits on a dark pill: the strip holds a run of dark pixels a letter high;
    # paused, no clock runs and the pill is gone.
    def dark(strip: Image.Image) -> int:
        return sum(strip.convert("L").histogram()[:70])

    assert dark(strips[0]) > 3 * dark(strips[2])
