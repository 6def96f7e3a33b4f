"""Lines of text set from cached words, for the words that change with every picture (what the
last move did, a replay frame's caption).

FreeType takes milliseconds here to render a line, several times what the rest of a board
costs; a line's words recur (square names, seats, verbs), so each word is rendered once per
face, colour and language and a line is a few pastes. Words are placed at their own widths
plus the face's space, rounded to whole pixels: within a pixel of one rendering of the line.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TypeVar

from PIL import Image, ImageDraw, ImageFont

from engine.i18n import active
from render import fonts
from render.compose import Picture
from render.memo import DRAWING

RGB = tuple[int, int, int]
Font = ImageFont.FreeTypeFont | ImageFont.ImageFont
WORDS_KEPT = 4096
ELLIPSIS = "…"


@dataclass(frozen=True, slots=True)
class Face:
    """How words look: `kind` is "display" (Cinzel, at `weight`), "plain" (the sans of the active
    language) or "mark" (the English sans in every language, for numbers and coordinates)."""

    kind: str
    size: int
    weight: int = 700

    def font(self) -> Font:
        if self.kind == "plain":
            return fonts.plain(self.size)
        if self.kind == "mark":
            return fonts.mark(self.size)
        return fonts.display(self.size, self.weight)

    def smaller(self, size: int) -> Face:
        return Face(self.kind, size, self.weight)


@dataclass(frozen=True, slots=True)
class Word:
    text: str
    sprite: Image.Image  # the word in its colour, its coverage as alpha
    ascent: int  # from the sprite's top to the baseline
    width: float  # the advance, without the 2-pixel margins of the sprite


# Kept words and advances by face (and colour) and language, then by text: a line looks up each of
# its words twice or three times, and a key made of the text alone is hashed once, with the string.
_words: dict[tuple[Face, RGB, str], dict[str, Word]] = {}
_advances: dict[tuple[Face, str], dict[str, float]] = {}
_counts = {"words": 0, "advances": 0}


def word(text: str, face: Face, colour: RGB) -> Word:
    """One word, rendered once per face, colour and language, and kept while it recurs."""
    kept = _words.get((face, colour, active().locale))
    found = kept.get(text) if kept is not None else None  # a hit needs no lock
    if found is not None:
        return found
    with DRAWING:  # the shared fonts serve one thread at a time
        kept = _words.get((face, colour, active().locale))
        found = kept.get(text) if kept is not None else None  # drawn by another thread meanwhile
        if found is not None:
            return found
        font = face.font()
        ascent, descent = font.getmetrics() if isinstance(font, ImageFont.FreeTypeFont) else (face.size, face.size // 4)
        width = advance(text, face)
        mask = Image.new("L", (math.ceil(width) + 4, ascent + descent + 4), 0)
        ImageDraw.Draw(mask).text((2, ascent + 2), text, font=font, fill=255, anchor="ls")
        sprite = Image.new("RGBA", mask.size, (*colour, 255))
        sprite.putalpha(mask)
        return _keep(_words, (face, colour, active().locale), text, Word(text, sprite, ascent + 2, width), "words")


def advance(text: str, face: Face) -> float:
    """How far one word moves the pen in `face`, in the active language: measured once, and
    without drawing it, so trying a line at several sizes draws only the size it is set in."""
    kept = _advances.get((face, active().locale))
    found = kept.get(text) if kept is not None else None
    if found is None:
        with DRAWING:  # the shared fonts serve one thread at a time
            found = _keep(_advances, (face, active().locale), text, face.font().getlength(text), "advances")
    return found


K = TypeVar("K")
V = TypeVar("V")


def _keep(store: dict[K, dict[str, V]], key: K, text: str, value: V, count: str) -> V:
    """`value` kept for `text` under `key`, each one kept counted against WORDS_KEPT; past it,
    all are forgotten (the words that recur come back). Under DRAWING."""
    _counts[count] += 1
    if _counts[count] > WORDS_KEPT:
        store.clear()
        _counts[count] = 1
    store.setdefault(key, {})[text] = value
    return value


def width(parts: list[str], face: Face) -> float:
    """The width of words set on one line in `face` (as `Line.width`), without drawing them."""
    kept = _advances.get((face, active().locale)) or {}
    total = 0.0
    for part in parts:
        found = kept.get(part)
        total += advance(part, face) if found is None else found
    return total + _space(face) * max(0, len(parts) - 1)


@dataclass(frozen=True, slots=True)
class Line:
    """Words of one face and colour, and the space between them."""

    face: Face
    words: tuple[Word, ...]
    space: float

    @property
    def width(self) -> float:
        return sum(w.width for w in self.words) + self.space * max(0, len(self.words) - 1)


def line(text: str, face: Face, colour: RGB) -> Line:
    kept = _words.get((face, colour, active().locale)) or {}
    return Line(face, tuple(kept.get(part) or word(part, face, colour) for part in text.split()), _space(face))


_spaces: dict[tuple[Face, str], float] = {}


_metrics_of: dict[tuple[Face, str], tuple[int, int]] = {}


def _metrics(face: Face) -> tuple[int, int]:
    """(ascent, descent) of `face` in the active language, asked of FreeType once."""
    key = (face, active().locale)
    found = _metrics_of.get(key)
    if found is None:
        with DRAWING:
            font = face.font()
            found = font.getmetrics() if isinstance(font, ImageFont.FreeTypeFont) else (face.size, 0)
            _metrics_of[key] = found
    return found


def _space(face: Face) -> float:
    """The width of a space in `face` (measured once per language: a call to FreeType costs more
    than a line of cached words)."""
    key = (face, active().locale)
    found = _spaces.get(key)
    if found is None:
        with DRAWING:
            found = _spaces[key] = face.font().getlength(" ")
    return found


def fit(text: str, room: float, face: Face, colour: RGB, smallest: int) -> Line:
    """`text` at the largest size from `face`'s down to `smallest` at which it fits in `room`
    pixels, cut after a word with an ellipsis if even the smallest size is too large."""
    if face.kind == "plain":
        text = fonts.drawable(text)
    parts = text.split()
    for size in range(face.size, smallest - 1, -1):  # measured, not drawn, until one fits
        sized = face.smaller(size)
        if width(parts, sized) <= room:
            return line(text, sized, colour)
    cut = fonts.drawable(ELLIPSIS) if face.kind == "plain" else ELLIPSIS
    while len(parts) > 1 and width([*parts[:-1], parts[-1] + cut], sized) > room:
        parts.pop()
    return line(" ".join(parts).rstrip(",;:.") + cut, sized, colour)


def wrap(text: str, room: float, face: Face, colour: RGB, lines: int, smallest: int) -> list[Line]:
    """`text` broken into at most `lines` lines of at most `room` pixels, at the largest size from
    `face`'s down to `smallest` at which it fits; the last line cut with an ellipsis if even the
    smallest size is too large (`fits` says whether it is)."""
    if face.kind == "plain":
        text = fonts.drawable(text)
    parts = text.split()
    for size in range(face.size, smallest - 1, -1):  # measured, not drawn, until one fits
        sized = face.smaller(size)
        broken = _broken(parts, room, sized)
        if len(broken) <= lines and all(width(words, sized) <= room for words in broken):
            return [line(" ".join(words), sized, colour) for words in broken]
    sized = face.smaller(smallest)
    kept = _broken(parts, room, sized)[: lines - 1]
    used = sum(len(words) for words in kept)
    last = fit(" ".join(parts[used:]), room, sized, colour, smallest)
    return [*(line(" ".join(words), sized, colour) for words in kept), last]


def fits(text: str, room: float, face: Face, lines: int) -> bool:
    """Whether `text` fits in `lines` lines of `room` pixels in `face`."""
    found = _broken(text.split(), room, face)
    return len(found) <= lines and all(width(words, face) <= room for words in found)


def _broken(parts: list[str], room: float, face: Face) -> list[list[str]]:
    """Words onto lines, as many on each as fit, measured without drawing them."""
    lines: list[list[str]] = []
    for part in parts:
        if lines and width([*lines[-1], part], face) <= room:
            lines[-1].append(part)
        else:
            lines.append([part])
    return lines


def set_line(
    picture: Picture, text: Line, at: tuple[float, float], *, anchor: str = "ls", on: RGB | None = None
) -> None:
    """Paste a line at `at`, placed as Pillow's anchors do: "l", "m" or "r" across, then "s" (the
    baseline) or "m" (the middle of the font's height) up and down. `on`: the flat colour under
    the whole line, if it is one."""
    x, y = at
    x -= {"l": 0.0, "m": text.width / 2, "r": text.width}[anchor[0]]
    if anchor[1] == "m":
        ascent, descent = _metrics(text.face)
        y += (ascent - descent) / 2
    placed = []
    for found in text.words:
        placed.append((found.sprite, (round(x) - 2, round(y) - found.ascent)))
        x += found.width + text.space
    if on is not None:
        picture.stamp_all([(sprite, at, on) for sprite, at in placed])
    else:
        for sprite, at in placed:
            picture.paste(sprite, at)
