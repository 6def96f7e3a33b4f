"""The look shared by tables and charts: the boards' parchment, ink and bronze, Cinzel
headings over a band of Greek key, and a fixed palette so the PNG bytes are deterministic.

Players' names come from Discord and may hold any script: they are drawn in DejaVu Sans
(shipped with the package) whatever the language, and characters that font lacks (emoji,
most CJK) are left out rather than drawn as empty boxes.
"""

from __future__ import annotations

import itertools
from functools import cache
from importlib import resources
from io import BytesIO

from PIL import Image, ImageFont

from render.canvas import Canvas, Point
from render.encode import learn_palette

RGB = tuple[int, int, int]

PARCHMENT: RGB = (238, 227, 200)  # the page
PANEL: RGB = (244, 236, 215)  # marble rows
BAND: RGB = (230, 217, 186)  # every other row
INK: RGB = (52, 36, 24)
LABEL: RGB = (96, 68, 44)  # headers, secondary text
MUTED: RGB = (138, 118, 96)  # withdrawn entrants
RULE: RGB = (176, 150, 112)
MEANDER: RGB = (166, 84, 52)  # terracotta Greek key
BRONZE: RGB = (196, 146, 62)
BRONZE_DARK: RGB = (122, 84, 30)
OLIVE: RGB = (106, 116, 60)
OLIVE_WASH: RGB = (208, 208, 168)  # the chart's band of uncertainty
GOLD: RGB = (214, 168, 52)
SILVER: RGB = (178, 178, 172)
COPPER: RGB = (186, 118, 66)  # third place
HIGHLIGHT: RGB = (250, 232, 178)  # the reader's own row
WHITE: RGB = (255, 255, 255)

FLAT: tuple[RGB, ...] = (
    PARCHMENT, PANEL, BAND, INK, LABEL, MUTED, RULE, MEANDER, BRONZE, BRONZE_DARK, OLIVE, OLIVE_WASH, GOLD, SILVER,
    COPPER, HIGHLIGHT, WHITE,
)  # fmt: skip
_BACKGROUNDS = (PARCHMENT, PANEL, BAND, HIGHLIGHT, OLIVE_WASH, GOLD, SILVER, COPPER)
_INKS = (INK, LABEL, MUTED, RULE, MEANDER, BRONZE, BRONZE_DARK, OLIVE, WHITE, OLIVE_WASH, GOLD, SILVER, COPPER)

_NAMES_FONT = "DejaVuSans.ttf"


@cache
def palette() -> Image.Image:
    """The fixed palette: every flat colour, plus the blends of each ink over each background
    that anti-aliased strokes and text produce."""
    ramp = Image.linear_gradient("L").resize((8, 256))
    strips = []
    for background in _BACKGROUNDS:
        for ink in _INKS:
            over = Image.new("RGB", ramp.size, background)
            strips.append(Image.composite(Image.new("RGB", ramp.size, ink), over, ramp))
    swatch = Image.new("RGB", (8 * len(strips), 256))
    for i, strip in enumerate(strips):
        swatch.paste(strip, (8 * i, 0))
    return learn_palette(list(FLAT), swatch)


@cache
def _font_bytes() -> bytes:
    return resources.files("render").joinpath("fonts", _NAMES_FONT).read_bytes()


@cache
def names_font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(BytesIO(_font_bytes()), size)


@cache
def _missing_glyph() -> bytes:
    return bytes(names_font(40).getmask("\U0010fffd"))


@cache
def _drawable_char(char: str) -> bool:
    if char.isspace():
        return True
    if not char.isprintable():
        return False
    return bytes(names_font(40).getmask(char)) != _missing_glyph()


def drawable_name(name: str) -> str:
    """`name` without the characters the names' font cannot draw, spaces tidied."""
    kept = "".join(c for c in name if _drawable_char(c))
    return " ".join(kept.split())


def fit(text: str, font: ImageFont.FreeTypeFont, width: float) -> str:
    """`text`, shortened with an ellipsis until it fits `width` pixels at `font`."""
    if font.getlength(text) <= width:
        return text
    while text and font.getlength(text + "…") > width:
        text = text[:-1]
    return text.rstrip() + "…"


def meander_band(canvas: Canvas, start: Point, length: float, unit: float, colour: RGB) -> None:
    """A run of Greek key between two rules, 7 units tall, from `start` rightwards."""
    x, y = start
    stroke = unit * 0.95
    half = unit * 0.48
    for t in (-0.5, 5.5):
        canvas.rect((x, y + t * unit - stroke / 2, x + length, y + t * unit + stroke / 2), colour)
    period = 6
    count = max(1, int(length / unit + 2) // period)
    margin = (length / unit - count * period + 2) / 2
    for i in range(count):
        s = margin + i * period
        hook = [(s, 5.5), (s, 1.5), (s + 4, 1.5), (s + 4, 4), (s + 2, 4), (s + 2, 3)]
        for (s1, t1), (s2, t2) in itertools.pairwise(hook):
            xa, ya, xb, yb = x + s1 * unit, y + t1 * unit, x + s2 * unit, y + t2 * unit
            canvas.rect((min(xa, xb) - half, min(ya, yb) - half, max(xa, xb) + half, max(ya, yb) + half), colour)
