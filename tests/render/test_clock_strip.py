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

from engine.i18n import using
from engine.registry import get_game
from render import clocks as clock_strip
from render import render_state
from render.api import Clocks, SeatTime
from render.clocks import Strip, with_clocks
from render.compose import room_under
from render.encode import png_bytes
from render.registry import artist_for
from render.words import catalog, playing

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


# Issue 24: the strip is drawn in room the board was composed with (render/compose.py `Room`),
# each seat set in place. The tests below hold it to the strip drawn the way it always was:
# under a copy of the finished board made taller, each seat drawn whole and pasted.


def _in_room(slug: str, state: Any, recent: Any, locale: str, shown: Clocks) -> tuple[Image.Image, bool]:
    """The board composed as render_state composes it with clocks, and whether it took the room."""
    artist = artist_for(slug)
    with using(catalog(locale)), playing(slug):
        strip = Strip(shown, artist.palette(), getattr(artist, "seat_colours", dict)())  # names in the reader's words
        with room_under(strip.room):
            drawn = artist.picture(state, recent, locale=locale)
        claimed = strip.room.canvas is drawn
        return strip.under(drawn), claimed


@pytest.mark.parametrize(("slug", "players"), GAMES)
@pytest.mark.parametrize("locale", ["en", "es"])
def test_the_strip_drawn_in_room_is_the_strip_drawn_under_a_copy(slug: str, players: int, locale: str) -> None:
    state, recent = position(slug, players)
    artist = artist_for(slug)
    colours = getattr(artist, "seat_colours", dict)()
    for shown in (
        clocks(slug, players, 2 * DAY + 5 * HOUR),
        clocks(slug, players, 45 * 60, paused=True),
        clocks(slug, players, 13 * DAY + 23 * HOUR, away=1_800_000_000.0),
    ):
        fast = render_state(slug, state, recent, locale=locale, clocks=shown)
        with using(catalog(locale)), playing(slug):
            board = artist.picture(state, recent, locale=locale)  # no room: the board alone, as before
            copied = with_clocks(board, shown, artist.palette(), colours)
        assert fast.png == png_bytes(copied, artist.palette())
        # Every game here takes the room: the hosted games compose in their palette, the test
        # plugin draws its own picture on `render.api.board_canvas`.
        drawn, claimed = _in_room(slug, state, recent, locale, shown)
        assert claimed
        assert png_bytes(drawn, artist.palette()) == fast.png
    # A board drawn after boards with clocks is the board it was before them.
    with using(catalog(locale)), playing(slug):
        alone = png_bytes(artist.picture(state, recent, locale=locale), artist.palette())
    assert render_state(slug, state, recent, locale=locale).png == alone


def test_room_not_handed_back_gets_the_copy() -> None:
    """An artist that composes on a `Picture` but hands back another picture (here, a copy of
    it) leaves its canvas unused: the strip goes under a copy of the picture it handed back."""
    state, recent = position("pikemen", 4)
    artist = artist_for("pikemen")
    shown = clocks("pikemen", 4, DAY)
    strip = Strip(shown, artist.palette(), artist.seat_colours())
    with using(catalog("en")), playing("pikemen"):
        with room_under(strip.room):
            drawn = artist.picture(state, recent).copy()
        assert strip.room.canvas is not None and strip.room.canvas is not drawn
        board = drawn.crop((0, 0, drawn.width, strip.room.board_height))  # the room's rows are not the board's
        whole = strip.under(board)
    assert png_bytes(whole, artist.palette()) == render_state("pikemen", state, recent, clocks=shown).png


