"""A plain picture for a game without an artist of its own: its title, whose turn it is
or how it ended, and the position in notation. It keeps the host able to show any
registered game; the built-in games all have artists of their own."""

from __future__ import annotations

import textwrap
from typing import Any

from PIL import Image, ImageDraw

from engine.registry import get_game
from render import fonts
from render.api import Recent
from render.encode import learn_palette, to_palette
from render.memo import DRAWING, built_once

WIDTH, HEIGHT = 640, 360
INK = (40, 36, 30)
PAPER = (245, 238, 222)
LINE = (140, 120, 90)


@built_once
def _palette() -> Image.Image:
    ramp = Image.linear_gradient("L").resize((16, 256))
    swatch = Image.composite(Image.new("RGB", ramp.size, INK), Image.new("RGB", ramp.size, PAPER), ramp)
    return learn_palette([INK, PAPER, LINE], swatch)


class PlainArtist:
    def __init__(self, slug: str) -> None:
        self.slug = slug

    def _lines(self, state: Any, recent: Recent) -> list[str]:
        game = get_game(self.slug)
        outcome = game.outcome(state)
        status = str(outcome.summary) if outcome else f"{game.to_act(state) or 'setup'} to act"
        lines = [game.title, status]
        if recent:
            lines.append(f"Last: {game.describe(recent[-1])}")
        lines.append(game.notation(state))
        return lines

    def picture(
        self, state: Any, recent: Recent = (), *, perspective: str | None = None, caption: str | None = None,
        title: str | None = None, locale: str = "en",
    ) -> Image.Image:  # fmt: skip
        lines = self._lines(state, recent) + [text for text in (title, caption) if text]
        image = Image.new("RGB", (WIDTH, HEIGHT), PAPER)
        draw = ImageDraw.Draw(image)
        draw.rectangle((8, 8, WIDTH - 9, HEIGHT - 9), outline=LINE, width=2)
        y = 40
        with DRAWING:  # the shared fonts serve one thread at a time
            for index, line in enumerate(lines):
                for part in textwrap.wrap(line, 48) or [""]:
                    size = 28 if index == 0 else 18
                    draw.text((24, y), part, font=fonts.plain(size), fill=INK, anchor="ls")
                    y += size + 10
        return to_palette(image, _palette())

    def alt_text(self, state: Any, recent: Recent = (), *, locale: str = "en", title: str | None = None) -> str:
        return ". ".join([*([title] if title else []), *self._lines(state, recent)])[:1024]

    def palette(self) -> Image.Image:
        return _palette()

    def warm_up(self) -> None:
        fonts.plain(18)
