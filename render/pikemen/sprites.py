"""Pieces and marks, drawn once (anti-aliased) and pasted many times.

A pikeman is a pyramid seen from above. Lying flat it is a long triangle whose tip is
where it points, split by its ridge into a lit and a shaded face: an arrow that reads in
all eight directions even small. Standing upright it is a square with four faces meeting
at the apex and nested squares stepping up to it, the classic look of a pyramid from
above. Size shows three ways: the piece's extent, its pips (1–3 dots on a lying piece,
1–3 nested squares on a standing one) and, in the panel, words. Every piece carries its
seat's sign (a cross, diamond, star or bar), upright whatever the perspective.
"""

from __future__ import annotations

import math

from PIL import Image, ImageFilter

from render import badges
from render.canvas import Canvas, Point
from render.memo import built_once
from render.pikemen import colours as C
from render.pikemen.layout import CELL

CLEAR = (0, 0, 0, 0)
SPRITE = CELL + 24  # sprites overhang their square a little (long diagonals, shadows); pasted centred
HALF = SPRITE / 2
LIGHT = (-0.6, -0.8)  # screen direction the light comes from (top left, mostly above)
# Lying pieces: (length from tip to base, width of the base), in cells.
FLAT_SHAPE = {1: (0.60, 0.38), 2: (0.74, 0.46), 3: (0.88, 0.54)}
DIAGONAL_SHIFT = 0.07  # diagonal pieces sit this far (in cells) toward their tip: the corner has room
# Standing pieces: side of the base square, in cells.
UPRIGHT_SIDE = {1: 0.50, 2: 0.64, 3: 0.78}
SIGN_SIZE = {1: 11.0, 2: 13.0, 3: 15.0}  # the seat's sign across, by size
OUTLINE = 1.7


def _turn(point: Point, eighths: int) -> Point:
    """Rotate a point drawn for 'up' clockwise about the cell centre by eighths of a turn."""
    angle = math.pi / 4 * eighths
    x, y = point[0] - HALF, point[1] - HALF
    cos, sin = math.cos(angle), math.sin(angle)
    return (HALF + x * cos - y * sin, HALF + x * sin + y * cos)


def _lit(normal: tuple[float, float]) -> float:
    """How much a face whose outward normal is `normal` faces the light, -1 to 1."""
    length = math.hypot(*normal) or 1.0
    return (normal[0] * LIGHT[0] + normal[1] * LIGHT[1]) / length


def _shadowed(art: Canvas, outline: list[Point], blur: float = 1.6, offset: Point = (1.2, 2.2)) -> Image.Image:
    """The drawing over a soft drop shadow of `outline`. The shadow is drawn and blurred at the
    final size: the blur hides its hard edges, and blurring the big drawing costs 30 times more."""
    shadow = Canvas(art.size, CLEAR, scale=1)
    shadow.polygon([(x + offset[0], y + offset[1]) for x, y in outline], (0, 0, 0, 105))
    picture = shadow.image.filter(ImageFilter.GaussianBlur(blur))
    picture.alpha_composite(art.result())
    return picture


def _grow(points: list[Point], by: float) -> list[Point]:
    """A convex polygon pushed outwards by about `by` pixels along each vertex's bisector."""
    grown = []
    count = len(points)
    for i, (x, y) in enumerate(points):
        (ax, ay), (bx, by_) = points[i - 1], points[(i + 1) % count]
        u = (x - ax, y - ay)
        v = (bx - x, by_ - y)
        nu = _unit((u[1], -u[0]))
        nv = _unit((v[1], -v[0]))
        bis = _unit((nu[0] + nv[0], nu[1] + nv[1]))
        cos_half = max(0.2, bis[0] * nu[0] + bis[1] * nu[1])
        grown.append((x + bis[0] * by / cos_half, y + bis[1] * by / cos_half))
    return grown