@pytest.mark.parametrize("running", [True, False])
def test_a_seat_set_in_place_is_the_seat_drawn_whole(running: bool) -> None:
    """Each seat's time is set on the picture from kept signs; drawn whole (its face, its time
    as a picture pasted on it) it is the same pixels, at every letter size the strip uses."""
    palette = artist_for("pikemen").palette()
    background = (238, 227, 200)
    with using(catalog("en")), playing("pikemen"):
        for size in range(18, 48, 3):
            for colour in (None, (176, 58, 46)):
                for time_text in ("2d 5h", "13d 23h", "45m", "0m"):
                    entry = ("North", time_text, running, colour)
                    length = clock_strip._lines(2000, size, (entry,), None)[0][0][1]
                    in_place = Image.new("P", (length + 40, 3 * size), 7)
                    in_place.putpalette(palette.getpalette() or [])
                    whole = in_place.copy()
                    clock_strip._seat(in_place, palette, 20, 3 * size // 2, length, size, entry, background)
                    drawn = clock_strip._seat_whole(palette, length, size, entry, background)
                    whole.paste(drawn, (20, 3 * size // 2 - drawn.height // 2))
                    assert in_place.tobytes() == whole.tobytes(), (size, colour, time_text)


def test_a_standing_clock_kept_whole_is_pasted_as_drawn_and_only_for_its_own_time() -> None:
    """A standing clock is kept whole after its first board; the next boards paste it, clipped
    to the picture as a drawn one would be, and a new time is a new clock."""
    palette = artist_for("pikemen").palette()
    background = (238, 227, 200)
    size = 24
    with using(catalog("en")), playing("pikemen"):
        for time_text in ("2d 5h", "2d 4h", "2d 5h"):  # the third is the first, kept
            entry = ("North", time_text, False, (176, 58, 46))
            length = clock_strip._lines(2000, size, (entry,), None)[0][0][1]
            drawn = clock_strip._seat_whole(palette, length, size, entry, background)
            for x in (20, -15, length - 10):  # inside, over the left edge, over the right edge
                in_place = Image.new("P", (length + 40, 3 * size), 7)
                in_place.putpalette(palette.getpalette() or [])
                expected = in_place.copy()
                clock_strip._seat(in_place, palette, x, 3 * size // 2, length, size, entry, background)
                expected.paste(drawn, (x, 3 * size // 2 - drawn.height // 2))
                assert in_place.tobytes() == expected.tobytes(), (time_text, x)
        kept = [key for key in clock_strip._standing if key[1][0] == "North" and key[2] == size]
        assert {key[1][1] for key in kept} >= {"2d 5h", "2d 4h"}


@pytest.mark.parametrize("locale", ["en", "es"])
def test_a_kept_layout_is_the_layout_worked_out_again(locale: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Layouts are kept by the shape of their times ("0d 0h"), as every digit is as wide as the
    others; each one found is what laying the strip out afresh gives, its own times in place."""
    monkeypatch.setattr(clock_strip, "_layouts", {})
    rng = random.Random(5)
    names = ("Red", "Yellow", "Green", "Blue", "North", "South")
    with using(catalog(locale)), playing("pikemen"):
        for width in (440, 752, 1200):
            assert clock_strip._digits_even(locale, width)
            for _ in range(60):
                seats = rng.randint(2, 4)
                entries = tuple(  # a match's seats, their times anything
                    (names[seat], clock_strip._time_text(rng.uniform(0, 30 * 86_400), None), seat == 0,
                     (176, 58, 46) if seat % 2 else None)
                    for seat in range(seats)
                )  # fmt: skip
                paused = rng.choice([None, "paused"])
                assert clock_strip._layout(width, entries, paused) == clock_strip._laid_out(width, entries, paused)
        assert 0 < len(clock_strip._layouts) < 3 * 60  # some found again for other times, not only worked out


def test_a_layout_is_worked_out_afresh_where_digits_differ_in_width(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(clock_strip, "_even", {("en", 752): False})
    monkeypatch.setattr(clock_strip, "_layouts", {})
    entries = (("Red", "2d 5h", True, None), ("Blue", "1d", False, None))
    with using(catalog("en")), playing("pikemen"):
        assert clock_strip._layout(752, entries, None) == clock_strip._laid_out(752, entries, None)
    assert clock_strip._layouts == {}


def test_a_board_canvas_has_the_rooms_rows_under_it_only_while_a_room_is_open() -> None:
    from render.api import board_canvas
    from render.compose import Room

    empty = Image.new("P", (40, 30), 5)
    alone = board_canvas(empty)
    assert alone.size == empty.size and alone is not empty and alone.tobytes() == empty.tobytes()
    room = Room(lambda width: width // 4)
    with room_under(room):
        canvas = board_canvas(empty)
        again = board_canvas(empty)  # the room is taken: a plain copy
        rgb = board_canvas(empty.convert("RGB"))
    assert room.canvas is canvas and room.board_height == 30 and canvas.size == (40, 40)
    assert canvas.crop((0, 0, 40, 30)).tobytes() == empty.tobytes()
    assert again.size == rgb.size == (40, 30)
    other = Room(lambda width: 10)
    with room_under(other):  # kept taller, but each board gets its own copy
        assert board_canvas(empty) is not canvas and other.canvas is not None and other.canvas.size == (40, 40)
