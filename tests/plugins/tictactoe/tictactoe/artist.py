"""Tic-tac-toe's picture: the grid, the marks, the last move shaded, the squares lettered, and
a line saying whose turn it is or how the game ended (or, for a replay frame or a rules
example, what the picture is). It follows the host's drawing lock: text is drawn with the
shared fonts only while holding `DRAWING`; the empty board is built once per language with
`built_once`. Pictures are handed over in the game's fixed palette.

A board is composed straight in that palette, as the host's own games are: the empty board
mapped onto it once (and copied with `board_canvas`, which leaves room under it for the host's
clocks strip when there is one), each square's inside with its mark and shading kept mapped
(flat colours, no anti-aliasing), and the line of words (anti-aliased) drawn on a band of paper
and mapped once per text. Pixel for pixel that is the board drawn in RGB and mapped at the end (`_drawn`, which
the palette is learned from), at a fraction of the cost: mapping a whole picture onto a palette
cost more than drawing it.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from PIL import Image, ImageDraw

from engine.i18n import M, active
from render.api import (
    DRAWING,
    Recent,
    board_canvas,
    built_once,
    drawable,
    learn_palette,
    mark_font,
    plain_font,
    to_palette,
)
from tictactoe.game import GAME, Board, Marked, seat_term, square_name

CELL, MARGIN, STATUS = 120, 40, 64
SIZE = (MARGIN * 2 + CELL * 3, MARGIN * 2 + CELL * 3 + STATUS)
PAPER, INK, GRID = (247, 243, 232), (45, 42, 38), (120, 110, 95)
X_INK, O_INK, SHADE = (176, 58, 46), (36, 94, 156), (236, 222, 178)
FLAT = [PAPER, INK, GRID, X_INK, O_INK, SHADE]


def _box(square: int) -> tuple[int, int, int, int]:
    left, top = MARGIN + CELL * (square % 3), MARGIN + CELL * (square // 3)
    return left, top, left + CELL, top + CELL


@built_once
def _empty() -> Image.Image:
    """The grid and its letters, in the active language's face (built once per language)."""
    image = Image.new("RGB", SIZE, PAPER)
    draw = ImageDraw.Draw(image)
    for k in (1, 2):
        draw.line((MARGIN + CELL * k, MARGIN, MARGIN + CELL * k, MARGIN + CELL * 3), fill=GRID, width=4)
        draw.line((MARGIN, MARGIN + CELL * k, MARGIN + CELL * 3, MARGIN + CELL * k), fill=GRID, width=4)
    font = mark_font(18)
    for k in range(3):
        draw.text((MARGIN + CELL * k + CELL // 2, MARGIN // 2), "abc"[k], font=font, fill=GRID, anchor="mm")
        draw.text((MARGIN // 2, MARGIN + CELL * k + CELL // 2), str(3 - k), font=font, fill=GRID, anchor="mm")
    return image


def _last(recent: Recent) -> int | None:
    marks = [e.square for e in (recent[-1] if recent else ()) if isinstance(e, Marked)]
    return marks[-1] if marks else None


def _status(state: Board) -> str:
    if state.outcome is not None:
        return str(state.outcome.summary)
    return str(M("{seat} to act", seat=seat_term(state.to_act)))


class TicTacToeArtist:
    slug = "tictactoe"

    def picture(
        self, state: Board, recent: Recent = (), *, perspective: str | None = None, caption: str | None = None,
        title: str | None = None, locale: str = "en",
    ) -> Image.Image:  # fmt: skip
        image = board_canvas(_empty_in_palette())  # with room for the host's clocks strip, if it draws one
        last = _last(recent)
        for square, cell in enumerate(state.cells):
            if cell != "." or square == last:  # each square's inside, kept: drawing a mark cost more than the board
                left, top, *_ = _box(square)
                image.paste(_inside(cell, square == last), (left + 4, top + 4))
        image.paste(_band(_words(state, caption, title), self.palette()), (0, BAND))
        return image

    def _drawn(self, state: Board, recent: Recent, caption: str | None, title: str | None) -> Image.Image:
        """The board in RGB (what the palette is learned from; `picture` is this, mapped)."""
        image = _empty().copy()
        draw = ImageDraw.Draw(image)
        _marks(draw, state, recent, {colour: colour for colour in FLAT})
        _write(draw, _words(state, caption, title))
        return image

    def alt_text(self, state: Board, recent: Recent = (), *, locale: str = "en", title: str | None = None) -> str:
        """The board for a screen reader; with a `title` (a replay frame, a rules example), that
        kind of picture, without whose turn it is."""
        parts = [f"{title}." if title else str(M("Tic-tac-toe board. {status}.", status=_status(state)))]
        for seat in ("x", "o"):
            squares = [square_name(i) for i, cell in enumerate(state.cells) if cell == seat]
            if squares:
                parts.append(str(M("{seat} holds {squares}.", seat=seat_term(seat), squares=", ".join(squares))))
        if recent:
            parts.append(str(M("Last move: {move}.", move=GAME.describe(recent[-1]))))
        return " ".join(parts)

    def palette(self) -> Image.Image:
        return _palette()

    def warm_up(self) -> None:
        _empty()


BAND = MARGIN + CELL * 3 + 8  # from here down, paper and the line of words alone (the grid ends at 400)
BANDS_KEPT = 64  # lines of words mapped onto the palette: a replay's captions come and go


def _marks(draw: ImageDraw.ImageDraw, state: Board, recent: Recent, ink: dict[tuple[int, int, int], Any]) -> None:
    """The last move's shading and the marks, in flat colours (`ink`: each one's pixel value)."""
    last = _last(recent)
    if last is not None:
        _shade(draw, last, ink)
    for square, cell in enumerate(state.cells):
        _mark(draw, square, cell, ink)


def _shade(draw: ImageDraw.ImageDraw, square: int, ink: dict[tuple[int, int, int], Any]) -> None:
    left, top, right, bottom = _box(square)
    draw.rectangle((left + 4, top + 4, right - 4, bottom - 4), fill=ink[SHADE])


def _mark(draw: ImageDraw.ImageDraw, square: int, cell: str, ink: dict[tuple[int, int, int], Any]) -> None:
    left, top, right, bottom = _box(square)
    pad = 28
    if cell == "x":
        draw.line((left + pad, top + pad, right - pad, bottom - pad), fill=ink[X_INK], width=12)
        draw.line((left + pad, bottom - pad, right - pad, top + pad), fill=ink[X_INK], width=12)
    elif cell == "o":
        draw.ellipse((left + pad, top + pad, right - pad, bottom - pad), outline=ink[O_INK], width=11)


@built_once
def _inside(cell: str, shaded: bool) -> Image.Image:
    """A square's inside (clear of the grid lines), its mark drawn on paper or on the last
    move's shading, in the palette: the same on every square, as they lie whole numbers of
    pixels apart and each inside is paper on the empty board."""
    image = _empty_in_palette().copy()
    draw = ImageDraw.Draw(image)
    ink = _entries()
    if shaded:
        _shade(draw, 4, ink)
    _mark(draw, 4, cell, ink)
    left, top, right, bottom = _box(4)
    return image.crop((left + 4, top + 4, right - 3, bottom - 3))


def _words(state: Board, caption: str | None, title: str | None) -> str:
    return " · ".join(part for part in (title or _status(state), caption) if part)


def _write(draw: ImageDraw.ImageDraw, words: str, top: int = 0) -> None:
    with DRAWING:  # the shared fonts draw on one thread at a time
        draw.text((SIZE[0] // 2, SIZE[1] - STATUS // 2 - 8 - top), drawable(words)[:60], font=plain_font(22),
                  fill=INK, anchor="mm")  # fmt: skip


@built_once
def _empty_in_palette() -> Image.Image:
    return to_palette(_empty(), _palette())


@built_once
def _entries() -> dict[tuple[int, int, int], Any]:
    """Each flat colour's palette entry (they are in the palette exactly)."""
    raw = _palette().getpalette() or []
    colours = [tuple(raw[i : i + 3]) for i in range(0, len(raw), 3)]
    return {colour: colours.index(colour) for colour in FLAT}


_bands: OrderedDict[tuple[str, str, int], Image.Image] = OrderedDict()


def _band(words: str, palette: Image.Image) -> Image.Image:
    """The paper under the grid with the line of words on it, mapped onto the palette (kept a while)."""
    key = (active().locale, words, id(palette))
    found = _bands.get(key)
    if found is None:
        band = Image.new("RGB", (SIZE[0], SIZE[1] - BAND), PAPER)
        _write(ImageDraw.Draw(band), words, top=BAND)
        found = _bands[key] = to_palette(band, palette)
        while len(_bands) > BANDS_KEPT:
            _bands.popitem(last=False)
    return found


@built_once
def _palette() -> Image.Image:
    # A swatch of everything drawn: every mark on every background, and text on each.
    sample = Board("xo.x.o..x", "o")
    swatch = TicTacToeArtist()._drawn(sample, [[Marked("x", 8)]], "swatch", None)
    return learn_palette(FLAT, swatch)


ARTIST = TicTacToeArtist()

