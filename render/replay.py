"""An animated GIF of a game: the starting board, then one frame per action with its highlights.

GIF rather than APNG because Discord animates GIFs inline everywhere. Every
frame shares the fixed palette and stores only the rectangle that changed from
the frame before: a 150-action game stays a few megabytes.
"""

from __future__ import annotations

from collections.abc import Iterator

from PIL import Image

from engine.nika.record import GameRecord
from render.board import compose
from render.encode import gif_bytes

REPLAY_EXTENSION = "gif"
REPLAY_MIME_TYPE = "image/gif"
FIRST_FRAME_MS = 1500
FRAME_MS = 900
LAST_FRAME_MS = 4000


def render_replay(record: GameRecord, *, last: int | None = None) -> bytes:
    """The game as an animated GIF: the start, then one frame per action with its highlights.
    With `last`, only the last that many actions, after a frame of the position before them."""
    steps = record.replay()
    total = len(record.entries)
    first = 0
    if last is not None:
        if last < 0:
            raise ValueError("last must be zero or more actions")
        first = max(0, total - last)

    def frames() -> Iterator[tuple[Image.Image, int]]:
        opening = compose(steps[first][0], caption=frame_caption(record, first))
        yield opening, FIRST_FRAME_MS if first < total else LAST_FRAME_MS
        for number in range(first + 1, total + 1):
            state, events = steps[number]
            yield (
                compose(state, events, caption=frame_caption(record, number)),
                FRAME_MS if number < total else LAST_FRAME_MS,
            )

    return gif_bytes(frames())


def frame_caption(record: GameRecord, number: int) -> str:
    """The line under the status on frame `number` (0 is the start): which action, by whom."""
    total = len(record.entries)
    if number == 0:
        return f"replay · {total} action{'s' if total != 1 else ''}"
    entry = record.entries[number - 1]
    return f"{number} / {total} · {entry.city.title}: {entry.action}"
