"""The clocks strip: each seat's time left, drawn under any game's board when its match has clocks.

One strip for every game, the built-in ones and plugins alike, so a game gains clocks on its
picture without drawing them: a band under the board, as wide as it, with each seat in turn
order (a dot of its colour where the artist names one, its name, its time left). The clock that
runs (the seat to act) sits on a dark pill; standing clocks are grey; a seat on vacation says
until when; a match paused by agreement says so at the end. The letters grow with the picture
(about 3.4 % of its width, a little less to keep one line), so a 1200-pixel board shown 400
pixels wide on a phone still reads; the band's height depends on the width alone (and on
wrapping), so a match's boards keep one size whatever their times.

Drawn straight in the game's palette, like the boards (`render/compose.py`): shapes with palette
entries, words from kept pictures already mapped onto it (names come back on every board, and a
time is set from kept signs), so a strip costs a few pastes, not a quantising. Nothing here
reads a clock: the times come in as data, and a picture shows exactly the words it is given.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

from PIL import Image, ImageDraw

from engine.i18n import M, Term, active
from render import fonts
from render.compose import Room
from render.durations import format_day, format_left
from render.encode import to_palette
from render.memo import DRAWING
from render.seat_times import Clocks

Colour = tuple[int, int, int]
Entry = tuple[str, str, bool, "Colour | None"]  # name, time, runs, dot colour

INK: Colour = (44, 34, 26)  # mapped onto the nearest colour of the game's palette, as its own lettering is
MUTED: Colour = (120, 106, 92)
TEXT_SHARE = 0.034  # letter size as a share of the picture's width…
TEXT_SHARE_LEAST = 0.028  # …down to this to keep the clocks on one line (11 px on a 400-pixel phone)
SMALLEST = 18  # a narrow board (a plugin's 440-pixel grid) still reads at 400 pixels
KEPT = 2048  # words, signs and widths kept: names and times come back board after board
FACES_KEPT = 512  # seats' clocks kept without their times (a 1200-pixel board's is ~20 KB: at most ~10 MB)
TIME_SIGNS = frozenset("0123456789dhm ")  # what format_left writes
SIGN_SETS_KEPT = 64  # a few per game: each language and size, standing and running

PAUSED = M("paused")

_words: OrderedDict[tuple[object, ...], Image.Image] = OrderedDict()
_sign_widths: dict[tuple[str, int], dict[str, int]] = {}  # (language, letter size) -> each sign's advance
_sign_sets: dict[tuple[object, ...], dict[str, tuple[Any, int]]] = {}  # a time's signs, by size, colours, palette
_faces: OrderedDict[tuple[object, ...], tuple[Image.Image, int]] = OrderedDict()
_widths: OrderedDict[tuple[str, str, int], int] = OrderedDict()
_named_widths: dict[tuple[str, str, bool, int], int] = {}  # (language, name, dot, size) -> width less the time
_entries: dict[tuple[int, Colour], int] = {}  # (palette, colour) -> its nearest palette entry
_standing: dict[tuple[object, ...], Image.Image] = {}  # standing clocks, times and all, oldest first


def with_clocks(
    picture: Image.Image, clocks: Clocks, palette: Image.Image, colours: Mapping[str, Colour] | None = None
) -> Image.Image:
    """`picture` (a 'P' image in `palette`) with the clocks strip under it, in the same palette."""
    return Strip(clocks, palette, colours).under(picture)


class Strip:
    """One board's clocks strip, read before the board is drawn: its `room` asks the board's
    canvas for the band's rows (they depend on its width and the clocks alone), so the strip is
    drawn in place under a board composed in a palette (`render/compose.py`); a picture composed
    otherwise is copied onto a taller canvas first, as it always was. Both give the same pixels."""

    def __init__(self, clocks: Clocks, palette: Image.Image, colours: Mapping[str, Colour] | None = None) -> None:
        colours = colours or {}
        self.palette = palette
        self.entries: tuple[Entry, ...] = tuple(
            (str(Term(s.title)), _time_text(s.seconds, s.away_until), s.running, colours.get(s.seat))
            for s in clocks.seats
        )
        self.paused = str(PAUSED) if clocks.paused else None
        self.room = Room(self._rows)
        self._laid: tuple[str, int, tuple[int, list[Line], int]] | None = None  # (language, width, layout)

    def _layout(self, width: int) -> tuple[int, list[Line], int]:
        locale = active().locale  # widths differ by language: laid out again if it changed
        if self._laid is None or self._laid[:2] != (locale, width):
            with DRAWING:  # the shared fonts serve one thread at a time, and the kept widths are shared too
                self._laid = (locale, width, _layout(width, self.entries, self.paused))
        return self._laid[2]

    def _rows(self, width: int) -> int:
        return self._layout(width)[2]

    def under(self, picture: Image.Image) -> Image.Image:
        """The board with the strip under it: drawn in the room the board was composed with, or
        under a copy of `picture` made taller."""
        room = self.room
        if room.canvas is not None and picture is room.canvas:
            top = room.board_height
            size, lines, band = self._layout(picture.width)
            if picture.height == top + band:
                self._draw(picture, top, size, lines)
                return picture
            picture = picture.crop((0, 0, picture.width, top))  # laid out otherwise since: the board alone
        if picture.mode != "P":  # an artist handing over RGB: mapped onto its palette, as encoding would
            picture = to_palette(picture.convert("RGB"), self.palette)
        size, lines, band = self._layout(picture.width)
        whole = picture.crop((0, 0, picture.width, picture.height + band))  # the board, and room under it
        self._draw(whole, picture.height, size, lines)
        return whole

    def _draw(self, whole: Image.Image, top: int, size: int, lines: list[Line]) -> None:
        """The band from row `top` down, on the page the board ends on (every row of it is set,
        whatever the canvas held there)."""
        under = whole.getpixel((0, top - 1))
        assert isinstance(under, int)
        raw = _palette_bytes(self.palette)
        background: Colour = (raw[3 * under], raw[3 * under + 1], raw[3 * under + 2])
        with DRAWING:  # the kept words and seats are shared
            whole.paste(under, (0, top, whole.width, whole.height))
            _draw(whole, self.palette, top, size, lines, background, self.paused)


_palettes: dict[int, bytes] = {}


def _palette_bytes(palette: Image.Image) -> bytes:
    """The palette's colours (kept: a game has one palette for the process's life)."""
    found = _palettes.get(id(palette))
    if found is None:
        found = _palettes[id(palette)] = bytes(palette.getpalette() or [])
    return found


def _time_text(seconds: float, away_until: float | None) -> str:
    """The time as shown ("2d 5h"); on vacation, its standing time and until when ("1d · vacation until …")."""
    if away_until is not None:
        return f"{format_left(seconds)} · {M('vacation until {date}', date=format_day(away_until))}"
    return format_left(seconds)


Line = list[tuple["Entry | None", int]]  # entries (None: the pause sign) and their widths


_DIGITS_AS_NOUGHT = str.maketrans("123456789", "000000000")
LAYOUTS_KEPT = 1024
_layouts: dict[tuple[object, ...], tuple[int, tuple[tuple[tuple[int, int], ...], ...], int]] = {}
_even: dict[tuple[str, int], bool] = {}  # (language, width) -> digits as wide as one another at every size tried


def _layout(width: int, entries: tuple[Entry, ...], paused: str | None) -> tuple[int, list[Line], int]:
    """(letter size, lines, the band's height), kept by what they depend on: the names, their
    dots and the shapes of their times ("0d 0h"), as every digit is as wide as the others in
    the strip's faces (checked at every size tried). The time that runs is new on every board;
    its shape seldom is, and laying the strip out again cost as much as drawing it."""
    locale = active().locale
    if not _digits_even(locale, width):
        return _laid_out(width, entries, paused)
    shapes = tuple((name, colour is not None, _shape(time_text)) for name, time_text, _, colour in entries)
    key = (locale, width, paused, shapes)
    found = _layouts.get(key)
    if found is None:
        size, lines, band = _laid_out(width, entries, paused)
        places = iter(range(len(entries) + 1))  # items are laid out in order, the pause sign last
        found = (size, tuple(tuple((next(places), length) for _, length in line) for line in lines), band)
        if len(_layouts) >= LAYOUTS_KEPT:
            _layouts.clear()
        _layouts[key] = found
    size, laid, band = found
    return size, [[(entries[i] if i < len(entries) else None, length) for i, length in line] for line in laid], band


def _shape(time_text: str) -> str:
    return time_text.translate(_DIGITS_AS_NOUGHT) if set(time_text) <= TIME_SIGNS else time_text


def _digits_even(locale: str, width: int) -> bool:
    found = _even.get((locale, width))
    if found is None:
        low, high = _letter_sizes(width)
        found = _even[(locale, width)] = all(len({_width(digit, size) for digit in "0123456789"}) == 1
                                             for size in range(low, high + 1))  # fmt: skip
    return found


def _letter_sizes(width: int) -> tuple[int, int]:
    """The smallest and the largest letters the strip sets under a picture `width` wide."""
    return max(SMALLEST, round(width * TEXT_SHARE_LEAST)), max(SMALLEST, round(width * TEXT_SHARE))


def _laid_out(width: int, entries: tuple[Entry, ...], paused: str | None) -> tuple[int, list[Line], int]:
    """(letter size, lines, the band's height): one line, the letters a little smaller if that
    keeps them on one; else the largest letters, wrapped where the width runs out."""
    smallest, largest = _letter_sizes(width)
    # Widths grow with the letters: measured at the largest size, the size that fits follows.
    lines = _lines(width, largest, entries, paused)
    if len(lines) > 1:
        needed = sum(length for line in lines for _, length in line) + _gap(largest) * (sum(map(len, lines)) - 1)
        guess = int(largest * (width - largest) / needed)  # widths round: try a size or two about it
        for size in range(min(largest - 1, guess + 1), max(smallest, guess - 2) - 1, -1):
            if len(fitted := _lines(width, size, entries, paused)) == 1:
                return size, fitted, _band(largest, 1)
    return largest, lines, _band(largest, len(lines))


def _band(largest: int, lines: int) -> int:
    return round(largest * 0.4) + round(largest * 1.75) * lines + 2 * round(largest * 0.45)


def _gap(size: int) -> int:
    return round(size * 0.6)


def _lines(width: int, size: int, entries: tuple[Entry, ...], paused: str | None) -> list[Line]:
    gap, dot, pad = _gap(size), round(size * 0.72), round(size * 0.45)
    locale = active().locale  # the faces differ by language: so do widths
    items: Line = []
    for entry in entries:
        name, time_text, _, colour = entry
        key = (locale, name, colour is not None, size)
        named = _named_widths.get(key)  # all but the time, which is new on every board for one seat
        if named is None:
            named = _named_widths[key] = _width(name, size) + 3 * pad + (dot + pad if colour else 0)
            while len(_named_widths) > KEPT:
                del _named_widths[next(iter(_named_widths))]
        items.append((entry, named + _time_width(time_text, size)))
    if paused is not None:
        items.append((None, _width(paused, size) + size + 2 * pad))
    lines: list[Line] = [[]]
    used = 0
    for item in items:
        if lines[-1] and used + gap + item[1] > width - size:  # half a letter's margin each side
            lines.append([])
            used = 0
        used += (gap if lines[-1] else 0) + item[1]
        lines[-1].append(item)
    return lines


def _draw(
    whole: Image.Image, palette: Image.Image, top: int, size: int, lines: list[Line], background: Colour,
    paused: str | None,
) -> None:  # fmt: skip
    largest = _letter_sizes(whole.width)[1]
    rule, pad, line_height, gap = round(largest * 0.4), round(largest * 0.45), round(largest * 1.75), _gap(size)
    # A hairline over the clocks, clear of whatever the board ends with (pasted: no drawing context
    # on the whole picture, which costs more than the strip).
    whole.paste(_entry_of(palette, MUTED), (size, top + rule, whole.width - size, top + rule + max(1, size // 14)))
    for row, line in enumerate(lines):
        total = sum(length for _, length in line) + gap * (len(line) - 1)
        x = (whole.width - total) // 2
        middle = top + rule + pad + line_height * row + line_height // 2
        for shown, length in line:
            if shown is None and paused is not None:
                _paused(whole, palette, x + round(size * 0.45), middle, size, paused, background)
            elif shown is not None:
                _seat(whole, palette, x, middle, length, size, shown, background)
            x += length + gap


def _seat(
    whole: Image.Image, palette: Image.Image, x: int, middle: int, length: int, size: int, entry: Entry,
    background: Colour,
) -> None:  # fmt: skip
    """One seat's clock. A standing one is kept whole, time and all (it stands at that time until
    its seat's next turn), and pasted in one piece. The running one is set in place (`_set`)."""
    name, time_text, running, colour = entry
    if not running:  # a standing clock reads the same board after board: kept whole, one paste
        key = (active().locale, entry, size, length, background, id(palette))
        standing = _standing.get(key)
        if standing is None:
            face, at = _face(palette, length, size, name, running, colour, background)
            standing = face.copy()
            if not _set(standing, palette, 0, 0, face, at, size, time_text, running, background):
                standing = _seat_whole(palette, length, size, entry, background)
            _standing[key] = standing
            while len(_standing) > FACES_KEPT:
                del _standing[next(iter(_standing))]
        top = middle - standing.height // 2
        whole.im.paste(standing.im, (x, top, x + standing.width, top + standing.height))
        return
    face, at = _face(palette, length, size, name, running, colour, background)
    top = middle - face.height // 2
    if not _set(whole, palette, x, top, face, at, size, time_text, running, background):
        # A time that is words (a vacation), or one that would not fit: the seat drawn whole first.
        whole.paste(_seat_whole(palette, length, size, entry, background), (x, top))


def _set(
    whole: Image.Image, palette: Image.Image, x: int, top: int, face: Image.Image, at: int, size: int,
    time_text: str, running: bool, background: Colour,
) -> bool:  # fmt: skip
    """A seat's kept face (pill, dot and name, the same while its time changes) at (x, top), then
    its time set on it from kept signs, pasted core to core (Pillow's wrappers cost more than the
    copies): the same pixels as the seat drawn whole and pasted, as each paste is clipped to the
    picture and the time lies inside the face. False, and nothing done, where the time is words
    (a vacation) or would not fit."""
    on = INK if running else background
    high = round(size * 1.5)
    y = top + round(size * 0.78) - high // 2
    if not set(time_text) <= TIME_SIGNS:
        return False
    signs = _signs(size, background if running else MUTED, on, palette)
    left = x + at
    span = _time_width(time_text, size)  # each sign's width less the pixel they share, as set below
    right, bottom = x + face.width, top + face.height
    if y < top or y + high > bottom or left + span > right:
        return False
    core = whole.im
    core.paste(face.im, (x, top, right, bottom))
    core.paste(_entry_of(palette, on), (left, y, left + span, y + high))
    for sign in time_text:
        kept, width = signs[sign]
        if kept is not None:  # each sign's picture is its width wide and a line high
            core.paste(kept, (left, y, left + width, y + high))
        left += width - 1
    return True


def _seat_whole(palette: Image.Image, length: int, size: int, entry: Entry, background: Colour) -> Image.Image:
    """A seat's clock as a picture of its own: its face with its time pasted on it."""
    name, time_text, running, colour = entry
    face, at = _face(palette, length, size, name, running, colour, background)
    image = face.copy()
    ink, on = (background, INK) if running else (INK, background)
    shown = _time(time_text, size, ink if running else MUTED, on, palette)
    image.paste(shown, (at, round(size * 0.78) - shown.height // 2))
    return image


def _face(
    palette: Image.Image, length: int, size: int, name: str, running: bool, colour: Colour | None, background: Colour
) -> tuple[Image.Image, int]:
    """A seat's clock without its time, and where the time goes; kept. The running clock's time is
    new on every board, its pill and name are not: drawing them (a rounded pill, a dot) cost
    most of the strip."""
    key = (active().locale, name, running, colour, size, length, background, id(palette))
    found = _faces.get(key)
    if found is not None:
        _faces.move_to_end(key)
        return found
    pad, dot, half = round(size * 0.45), round(size * 0.72), round(size * 0.78)
    image = Image.new("P", (length + 1, 2 * half + 1), _entry_of(palette, background))
    draw = ImageDraw.Draw(image)
    middle = half
    ink, on = (background, INK) if running else (INK, background)  # light on the dark pill of the clock that runs
    if running:
        draw.rounded_rectangle((0, 0, length, 2 * half), radius=half, fill=_entry_of(palette, INK))
    x = pad
    if colour is not None:
        draw.ellipse((x, middle - dot // 2, x + dot, middle + dot - dot // 2), fill=_entry_of(palette, colour),
                     outline=_entry_of(palette, ink), width=max(1, size // 12))  # fmt: skip
        x += dot + pad
    word = _word(name, size, ink, on, palette)
    image.paste(word, (x, middle - word.height // 2))
    found = _faces[key] = (image, x + word.width + pad)
    while len(_faces) > FACES_KEPT:
        _faces.popitem(last=False)
    return found


def _paused(
    whole: Image.Image, palette: Image.Image, x: int, middle: int, size: int, text: str, background: Colour
) -> None:
    """Two bars, the sign of a pause players know from every player app, then the word."""
    bar, high = max(2, size // 6), round(size * 0.34)
    for left in (x, x + round(bar * 2.2)):
        whole.paste(_entry_of(palette, INK), (left, middle - high, left + bar + 1, middle + high + 1))
    word = _word(text, size, INK, background, palette)
    whole.paste(word, (x + size, middle - word.height // 2))


def _entry_of(palette: Image.Image, colour: Colour) -> int:
    """The palette entry a flat colour maps to (as quantising maps it)."""
    key = (id(palette), colour)
    found = _entries.get(key)
    if found is None:
        pixel = to_palette(Image.new("RGB", (1, 1), colour), palette).getpixel((0, 0))
        assert isinstance(pixel, int)
        found = _entries[key] = pixel
    return found


def _word(text: str, size: int, fill: Colour, background: Colour, palette: Image.Image) -> Image.Image:
    """`text` on a flat `background`, as wide as it and a line high, in the palette; kept."""
    key = (active().locale, text, size, fill, background, id(palette))
    found = _words.get(key)
    if found is not None:
        _words.move_to_end(key)
        return found
    high = round(size * 1.5)
    image = Image.new("RGB", (_width(text, size), high), background)
    ImageDraw.Draw(image).text((0, high / 2), text, font=fonts.plain(size), fill=fill, anchor="lm")
    found = _words[key] = to_palette(image, palette)
    while len(_words) > KEPT:
        _words.popitem(last=False)
    return found


def _time(text: str, size: int, fill: Colour, background: Colour, palette: Image.Image) -> Image.Image:
    """A time ("2d 5h") as a picture: set from kept signs, or a kept word where it holds others."""
    if not set(text) <= TIME_SIGNS:
        return _word(text, size, fill, background, palette)
    signs = _signs(size, fill, background, palette)
    high = round(size * 1.5)
    image = Image.new("P", (_time_width(text, size), high), _entry_of(palette, background))
    core, x = image.im, 0
    for sign in text:
        kept, width = signs[sign]
        if kept is not None:
            core.paste(kept, (x, 0, x + width, high))
        x += width - 1
    return image


def _signs(size: int, fill: Colour, background: Colour, palette: Image.Image) -> dict[str, tuple[Any, int]]:
    """Each sign a time is set from, as (its kept picture's core, or None for the space; its width)."""
    key = (active().locale, size, fill, background, id(palette))
    found = _sign_sets.get(key)
    if found is None:
        found = {sign: (None if sign == " " else _word(sign, size, fill, background, palette).im, _width(sign, size))
                 for sign in TIME_SIGNS}  # fmt: skip
        _sign_sets[key] = found
        while len(_sign_sets) > SIGN_SETS_KEPT:
            del _sign_sets[next(iter(_sign_sets))]
    return found


def _time_width(text: str, size: int) -> int:
    if not set(text) <= TIME_SIGNS:
        return _width(text, size)
    widths = _sign_widths.get((active().locale, size))
    if widths is None:  # each sign's width at this size, read once: the running time is new on every board
        widths = _sign_widths[(active().locale, size)] = {sign: _width(sign, size) - 1 for sign in TIME_SIGNS}
    return sum(map(widths.__getitem__, text)) + 1


def _width(text: str, size: int) -> int:
    """How wide `text` is drawn at this size (kept: the strip is laid out before it is drawn)."""
    key = (active().locale, text, size)
    found = _widths.get(key)
    if found is None:
        found = _widths[key] = max(1, round(fonts.plain(size).getlength(text)) + 1)
        while len(_widths) > KEPT:
            _widths.popitem(last=False)
    return found
