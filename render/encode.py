"""PNG bytes of palette pictures, and the fixed palettes they are drawn in, for every game.

A palette image (at most 256 colours) encodes several times faster than RGB and is
far smaller. Each game's artist has a fixed palette (`Artist.palette`): every flat
colour it draws exactly, plus the blends that anti-aliasing produces, so output is
deterministic. `learn_palette` builds such a palette once from a swatch of everything an
artist draws; boards are then composed straight in it (`render/compose.py`). GIFs are
written by `render/gif.py`.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image

PALETTE_SIZE = 256
NEAR = 6  # learned colours closer than this (per channel) to a kept one are dropped
PNG_LEVEL = 2  # zlib level: 2 costs ~4 ms here, 3 about 5.5 ms for 4 % less; higher levels cost far more

Colour = tuple[int, int, int]


def learn_palette(flat: Sequence[Colour], swatch: Image.Image) -> Image.Image:
    """A 'P' image carrying a fixed palette: the `flat` colours exactly, then the blends
    median cut finds in `swatch` (a picture of everything the artist ever draws)."""
    flat = list(dict.fromkeys(flat))
    learned = swatch.quantize(PALETTE_SIZE - len(flat), method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    raw = learned.getpalette() or []
    colours = list(flat)
    for i in range(0, len(raw), 3):
        colour = (raw[i], raw[i + 1], raw[i + 2])
        # Pillow maps through a coarse colour cache: a learned colour a step away from a flat
        # one could steal its pixels, so keep only blends that are really different.
        if all(max(abs(a - b) for a, b in zip(colour, kept, strict=True)) > NEAR for kept in colours):
            colours.append(colour)
    colours = colours[:PALETTE_SIZE]
    colours += [(0, 0, 0)] * (PALETTE_SIZE - len(colours))
    holder = Image.new("P", (1, 1))
    holder.putpalette([channel for colour in colours for channel in colour])
    return holder


def to_palette(image: Image.Image, palette: Image.Image) -> Image.Image:
    return image.quantize(palette=palette, dither=Image.Dither.NONE)


def png_bytes(image: Image.Image, palette: Image.Image | None = None) -> bytes:
    """PNG of a picture composed in its palette ('P'), or of an RGB one through `palette`."""
    buffer = io.BytesIO()
    indexed = image if image.mode == "P" or palette is None else to_palette(image, palette)
    indexed.save(buffer, "PNG", compress_level=PNG_LEVEL)
    return buffer.getvalue()