def _unit(v: tuple[float, float]) -> tuple[float, float]:
    length = math.hypot(*v) or 1.0
    return (v[0] / length, v[1] / length)


@built_once
def flat(seat: str, size: int, screen: int) -> Image.Image:
    """A lying piece of `seat` pointing in screen direction `screen` (eighths clockwise from up)."""
    length, width = (v * CELL for v in FLAT_SHAPE[size])
    shift = DIAGONAL_SHIFT * CELL if screen % 2 else 0.0
    tip = (HALF, HALF - length / 2 - shift)
    base_y = HALF + length / 2 - shift
    left, right, middle = (HALF - width / 2, base_y), (HALF + width / 2, base_y), (HALF, base_y - width * 0.16)
    fill = C.SEAT[seat]
    art = Canvas((SPRITE, SPRITE), CLEAR)
    body = [_turn(p, screen) for p in (tip, right, left)]  # clockwise: tip, right corner, left corner
    art.polygon(_grow(body, OUTLINE), C.INK)
    # The base, tilted up at the back, in shadow.
    art.polygon([_turn(p, screen) for p in (left, middle, right)], C.shade(fill, -0.42))
    # The two visible faces, lit or shaded by where they face on the screen.
    for corner, sign in ((left, -1.0), (right, 1.0)):
        normal = _rotate_vector((sign, -width / length), screen)
        face = [_turn(p, screen) for p in (tip, corner, middle)]
        art.polygon(face, C.shade(fill, 0.30 * _lit(normal)))
    ridge = [_turn(tip, screen), _turn(middle, screen)]
    art.line(ridge, C.shade(fill, -0.45), 1.1, round_joints=False)
    # Pips near the base, one per point of size.
    pip_y = base_y - width * 0.30
    for i in range(size):
        offset = (i - (size - 1) / 2) * width * 0.24
        centre = _turn((HALF + offset, pip_y + abs(offset) * 0.25), screen)
        art.circle(centre, 2.4 + 0.2 * size, C.SEAT_MARK[seat])
    # The seat's sign, upright, in the broad part of the triangle.
    sign_at = _turn((HALF, HALF + length * 0.05 - shift), screen)
    seat_sign(art, sign_at, seat, SIGN_SIZE[size] * 0.85)
    return _shadowed(art, _grow(body, OUTLINE))


def seat_sign(canvas: Canvas, centre: Point, seat: str, size: float, colour: C.RGB | None = None) -> None:
    """The seat's sign, `size` pixels across: a shape, not a letter, so it needs no language
    (Spanish's Amarillo and Azul share an initial) and tells the seats apart without colour.
    None is round or a triangle, which the pips and the pieces themselves are."""
    x, y = centre
    ink = colour or C.SEAT_MARK[seat]
    r = size / 2
    kind = C.SEAT_SIGN[seat]
    if kind == "cross":
        bar = r * 0.34
        canvas.rect((x - r, y - bar, x + r, y + bar), ink, radius=bar * 0.5)
        canvas.rect((x - bar, y - r, x + bar, y + r), ink, radius=bar * 0.5)
    elif kind == "diamond":
        canvas.polygon([(x, y - r * 1.08), (x + r * 0.8, y), (x, y + r * 1.08), (x - r * 0.8, y)], ink)
    elif kind == "star":
        points = []
        for i in range(10):
            reach = r * 1.1 if i % 2 == 0 else r * 0.45
            angle = math.pi / 5 * i - math.pi / 2
            points.append((x + reach * math.cos(angle), y + 0.06 * r + reach * math.sin(angle)))
        canvas.polygon(points, ink)
    else:  # a bar
        bar = r * 0.4
        canvas.rect((x - r * 1.05, y - bar, x + r * 1.05, y + bar), ink, radius=bar * 0.6)


def _rotate_vector(v: tuple[float, float], eighths: int) -> tuple[float, float]:
    angle = math.pi / 4 * eighths
    cos, sin = math.cos(angle), math.sin(angle)
    return (v[0] * cos - v[1] * sin, v[0] * sin + v[1] * cos)


