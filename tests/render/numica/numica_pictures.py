"""Helpers for looking at Numica pictures: states from notation, decoded PNGs, pixels.

(Named uniquely: this folder has no __init__.py, so module names must not clash.)
"""

from __future__ import annotations

import io
from collections import Counter
from collections.abc import Sequence
from typing import Any

from PIL import Image

from engine.numica import GameState, parse_square
from engine.numica.board import Colour
from engine.numica.game import GAME
from render import render_state
from render.numica.layout import box, centre

RGB = tuple[int, int, int]

# A deal written out, rank 8 first: a1 is a 1 tile, b1 an X, d1 a bishop, a8 a rook, b8 a knight.
TILES = "RK14R155/K13XK33R/X1223114/23243213/2BK55R21/1X1B344K/X4K34552/1X5BB422"
START = f"{TILES} red:a1s,b1o,c1s,d1o,e1s,f1o,g1s,h1o blue:a8o,b8s,c8o,d8s,e8o,f8s,g8o,h8s red/0"


def play(notation: str, *moves: str) -> tuple[GameState, list[Any]]:
    """The state after `moves`, with the events of the last one."""
    state = GAME.load(notation)
    happened: list[Any] = []
    for move in moves:
        state, events = GAME.apply(state, GAME.parse_action(move))
        happened = list(events)
    return state, happened


def picture(state: GameState, events: Sequence[Any] = (), perspective: str | None = None) -> Image.Image:
    rendered = render_state("numica", state, [events] if events else [], perspective=perspective)
    with Image.open(io.BytesIO(rendered.png)) as image:
        return image.convert("RGB")


def pixel(image: Image.Image, point: tuple[float, float]) -> RGB:
    value = image.getpixel((round(point[0]), round(point[1])))
    assert isinstance(value, tuple)
    return (value[0], value[1], value[2])


def close(a: RGB, b: RGB, tolerance: int = 14) -> bool:
    return max(abs(x - y) for x, y in zip(a, b, strict=True)) <= tolerance


def view(perspective: str | None) -> Colour:
    return Colour.BLUE if perspective == "blue" else Colour.RED


def square_box(name: str, perspective: str | None = None) -> tuple[int, int, int, int]:
    return box(parse_square(name), view(perspective))


def square_centre(name: str, perspective: str | None = None) -> tuple[int, int]:
    return centre(parse_square(name), view(perspective))


def colours_in(image: Image.Image, area: tuple[int, int, int, int]) -> Counter[RGB]:
    """How many pixels of each colour a rectangle holds."""
    region = image.crop(area)
    return Counter({colour: count for count, colour in region.getcolors(region.width * region.height) or []})
