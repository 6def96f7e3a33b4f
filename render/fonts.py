"""Fonts shipped with the package, never the system's: Cinzel (SIL OFL) for display, and for
plain text Pillow's bundled sans in English and DejaVu Sans in other languages."""

from __future__ import annotations

from functools import cache
from importlib import resources
from io import BytesIO

from PIL import ImageFont

from engine.i18n import active

_CINZEL = "Cinzel.ttf"  # variable font, weight axis 400–900
# Pillow's bundled sans (Aileron) holds ASCII only: no accents, no dashes. English boards keep
# it, unchanged; any other language draws with DejaVu Sans, which covers every Latin script.
_WIDE = "DejaVuSans.ttf"


@cache
def _font_bytes(name: str) -> bytes:
    return resources.files("render").joinpath("fonts", name).read_bytes()


@cache
def display(size: int, weight: int = 700) -> ImageFont.FreeTypeFont:
    """Cinzel, capitals in the style of Greek inscriptions: titles, city letters, the status."""
    font = ImageFont.truetype(BytesIO(_font_bytes(_CINZEL)), size)
    font.set_variation_by_axes([weight])
    return font


def plain(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """A sans in which lowercase coordinates stay unambiguous at small sizes, holding every
    letter of the language being drawn (`engine.i18n.active`)."""
    return _plain(size, active().locale == "en")


def mark(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """The English sans in every language, for what is not words (coordinates, numbers,
    tile symbols), so that a board's marks are the same picture whoever reads it."""
    return _plain(size, True)


@cache
def _plain(size: int, english: bool) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    if english:
        return ImageFont.load_default(size=size)
    return ImageFont.truetype(BytesIO(_font_bytes(_WIDE)), size)


_ASCII_SIGNS = str.maketrans({"—": "-", "–": "-", "’": "'", "“": '"', "”": '"'})


def drawable(text: str) -> str:
    """`text` as `plain` can draw it: in English Pillow's sans, which lacks dashes and curly
    quotes, gets their ASCII stand-ins rather than empty boxes."""
    return text.translate(_ASCII_SIGNS) if active().locale == "en" else text