@built_once
def upright(seat: str, size: int) -> Image.Image:
    """A standing piece of `seat`: the square base, four faces to the apex, and `size`
    nested squares stepping up it."""
    side = UPRIGHT_SIDE[size] * CELL
    h = side / 2
    corners = [(HALF - h, HALF - h), (HALF + h, HALF - h), (HALF + h, HALF + h), (HALF - h, HALF + h)]
    apex = (HALF, HALF)
    fill = C.SEAT[seat]
    art = Canvas((SPRITE, SPRITE), CLEAR)
    art.rect((HALF - h - OUTLINE, HALF - h - OUTLINE, HALF + h + OUTLINE, HALF + h + OUTLINE), C.INK, radius=2.5)
    normals = [(0, -1), (1, 0), (0, 1), (-1, 0)]  # top, right, bottom, left faces
    for i, normal in enumerate(normals):
        face = [corners[i], corners[(i + 1) % 4], apex]
        art.polygon(face, C.shade(fill, 0.30 * _lit(normal)))
    edge = C.shade(fill, -0.45)
    for corner in corners:
        art.line([corner, apex], edge, 1.0, round_joints=False)
    # Nested squares: the steps of the pyramid, one per point of size.
    mark = C.SEAT_MARK[seat]
    for step in range(size):
        inset = h * (0.30 + 0.17 * step) if size > 1 else h * 0.32
        s = h - inset
        art.rect((HALF - s, HALF - s, HALF + s, HALF + s), None, outline=(*C.shade(fill, -0.5), 255), width=1.1)
    plate = h * 0.48 if size > 1 else h * 0.56
    art.rect((HALF - plate, HALF - plate, HALF + plate, HALF + plate), fill, radius=2, outline=C.shade(fill, -0.5),
             width=1.1)  # fmt: skip
    seat_sign(art, (HALF, HALF), seat, SIGN_SIZE[size], mark)
    outline = [(x + (OUTLINE if x > HALF else -OUTLINE), y + (OUTLINE if y > HALF else -OUTLINE)) for x, y in corners]
    return _shadowed(art, outline)


# --- marks of the last move --------------------------------------------------------------

BADGE = 26  # the corner seals: captured here, turned here


@built_once
def square_wash(colour: C.RGB, alpha: int) -> Image.Image:
    """A translucent wash over a whole square (where the piece came from)."""
    canvas = Canvas((CELL, CELL), CLEAR)
    canvas.rect((0, 0, CELL, CELL), (*colour, alpha))
    return canvas.result()


@built_once
def square_frame(colour: C.RGB) -> Image.Image:
    """A bold frame inside a square (where the piece arrived or turned)."""
    canvas = Canvas((CELL, CELL), CLEAR)
    canvas.rect((1.5, 1.5, CELL - 1.5, CELL - 1.5), colour, radius=5)
    canvas.rect((6, 6, CELL - 6, CELL - 6), CLEAR, radius=2)
    return canvas.result()


@built_once
def trail_dot(size: float) -> Image.Image:
    """One dot of the trail a charge leaves: dots every half square from the square it left."""
    side = math.ceil(size * 2 + 4)
    canvas = Canvas((side, side), CLEAR)
    canvas.circle((side / 2, side / 2), size, (*C.PATH, 225), outline=(*C.WHITE, 200), width=1.4)
    return canvas.result()


@built_once
def capture_badge() -> Image.Image:
    """A red seal with a white cross, on the corner of the square where a piece was taken."""
    canvas = Canvas((BADGE, BADGE), CLEAR)
    middle = BADGE / 2
    canvas.circle((middle, middle), middle - 0.5, C.WHITE)
    canvas.circle((middle, middle), middle - 2.4, C.CAPTURE)
    arm = middle * 0.40
    for stroke in ([(middle - arm, middle - arm), (middle + arm, middle + arm)],
                   [(middle - arm, middle + arm), (middle + arm, middle - arm)]):  # fmt: skip
        canvas.line(stroke, C.WHITE, 3.0)
    return canvas.result()


