"""Each hosted game's artist, found by the game's slug.

Built-in games' artists live in `render/<slug>/` and register when first looked up;
a game without an artist of its own is drawn by the plain fallback (`render/plain.py`),
so the host can show any game.
"""

from __future__ import annotations

import importlib

from render.api import Artist

_ARTISTS: dict[str, Artist] = {}


def register(artist: Artist) -> Artist:
    _ARTISTS[artist.slug] = artist
    return artist


def artist_for(slug: str) -> Artist:
    if slug not in _ARTISTS:
        try:
            module = importlib.import_module(f"render.{slug}.artist")
        except ModuleNotFoundError as error:
            if error.name not in (f"render.{slug}", f"render.{slug}.artist"):
                raise
            from render.plain import PlainArtist

            return register(PlainArtist(slug))
        register(module.ARTIST)
    return _ARTISTS[slug]
