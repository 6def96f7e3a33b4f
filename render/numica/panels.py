"""The words around the board: the status line, each side's band, and the legend.

Bands and status lines are drawn per distinct content and cached: a game only ever
shows a few dozen of them. Everything with words is drawn in one language: the cached
ones take the language (`locale`) as part of their key, or the words themselves.
"""

from __future__ import annotations

from PIL import Image

from engine.i18n import M, Message
from engine.numica.board import COLOURS, Colour, Shape
from render import fonts, typeset
from render.canvas import Canvas
from render.memo import built_once
from render.numica import colours as C
from render.numica import sprites
from render.numica.layout import BAND, HEADER, LEGEND, PAD, WIDTH
from render.words import catalog

CLEAR = (0, 0, 0, 0)
TO_WIN = 3  # pieces of one shape that win; two of each also do
CAPTION = 16  # a replay frame's caption line, under the game's name (set by render.typeset)
CAPTION_WIDTH = 330
CAPTION_FACE = typeset.Face("plain", 14)


def fit(text: str, width: float, size: float, *, plain: bool = False, weight: int = 700) -> float:
    """The largest type size up to `size` at which `text` fits in `width` pixels."""
    font = fonts.plain(100) if plain else fonts.display(100, weight)
    return min(size, width * 100 / max(font.getlength(text), 1e-6))


def shrunk(canvas: Canvas) -> Image.Image:
    """The drawing at its final size by averaging each block of pixels: several times faster
    than the canvas's Lanczos filter, which matters for panels drawn while a player waits."""
    return canvas.image.reduce(canvas.scale)


def text_width(text: str, size: float, *, plain: bool = False, weight: int = 700) -> float:
    """How wide `text` is at `size`, measured at four times the size for precision."""
    font = fonts.plain(round(size * 4)) if plain else fonts.display(round(size * 4), weight)
    return font.getlength(text) / 4


def _mini_piece(canvas: Canvas, centre: tuple[float, float], colour: Colour, shape: Shape, scale: float) -> None:
    sprites.piece_shape(canvas, centre, shape, scale, C.PIECE[colour], C.PIECE_RIM[colour])


def _slot(canvas: Canvas, centre: tuple[float, float], shape: Shape, scale: float) -> None:
    """An empty place for a piece still to capture: the shape's outline."""
    x, y = centre
    colour = C.mix(C.STRIP, C.LABEL, 0.45)
    if shape is Shape.SQUARE:
        h = sprites.SQUARE_HALF * scale
        canvas.rect((x - h, y - h, x + h, y + h), None, radius=6 * scale, outline=colour, width=1.6)
    else:
        canvas.circle(centre, sprites.ROUND_RADIUS * scale, None, outline=colour, width=1.6)


@built_once
def band(colour: Colour, status: str, locale: str = "en") -> Image.Image:
    """A side's band: its name and shapes, and a status pill (`to move`, `wins`, `draw`,
    `arranging` or none). Its right end is left free for `captures` or `arranging_note`."""
    width = WIDTH - 2 * PAD
    canvas = Canvas((width, BAND), CLEAR, scale=3)
    canvas.rect((0, 4, width, BAND - 4), C.STRIP, radius=10, outline=C.mix(C.STRIP, C.RIM, 0.35), width=1.2)
    middle = BAND / 2
    _mini_piece(canvas, (26, middle), colour, Shape.SQUARE, 0.42)
    _mini_piece(canvas, (50, middle), colour, Shape.ROUND, 0.42)
    name = colour.term.render(catalog(locale)).upper()
    canvas.text((70, middle + 1), name, 27, C.INK, weight=800, anchor="lm")
    name_end = 70 + text_width(name, 27, weight=800)
    if status:
        _pill(canvas, name_end + 14, middle, status, colour, _PILL_TEXT[status].render(catalog(locale)))
    return shrunk(canvas)


CAPTURES_WIDTH = 380  # the right end of a band: captured pieces and their count


