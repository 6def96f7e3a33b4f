"""Board pictures for every hosted game, their descriptions, and game replays.

    render_state(slug, state, recent, perspective=…, locale=…) -> RenderedBoard(png, alt_text)
    render_replay(record, last=…) -> GIF bytes (REPLAY_EXTENSION)

Each game's artist comes from its package (see `render/api.py`); drawing helpers,
palette encoding and replays are shared. Pure and synchronous: the same input always
gives the same bytes. The first board per process draws and caches the game's static
layers (a fraction of a second); after that a board costs a few milliseconds.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.i18n import using
from render.api import ALT_TEXT_MAX, Recent, RenderedBoard
from render.encode import png_bytes
from render.registry import artist_for
from render.replay import REPLAY_EXTENSION, REPLAY_MIME_TYPE, render_replay
from render.words import catalog, language_of, playing


def render_state(
    slug: str, state: Any, recent: Recent = (), *, perspective: str | None = None, locale: str = "en"
) -> RenderedBoard:
    """The board of `state` with the `recent` actions highlighted, as PNG with alt text."""
    artist = artist_for(slug)
    with using(catalog(locale)), playing(slug):  # every word drawn or described, in the viewer's language
        picture = artist.picture(state, recent, perspective=perspective, locale=language_of(locale))
        text = artist.alt_text(state, recent, locale=language_of(locale))
    if len(text) > ALT_TEXT_MAX:
        text = text[: ALT_TEXT_MAX - 1] + "…"
    return RenderedBoard(png_bytes(picture, artist.palette()), text)


def board_filename(slug: str) -> str:
    return f"{slug}-board.png"


def replay_filename(slug: str) -> str:
    return f"{slug}-replay.{REPLAY_EXTENSION}"


def warm_up(slugs: Iterable[str]) -> None:
    """Draw and cache everything a first board needs, e.g. at bot start-up, so that no player
    waits for it. Optional: rendering works the same without it."""
    for slug in slugs:
        artist_for(slug).warm_up()


__all__ = [
    "REPLAY_EXTENSION",
    "REPLAY_MIME_TYPE",
    "RenderedBoard",
    "board_filename",
    "render_replay",
    "render_state",
    "replay_filename",
    "warm_up",
]
