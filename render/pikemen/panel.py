"""The strip under the board: the title and whose turn it is (or the result), one score
card per seat (its points against the target, and whether it acts, is out, has no pieces
left, won or drew), and a line saying what the last move did.

Every word is in the active catalogue's language (the artist sets it). Card backgrounds and
icons are cached; tags, which carry words, per language; the other words and numbers are
drawn per picture, straight onto it, with the shared fonts held under `DRAWING`. The top row
and the cards, once drawn on a board, are kept whole for the next boards that show the same
(`render.compose.Picture.kept`): scores and the turn change far less often than the last line.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from engine.api import Outcome
from engine.i18n import M, Message, active
from engine.pikemen.events import Charged, Turned
from engine.pikemen.state import GameState
from engine.pikemen.words import listed, seat_term
from render import fonts, typeset
from render.canvas import Canvas
from render.compose import Picture
from render.memo import DRAWING, built_once
from render.pikemen import colours as C
from render.pikemen import sprites
from render.pikemen.description import described
from render.pikemen.layout import PAD, PANEL_TOP, WIDTH
from render.words import catalog

CLEAR = (0, 0, 0, 0)
GAP = 10
TOP_ROW = 34
CARD_TOP = TOP_ROW + 6
CARD_HEIGHT = 86
LINE_Y = CARD_TOP + CARD_HEIGHT + 22  # the baseline-middle of the last line
LINE_FACE = typeset.Face("plain", 16)
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


def _put(picture: Picture, made: tuple[Image.Image, int], x: float, baseline: float, *, right: bool = False) -> int:
    """Paste words on the page with their baseline at `baseline`, starting (or, if `right`,
    ending) at `x`; returns the width they take."""
    sprite, top = made
    left = round(x - (sprite.width - 2 if right else 2))
    picture.paste(sprite, (left, round(baseline - top)), on=C.PAGE)
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
def _name_fit(name: str, width: float, size: int) -> tuple[int, str]:
    return _fit("display", name, width, size, 12)


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
        text = described(events).replace(" — ", ". ")
        return str(M("Last move: {move}", move=text)) if isinstance(events[0], Charged | Turned) else text
    if state.outcome is not None:
        return str(state.outcome.summary)
    return str(M("Charge a pikeman along the way it points, or turn one: the first to the target wins"))


def _kind(state: GameState, seat: int, replay: bool) -> str:
    position, outcome = state.position, state.outcome
    slug = position.seats[seat]
    if position.out[seat]:
        return "out"
    if outcome is None:
        return "to-act" if seat == position.to_act and not replay else "waiting"
    if slug in outcome.winners:
        return "winner"
    return "drawn" if slug in outcome.drawn else "lost"


def draw_panel(
    picture: Picture, state: GameState, events: Sequence[Any], caption: str | None, title: str | None = None
) -> None:
    """The panel under the board. A picture with a `title` (a replay frame, a rules example)
    shows it where a live board says whose turn it is, and does not mark the turn: in a replay a
    mark moving from card to card, and a status naming the next seat, would change most of the
    panel in every frame of the GIF, and the caption says who moved."""
    position = state.position
    seats = len(position.seats)
    replay = title is not None
    top, cards = _keys(state, title)
    with DRAWING:  # text sprites may be drawn now, with the shared fonts
        # The top row and the cards, kept whole while the scores and turn stand; else each card
        # kept on its own, as most of them stand when one changes.
        with picture.kept(("pikemen cards", top, cards)) as done:
            if not done:
                with picture.kept(top) as top_done:
                    if not top_done:
                        picture.stamp_all(_top_row(state, title))
                for seat in range(seats):
                    with picture.kept(cards[seat]) as card_done:
                        if not card_done:
                            card, (bar, at) = _card(state, seat, replay)
                            picture.stamp_all(card)
                            picture.put(bar, at)  # on the card
        line = typeset.fit(line_words(state, events, caption), INNER - 8, LINE_FACE, C.INK, 11)
        typeset.set_line(picture, line, (PAD + 4, PANEL_TOP + LINE_Y), anchor="lm", on=C.PAGE)


Stamp = tuple[Image.Image, tuple[int, int], C.RGB]  # a sprite, its top left, the flat colour under it


def _keys(state: GameState, title: str | None) -> tuple[tuple[object, ...], tuple[tuple[object, ...], ...]]:
    """Everything the top row shows (`_top_row`), and each card (`_card`), in the active language."""
    position, replay, outcome, language = state.position, title is not None, state.outcome, active().locale
    # What the top row's right says, by what decides it: its words cost more to write.
    says: object = title if replay and outcome is None else (outcome.winners, outcome.drawn) if outcome else None
    top = ("pikemen top", language, position.target, says, outcome is None and position.seat_slug)
    seats = len(position.seats)
    cards = tuple(("pikemen card", language, seats, seat, _kind(state, seat, replay), slug, position.counts[seat] == 0,
                   position.scores[seat], position.target) for seat, slug in enumerate(position.seats))  # fmt: skip
    return top, cards


def _top_row(state: GameState, title: str | None) -> list[Stamp]:
    top = PANEL_TOP + round(TOP_ROW / 2 + 9) - ROW_BASELINE
    if title is not None and state.outcome is None:
        strip = status_strip(title, None)
    else:
        chip = C.SEAT[state.position.seat_slug] if state.outcome is None else None
        strip = status_strip(status_words(state), chip)
    return [(heading(state.position.target), (PAD + 4 - 2, top), C.PAGE),
            (strip, (WIDTH - PAD - 4 + 2 - strip.width, top), C.PAGE)]  # fmt: skip


ROW_BASELINE = 34  # the top row's baseline in its sprites: below the tallest word's top


@built_once
def heading(target: int) -> Image.Image:
    """The top row's left: the game's name and the target, in the active language."""
    title, title_top = words("PIKEMEN", "title", 24, C.INK)
    goal, goal_top = words(str(M("first to {target} points", target=target)).upper(), "display", 14, C.MUTED)
    depth = max(title.height - title_top, goal.height - goal_top)
    strip = Image.new("RGBA", (title.width - 4 + 12 + goal.width, ROW_BASELINE + depth), CLEAR)
    strip.alpha_composite(title, (0, ROW_BASELINE - title_top))
    strip.alpha_composite(goal, (title.width - 4 + 12, ROW_BASELINE - 1 - goal_top))
    return strip


@built_once
def status_strip(text: str, chip: C.RGB | None) -> Image.Image:
    """The top row's right: who acts (after a chip of their colour) or the result, right-aligned."""
    written, written_top = status(text)
    room = 18 + 10 if chip is not None else 0
    strip = Image.new("RGBA", (written.width + room, ROW_BASELINE + written.height - written_top), CLEAR)
    strip.alpha_composite(written, (room, ROW_BASELINE - written_top))
    if chip is not None:  # the seat's colour beside its name
        ImageDraw.Draw(strip).rounded_rectangle((0, ROW_BASELINE - 17, 18, ROW_BASELINE + 1), 3, fill=chip,
                                                outline=C.INK, width=2)  # fmt: skip
    return strip


