"""Small anti-aliased RGBA pictures drawn once and pasted many times: tokens, links, marks.

Every sprite is cached, so a board costs a few dozen pastes. Directions are
screen directions (0 up, 1 right, 2 down, 3 left): a token's spear is drawn
pointing where its facing lands in the current perspective, its letter upright.
"""

from __future__ import annotations

import math

from PIL import Image, ImageFilter

from engine.nika.board import City
from render.canvas import Canvas, Point
from render.memo import built_once
from render.nika import colours as C
from render.nika.emblems import laurel
from render.nika.layout import CELL

TOKEN_RADIUS = 19.5
TOKEN_BACKSET = 2.5  # the disc sits this far behind the square's centre, away from its spear
SPEAR_REACH = 27.0  # from the square's centre to the spear tip: just inside the square
FRONT_CAP = 0.5  # the bronze front cap starts this fraction of the radius ahead of the disc's centre
LINK_WIDTH = 24
TRAY_TOKEN_RADIUS = 13.5
BADGE = 26  # corner seals: routed here, rallied here
CLEAR = (0, 0, 0, 0)
HALF = CELL / 2


def _turn(point: Point, quarter_turns: int, centre: Point = (HALF, HALF)) -> Point:
    """Rotate a point drawn for 'up' clockwise by quarter turns about the centre."""
    x, y = point[0] - centre[0], point[1] - centre[1]
    for _ in range(quarter_turns % 4):
        x, y = -y, x
    return (x + centre[0], y + centre[1])


def _soft_shadow(canvas: Canvas, draw: Canvas, radius: float) -> None:
    """Blur the shadow canvas in place (at its drawing scale) and keep it under `draw`."""
    canvas.image = canvas.image.filter(ImageFilter.GaussianBlur(radius * canvas.scale))
    canvas.image.alpha_composite(draw.image)


@built_once
def token(city: City, screen_facing: int) -> Image.Image:
    """A hoplite's shield (aspis) in its city colour with its initial, its front third
    bronze and a bronze spear point beyond that. The disc sits back from the square's
    centre so the spear has room: facing reads at a glance, and without colour vision."""
    size = (CELL, CELL)
    k = screen_facing
    centre = (HALF, HALF + TOKEN_BACKSET)  # drawn for facing up, then turned
    shadow = Canvas(size, CLEAR)
    sx, sy = _turn(centre, k)
    shadow.circle((sx + 0.8, sy + 2), TOKEN_RADIUS + 0.5, (0, 0, 0, 110))
    art = Canvas(size, CLEAR)
    base = centre[1] - TOKEN_RADIUS + 9
    half_width = 12.5
    outline = [
        (HALF, HALF - SPEAR_REACH - 2.4),
        (HALF + half_width + 2.4, base + 1.5),
        (HALF - half_width - 2.4, base + 1.5),
    ]
    spear = [(HALF, HALF - SPEAR_REACH), (HALF + half_width, base), (HALF - half_width, base)]
    art.polygon([_turn(p, k) for p in outline], C.INK)
    art.polygon([_turn(p, k) for p in spear], C.BRONZE)
    fill = C.CITY[city]
    art.circle((sx, sy), TOKEN_RADIUS + 1.6, C.INK)
    art.circle((sx, sy), TOKEN_RADIUS, fill)
    # The front of the shield: a bronze cap cut off by a chord, so the facing shows in the disc too.
    reach = math.acos(FRONT_CAP)
    arc = [
        (centre[0] + TOKEN_RADIUS * math.sin(a), centre[1] - TOKEN_RADIUS * math.cos(a))
        for a in (-reach + 2 * reach * i / 24 for i in range(25))
    ]
    art.polygon([_turn(p, k) for p in arc], C.BRONZE)
    art.line([_turn(arc[0], k), _turn(arc[-1], k)], C.INK, 1.2, round_joints=False)
    # The letter stays upright and moves off the cap, towards the back of the shield.
    lx, ly = _turn((centre[0], centre[1] + 2.2), k)
    art.text((lx, ly + 0.5), city.letter, 19, C.CITY_MARK[city], weight=800)
    _soft_shadow(shadow, art, 1.2)
    return shadow.result()


def shield(canvas: Canvas, centre: Point, radius: float, city: City, *, outline: float = 1.6) -> None:
    """A city's round shield with its initial; an inner rim where there is room for one."""
    fill, mark = C.CITY[city], C.CITY_MARK[city]
    canvas.circle(centre, radius + outline, C.INK)
    canvas.circle(centre, radius, fill)
    if radius >= 13:
        rim = max(3.2, radius * 0.13)
        canvas.circle(centre, radius - rim, None, outline=C.mix(fill, mark, 0.55), width=max(1.1, radius * 0.045))
    canvas.text((centre[0], centre[1] + radius * 0.03), city.letter, radius * 1.15, mark, weight=800)


@built_once
def tray_token(city: City) -> Image.Image:
    """A routed piece lying in its tray: a smaller shield, no spear."""
    size = (CELL, CELL)
    shadow = Canvas(size, CLEAR)
    shadow.circle((HALF + 0.6, HALF + 1.5), TRAY_TOKEN_RADIUS + 0.5, (0, 0, 0, 120))
    art = Canvas(size, CLEAR)
    shield(art, (HALF, HALF), TRAY_TOKEN_RADIUS, city)
    _soft_shadow(shadow, art, 1.0)
    return shadow.result()