@built_once
def captures(enemy: Colour, captured: tuple[int, int], fresh: Shape | None, locale: str = "en") -> Image.Image:
    """For the right end of a band: the enemy pieces a side has captured, beside empty places
    up to three of each shape, and the count in words. `fresh` rings the piece the last move took."""
    canvas = Canvas((CAPTURES_WIDTH, BAND), CLEAR, scale=3)
    words = M("{square} square · {round} round", square=captured[0], round=captured[1]).render(catalog(locale))
    _captures(canvas, CAPTURES_WIDTH, BAND / 2, enemy, captured, fresh, words)
    return shrunk(canvas)


@built_once
def arranging_note(colour: Colour, locale: str = "en") -> Image.Image:
    """For the right end of a band while setting up: which row the side fills."""
    canvas = Canvas((CAPTURES_WIDTH, BAND), CLEAR, scale=3)
    words = M("4 square and 4 round pieces on rank {rank}", rank=colour.back_rank + 1).render(catalog(locale))
    size = fit(words, CAPTURES_WIDTH - 24, 17, plain=True)
    canvas.text((CAPTURES_WIDTH - 16, BAND / 2 + 1), words, size, C.LABEL, plain=True, anchor="rm")
    return shrunk(canvas)


_PILL_TEXT: dict[str, Message] = {"to move": M("TO MOVE"), "wins": M("WINS"), "draw": M("DRAW"),
                                  "arranging": M("ARRANGING…")}  # fmt: skip


def _pill(canvas: Canvas, left: float, middle: float, status: str, colour: Colour, text: str) -> None:
    size = 15
    length = text_width(text, size, weight=800)
    fill = {"to move": C.PIECE[colour], "wins": C.UNMOVED, "draw": C.mix(C.STRIP, C.LABEL, 0.35)}.get(
        status, C.mix(C.STRIP, C.LABEL, 0.2)
    )
    ink = C.CREAM if status == "to move" else C.INK
    right = left + length + 26
    canvas.rect((left, middle - 14, right, middle + 14), fill, radius=14)
    if status == "to move":  # a small arrowhead: it is this side's move
        canvas.polygon([(left + 9, middle - 5), (left + 15, middle), (left + 9, middle + 5)], ink)
        canvas.text((left + 19 + length / 2, middle + 1), text, size, ink, weight=800)
    else:
        canvas.text((left + 13 + length / 2, middle + 1), text, size, ink, weight=800)


def _captures(
    canvas: Canvas,
    width: float,
    middle: float,
    enemy: Colour,
    captured: tuple[int, int],
    fresh: Shape | None,
    words: str,
) -> None:
    """Right-aligned: the count in words, then the captured pieces beside the places still empty."""
    scale, step = 0.36, 25
    right = width - 16
    x = right
    for shape in (Shape.ROUND, Shape.SQUARE):
        count = captured[shape]
        places = max(TO_WIN, count)
        for index in reversed(range(places)):
            centre = (x - 10, middle)
            if index < count:
                _mini_piece(canvas, centre, enemy, shape, scale)
                if fresh is shape and index == count - 1:
                    canvas.circle(centre, 15.5, None, outline=C.CAPTURE, width=2.4)
            else:
                _slot(canvas, centre, shape, scale)
            x -= step
        x -= 10
    canvas.text((x - 8, middle + 1), words, fit(words, x - 12, 17, plain=True), C.LABEL, plain=True, anchor="rm")


STATUS_WIDTH = 520  # the status line's room, right of the game's name


@built_once
def status_words(text: str, accent: Colour | None, *, with_detail: bool) -> Image.Image:
    """Who moves or how the game ended, right-aligned in the status line, after a disc in the
    colour of the side it names; higher when a line of detail goes under it."""
    canvas = Canvas((STATUS_WIDTH, HEADER), CLEAR, scale=3)
    right = STATUS_WIDTH - 4
    size = fit(text, STATUS_WIDTH - 30, 24, weight=800)
    y = HEADER / 2 - 8 if with_detail else HEADER / 2 + 2
    canvas.text((right, y), text, size, C.INK, weight=800, anchor="rm")
    if accent is not None:
        _mini_piece(canvas, (right - text_width(text, size, weight=800) - 16, y), accent, Shape.ROUND, 0.3)
    return shrunk(canvas)


