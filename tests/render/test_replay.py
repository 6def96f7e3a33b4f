"""Replays: one frame per action, each exactly the board the artist draws, captioned in the
reader's language, stored as what changed so that long matches fit one upload."""

import io
import random
from typing import Any

import pytest
from PIL import Image, ImageChops

from engine.api import EndingKind
from engine.i18n import using
from engine.nika.state import GameState
from engine.record import GameRecord, RecordEntry
from engine.registry import get_game
from render import REPLAY_EXTENSION, render_replay, replay_file, replay_filename
from render.gif import gif_bytes
from render.registry import artist_for
from render.replay import FIRST_FRAME_MS, FRAME_MS, LAST_FRAME_MS, TITLE, frame_caption
from render.words import catalog

TITLES = {c: c.title() for c in ("athens", "sparta", "messene", "thebes")}
PLAYERS = {"nika": 4, "numica": 2, "pikemen": 4}


def _record(actions: int, seed: int = 7, game: str = "nika") -> GameRecord:
    """`actions` random legal actions (a game that ends sooner is tried again with another seed)."""
    rules = get_game(game)
    while True:
        rng = random.Random(seed)
        first = rules.new(PLAYERS[game], rules.option_defaults(), seed)
        pending = rules.setup_pending(first)
        setup = {seat: rng.choice(list(rules.setup_choices(first, seat))).value for seat in pending}
        state = rules.apply_setup(first, setup)[0] if setup else first
        record = GameRecord(game, rules.notation(first), players=PLAYERS[game], seed=seed, setup=setup)
        while len(record.entries) < actions and rules.outcome(state) is None:
            action = rng.choice(list(rules.legal_actions(state)))
            record.entries.append(RecordEntry(rules.to_act(state) or "", action.notation()))
            state, _ = rules.apply(state, action)
        if len(record.entries) == actions:
            return record
        seed += 1


def _frames(gif: bytes) -> tuple[int, tuple[int, int], str]:
    with Image.open(io.BytesIO(gif)) as image:
        return image.n_frames, image.size, image.format or ""


def _decoded(gif: bytes) -> list[tuple[bytes, int]]:
    """Every frame as a viewer sees it (RGB), with its time."""
    found = []
    with Image.open(io.BytesIO(gif)) as image:
        for index in range(image.n_frames):
            image.seek(index)
            found.append((image.convert("RGB").tobytes(), image.info["duration"]))
    return found


def test_one_frame_per_action_plus_the_start():
    gif = render_replay(_record(6))
    assert REPLAY_EXTENSION == "gif" and replay_filename("nika") == "nika-replay.gif"
    assert _frames(gif) == (7, (1200, 876), "GIF")


def test_last_actions_only():
    record = _record(6)
    assert _frames(render_replay(record, last=2))[0] == 3
    assert _frames(render_replay(record, last=0))[0] == 1
    assert _frames(render_replay(record, last=50))[0] == 7


def test_a_game_without_actions_is_one_frame():
    assert _frames(render_replay(GameRecord("nika", GameState.start().notation())))[0] == 1


def test_replay_is_deterministic_and_frames_differ():
    record = _record(4)
    gif = render_replay(record)
    assert gif == render_replay(record)
    frames = _decoded(gif)
    assert frames[0][0] != frames[1][0]


@pytest.mark.parametrize("game", ["nika", "numica", "pikemen"])
@pytest.mark.parametrize("locale", ["en", "es"])
def test_every_frame_is_the_board_drawn_directly(game, locale):
    """Decoded, every frame is pixel for pixel the board the artist draws for that step, caption
    included: storing only the changes, with unchanged pixels transparent, loses nothing."""
    record = _record(24, game=game)
    steps = record.replay()
    artist = artist_for(game)
    decoded = _decoded(render_replay(record, locale=locale))
    assert len(decoded) == len(steps)
    with using(catalog(locale)):
        for number, ((state, events), (pixels, duration)) in enumerate(zip(steps, decoded, strict=True)):
            recent = (events,) if number else ()
            caption = frame_caption(record, number, events if number else (), TITLES)
            board = artist.picture(state, recent, caption=caption, title=str(TITLE), locale=locale)
            assert pixels == board.convert("RGB").tobytes(), (game, number)
            assert duration == (FIRST_FRAME_MS if number == 0 else LAST_FRAME_MS if number == 24 else FRAME_MS)


def _sub_blocks(gif: bytes, at: int) -> int:
    """Where the sub-blocks starting at `at` end."""
    while gif[at]:
        at += gif[at] + 1
    return at + 1


