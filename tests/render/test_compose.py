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


def _grey_palette() -> Palette:
    holder = Image.new("P", (1, 1))
    holder.putpalette([value for index in range(256) for value in (index, index, index)])
    return Palette(holder)


def test_a_piece_reaching_out_is_found_by_the_empty_region_under_it_only_where_nothing_lies_there() -> None:
    """Over nothing drawn yet, a piece reaching out of its cell is found by the region of the
    empty board under it (equal regions share their pastes); over a piece placed before it, or
    a mark, it is looked at as `paste` does. Either way, the pixels of pasting one by one."""
    palette = _grey_palette()
    base = Image.new("RGB", (60, 20), (100, 100, 100))
    base.paste((200, 200, 200), (20, 0, 40, 20))
    cells = [(0, 0, 20, 20), (20, 0, 40, 20), (40, 0, 60, 20)]
    wide = Image.new("RGBA", (26, 10), (0, 0, 0, 128))  # wider than a cell
    small = Image.new("RGBA", (8, 8), (0, 0, 0, 200))
    mark = Image.new("RGBA", (4, 4), (255, 255, 255, 90))
    reach = palette.placement(base, wide, (17, 5), cells[1])
    near = palette.placement(base, small, (11, 6), cells[0])  # in its cell, under the reaching piece's box
    apart = palette.placement(base, small, (2, 1), cells[0])  # in the same cell, clear of it
    assert reach is not None and reach.tile is None and reach.region is not None
    assert near is not None and near.tile is not None and apart is not None and apart.tile is not None
    for marked in (None, (30, 6), (1, 14)):  # under the reaching piece; in `near`'s cell, clear of it
        for order in ([reach], [near, reach], [reach, near], [apart, reach]):
            picture, one_by_one = Picture(base, palette), Picture(base, palette)
            if marked:
                picture.paste(mark, marked)
                one_by_one.paste(mark, marked)
            picture.place_all(order)
            for placed in order:
                one_by_one.paste(placed.sprite, placed.at)
            assert picture.image.tobytes() == one_by_one.image.tobytes(), (marked, order)
    by_region = [key for key in palette._tiles if key[0] == "reaching"]
    assert len(by_region) == 1  # found by its region alone: with nothing under it, or beside `apart`


def test_a_part_kept_whole_is_pasted_as_it_was_drawn() -> None:
    palette = _grey_palette()
    base = Image.new("RGB", (60, 40), (100, 100, 100))
    card = Image.new("RGBA", (12, 8), (30, 30, 30, 255))
    drawn_first = Picture(base, palette)
    with drawn_first.kept(("cards", 1)) as done:
        assert not done
        drawn_first.stamp_all([(card, (4, 30), (100, 100, 100)), (card, (30, 28), (100, 100, 100))])
    again = Picture(base, palette)
    with again.kept(("cards", 1)) as done:
        assert done  # one paste, nothing drawn
    assert again.image.tobytes() == drawn_first.image.tobytes()
    other = Picture(base, palette)
    with other.kept(("cards", 2)) as done:  # another key: drawn again
        assert not done


def test_a_part_is_neither_kept_nor_pasted_over_what_was_drawn_before_it() -> None:
    palette = _grey_palette()
    base = Image.new("RGB", (60, 40), (100, 100, 100))
    card = Image.new("RGBA", (12, 8), (30, 30, 30, 255))
    mark = Image.new("RGBA", (6, 6), (250, 250, 250, 255))
    picture = Picture(base, palette)
    picture.paste(mark, (8, 31))  # under where the part will go
    with picture.kept(("cards",)) as done:
        assert not done
        picture.stamp_all([(card, (4, 30), (100, 100, 100)), (card, (30, 28), (100, 100, 100))])
    assert palette.part((picture._base.info["render.serial"], "cards")) is None  # it held the mark: not kept
    clean = Picture(base, palette)
    with clean.kept(("cards",)) as done:
        assert not done
        clean.stamp_all([(card, (4, 30), (100, 100, 100)), (card, (30, 28), (100, 100, 100))])
    marked = Picture(base, palette)
    marked.paste(mark, (40, 30))  # drawn where the kept part goes: it is drawn again, over the mark
    with marked.kept(("cards",)) as done:
        assert not done


def test_a_block_that_fails_keeps_nothing() -> None:
    """A part half drawn when its block raised is not kept: a later picture draws it whole."""
    palette = _grey_palette()
    base = Image.new("RGB", (60, 40), (100, 100, 100))
    card = Image.new("RGBA", (12, 8), (30, 30, 30, 255))
    picture = Picture(base, palette)
    with pytest.raises(RuntimeError), picture.kept(("cards",)) as done:
        assert not done
        picture.stamp_all([(card, (4, 30), (100, 100, 100))])
        raise RuntimeError("the second card could not be drawn")
    assert palette.part((picture._base.info["render.serial"], "cards")) is None
    with Picture(base, palette).kept(("cards",)) as done:
        assert not done


def _forget_parts(palette: Palette) -> None:
    palette._parts.kept.clear()
    palette._parts.bytes = 0


def test_pikemen_boards_are_the_same_whether_their_cards_were_kept_or_drawn() -> None:
    """Drawn, pasted as one row, or pasted card by card (the row not kept, its cards kept)."""
    artist = artist_for("pikemen")
    states = _states("pikemen", 12, 5)
    palette = artist.composing()  # type: ignore[attr-defined]
    for locale in ("en", "es"):
        drawn = []
        for state, recent in states:  # each board's cards drawn: none kept before it
            _forget_parts(palette)
            drawn.append(artist.picture(state, recent, locale=locale).tobytes())
        for state, recent in states:  # then every board's cards kept, whichever board kept them
            artist.picture(state, recent, locale=locale)
        kept = dict(palette._parts.kept)
        again = [artist.picture(state, recent, locale=locale).tobytes() for state, recent in states]
        assert kept and palette._parts.kept == kept  # every card row pasted whole: nothing new kept
        assert again == drawn
        for key in [key for key in palette._parts.kept if key[1] == "pikemen cards"]:  # each card kept on its own
            _, size = palette._parts.kept.pop(key)
            palette._parts.bytes -= size
        assert [artist.picture(state, recent, locale=locale).tobytes() for state, recent in states] == drawn
        for state, recent in states[:4]:  # and a replay frame's, titled
            first = artist.picture(state, recent, title="Replay", caption="1 / 9", locale=locale)
            assert artist.picture(state, recent, title="Replay", caption="1 / 9", locale=locale) == first


def test_a_part_kept_again_under_its_key_replaces_the_first_within_the_bound() -> None:
    """A part drawn again (something lay over it) is kept in place of the first, and the bytes
    kept count it once: else the bound would soon leave room for one part alone."""
    palette = _grey_palette()
    for _ in range(5):
        palette.keep_part(("cards",), (0, 0, 100, 10), object())
    assert len(palette._parts.kept) == 1 and palette._parts.bytes == 1000
    for number in range(3):
        palette.keep_part(("card", number), (0, 0, 10, 10), object())
    assert len(palette._parts.kept) == 4 and palette._parts.bytes == 1300
