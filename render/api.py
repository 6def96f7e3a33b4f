"""The interface each game's renderer implements, and what the shared code offers it.

An artist turns a game state (plus the actions that just happened) into a picture in its
fixed palette and its alt text. Composing in the palette, encoding to PNG or GIF, and
replays are shared (`render/compose.py`, `render/encode.py`, `render/gif.py`,
`render/replay.py`). Pure and synchronous: the same input always gives the same bytes. A
game's package names its artist under the entry point group `boardgame_host.artists`
(engine/plugins.py); `render.artist.GameArtist` is a shell an artist may subclass.

**The drawing lock.** The bot draws boards on several threads at once. Pillow's fonts are
shared objects that must not draw text on two threads at the same time, and pictures built
once and cached (an empty board) must be built once. So an artist holds `DRAWING` (a
re-entrant lock) around every `ImageDraw.text` call on a shared font, and builds cached
pictures with `built_once` (which takes the lock to build, and keeps one copy per language,
since pictures hold words). Drawing shapes on an image of its own needs no lock.

What an artist may use from the host is exported here: the lock and `built_once`,
`learn_palette` (a fixed palette from a swatch of everything drawn) and `to_palette` (a
picture in that palette), and the shipped fonts (`plain_font(size)` for words, in a face that
holds the active language's letters; `mark_font(size)` for coordinates and numbers, the same
in every language; `drawable(text)` for what the English face can draw), and
`board_canvas(empty)`, a copy of a cached empty board to draw a board on, with room under it
for the clocks strip when the host draws one (draw within `empty`'s size).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from PIL import Image

from render.compose import board_canvas
from render.encode import learn_palette, to_palette
from render.fonts import drawable
from render.fonts import mark as mark_font
from render.fonts import plain as plain_font
from render.memo import DRAWING, built_once
from render.seat_times import Clocks, SeatTime

ALT_TEXT_MAX = 1024  # Discord's limit for an attachment's description

# The actions to highlight, oldest first, each as the events of one action; the last one
# is the action just played. Artists choose how many to show (a game may number every action
# since the viewer's previous turn; others mark the last move).
Recent = Sequence[Sequence[Any]]


@dataclass(frozen=True, slots=True)
class RenderedBoard:
    png: bytes
    alt_text: str


class Artist(Protocol):
    """One game's pictures."""

    slug: str

    def picture(
        self,
        state: Any,
        recent: Recent = (),
        *,
        perspective: str | None = None,
        caption: str | None = None,
        title: str | None = None,
        locale: str = "en",
    ) -> Image.Image:
        """The board as a 'P' image in this game's palette (`palette`). `perspective` is a seat
        slug: the board turned for that seat's view (None: the game's default orientation).
        `caption` is a line saying what happened (a replay frame's "31 / 40 · North moved…");
        `title` says what the picture is ("Replay", "Rules: an example") where a live board
        says whose turn it is, and makes it that kind of picture."""

    def alt_text(self, state: Any, recent: Recent = (), *, locale: str = "en", title: str | None = None) -> str:
        """The picture described for a screen reader, at most ALT_TEXT_MAX characters; with a
        `title`, as that kind of picture (it leads, and whose turn it is goes unsaid)."""

    def palette(self) -> Image.Image:
        """A 'P' image carrying this game's fixed palette (at most 256 colours), so encoding is
        fast and deterministic. Every flat colour the artist draws must be in it exactly."""

    def warm_up(self) -> None:
        """Draw and cache what a first board needs (called once at bot start-up)."""


class SeatColours(Protocol):
    """What an artist may add so a board's clocks strip marks each seat in its colour
    (`render/clocks.py`); an artist without it gets the strip with names alone."""

    def seat_colours(self) -> Mapping[str, tuple[int, int, int]]:
        """Each seat's slug and the flat colour its pieces wear (a colour of the palette)."""


__all__ = [
    "ALT_TEXT_MAX", "DRAWING", "Artist", "Clocks", "Recent", "RenderedBoard", "SeatColours", "SeatTime",
    "board_canvas", "built_once", "drawable", "learn_palette", "mark_font", "plain_font", "to_palette",
]  # fmt: skip
