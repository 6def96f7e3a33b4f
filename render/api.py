"""The interface each game's renderer implements, and what the shared code returns.

An artist turns a game state (plus the actions that just happened) into a picture in its
fixed palette and its alt text. Composing in the palette, encoding to PNG or GIF, and
replays are shared (`render/compose.py`, `render/encode.py`, `render/gif.py`,
`render/replay.py`). Pure and synchronous: the same input always gives the same bytes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from PIL import Image

ALT_TEXT_MAX = 1024  # Discord's limit for an attachment's description

# The actions to highlight, oldest first, each as the events of one action; the last one
# is the action just played. Artists choose how many to show (Nika numbers every action
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
        `caption` is a line saying what happened (a replay frame's "31 / 40 · Red moved…");
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
