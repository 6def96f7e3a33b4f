"""From a composed RGB picture to small, fast PNG and GIF bytes, for every game.

A palette image (at most 256 colours) encodes several times faster than RGB and is
far smaller. Each game's artist supplies a fixed palette (`Artist.palette`): every flat
colour it draws exactly, plus the blends that anti-aliasing produces. Mapping a picture
onto a fixed palette without dithering is a cheap per-pixel lookup, and it keeps output
deterministic. `learn_palette` builds such a palette once from a swatch of everything
an artist draws.
"""

from __future__ import annotations

import io
import struct
from collections.abc import Iterable, Sequence

from PIL import GifImagePlugin, Image, ImageChops

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


def png_bytes(image: Image.Image, palette: Image.Image) -> bytes:
    """PNG of an RGB picture, through a fixed palette."""
    buffer = io.BytesIO()
    to_palette(image, palette).save(buffer, "PNG", compress_level=PNG_LEVEL)
    return buffer.getvalue()


def gif_bytes(frames: Iterable[tuple[Image.Image, int]], palette: Image.Image) -> bytes:
    """An endlessly looping GIF of (RGB picture, milliseconds) frames, all the same size.

    Written frame by frame so that only the previous frame is held in memory (Pillow's
    save_all keeps a copy of every frame: 150 MB for a long game), each frame storing only
    the rectangle that changed, and every frame kept even if nothing changed, so a replay
    always has one frame per action. The frames use the fixed palette as the global table.
    """
    out = io.BytesIO()
    previous: Image.Image | None = None
    for picture, duration in frames:
        frame = to_palette(picture, palette)
        if previous is None:
            out.write(_gif_header(frame.size, palette))
            box: tuple[int, int, int, int] | None = (0, 0, *frame.size)
        else:
            box = ImageChops.subtract_modulo(frame, previous).getbbox(alpha_only=False)
        left, top, right, bottom = box or (0, 0, 1, 1)  # unchanged: a one-pixel frame keeps its time
        for chunk in GifImagePlugin.getdata(frame.crop((left, top, right, bottom)), (left, top),
                                            duration=duration, disposal=1):  # fmt: skip
            out.write(chunk)
        previous = frame
    out.write(b";")  # trailer
    return out.getvalue()


def _gif_header(size: tuple[int, int], palette: Image.Image) -> bytes:
    colours = bytes((palette.getpalette() or [])[: 3 * PALETTE_SIZE]).ljust(3 * PALETTE_SIZE, b"\0")
    screen = struct.pack("<HHBBB", size[0], size[1], 0xF7, 0, 0)  # global table of 2**(7+1) colours
    loop = b"!\xff\x0bNETSCAPE2.0\x03\x01" + struct.pack("<H", 0) + b"\x00"  # repeat forever
    return b"GIF89a" + screen + colours + loop
