"""The strip under the board: the title and whose turn it is (or the result), one score
card per seat (its points against the target, and whether it acts, is out, has no pieces
left, won or drew), and a line saying what the last move did.

Every word is in the active catalogue's language (the artist sets it). Card backgrounds and
icons are cached; tags, which carry words, per language; the other words and numbers are
drawn per picture, straight onto it, with the shared fonts held under `DRAWING`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from engine.api import Outcome
from engine.i18n import M, Message, active
from engine.pikemen.describe import describe_events
from engine.pikemen.events import Charged, Turned
from engine.pikemen.state import GameState
from engine.pikemen.words import listed, seat_term
from render import fonts
from render.canvas import Canvas
from render.memo import DRAWING, built_once
from render.pikemen import colours as C
from render.pikemen import sprites
from render.pikemen.layout import PAD, PANEL_TOP, WIDTH
from render.words import catalog

CLEAR = (0, 0, 0, 0)
GAP = 10
TOP_ROW = 34
CARD_TOP = TOP_ROW + 6
CARD_HEIGHT = 86
LINE_Y = CARD_TOP + CARD_HEIGHT + 22  # the baseline-middle of the last line
INNER = WIDTH - 2 * PAD
BAR_HEIGHT = 9
Font = ImageFont.FreeTypeFont | ImageFont.ImageFont

# A card's look: (fill, edge, edge width).
_KINDS: dict[str, tuple[C.RGB, C.RGB, float]] = {
    "waiting": (C.CARD, C.CARD_EDGE, 1.5),
    "to-act": (C.CARD, C.INK, 3.2),
    "winner": (C.mix(C.CARD, C.GOLD, 0.18), C.GOLD, 3.6),
    "drawn": (C.CARD, C.MUTED, 3.0),
    "lost": (C.CARD, C.CARD_EDGE, 1.5),
    "out": (C.OUT_CARD, C.CARD_EDGE, 1.5),
}
_TAGS: dict[str, tuple[Message, C.RGB, C.RGB]] = {
    "to-act": (M("TO ACT"), C.INK, C.WHITE),
    "winner": (M("WINS"), C.GOLD, C.INK),
    "drawn": (M("DRAW"), C.MUTED, C.WHITE),
    "out": (M("OUT"), C.OUT_TEXT, C.WHITE),
    "no-pieces": (M("NO PIECES"), C.CARD_EDGE, C.INK),
}


def card_width(seats: int) -> int:
    return (INNER - (seats - 1) * GAP) // seats


def card_box(seats: int, index: int) -> tuple[int, int, int, int]:
    """A seat's card, in picture pixels."""
    width = card_width(seats)
    left = PAD + index * (width + GAP)
    top = PANEL_TOP + CARD_TOP
    return (left, top, left + width, top + CARD_HEIGHT)


@built_once
def card(width: int, kind: str) -> Image.Image:
    fill, edge, line = _KINDS[kind]
    canvas = Canvas((width, CARD_HEIGHT), CLEAR, scale=3)
    canvas.rect((1, 2, width, CARD_HEIGHT), (0, 0, 0, 40), radius=9)
    canvas.rect((0, 0, width - 1, CARD_HEIGHT - 2), edge, radius=9)
    canvas.rect((line, line, width - 1 - line, CARD_HEIGHT - 2 - line), fill, radius=max(2.0, 9 - line))
    return canvas.result()


@built_once
def tag(kind: str, language: str) -> Image.Image:
    """A card's tag ("TO ACT") in `language`."""
    words_of, fill, ink = _TAGS[kind]
    text = words_of.render(catalog(language))
    font = fonts.display(11 * 3, 800)
    width = font.getlength(text) / 3 + 14
    canvas = Canvas((round(width), 18), CLEAR, scale=3)
    canvas.rect((0, 0, width, 18), fill, radius=9)
    canvas.text((width / 2, 9.5), text, 11, ink, weight=800)
    return canvas.result()


