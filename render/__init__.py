"""Board pictures for every hosted game, their descriptions, and game replays.

    render_state(slug, state, recent, perspective=…, locale=…) -> RenderedBoard(png, alt_text)
    render_replay(record, last=…) -> GIF bytes (REPLAY_EXTENSION)
    replay_file(record, last=…, max_bytes=…) -> as many of the last actions as fit, in one pass

Each game's artist comes from its package (see `render/api.py`); drawing helpers,
composing in a fixed palette (`render/compose.py`), encoding and replays are shared. Pure
and synchronous: the same input always gives the same bytes. The first board per process
draws and caches the game's static layers (a fraction of a second); after that a board
costs a few milliseconds, most of it Pillow's PNG encoder.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from engine.i18n import M

if TYPE_CHECKING:
    from render.api import Clocks, Recent, RenderedBoard
    from render.replay import REPLAY_EXTENSION, REPLAY_MIME_TYPE, ReplayFile, render_replay, replay_file

# Loaded when first asked for (PEP 562): Pillow and the artists cost a tenth of a second to
# import, which a process that only needs `render.words` (the console before its first board,
# a worker) should not pay.
_LAZY = {"RenderedBoard": "render.api", "REPLAY_EXTENSION": "render.replay", "REPLAY_MIME_TYPE": "render.replay",
         "ReplayFile": "render.replay", "render_replay": "render.replay", "replay_file": "render.replay"}  # fmt: skip


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'render' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def render_state(
    slug: str,
    state: Any,
    recent: Recent = (),
    *,
    perspective: str | None = None,
    locale: str = "en",
    clocks: Clocks | None = None,
) -> RenderedBoard:
    """The board of `state` with the `recent` actions highlighted, as PNG with alt text; with
    `clocks` (each seat's time as the host read it), a strip under the board shows them
    (`render/clocks.py`). Without, the picture is exactly the board alone."""
    from engine.i18n import using
    from render.api import ALT_TEXT_MAX, RenderedBoard
    from render.encode import png_bytes
    from render.registry import artist_for
    from render.words import catalog, language_of, playing

    artist = artist_for(slug)
    with using(catalog(locale)), playing(slug):  # every word drawn or described, in the viewer's language
        if clocks is not None and clocks.seats:
            from render.clocks import Strip
            from render.compose import room_under

            seat_colours = getattr(artist, "seat_colours", None)  # optional (render.api.SeatColours)
            strip = Strip(clocks, artist.palette(), seat_colours() if seat_colours else None)
            # The board is composed with room for the strip under it, when the artist composes
            # through render/compose.py; any other picture is copied taller (Strip.under).
            with room_under(strip.room):
                drawn = artist.picture(state, recent, perspective=perspective, locale=language_of(locale))
            picture = strip.under(drawn)
        else:
            picture = artist.picture(state, recent, perspective=perspective, locale=language_of(locale))
        text = artist.alt_text(state, recent, locale=language_of(locale))
    if len(text) > ALT_TEXT_MAX:
        text = text[: ALT_TEXT_MAX - 1] + "…"
    return RenderedBoard(png_bytes(picture, artist.palette()), text)


def render_example(slug: str, state: Any, recent: Recent, *, locale: str = "en") -> RenderedBoard:
    """A rules example: the board after the action `recent` ends with, titled as an example of
    the rules (not as a live game: nobody is to act) and captioned with what the action did."""
    from engine.i18n import using
    from engine.registry import get_game
    from render.api import ALT_TEXT_MAX, RenderedBoard
    from render.encode import png_bytes
    from render.registry import artist_for
    from render.words import catalog, language_of, playing

    artist = artist_for(slug)
    with using(catalog(locale)), playing(slug):
        title = str(EXAMPLE_TITLE)
        caption = get_game(slug).describe(recent[-1]) if recent else ""
        picture = artist.picture(state, recent, caption=caption, title=title, locale=language_of(locale))
        text = artist.alt_text(state, recent, locale=language_of(locale), title=title)
    if len(text) > ALT_TEXT_MAX:
        text = text[: ALT_TEXT_MAX - 1] + "…"
    return RenderedBoard(png_bytes(picture, artist.palette()), text)


EXAMPLE_TITLE = M("Rules: an example")


def board_filename(slug: str) -> str:
    return f"{slug}-board.png"


def example_filename(slug: str) -> str:
    """A rules example's file: not named like a live board."""
    return f"{slug}-rules-example.png"


def replay_filename(slug: str) -> str:
    from render.replay import REPLAY_EXTENSION

    return f"{slug}-replay.{REPLAY_EXTENSION}"


def warm_up(slugs: Iterable[str]) -> None:
    """Draw and cache everything a first board needs, e.g. at bot start-up, so that no player
    waits for it. Optional: rendering works the same without it."""
    from render.registry import artist_for

    for slug in slugs:
        artist_for(slug).warm_up()


__all__ = [
    "REPLAY_EXTENSION",
    "REPLAY_MIME_TYPE",
    "RenderedBoard",
    "ReplayFile",
    "board_filename",
    "example_filename",
    "render_example",
    "render_replay",
    "render_state",
    "replay_file",
    "replay_filename",
    "warm_up",
]
