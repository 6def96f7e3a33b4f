"""The clocks strip: each seat's time left, drawn under any game's board when its match has clocks.

One strip for every game, the built-in ones and plugins alike, so a game gains clocks on its
picture without drawing them: a band under the board, as wide as it, with each seat in turn
order (a dot of its colour where the artist names one, its name, its time left). The clock that
runs (the seat to act) sits on a dark pill; standing clocks are grey; a seat on vacation says
until when; a match paused by agreement says so at the end. The letters grow with the picture
(about 3.4 % of its width), so a 1200-pixel board shown 400 pixels wide on a phone still reads.

The strip is built from the words and times it shows and nothing else, so strips are kept by
exactly that (a bounded cache): a board asked for an hour later shows a new time because the
time is part of the key, and a strip is never older than what it says.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping

from PIL import Image, ImageDraw, ImageFont

from engine.i18n import M, Term, active
from render import fonts
from render.api import Clocks
from render.durations import format_day, format_left
from render.encode import to_palette
from render.memo import DRAWING

Colour = tuple[int, int, int]

INK: Colour = (44, 34, 26)  # mapped onto the nearest colour of the game's palette, as its own lettering is
MUTED: Colour = (120, 106, 92)
TEXT_SHARE = 0.034  # letter size as a share of the picture's width…
TEXT_SHARE_LEAST = 0.028  # …down to this to keep the clocks on one line (11 px on a 400-pixel phone)
SMALLEST = 16
KEPT = 512  # strips kept: one per board shown this hour or so, in each language

_kept: OrderedDict[tuple[object, ...], Image.Image] = OrderedDict()
_lock = threading.Lock()

PAUSED = M("paused")


def with_clocks(
    picture: Image.Image, clocks: Clocks, palette: Image.Image, colours: Mapping[str, Colour] | None = None
) -> Image.Image:
    """`picture` (a 'P' image in `palette`) with the clocks strip under it, in the same palette."""
    colours = colours or {}
    if picture.mode != "P":  # an artist handing over RGB: mapped onto its palette, as encoding would
        picture = to_palette(picture.convert("RGB"), palette)
    width = picture.width
    background = _colour_at(picture, (0, picture.height - 1))
    entries = tuple(
        (str(Term(s.title)), _time_text(s.seconds, s.away_until), s.running, colours.get(s.seat)) for s in clocks.seats
    )
    key = (active().locale, width, background, entries, clocks.paused, id(palette))
    with _lock:
        strip = _kept.get(key)
        if strip is not None:
            _kept.move_to_end(key)
    if strip is None:
        strip = to_palette(_strip(width, background, entries, str(PAUSED) if clocks.paused else None), palette)
        with _lock:
            _kept[key] = strip
            while len(_kept) > KEPT:
                _kept.popitem(last=False)
    whole = Image.new("P", (width, picture.height + strip.height))
    whole.putpalette(palette.getpalette() or [])
    whole.paste(picture, (0, 0))
    whole.paste(strip, (0, picture.height))
    return whole


def _time_text(seconds: float, away_until: float | None) -> str:
    """The time as shown ("2d 5h"); on vacation, its standing time and until when ("1d · vacation until …")."""
    if away_until is not None:
        return f"{format_left(seconds)} · {M('vacation until {date}', date=format_day(away_until))}"
    return format_left(seconds)


def _colour_at(picture: Image.Image, where: tuple[int, int]) -> Colour:
    index = picture.getpixel(where)
    assert isinstance(index, int)
    raw = picture.getpalette() or []
    return (raw[3 * index], raw[3 * index + 1], raw[3 * index + 2])


Entry = tuple[str, str, bool, "Colour | None"]  # name, time, runs, dot colour
Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


def _strip(width: int, background: Colour, entries: tuple[Entry, ...], paused: str | None) -> Image.Image:
    """The band in RGB: entries in one centred line, the letters a little smaller if that keeps
    them on one; else flowed into lines, wrapped where the width runs out."""
    largest = max(SMALLEST, round(width * TEXT_SHARE))
    smallest = max(SMALLEST, round(width * TEXT_SHARE_LEAST))
    with DRAWING:  # the shared fonts serve one thread at a time
        for size in range(largest, smallest - 1, -1):
            lines = _lines(width, size, entries, paused)
            if len(lines) == 1:
                break
        else:
            size = largest
            lines = _lines(width, size, entries, paused)
        font = fonts.plain(size)
        gap, pad, line_height = round(size * 0.6), round(size * 0.45), round(size * 1.75)
        image = Image.new("RGB", (width, line_height * len(lines) + pad * 2), background)
        draw = ImageDraw.Draw(image)
        draw.line((size, 1, width - size, 1), fill=MUTED, width=max(1, size // 14))
        for row, line in enumerate(lines):
            total = sum(length for _, length in line) + gap * (len(line) - 1)
            x = (width - total) / 2
            middle = pad + line_height * row + line_height / 2
            for shown, length in line:
                if shown is None and paused is not None:
                    _paused(draw, x + pad, middle, size, paused, font)
                elif shown is not None:
                    _entry(draw, x, middle, length, size, shown, font, background)
                x += length + gap
    return image


def _lines(
    width: int, size: int, entries: tuple[Entry, ...], paused: str | None
) -> list[list[tuple[Entry | None, float]]]:
    """The entries (None: the pause sign) with their widths at this letter size, flowed into lines."""
    font = fonts.plain(size)
    gap, dot, pad = round(size * 0.6), round(size * 0.72), round(size * 0.45)
    items: list[tuple[Entry | None, float]] = []
    for entry in entries:
        name, time_text, _, colour = entry
        items.append((entry, font.getlength(f"{name}  {time_text}") + 2 * pad + (dot + pad if colour else 0)))
    if paused is not None:
        items.append((None, font.getlength(paused) + size + 2 * pad))
    lines: list[list[tuple[Entry | None, float]]] = [[]]
    used = 0.0
    for item in items:
        if lines[-1] and used + gap + item[1] > width - size:  # half a letter's margin each side
            lines.append([])
            used = 0.0
        used += (gap if lines[-1] else 0) + item[1]
        lines[-1].append(item)
    return lines


def _entry(
    draw: ImageDraw.ImageDraw, x: float, middle: float, length: float, size: int, entry: Entry, font: Font,
    background: Colour,
) -> None:  # fmt: skip
    name, time_text, running, colour = entry
    pad, dot = round(size * 0.45), round(size * 0.72)
    top, bottom = middle - size * 0.78, middle + size * 0.78
    if running:  # the clock that runs: a dark pill, light letters
        draw.rounded_rectangle((x, top, x + length, bottom), radius=round(size * 0.78), fill=INK)
    ink = background if running else INK
    x += pad
    if colour is not None:
        rim = max(1, size // 12)
        draw.ellipse((x, middle - dot / 2, x + dot, middle + dot / 2), fill=colour, outline=ink, width=rim)
        x += dot + pad
    draw.text((x, middle), name, font=font, fill=ink, anchor="lm")
    x += font.getlength(f"{name}  ")
    draw.text((x, middle), time_text, font=font, fill=background if running else MUTED, anchor="lm")


def _paused(draw: ImageDraw.ImageDraw, x: float, middle: float, size: int, text: str, font: Font) -> None:
    """Two bars, the sign of a pause players know from every player app, then the word."""
    bar, high = max(2, size // 6), size * 0.34
    for left in (x, x + bar * 2.2):
        draw.rectangle((left, middle - high, left + bar, middle + high), fill=INK)
    draw.text((x + size, middle), text, font=font, fill=INK, anchor="lm")
