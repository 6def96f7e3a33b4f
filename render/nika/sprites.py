"""Small anti-aliased RGBA pictures drawn once and pasted many times: tokens, links, marks.

Every sprite is cached, so a board costs a few dozen pastes. Directions are
screen directions (0 up, 1 right, 2 down, 3 left): a token's spear is drawn
pointing where its facing lands in the current perspective, its city sign lying along its back.
"""

from __future__ import annotations

import itertools
import math

from PIL import Image, ImageChops, ImageFilter

from engine.i18n import M
from engine.nika.board import City
from render import badges, fonts
from render.canvas import Canvas, Point
from render.memo import built_once
from render.nika import colours as C
from render.nika.emblems import laurel
from render.nika.layout import CELL

TOKEN_RADIUS = 21.0
TOKEN_BACKSET = 1.5  # the disc sits this far behind the square's centre, so the spear tip fits in the square
# The spearhead across the shield, from the disc's centre (drawn facing up): its tip pokes out past the
# rim, its barbs reach most of the way to the sides and its notch stops just behind the centre, so at a
# phone's third of the size the front of every token is bronze and the back its city colour.
SPEAR_TIP = TOKEN_RADIUS + 4.5
SPEAR_BARB = 5.0  # how far behind the centre the barbs reach
SPEAR_HALF_WIDTH = 14.0
SPEAR_NOTCH = -1.0
LINK_WIDTH = 24
TRAY_TOKEN_RADIUS = 13.5
BADGE = 26  # corner seals: routed here, rallied here
# Numbered badges of recent actions, larger than the shared size: a board 21 squares wide shows
# at a third of its size on a phone, where their digits must still read.
BADGE_SCALE = 1.4
BADGE_RADIUS = badges.RADIUS * BADGE_SCALE
BADGE_LATEST_RADIUS = badges.LATEST_RADIUS * BADGE_SCALE
LATEST_RING = badges.RING  # the orange ring round the latest action's badge reaches this far out
PASS_WORD = 38  # the width a pass tag adds to its numbers' discs
PASS_DISC_OVERLAP = 17  # a pass tag's discs, when it has several, overlap a little (their sprites have margins)
HATCH_PERIOD = 9
HATCH_WIDTH = 3.6
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


def _spearhead(tip: float, barb: float, half_width: float, notch: float) -> list[Point]:
    """A spearhead pointing up from (0, 0): curved flanks from the tip out to the barbs, a notch between."""
    steps = 10
    flank = [
        (half_width * math.sin(t * math.pi / 2) ** 0.7, -tip + (barb + tip) * t)
        for t in (i / steps for i in range(steps + 1))
    ]
    return [*flank, (0.0, notch), *[(-x, y) for x, y in reversed(flank)]]


# Each city's sign on its shields, the same in every language (the letters of its name are not:
# S for Sparta, E for Esparta) and bold enough to tell the cities apart where a phone shows the
# board at a third of its size: in the crescent behind the spearhead that is a strip some 5 px
# high, where only blobs read. So the signs are counts: one dot, two, three, and a bar. Sizes are
# for a token; a shield scales them. Each is (x, y, half-width, half-height) pills about the centre.
SIGNS: dict[City, tuple[tuple[float, float, float, float], ...]] = {
    City.ATHENS: ((0.0, 0.0, 6.0, 6.0),),
    City.MESSENE: ((-7.2, 0.0, 4.6, 4.6), (7.2, 0.0, 4.6, 4.6)),
    City.SPARTA: ((0.0, 0.0, 10.6, 3.4),),
    City.THEBES: ((-10.4, 0.0, 3.7, 3.7), (0.0, 0.0, 3.7, 3.7), (10.4, 0.0, 3.7, 3.7)),
}
SIGN_Y = 12.6  # the sign's centre behind the disc's centre, on a token (drawn facing up)


def sign(canvas: Canvas, centre: Point, city: City, colour: C.RGB, scale: float = 1.0, quarter_turns: int = 0) -> None:
    """A city's sign at `centre`, `scale` times a token's, turned clockwise by quarter turns."""
    for x, y, half_w, half_h in SIGNS[city]:
        hw, hh = (half_w, half_h) if quarter_turns % 2 == 0 else (half_h, half_w)
        px, py = (x, y) if quarter_turns % 2 == 0 else (y, x)
        cx, cy = centre[0] + px * scale, centre[1] + py * scale
        radius = min(hw, hh) * scale
        canvas.rect((cx - hw * scale, cy - hh * scale, cx + hw * scale, cy + hh * scale), colour, radius=radius)


