"""Classical ornaments drawn on a `Canvas`: laurel wreath, rod and snake, Greek key."""

from __future__ import annotations

import itertools
import math

from render.canvas import Canvas, Colour, Point


def _leaf(centre: Point, angle: float, length: float, width: float) -> list[Point]:
    """A pointed leaf (two circular arcs) centred on `centre`, its long axis at `angle`."""
    cx, cy = centre
    ux, uy = math.cos(angle), math.sin(angle)
    vx, vy = -uy, ux
    points: list[Point] = []
    steps = 8
    for side in (1, -1):
        for i in range(steps + 1):
            t = i / steps if side == 1 else 1 - i / steps
            along = (t - 0.5) * length
            across = side * math.sin(math.pi * t) * width / 2
            points.append((cx + ux * along + vx * across, cy + uy * along + vy * across))
    return points


def laurel(canvas: Canvas, centre: Point, radius: float, colour: Colour, *, leaves: int = 6) -> None:
    """A victor's wreath: two leafy branches meeting at the bottom, open at the top."""
    cx, cy = centre
    leaf_length, leaf_width = radius * 0.62, radius * 0.30
    for side in (-1, 1):
        # Angles measured from straight down, sweeping up each side.
        stem = [
            (cx + side * radius * math.sin(a), cy + radius * math.cos(a))
            for a in (math.radians(10 + 150 * i / 12) for i in range(13))
        ]
        canvas.line(stem, colour, radius * 0.09)
        for i in range(leaves):
            a = math.radians(28 + 128 * i / (leaves - 1))
            for offset in (-1, 1):  # leaves in pairs, one inside the stem and one outside
                r = radius + offset * leaf_width * 0.55
                px, py = cx + side * r * math.sin(a), cy + r * math.cos(a)
                tangent = math.atan2(-math.sin(a), side * math.cos(a))  # along the stem, pointing up
                tilt = tangent + side * offset * 0.45
                canvas.polygon(
                    _leaf(
                        (px + math.cos(tilt) * leaf_length * 0.3, py + math.sin(tilt) * leaf_length * 0.3),
                        tilt,
                        leaf_length,
                        leaf_width,
                    ),
                    colour,
                )
    canvas.circle((cx, cy + radius), radius * 0.12, colour)


def rod_and_snake(canvas: Canvas, centre: Point, height: float, staff: Colour, snake: Colour) -> None:
    """The rally areas' symbol: a staff with one snake coiled around it (rod of Asclepius)."""
    cx, cy = centre
    top, bottom = cy - height / 2, cy + height / 2
    thick = height * 0.075
    canvas.line([(cx, top + thick), (cx, bottom)], staff, thick)
    canvas.circle((cx, top + thick * 0.9), thick * 0.95, staff)
    amplitude = height * 0.16
    body = thick * 0.85
    coil_top, coil_bottom = top + height * 0.24, bottom - height * 0.1
    turns = 2.25
    points = [
        (cx + amplitude * math.sin(2 * math.pi * turns * t), coil_bottom - (coil_bottom - coil_top) * t)
        for t in (i / 60 for i in range(61))
    ]
    canvas.line(points, snake, body)
    hx, hy = points[-1]
    canvas.ellipse((hx - body * 1.3, hy - body * 1.0, hx + body * 1.1, hy + body * 0.9), snake)
    canvas.line([points[0], (points[0][0] - body * 0.8, points[0][1] + body * 0.9)], snake, body * 0.55)


def meander_frame(canvas: Canvas, box: tuple[float, float, float, float], unit: float, colour: Colour) -> None:
    """A Greek key border 7 units deep just inside `box`, with a square set in each corner."""
    left, top, right, bottom = box
    x0, y0, x1, y1 = left + 1 * unit, top + 1 * unit, right - 1 * unit, bottom - 1 * unit
    stroke = unit * 0.95
    half = stroke / 2
    outer = (x0 - 0.5 * unit - half, y0 - 0.5 * unit - half, x1 + 0.5 * unit + half, y1 + 0.5 * unit + half)
    inner = (x0 + 5.5 * unit - half, y0 + 5.5 * unit - half, x1 - 5.5 * unit + half, y1 - 5.5 * unit + half)
    canvas.rect(outer, None, outline=colour, width=stroke)
    canvas.rect(inner, None, outline=colour, width=stroke)
    corner = 6 * unit
    for cx, cy in ((x0, y0), (x1 - 5 * unit, y0), (x0, y1 - 5 * unit), (x1 - 5 * unit, y1 - 5 * unit)):
        canvas.rect((cx + 1.5 * unit, cy + 1.5 * unit, cx + 3.5 * unit, cy + 3.5 * unit), colour)
    width, height = x1 - x0, y1 - y0
    _hooks(canvas, (x0 + corner, y0), width - 2 * corner, unit, colour, side=1)
    _hooks(canvas, (x1, y0 + corner), height - 2 * corner, unit, colour, side=2)
    _hooks(canvas, (x1 - corner, y1), width - 2 * corner, unit, colour, side=3)
    _hooks(canvas, (x0, y1 - corner), height - 2 * corner, unit, colour, side=0)


def meander_band(canvas: Canvas, start: Point, length: float, unit: float, colour: Colour) -> None:
    """A straight run of Greek key between two rules, 7 units tall, from `start` rightwards."""
    x, y = start
    stroke = unit * 0.95
    for t in (-0.5, 5.5):
        canvas.rect((x, y + t * unit - stroke / 2, x + length, y + t * unit + stroke / 2), colour)
    _hooks(canvas, (x, y), length, unit, colour, side=1)


def _hooks(canvas: Canvas, start: Point, length: float, unit: float, colour: Colour, *, side: int) -> None:
    """The key's hooks along one side, running from `start` towards screen direction `side`
    (0 up, 1 right, 2 down, 3 left) and hanging on the clockwise side of that run, so that
    going round a rectangle clockwise they always lie inside."""
    sx, sy = start
    run = ((0, -1), (1, 0), (0, 1), (-1, 0))[side]
    across = (-run[1], run[0])

    def at(s: float, t: float) -> Point:
        return (sx + run[0] * s * unit + across[0] * t * unit, sy + run[1] * s * unit + across[1] * t * unit)

    period = 6
    count = max(1, int(length / unit + 2) // period)
    margin = (length / unit - count * period + 2) / 2
    half = unit * 0.48
    for i in range(count):
        s0 = margin + i * period
        points = [(s0 + a, b) for a, b in ((0, 5.5), (0, 1.5), (4, 1.5), (4, 4), (2, 4), (2, 3))]
        # Axis-aligned strokes as rectangles: square corners, as carved.
        for (s1, t1), (s2, t2) in itertools.pairwise(points):
            (xa, ya), (xb, yb) = at(s1, t1), at(s2, t2)
            canvas.rect((min(xa, xb) - half, min(ya, yb) - half, max(xa, xb) + half, max(ya, yb) + half), colour)
