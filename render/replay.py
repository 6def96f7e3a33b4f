"""An animated GIF of any game: the starting board, then one frame per action with its
highlights, from a game record, each frame captioned in the reader's language.

GIF rather than APNG because Discord animates GIFs inline everywhere. Frames are the boards
the artist draws, in its palette; each is stored as the pixels that changed from the frame
before (`render/gif.py`), so a match of a thousand actions fits in one upload. The record is
replayed once, lazily, and every frame drawn once: with a byte budget, a match too long for
it opens at a later frame instead of being drawn again.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import islice
from typing import Any

from PIL import Image

from engine.api import EndingKind, seat_table
from engine.i18n import M, P, T, Term, using
from engine.record import GameRecord
from render.gif import gif_bytes
from render.registry import artist_for
from render.words import catalog, language_of, playing

REPLAY_EXTENSION = "gif"
REPLAY_MIME_TYPE = "image/gif"
TITLE = M("Replay")  # where a live board says whose turn it is
FIRST_FRAME_MS = 1500
FRAME_MS = 900
LAST_FRAME_MS = 4000
ENDINGS: dict[EndingKind, Term] = {
    EndingKind.RESIGNATION: T("resignation", "ending"),
    EndingKind.TIMEOUT: T("timeout", "ending"),
    EndingKind.AGREEMENT: T("agreement", "ending"),
    EndingKind.CONCESSION: T("concession", "ending"),
}


@dataclass(frozen=True, slots=True)
class ReplayFile:
    gif: bytes
    actions: int  # how many of the last actions it shows
    cut: bool = False  # it opens later than asked: the earlier actions did not fit the byte budget


def render_replay(record: GameRecord, *, last: int | None = None, locale: str = "en") -> bytes:
    """The game as an animated GIF: the start, then one frame per entry with its highlights.
    With `last`, only the last that many entries, after a frame of the state before them."""
    return replay_file(record, last=last, locale=locale).gif


def replay_file(
    record: GameRecord, *, last: int | None = None, locale: str = "en", max_bytes: int | None = None
) -> ReplayFile:
    """As `render_replay`; with `max_bytes`, as many of the last actions as fit in that many
    bytes (all of them, unless the match is very long), still drawn in one pass."""
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
        # Captions and boards in the reader's language, the game's own words first, in this thread.
        with using(catalog(language)), playing(record.game):
            steps = islice(record.steps(), first, None)
            state, _ = next(steps)
            title = str(TITLE)
            opening = artist.picture(state, caption=frame_caption(record, first, (), titles), title=title,
                                     locale=language)  # fmt: skip
            yield opening, FIRST_FRAME_MS if first < total else LAST_FRAME_MS
            for number, (state, events) in enumerate(steps, start=first + 1):
                caption = frame_caption(record, number, events, titles)
                picture = artist.picture(state, (events,), caption=caption, title=title, locale=language)
                yield picture, FRAME_MS if number < total else LAST_FRAME_MS

    animation = gif_bytes(frames(), count=total - first + 1, max_bytes=max_bytes, opening_ms=FIRST_FRAME_MS)
    if animation.first == 0:
        return ReplayFile(animation.data, total - first)
    # It opens with a later frame, which shows its own action highlighted.
    return ReplayFile(animation.data, total - first - animation.first + 1, cut=True)


def _seat_titles(record: GameRecord) -> dict[str, Any]:
    game = record.rules
    try:
        state = game.load(record.start)
        return {seat.slug: seat.title for seat in seat_table(game, game.state_seats(state))}
    except (KeyError, ValueError):
        return {}


def frame_caption(
    record: GameRecord, number: int, events: Sequence[Any] = (), titles: dict[str, Any] | None = None
) -> str:
    """The caption of frame `number` (0 is the start), in the active language: the whole
    replay's length, or which action this is and what it did, as the game says it."""
    total = len(record.entries)
    if number == 0:
        return str(P("replay · {count} action", "replay · {count} actions", count=total))
    entry = record.entries[number - 1]
    said = record.rules.describe(events) if events else ""
    if not said:  # an ending the game does not describe: who, and how it ended
        who = (titles or {}).get(entry.seat, entry.seat.title())
        what = ENDINGS.get(entry.ending, T("ending", "ending")) if entry.ending is not None else entry.action
        said = str(M("{seat}: {ending}", seat=who, ending=what))
    return f"{number} / {total} · {said}"
