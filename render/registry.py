"""Each game's artist, found by the game's slug: the one its package names under the entry
point group `boardgame_host.artists` (engine/plugins.py), or one registered while running.
A game without an artist of its own is drawn by the plain fallback (`render/plain.py`), so
the host can show any game.
"""

from __future__ import annotations

from engine import plugins
from render.api import Artist

_ARTISTS: dict[str, Artist] = {}


def register(artist: Artist) -> Artist:
    _ARTISTS[artist.slug] = artist
    return artist


def artist_for(slug: str) -> Artist:
    if slug not in _ARTISTS:
        artist = plugins.load(plugins.ARTISTS, slug)
        if artist is None:
            from render.plain import PlainArtist

            artist = PlainArtist(slug)
        elif getattr(artist, "slug", None) != slug:
            raise plugins.PluginError(f"the entry point {plugins.ARTISTS} {slug!r} must name an artist for {slug!r}")
        register(artist)
    return _ARTISTS[slug]
