"""Numbered badges of recent actions, shared by the games that number them (each seat's moves
since the viewer's previous turn): a disc in the mover's colour with its number, the latest one larger and
ringed in the arrival frame's colour, so it stands out among the others."""

from __future__ import annotations

from PIL import Image

from render.canvas import Canvas

RGB = tuple[int, int, int]
RADIUS = 10.5
LATEST_RADIUS = 12.0
RING = 3.8  # the ring round the latest action's badge reaches this far out
CLEAR = (0, 0, 0, 0)


def number_badge(
    number: int, fill: RGB, mark: RGB, *, ink: RGB, ring: RGB, latest: bool, scale: float = 1.0
) -> Image.Image:
    """`number` in `mark` on a `fill` disc outlined in `ink`; the latest ringed in `ring`. A game
    whose squares are small on a phone draws them `scale` times larger."""
    radius = (LATEST_RADIUS if latest else RADIUS) * scale
    size = round(2 * (radius + RING) + 6)
    middle = size / 2
    canvas = Canvas((size, size), CLEAR)
    if latest:
        canvas.circle((middle, middle), radius + RING + 0.9, ink)
        canvas.circle((middle, middle), radius + RING, ring)
    canvas.circle((middle, middle), radius + 1.4, ink)
    canvas.circle((middle, middle), radius, fill)
    digits = str(number)
    text_size = radius * (1.25 if len(digits) == 1 else 0.98)
    heavy = 0.35 + 2 * (scale - 1)  # larger badges are for small pictures: their digits bolder too
    canvas.text((middle, middle + 0.6), digits, text_size, mark, mark=True, stroke=heavy, stroke_fill=mark)
    return canvas.result()