@built_once
def link(city: City, vertical: bool) -> Image.Image:
    """The bar joining two pieces of a phalanx, centred on their shared edge, drawn under both."""
    length, thick = CELL + 8, LINK_WIDTH
    canvas = Canvas((length, thick + 4), CLEAR)
    canvas.rect((0, 2, length, thick + 2), C.INK, radius=thick / 2)
    canvas.rect((1.6, 3.6, length - 1.6, thick + 0.4), C.CITY[city], radius=thick / 2 - 1.6)
    sprite = canvas.result()
    return sprite.transpose(Image.Transpose.ROTATE_90) if vertical else sprite


@built_once
def square_fill(colour: C.RGB, alpha: int) -> Image.Image:
    """A translucent wash over a square (where a piece came from)."""
    canvas = Canvas((CELL, CELL), CLEAR)
    canvas.rect((2, 2, CELL - 2, CELL - 2), (*colour, alpha), radius=4)
    return canvas.result()


@built_once
def square_frame(colour: C.RGB) -> Image.Image:
    """A bold frame round a square (where a piece arrived or turned)."""
    canvas = Canvas((CELL, CELL), CLEAR)
    canvas.rect((1, 1, CELL - 1, CELL - 1), colour, radius=6)
    canvas.rect((4.5, 4.5, CELL - 4.5, CELL - 4.5), CLEAR, radius=3)
    return canvas.result()


@built_once
def ring(colour: C.RGB, radius: float) -> Image.Image:
    """A bold circle round a tray token (a piece routed by the last action)."""
    size = round(radius * 2 + 6)
    canvas = Canvas((size, size), CLEAR)
    canvas.circle((size / 2, size / 2), radius, None, outline=colour, width=2.6)
    return canvas.result()


@built_once
def arrow(colour: C.RGB, screen_direction: int) -> Image.Image:
    """A short fat arrow to centre on the edge a piece crossed, pointing the way it went."""
    size = (CELL, CELL)
    c = HALF
    body = [
        (c - 5, c + 12),
        (c - 5, c - 1),
        (c - 12, c - 1),
        (c, c - 14),
        (c + 12, c - 1),
        (c + 5, c - 1),
        (c + 5, c + 12),
    ]
    halo = Canvas(size, CLEAR)
    halo.polygon([_turn(p, screen_direction) for p in _grow(body, 2.4)], (*C.WHITE, 230))
    art = Canvas(size, CLEAR)
    art.polygon([_turn(p, screen_direction) for p in _grow(body, 1.2)], C.INK)
    art.polygon([_turn(p, screen_direction) for p in body], colour)
    halo.image.alpha_composite(art.image)
    return halo.result()


def _grow(points: list[Point], by: float) -> list[Point]:
    """A polygon pushed outwards by about `by` pixels (offset from its centroid; fine for convex-ish shapes)."""
    cx = sum(p[0] for p in points) / len(points)
    cy = sum(p[1] for p in points) / len(points)
    grown = []
    for x, y in points:
        d = math.hypot(x - cx, y - cy) or 1
        grown.append((x + (x - cx) / d * by, y + (y - cy) / d * by))
    return grown


@built_once
def rout_ghost(city: City) -> Image.Image:
    """Where a routed piece fell, now empty: the outline of its shield, struck through."""
    canvas = Canvas((CELL, CELL), CLEAR)
    canvas.circle((HALF, HALF), TOKEN_RADIUS, (*C.CITY[city], 110), outline=(*C.INK, 150), width=1.5)
    _cross(canvas, (HALF, HALF), 13, 5.5)
    return canvas.result()


@built_once
def rout_badge() -> Image.Image:
    """A small struck-through seal for the corner of a square where a piece was routed but
    another now stands."""
    canvas = Canvas((BADGE, BADGE), CLEAR)
    middle = BADGE / 2
    canvas.circle((middle, middle), middle - 1, C.WHITE)
    canvas.circle((middle, middle), middle - 2.6, C.ROUT)
    _cross(canvas, (middle, middle), middle * 0.42, 2.8, colour=C.WHITE, halo=False)
    return canvas.result()


def _cross(
    canvas: Canvas, centre: Point, arm: float, width: float, *, colour: C.RGB = C.ROUT, halo: bool = True
) -> None:
    x, y = centre
    strokes = [[(x - arm, y - arm), (x + arm, y + arm)], [(x - arm, y + arm), (x + arm, y - arm)]]
    if halo:
        for stroke in strokes:
            canvas.line(stroke, C.WHITE, width + 3)
    for stroke in strokes:
        canvas.line(stroke, colour, width)


@built_once
def rally_badge() -> Image.Image:
    """'New on the board': a green seal with a plus, for the corner of a rallied piece's square."""
    canvas = Canvas((BADGE, BADGE), CLEAR)
    middle = BADGE / 2
    arm, half = middle * 0.55, 1.6
    canvas.circle((middle, middle), middle - 1, C.WHITE)
    canvas.circle((middle, middle), middle - 2.6, C.RALLY_MARK)
    canvas.rect((middle - half, middle - arm, middle + half, middle + arm), C.WHITE, radius=1)
    canvas.rect((middle - arm, middle - half, middle + arm, middle + half), C.WHITE, radius=1)
    return canvas.result()


@built_once
def victory_wreath() -> Image.Image:
    """A golden wreath behind the piece that won."""
    canvas = Canvas((CELL, CELL), CLEAR)
    laurel(canvas, (HALF, HALF + 1), 22, C.BRONZE, leaves=7)
    return canvas.result()