PATH_WIDTH = 4.0  # an earlier charge's trail, in its seat's colour, inside an ink edge


@built_once
def path_start(seat: str) -> Image.Image:
    """Where an earlier charge began: a ring in its seat's colour, edged in ink to show on any square."""
    radius = 7.5
    side = math.ceil(radius * 2 + 8)
    canvas = Canvas((side, side), CLEAR)
    middle = (side / 2, side / 2)
    canvas.circle(middle, radius, None, outline=C.INK, width=PATH_WIDTH + 2.6)
    canvas.circle(middle, radius, None, outline=C.SEAT[seat], width=PATH_WIDTH)
    return canvas.result()


@built_once
def path_step(seat: str, screen: int, *, edge: bool) -> Image.Image:
    """Half a square of an earlier charge's trail, centred, along screen direction `screen`
    (eighths): its ink `edge`, or its colour. Pasted end to end, every edge before any colour,
    they draw the charge as one line."""
    reach = CELL / 4 * (math.sqrt(2) if screen % 2 else 1.0)
    ends = [_turn((HALF, HALF - reach), screen), _turn((HALF, HALF + reach), screen)]
    canvas = Canvas((SPRITE, SPRITE), CLEAR)
    if edge:
        canvas.line(ends, C.INK, PATH_WIDTH + 2.6)
    else:
        canvas.line(ends, C.SEAT[seat], PATH_WIDTH)
    sprite = canvas.result()
    return sprite.crop(sprite.getbbox())


@built_once
def path_head(seat: str, screen: int) -> Image.Image:
    """The arrowhead of an earlier charge's trail, pointing where it went (screen eighths)."""
    body = [(HALF, HALF - 10.0), (HALF + 9.0, HALF + 6.0), (HALF, HALF + 2.5), (HALF - 9.0, HALF + 6.0)]
    canvas = Canvas((SPRITE, SPRITE), CLEAR)
    canvas.polygon([_turn(p, screen) for p in _grow(body, 1.5)], C.INK)
    canvas.polygon([_turn(p, screen) for p in body], C.SEAT[seat])
    sprite = canvas.result()
    return sprite.crop(sprite.getbbox())


@built_once
def number_badge(seat: str, number: int, *, latest: bool) -> Image.Image:
    """A move's number on a disc of the moving seat's colour (render/badges.py)."""
    return badges.number_badge(number, C.SEAT[seat], C.SEAT_MARK[seat], ink=C.INK, ring=C.TO_FRAME, latest=latest)


@built_once
def turn_badge() -> Image.Image:
    """A blue seal with a turning arrow, on the corner of a square whose piece turned."""
    canvas = Canvas((BADGE, BADGE), CLEAR)
    middle = BADGE / 2
    canvas.circle((middle, middle), middle - 0.5, C.WHITE)
    canvas.circle((middle, middle), middle - 2.4, C.TURN)
    radius = middle * 0.46
    arc = [
        (middle + radius * math.cos(math.radians(a)), middle + radius * math.sin(math.radians(a)))
        for a in range(-200, 80, 14)
    ]
    canvas.line(arc, C.WHITE, 2.6)
    tip = arc[-1]
    canvas.polygon([(tip[0] + 5.0, tip[1] - 3.6), (tip[0] - 3.6, tip[1] + 4.4), (tip[0] - 4.4, tip[1] - 4.2)], C.WHITE)
    return canvas.result()


@built_once
def icon(seat: str) -> Image.Image:
    """A seat's standing large piece, small, for its score card."""
    sprite = upright(seat, 3)
    size = round(sprite.width * 0.62)
    return sprite.resize((size, size), Image.Resampling.LANCZOS)
