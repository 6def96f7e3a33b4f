"""An animated GIF of any game: the starting board, then one frame per action with its
highlights, from a game record.

GIF rather than APNG because Discord animates GIFs inline everywhere. Every frame
shares the game's fixed palette and stores only the rectangle that changed from the
frame before: a 150-action game stays a few megabytes.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import islice

from PIL import Image

from engine.api import seat_table
from engine.i18n import using
from engine.record import GameRecord
from render.encode import gif_bytes
from render.registry import artist_for
from render.words import catalog, language_of, playing

REPLAY_EXTENSION = "gif"
REPLAY_MIME_TYPE = "image/gif"
FIRST_FRAME_MS = 1500
FRAME_MS = 900
LAST_FRAME_MS = 4000


def render_replay(record: GameRecord, *, last: int | None = None, locale: str = "en") -> bytes:
    """The game as an animated GIF: the start, then one frame per entry with its highlights.
    With `last`, only the last that many entries, after a frame of the state before them.

    The record is replayed once, lazily (linear in its length); frames before the window
    are never drawn."""
    artist = artist_for(record.game)
    total = len(record.entries)
    first = 0
    if last is not None:
        if last < 0:
            raise ValueError("last must be zero or more actions")
        first = max(0, total - last)
    titles = _seat_titles(record)

    language = language_of(locale)

    def frames() -> Iterator[tuple[Image.Image, int]]:
        with using(catalog(locale)), playing(record.game):
            yield from _frames()

    def _frames() -> Iterator[tuple[Image.Image, int]]:
        steps = islice(record.steps(), first, None)
        state, _ = next(steps)
        opening = artist.picture(state, caption=frame_caption(record, first, titles), locale=language)
        yield opening, FIRST_FRAME_MS if first < total else LAST_FRAME_MS
        for number, (state, events) in enumerate(steps, start=first + 1):
            picture = artist.picture(state, (events,), caption=frame_caption(record, number, titles), locale=language)
            yield picture, FRAME_MS if number < total else LAST_FRAME_MS

    return gif_bytes(frames(), artist.palette())


def _seat_titles(record: GameRecord) -> dict[str, str]:
    game = record.rules
    try:
        state = game.load(record.start)
        return {seat.slug: seat.title for seat in seat_table(game, game.state_seats(state))}
    except (KeyError, ValueError):
        return {}


def frame_caption(record: GameRecord, number: int, titles: dict[str, str] | None = None) -> str:
    """The line under the status on frame `number` (0 is the start): which action, by whom."""
    total = len(record.entries)
    if number == 0:
        return f"replay · {total} action{'s' if total != 1 else ''}"
    entry = record.entries[number - 1]
    who = (titles or {}).get(entry.seat, entry.seat.title())
    what = entry.action if entry.ending is None else entry.ending.value
    return f"{number} / {total} · {who}: {what}" if who else f"{number} / {total} · {what}"