@built_once
def out_icon(seat: str) -> Image.Image:
    """A seat's icon, faded, for a seat that left the game."""
    faded = sprites.icon(seat).copy()
    alpha = faded.getchannel("A").point(lambda a: a * 45 // 100)
    faded.putalpha(alpha)
    return faded


def _face(face: str, size: int) -> Font:
    """'title' (Cinzel black), 'display' (Cinzel bold), 'plain' (the sans of the active language)
    or 'mark' (the sans for numbers, the same in every language) at `size` pixels."""
    if face == "plain":
        return fonts.plain(size)
    if face == "mark":
        return fonts.mark(size)
    return fonts.display(size, 900 if face == "title" else 800)


@built_once
def words(text: str, face: str, size: int, colour: C.RGB) -> tuple[Image.Image, int]:
    """`text` as an RGBA sprite, with the distance from its top to the baseline. Words that
    recur (names, scores, the status) are drawn once; the glyphs' coverage becomes alpha,
    so they blend cleanly onto any background."""
    font = _face(face, size)
    ascent, descent = font.getmetrics() if isinstance(font, ImageFont.FreeTypeFont) else (size, size // 4)
    mask = Image.new("L", (math.ceil(font.getlength(text)) + 4, ascent + descent + 4), 0)
    ImageDraw.Draw(mask).text((2, ascent + 2), text, font=font, fill=255, anchor="ls")
    sprite = Image.new("RGBA", mask.size, (*colour, 255))
    sprite.putalpha(mask)
    return sprite, ascent + 2


def _put(image: Image.Image, made: tuple[Image.Image, int], x: float, baseline: float, *, right: bool = False) -> int:
    """Paste words with their baseline at `baseline`, starting (or, if `right`, ending) at `x`;
    returns the width they take."""
    sprite, top = made
    left = round(x - (sprite.width - 2 if right else 2))
    image.paste(sprite, (left, round(baseline - top)), sprite)
    return sprite.width - 4


def _fit(face: str, text: str, width: float, size: int, smallest: int) -> tuple[int, str]:
    """The largest size from `size` down to `smallest` at which `text` fits `width`, and the
    text, cut with an ellipsis if even the smallest size is too large."""
    cut = "…"
    if face == "plain":
        text, cut = fonts.drawable(text), fonts.drawable(cut)
    for points in range(size, smallest - 1, -1):
        if _face(face, points).getlength(text) <= width:
            return points, text
    font = _face(face, smallest)
    while text and font.getlength(text + cut) > width:
        text = text[:-1]
    return smallest, text.rstrip() + cut


@built_once
def status(text: str) -> tuple[Image.Image, int]:
    """The top right of the panel, sized to fit half its width."""
    size, fitted = _fit("display", text.upper(), INNER / 2, 22, 14)
    return words(fitted, "display", size, C.INK)


def status_words(state: GameState) -> str:
    """The top right of the panel: who acts, or the result in a few words."""
    outcome = state.outcome
    if outcome is None:
        return str(M("{seat} to act", seat=seat_term(state.position.seat_slug)))
    return short_result(outcome, state.position.seats)


def short_result(outcome: Outcome, seats: Sequence[str]) -> str:
    if outcome.winners:
        return str(M("{seats} wins", seats=listed([s for s in seats if s in outcome.winners])))
    drawn = [s for s in seats if s in outcome.drawn]
    return str(M("Draw")) if len(drawn) == len(seats) else str(M("Draw: {seats}", seats=listed(drawn)))


def line_words(state: GameState, events: Sequence[Any], caption: str | None) -> str:
    """The bottom line: a replay's caption, else what the last move did, else the result.
    (English's sans font has no dashes: the consequences of a move become sentences of their
    own, and `fonts.drawable` makes any other dash a hyphen.)"""
    if caption:
        return caption
    if events:
        text = str(describe_events(events)).replace(" — ", ". ")
        return str(M("Last move: {move}", move=text)) if isinstance(events[0], Charged | Turned) else text
    if state.outcome is not None:
        return str(state.outcome.summary)
    return str(M("Charge a pikeman along the way it points, or turn one: the first to the target wins"))


def _kind(state: GameState, seat: int) -> str:
    position, outcome = state.position, state.outcome
    slug = position.seats[seat]
    if position.out[seat]:
        return "out"
    if outcome is None:
        return "to-act" if seat == position.to_act else "waiting"
    if slug in outcome.winners:
        return "winner"
    return "drawn" if slug in outcome.drawn else "lost"


def draw_panel(image: Image.Image, state: GameState, events: Sequence[Any], caption: str | None) -> None:
    position = state.position
    seats = len(position.seats)
    with DRAWING:  # text sprites may be drawn now, with the shared fonts
        _draw_top_row(image, state)
        for seat in range(seats):
            _draw_card(image, state, seat)
        size, text = _fit("plain", line_words(state, events, caption), INNER - 8, 16, 11)
        ImageDraw.Draw(image).text((PAD + 4, PANEL_TOP + LINE_Y), text, font=fonts.plain(size), fill=C.INK, anchor="lm")


def _draw_top_row(image: Image.Image, state: GameState) -> None:
    baseline = PANEL_TOP + TOP_ROW / 2 + 9
    x = PAD + 4
    x += _put(image, words("PIKEMEN", "title", 24, C.INK), x, baseline) + 12
    goal = str(M("first to {target} points", target=state.position.target)).upper()
    _put(image, words(goal, "display", 14, C.MUTED), x, baseline - 1)
    right = WIDTH - PAD - 4
    width = _put(image, status(status_words(state)), right, baseline, right=True)
    if state.outcome is None:  # the seat's colour beside its name
        chip = right - width - 12
        colour = C.SEAT[state.position.seat_slug]
        box = (chip - 18, baseline - 17, chip, baseline + 1)
        ImageDraw.Draw(image).rounded_rectangle(box, 3, fill=colour, outline=C.INK, width=2)


def _draw_card(image: Image.Image, state: GameState, seat: int) -> None:
    position = state.position
    seats = len(position.seats)
    kind = _kind(state, seat)
    left, top, right, _ = card_box(seats, seat)
    slug = position.seats[seat]
    background = card(card_width(seats), kind)
    image.paste(background, (left, top), background)
    icon = out_icon(slug) if kind == "out" else sprites.icon(slug)
    image.paste(icon, (left + 2, top + (CARD_HEIGHT - icon.height) // 2 - 1), icon)
    badge = kind if kind in _TAGS else "no-pieces" if position.counts[seat] == 0 else None
    if badge is not None:
        mark = tag(badge, active().locale)
        image.paste(mark, (right - mark.width - 10, top - mark.height // 2), mark)
    ink = C.OUT_TEXT if kind == "out" else C.INK
    x = left + 66
    size, name = _fit("display", str(seat_term(slug)).upper(), right - 10 - x, 18 if seats < 4 else 16, 12)
    _put(image, words(name, "display", size, ink), x, top + 28)
    score, target = position.scores[seat], position.target
    width = _put(image, words(str(score), "mark", 30, ink), x, top + 53)
    _put(image, words(f"/ {target}", "mark", 15, C.MUTED), x + width + 4, top + 53)
    # The score bar: one notch per point up to the target.
    draw = ImageDraw.Draw(image)
    bar_left, bar_right, bar_top = x, right - 12, top + 62
    draw.rectangle((bar_left, bar_top, bar_right, bar_top + BAR_HEIGHT), fill=C.TRACK, outline=C.CARD_EDGE)
    filled = bar_left + (bar_right - bar_left) * min(score, target) / target
    if score:
        colour = C.OUT_TEXT if kind == "out" else C.SEAT[slug]
        draw.rectangle((bar_left, bar_top, round(filled), bar_top + BAR_HEIGHT), fill=colour, outline=C.INK)
    for point in range(1, target):
        notch = round(bar_left + (bar_right - bar_left) * point / target)
        draw.line((notch, bar_top + 2, notch, bar_top + BAR_HEIGHT - 2), fill=C.CARD_EDGE if notch > filled else C.INK)
