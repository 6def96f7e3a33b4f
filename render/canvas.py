"""Anti-aliased drawing: draw at several times the size, then shrink once.

Pillow's primitives have hard edges; everything drawn once and cached (the
static board, the sprites) goes through a `Canvas` to get smooth ones. Callers
use final-image pixel coordinates; the canvas scales them. Canvases are only
drawn on inside `memo.built_once` builders, which also keeps the shared
FreeType fonts to one thread at a time.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from render import fonts

Point = tuple[float, float]
Colour = tuple[int, ...]


class Canvas:
    def __init__(self, size: tuple[int, int], background: Colour, *, scale: int = 4, mode: str = "RGBA") -> None:
        self.size = size
        self.scale = scale
        self.image = Image.new(mode, (size[0] * scale, size[1] * scale), background)
        self.draw = ImageDraw.Draw(self.image)

    def _xy(self, points: Sequence[Point]) -> list[tuple[float, float]]:
        s = self.scale
        return [(x * s, y * s) for x, y in points]

    def _box(self, box: Sequence[float]) -> tuple[float, float, float, float]:
        s = self.scale
        return (box[0] * s, box[1] * s, box[2] * s - 1, box[3] * s - 1)

    def rect(
        self,
        box: Sequence[float],
        fill: Colour | None = None,
        *,
        radius: float = 0,
        outline: Colour | None = None,
        width: float = 0,
    ) -> None:
        self.draw.rounded_rectangle(
            self._box(box), radius=radius * self.scale, fill=fill, outline=outline, width=round(width * self.scale)
        )

    def ellipse(
        self, box: Sequence[float], fill: Colour | None = None, *, outline: Colour | None = None, width: float = 0
    ) -> None:
        self.draw.ellipse(self._box(box), fill=fill, outline=outline, width=round(width * self.scale))

    def circle(
        self,
        centre: Point,
        radius: float,
        fill: Colour | None = None,
        *,
        outline: Colour | None = None,
        width: float = 0,
    ) -> None:
        x, y = centre
        self.ellipse((x - radius, y - radius, x + radius, y + radius), fill, outline=outline, width=width)

    def polygon(self, points: Sequence[Point], fill: Colour | None = None) -> None:
        self.draw.polygon(self._xy(points), fill=fill)

    def line(self, points: Sequence[Point], fill: Colour, width: float, *, round_joints: bool = True) -> None:
        self.draw.line(self._xy(points), fill=fill, width=max(1, round(width * self.scale)))
        if round_joints:  # Pillow's "curve" joint leaves gaps on thick polylines; caps and joints as discs
            r = width / 2
            for point in points:
                self.circle(point, r, fill)

    def text(
        self,
        centre: Point,
        text: str,
        size: float,
        fill: Colour,
        *,
        plain: bool = False,
        mark: bool = False,
        weight: int = 700,
        stroke: float = 0,
        stroke_fill: Colour | None = None,
        anchor: str = "mm",
    ) -> None:
        """Text placed by a Pillow anchor (centred by default); Cinzel capitals unless `plain`
        (words in the sans of the active language) or `mark` (coordinates and numbers, which
        look the same in every language)."""
        x, y = centre
        px = round(size * self.scale)
        font = fonts.mark(px) if mark else fonts.plain(px) if plain else fonts.display(px, weight)
        self.draw.text(
            (x * self.scale, y * self.scale),
            text,
            font=font,
            fill=fill,
            anchor=anchor,
            stroke_width=round(stroke * self.scale),
            stroke_fill=stroke_fill,
        )

    def result(self) -> Image.Image:
        """The drawing shrunk to its final size, smoothly."""
        return self.image.resize(self.size, Image.Resampling.LANCZOS)
