"""Fonts shipped with the package (Cinzel, SIL OFL) or with Pillow itself: no system fonts."""

from __future__ import annotations

from functools import cache
from importlib import resources
from io import BytesIO

from PIL import ImageFont

_CINZEL = "Cinzel.ttf"  # variable font, weight axis 400–900


@cache
def _cinzel_bytes() -> bytes:
    return resources.files("render").joinpath("fonts", _CINZEL).read_bytes()


@cache
def display(size: int, weight: int = 700) -> ImageFont.FreeTypeFont:
    """Cinzel, capitals in the style of Greek inscriptions: titles, city letters, the status."""
    font = ImageFont.truetype(BytesIO(_cinzel_bytes()), size)
    font.set_variation_by_axes([weight])
    return font


@cache
def plain(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's bundled sans (Aileron): lowercase coordinates stay unambiguous at small sizes."""
    return ImageFont.load_default(size=size)
