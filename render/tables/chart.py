"""A player's rating history as a small chart, for `/<game> stats user:`.

The line is the value players see after each rated match (the conservative one); the
lighter band above it reaches the estimate itself, so a newcomer's wide band narrows as the
system grows sure of them. The caller gives the numbers and words; this module draws them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image

from engine.i18n import P
from render.api import ALT_TEXT_MAX, RenderedBoard
from render.canvas import Canvas
from render.encode import png_bytes
from render.memo import DRAWING
from render.tables import style as S

WIDTH, HEIGHT = 640, 300
SCALE = 2
PLOT = (78, 84, WIDTH - 28, HEIGHT - 48)  # left, top, right, bottom
STEPS = (10, 20, 25, 50, 100, 200, 250, 500, 1000)


@dataclass(frozen=True, slots=True)
class RatingChart:
    title: str  # "Ana · Nika"
    current: str  # the value now, as shown ("1432", or "1102?" while provisional)
    shown: tuple[int, ...]  # the shown value at the start and after each rated match
    estimates: tuple[int, ...]  # the estimate (μ on the shown scale) at the same points
    note: str = ""  # a few words under the value ("provisional: 4 of 10 matches")

    def __post_init__(self) -> None:
        if not self.shown or len(self.shown) != len(self.estimates):
            raise ValueError("a chart needs the same number (at least one) of shown values and estimates")


def _ticks(low: float, high: float) -> tuple[float, float, list[int]]:
    """A rounded range covering low..high and three to six tick values."""
    span = max(high - low, 1)
    step = next((s for s in STEPS if span / s <= 5), STEPS[-1])
    bottom = (int(low) // step) * step
    top = -(-int(high) // step) * step
    if top == bottom:
        top += step
    return bottom, top, list(range(int(bottom), int(top) + 1, step))


def picture(chart: RatingChart) -> Image.Image:
    canvas = Canvas((WIDTH, HEIGHT), S.PARCHMENT, scale=SCALE, mode="RGB")
    with DRAWING:  # the shared fonts serve one thread at a time
        _draw(canvas, chart)
    return canvas.image.reduce(SCALE)


def _text(canvas: Canvas, at: tuple[float, float], text: str, size: float, ink: S.RGB, anchor: str,
          stroke: float = 0) -> None:  # fmt: skip
    x, y = at
    canvas.draw.text((x * SCALE, y * SCALE), text, font=S.names_font(round(size * SCALE)), fill=ink, anchor=anchor,
                     stroke_width=round(stroke * SCALE), stroke_fill=ink)  # fmt: skip


def _draw(canvas: Canvas, chart: RatingChart) -> None:
    left, top, right, bottom = PLOT
    title_room = (WIDTH - 190 - 24) * SCALE
    _text(canvas, (24, 34), S.fit(S.drawable_name(chart.title) or "?", S.names_font(26 * SCALE), title_room), 26,
          S.INK, "lm", stroke=0.4)  # fmt: skip
    _text(canvas, (WIDTH - 24, 34), chart.current, 34, S.BRONZE_DARK, "rm", stroke=0.6)
    if chart.note:
        _text(canvas, (WIDTH - 24, 62), S.fit(chart.note, S.names_font(16 * SCALE), 300 * SCALE), 16, S.LABEL, "rm")
    S.meander_band(canvas, (24, 62 - 7), 180, 1.6, S.MEANDER)

    low, high, ticks = _ticks(min(chart.shown), max(max(chart.estimates), max(chart.shown)))
    canvas.rect((left, top, right, bottom), S.PANEL)

    def y_of(value: float) -> float:
        return bottom - (value - low) / (high - low) * (bottom - top)

    for tick in ticks:
        y = y_of(tick)
        canvas.rect((left, y - 0.5, right, y + 0.5), S.RULE)
        _text(canvas, (left - 8, y), str(tick), 17, S.LABEL, "rm")
    count = len(chart.shown) - 1

    def x_of(index: int) -> float:
        return left + (right - left) * (index / count if count else 0.5)

    line = [(x_of(i), y_of(v)) for i, v in enumerate(chart.shown)]
    upper = [(x_of(i), y_of(v)) for i, v in enumerate(chart.estimates)]
    if count:
        canvas.polygon(line + upper[::-1], S.OLIVE_WASH)
        canvas.line(line, S.MEANDER, 3.2)
    end = line[-1]
    canvas.circle(end, 6, S.BRONZE_DARK)
    canvas.circle(end, 4.2, S.GOLD)
    canvas.rect((left, bottom - 1, right, bottom + 1), S.LABEL)
    _text(canvas, (left, bottom + 16), "0", 16, S.LABEL, "mm")
    if count:
        _text(canvas, (right, bottom + 16), str(count), 16, S.LABEL, "mm")
    caption = str(P("{count} rated match", "{count} rated matches", count=count))
    _text(canvas, ((left + right) / 2, bottom + 17), caption, 16, S.LABEL, "mm")


def alt_text(chart: RatingChart) -> str:
    count = len(chart.shown) - 1
    text = str(P(
        "Rating history of {title}: {current} after {count} rated match; it started at {start}, "
        "highest {high}, lowest {low}.",
        "Rating history of {title}: {current} after {count} rated matches; it started at {start}, "
        "highest {high}, lowest {low}.",
        count=count, title=chart.title, current=chart.current, start=chart.shown[0], high=max(chart.shown),
        low=min(chart.shown),
    ))  # fmt: skip
    if chart.note:
        text += f" {chart.note}."
    return text[:ALT_TEXT_MAX]


def rating_chart_image(chart: RatingChart) -> RenderedBoard:
    """PNG bytes (the same bytes for the same chart) and alt text."""
    return RenderedBoard(png_bytes(picture(chart), S.palette()), alt_text(chart))


def sample_points(values: Sequence[int], limit: int = 200) -> list[int]:
    """At most `limit` evenly spread indices of a long history, the last always kept, so a
    veteran's chart stays light to draw and its line stays readable."""
    if len(values) <= limit:
        return list(range(len(values)))
    step = (len(values) - 1) / (limit - 1)
    return sorted({round(i * step) for i in range(limit)} | {len(values) - 1})