@built_once
def token(city: City, screen_facing: int) -> Image.Image:
    """A hoplite's shield (aspis) in its city colour with a bronze spearhead across it, pointing
    where the piece faces, and the city's sign behind the spearhead. The facing reads from
    the shape alone (without colour vision) and stays readable when Discord shrinks the board."""
    size = (CELL, CELL)
    k = screen_facing
    cx, cy = HALF, HALF + TOKEN_BACKSET  # drawn for facing up, then turned
    shadow = Canvas(size, CLEAR)
    sx, sy = _turn((cx, cy), k)
    shadow.circle((sx + 0.8, sy + 2), TOKEN_RADIUS + 0.5, (0, 0, 0, 110))
    art = Canvas(size, CLEAR)
    art.circle((sx, sy), TOKEN_RADIUS + 1.6, C.INK)
    art.circle((sx, sy), TOKEN_RADIUS, C.CITY[city])
    edge = _spearhead(SPEAR_TIP + 2.2, SPEAR_BARB + 1.6, SPEAR_HALF_WIDTH + 1.8, SPEAR_NOTCH + 1.6)
    blade = _spearhead(SPEAR_TIP, SPEAR_BARB, SPEAR_HALF_WIDTH, SPEAR_NOTCH)
    art.polygon([_turn((cx + x, cy + y), k) for x, y in edge], C.INK)
    art.polygon([_turn((cx + x, cy + y), k) for x, y in blade], C.BRONZE)
    art.line([_turn((cx, cy - TOKEN_RADIUS - 1), k), _turn((cx, cy + SPEAR_NOTCH + 1.5), k)], C.BRONZE_DARK, 1.6)
    # The city's sign in the crescent behind the notch, turned with the token to lie along it.
    sign(art, _turn((cx, cy + SIGN_Y), k), city, C.CITY_MARK[city], quarter_turns=k)
    _soft_shadow(shadow, art, 1.2)
    return shadow.result()


def shield(canvas: Canvas, centre: Point, radius: float, city: City, *, outline: float = 1.6) -> None:
    """A city's round shield with its sign; an inner rim where there is room for one."""
    fill, mark = C.CITY[city], C.CITY_MARK[city]
    canvas.circle(centre, radius + outline, C.INK)
    canvas.circle(centre, radius, fill)
    if radius >= 13:
        rim = max(3.2, radius * 0.13)
        canvas.circle(centre, radius - rim, None, outline=C.mix(fill, mark, 0.55), width=max(1.1, radius * 0.045))
    sign(canvas, centre, city, mark, scale=radius / 16.0)


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
def square_hatch(colour: C.RGB, alpha: int) -> Image.Image:
    """Diagonal stripes over a square: where an earlier action's pieces came from. Stripes, not a
    fainter wash, because a faint wash over a coloured square looks like another region's tint."""
    stripes = Canvas((CELL, CELL), CLEAR)
    for start in range(-CELL, CELL, HATCH_PERIOD):
        stripes.line([(start, CELL), (start + CELL, 0)], (*colour, alpha), HATCH_WIDTH, round_joints=False)
    shape = Canvas((CELL, CELL), CLEAR)
    shape.rect((2, 2, CELL - 2, CELL - 2), (255, 255, 255, 255), radius=4)
    hatch = stripes.result()
    hatch.putalpha(ImageChops.multiply(hatch.getchannel("A"), shape.result().getchannel("A")))
    return hatch


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
    laurel(canvas, (HALF, HALF + 1), 24.5, C.BRONZE, leaves=7)  # peeks out round the larger shield
    return canvas.result()


@built_once
def number_badge(city: City, number: int, *, latest: bool) -> Image.Image:
    """An action's number on a small shield of the acting city's colour (render/badges.py)."""
    return badges.number_badge(number, C.CITY[city], C.CITY_MARK[city], ink=C.INK, ring=C.TO_FRAME, latest=latest,
                               scale=BADGE_SCALE)  # fmt: skip


@built_once
def pass_tag(city: City, numbers: tuple[int, ...], *, latest: bool) -> Image.Image:
    """'3 4 PASS': a pass changes nothing on the board, so a city's passes share one tag beside its
    tray: the numbers' discs at the left (the last one ringed if `latest`), then the word, which
    takes PASS_WORD more (a longer word in another language is drawn smaller)."""
    discs = [number_badge(city, number, latest=latest and index == len(numbers) - 1)
             for index, number in enumerate(numbers)]  # fmt: skip
    height = max(disc.height for disc in discs)
    lefts = [0]
    for before, after in itertools.pairwise(discs):  # neighbouring discs just touch
        lefts.append(lefts[-1] + before.width // 2 + after.width // 2 - PASS_DISC_OVERLAP)
    span = lefts[-1] + discs[-1].width
    width = span + PASS_WORD
    canvas = Canvas((width, height), CLEAR)
    middle = height / 2
    canvas.rect((discs[0].width / 2, middle - 8.5, width - 1, middle + 8.5), C.INK, radius=8.5)
    canvas.rect((discs[0].width / 2 + 1.2, middle - 7.3, width - 2.2, middle + 7.3), C.PANEL, radius=7.3)
    word = str(M("PASS"))
    size = min(11, (PASS_WORD - 8) * 100 / fonts.display(100, 800).getlength(word))
    canvas.text((span + PASS_WORD / 2 - 3, middle + 0.5), word, size, C.INK, weight=800)
    tag = canvas.result()
    for disc, left in zip(discs, lefts, strict=True):
        tag.alpha_composite(disc, (left, (height - disc.height) // 2))
    return tag


@built_once
def thin_frame(city: City) -> Image.Image:
    """Where an earlier action's pieces arrived or turned: a slim frame in the acting city's
    colour between two ink lines (so white Athens shows on its own pale squares)."""
    canvas = Canvas((CELL, CELL), CLEAR)
    canvas.rect((2, 2, CELL - 2, CELL - 2), C.INK, radius=5)
    canvas.rect((3, 3, CELL - 3, CELL - 3), C.CITY[city], radius=4.5)
    canvas.rect((5.6, 5.6, CELL - 5.6, CELL - 5.6), C.INK, radius=3)
    canvas.rect((6.6, 6.6, CELL - 6.6, CELL - 6.6), CLEAR, radius=2.5)
    return canvas.result()