@built_once
def status_detail(detail: str) -> Image.Image:
    """The small line under the status: how the game ended, or the count of quiet moves."""
    height = 22
    canvas = Canvas((STATUS_WIDTH, height), CLEAR, scale=3)
    size = fit(detail, STATUS_WIDTH - 10, 17, plain=True)
    canvas.text((STATUS_WIDTH - 4, height / 2), detail, size, C.LABEL, plain=True, anchor="rm")
    return shrunk(canvas)


def title(canvas: Canvas, *, captioned: bool) -> None:
    """The game's name, at the top left; higher in replay frames, over their caption."""
    canvas.text((PAD + 4, HEADER / 2 - (6 if captioned else -2)), "NUMICA", 34, C.INK, weight=900, anchor="lm")


@built_once
def legend(locale: str = "en") -> Image.Image:
    """How each tile moves, what the marks mean, and what wins: enough to play from the picture."""
    words = catalog(locale)
    width = WIDTH - 2 * PAD
    canvas = Canvas((width, LEGEND), CLEAR, scale=3)
    canvas.rect((0, 0, width, LEGEND), C.STRIP, radius=10, outline=C.mix(C.STRIP, C.RIM, 0.35), width=1.2)
    rows = [
        [("12345", M("exactly that many squares in a straight line, jumping")), ("K", M("a knight's jump"))],
        [("R", M("rook: slides straight")), ("B", M("bishop: slides diagonally")),
         ("X", M("any empty square, never captures"))],
    ]  # fmt: skip
    for index, entries in enumerate(rows):
        _legend_row(canvas, width, LEGEND * (0.2 + 0.3 * index), [(s, text.render(words)) for s, text in entries])
    _marks_row(canvas, width, LEGEND * 0.8, locale)
    return shrunk(canvas)


LEGEND_TEXT = 15


def _legend_row(canvas: Canvas, width: float, y: float, entries: list[tuple[str, str]]) -> None:
    chip, gap = 26, 18
    # Longer words (another language) shrink the row's type rather than run off the legend.
    room = width - 24 - sum(len(symbols) * (chip - 1) + 6 for symbols, _ in entries) - gap * (len(entries) - 1)
    size = min(LEGEND_TEXT, LEGEND_TEXT * room / max(sum(_length(words) for _, words in entries), 1e-6))
    x = 12.0
    for symbols, words in entries:
        for symbol in symbols:
            sprites.draw_tile(canvas, (x, y - chip / 2), symbol, chip, with_symbol=False)
            sprites.symbol_text(canvas, (x + chip / 2, y + 0.5), symbol, 17, C.TILE_SYMBOL[symbol])
            x += chip - 1
        canvas.text((x + 6, y + 1), words, size, C.INK, plain=True, anchor="lm")
        x += 6 + _length(words, size) + gap


def _length(text: str, size: float = LEGEND_TEXT) -> float:
    return text_width(text, size, plain=True)


def _marks_row(canvas: Canvas, width: float, y: float, locale: str) -> None:
    words = catalog(locale)
    shapes = [(shape, shape.term.render(words)) for shape in (Shape.SQUARE, Shape.ROUND)]
    seal = M("not moved yet: cannot take an unmoved piece").render(words)
    win = M("Win: 3 of a shape, or 2 + 2").render(words)
    # As in a legend row: longer words shrink the type to fit the width.
    fixed = 14 + sum(2 * 20 + 2 + 14 for _ in shapes) + 17 + 14 + 14
    room = width - fixed
    used = sum(_length(word) for _, word in shapes) + _length(seal) + text_width(win, LEGEND_TEXT, plain=True)
    size = min(LEGEND_TEXT, LEGEND_TEXT * room / max(used, 1e-6))
    x = 14.0
    for shape, word in shapes:
        for colour in COLOURS:
            _mini_piece(canvas, (x + 8, y), colour, shape, 0.3)
            x += 20
        canvas.text((x + 2, y + 1), word, size, C.INK, plain=True, anchor="lm")
        x += 2 + _length(word, size) + 14
    sprites.seal(canvas, (x + 6, y), 6)
    canvas.text((x + 17, y + 1), seal, size, C.INK, plain=True, anchor="lm")
    canvas.text((width - 14, y + 1), win, size, C.INK, plain=True, anchor="rm", stroke=0.35, stroke_fill=C.INK)