def _card(state: GameState, seat: int, replay: bool) -> tuple[list[Stamp], tuple[Image.Image, tuple[int, int]]]:
    """A seat's card, to be stamped on the page, and its score bar, to go on it."""
    position = state.position
    seats = len(position.seats)
    kind = _kind(state, seat, replay)
    left, top, right, _ = card_box(seats, seat)
    slug = position.seats[seat]
    badge = kind if kind in _TAGS else "no-pieces" if position.counts[seat] == 0 else None
    x = left + NAME_LEFT
    score, target = position.scores[seat], position.target
    numbers, baseline = score_words(score, target, C.OUT_TEXT if kind == "out" else C.INK)
    bar = score_bar(right - 12 - x, min(score, target), target, C.OUT_TEXT if kind == "out" else C.SEAT[slug])
    return [(card_face(seats, kind, slug, badge), (left, top - TAG_ROOM), C.PAGE),
            (numbers, (x - 2, top + 53 - baseline), _KINDS[kind][0])], (bar, (x, top + 62))  # fmt: skip


TAG_ROOM = 9  # a card's tag overhangs its top edge by half its height
NAME_LEFT = 66


@built_once
def card_face(seats: int, kind: str, slug: str, badge: str | None) -> Image.Image:
    """A seat's card as its kind shows it, in the active language: the background, the seat's
    icon, its tag ("TO ACT") and its name; `TAG_ROOM` above the card for the tag."""
    width = card_width(seats)
    face = Image.new("RGBA", (width, CARD_HEIGHT + TAG_ROOM), CLEAR)
    face.alpha_composite(card(width, kind), (0, TAG_ROOM))
    icon = out_icon(slug) if kind == "out" else sprites.icon(slug)
    face.alpha_composite(icon, (2, TAG_ROOM + (CARD_HEIGHT - icon.height) // 2 - 1))
    if badge is not None:
        mark = tag(badge, active().locale)
        face.alpha_composite(mark, (width - mark.width - 10, TAG_ROOM - mark.height // 2))
    size, name = _name_fit(str(seat_term(slug)).upper(), width - 10 - NAME_LEFT, 18 if seats < 4 else 16)
    written, baseline = words(name, "display", size, C.OUT_TEXT if kind == "out" else C.INK)
    face.alpha_composite(written, (NAME_LEFT - 2, TAG_ROOM + 28 - baseline))
    return face


@built_once
def score_words(score: int, target: int, ink: C.RGB) -> tuple[Image.Image, int]:
    """"7 / 12": the score large, the target small, on one baseline (and that baseline's row)."""
    big, big_top = words(str(score), "mark", 30, ink)
    small, small_top = words(f"/ {target}", "mark", 15, C.MUTED)
    top = max(big_top, small_top)
    width = big.width - 4 + 4 + small.width
    sheet = Image.new("RGBA", (width, top + max(big.height - big_top, small.height - small_top)), CLEAR)
    sheet.alpha_composite(big, (0, top - big_top))
    sheet.alpha_composite(small, (big.width - 4 + 4, top - small_top))
    return sheet, top


@built_once
def score_bar(length: int, score: int, target: int, colour: C.RGB) -> Image.Image:
    """The score bar, one notch per point up to the target, filled in the seat's colour up to its score."""
    bar = Image.new("RGB", (length + 1, BAR_HEIGHT + 1), C.TRACK)
    draw = ImageDraw.Draw(bar)
    draw.rectangle((0, 0, length, BAR_HEIGHT), fill=C.TRACK, outline=C.CARD_EDGE)
    filled = length * score / target
    if score:
        draw.rectangle((0, 0, round(filled), BAR_HEIGHT), fill=colour, outline=C.INK)
    for point in range(1, target):
        notch = round(length * point / target)
        draw.line((notch, 2, notch, BAR_HEIGHT - 2), fill=C.CARD_EDGE if notch > filled else C.INK)
    return bar