def _images(gif: bytes) -> list[tuple[tuple[int, ...], int | None, int]]:
    """Each image block of a GIF: (left, top, width, height), its transparent index (from the
    graphic control extension before it) and its compressed size, read from the bytes."""
    flags = gif[10]
    at = 13 + (3 << ((flags & 7) + 1) if flags & 0x80 else 0)
    found: list[tuple[tuple[int, ...], int | None, int]] = []
    transparent = None
    while gif[at] != 0x3B:
        if gif[at] == 0x21:  # an extension: its label, then sub-blocks
            if gif[at + 1] == 0xF9:
                transparent = gif[at + 6] if gif[at + 3] & 1 else None
            at = _sub_blocks(gif, at + 2)
            continue
        box = tuple(int.from_bytes(gif[at + i : at + i + 2], "little") for i in (1, 3, 5, 7))
        local = gif[at + 9]
        start = at + 10 + (3 << ((local & 7) + 1) if local & 0x80 else 0) + 1  # past the LZW code size
        at = _sub_blocks(gif, start)
        found.append((box, transparent, at - start))
        transparent = None
    return found


def test_a_frame_stores_only_what_changed_with_the_rest_transparent():
    """After the first, a frame is the rectangle that changed; inside it, unchanged pixels are the
    frame's transparent index, so the frames of a long match cost little."""
    gif = render_replay(_record(12, game="numica"))
    images = _images(gif)
    assert len(images) == 13
    (_, _, width, height), _, whole = images[0]
    assert width * height > 700_000
    for (_, _, w, h), transparent, size in images[1:]:
        assert transparent is not None and w * h < width * height and size < whole / 4


def test_frames_show_the_boards_with_their_highlights_and_times():
    record = _record(5)
    steps = record.replay()
    artist = artist_for("nika")
    frames = _decoded(render_replay(record, last=3))
    assert [duration for _, duration in frames] == [FIRST_FRAME_MS, FRAME_MS, FRAME_MS, LAST_FRAME_MS]
    for index, number in enumerate(range(2, 6)):
        state, events = steps[number]
        recent = () if index == 0 else (events,)
        caption = frame_caption(record, number, events if index else (), TITLES)
        board = artist.picture(state, recent, caption=caption, title=str(TITLE))
        assert frames[index][0] == board.convert("RGB").tobytes()


def test_captions_are_readable_sentences_in_the_readers_language():
    record = _record(3)
    steps = record.replay()
    _, events = steps[1]
    with using(catalog("en")):
        english = frame_caption(record, 1, events, TITLES)
        opening = frame_caption(record, 0)
    with using(catalog("es")):
        spanish = frame_caption(record, 1, events, TITLES)
        apertura = frame_caption(record, 0)
    assert opening == "replay · 3 actions" and apertura == "repetición · 3 acciones"
    action = record.entries[0].action or ""
    assert english.startswith("1 / 3 · Athens ") and action not in english  # a sentence, not notation
    assert spanish.startswith("1 / 3 · Atenas ") and spanish != english


def test_an_ending_without_a_description_is_named():
    record = _record(2)
    record.entries.append(RecordEntry("sparta", ending=EndingKind.RESIGNATION))
    steps = record.replay()
    with using(catalog("es")):
        caption = frame_caption(record, 3, steps[3][1], TITLES)
    assert caption.startswith("3 / 3 · ") and "rendición" in caption


class _Counting:
    """Counts the boards an artist draws."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, game: str) -> None:
        self.count = 0
        artist = artist_for(game)
        draw = artist.picture

        def counted(*args: Any, **kwargs: Any) -> Image.Image:
            self.count += 1
            return draw(*args, **kwargs)

        monkeypatch.setattr(artist, "picture", counted)


def test_a_replay_too_large_for_its_budget_opens_later_drawn_in_one_pass(monkeypatch):
    record = _record(60, game="numica")
    whole = replay_file(record)
    assert whole.actions == 60 and not whole.cut
    counting = _Counting(monkeypatch, "numica")
    budget = len(whole.gif) * 2 // 3
    fitted = replay_file(record, max_bytes=budget)
    assert counting.count == 61  # every board drawn once, none again
    assert len(fitted.gif) <= budget and fitted.cut and 20 < fitted.actions < 60
    frames = _decoded(fitted.gif)
    assert len(frames) == fitted.actions  # opens with the first action it shows, highlighted
    assert frames[-1] == _decoded(whole.gif)[-1]  # and ends as the whole replay does
    assert frames[0][1] == FIRST_FRAME_MS


def test_frames_that_change_nothing_keep_their_time():
    board = artist_for("nika").picture(GameState.start())
    animation = gif_bytes([(board, 500), (board.copy(), 700)])
    frames = _decoded(animation.data)
    assert [duration for _, duration in frames] == [500, 700] and frames[0][0] == frames[1][0]


def test_a_frame_using_every_palette_index_is_written_without_transparency():
    every = Image.new("P", (16, 16))
    every.putdata(list(range(256)))
    every.putpalette([value for index in range(256) for value in (index, 255 - index, index // 2)])
    shifted = every.point(lambda index: (index + 1) % 256)
    frames = _decoded(gif_bytes([(every, 100), (shifted, 100)]).data)
    assert frames[1][0] == shifted.convert("RGB").tobytes()
    assert ImageChops.difference(every.convert("RGB"), shifted.convert("RGB")).getbbox() is not None
