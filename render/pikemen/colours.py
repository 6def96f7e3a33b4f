"""Pikemen's colours. Every flat colour lives here so the PNG palette holds each exactly.

The four seat colours were chosen to stay apart for red-green (protan, deutan) and
blue-yellow (tritan) colour blindness: besides hue they differ in lightness (yellow
lightest, then green, red, blue darkest), and every piece also carries its seat's sign.
"""

from __future__ import annotations

RGB = tuple[int, int, int]

PAGE: RGB = (241, 235, 222)  # around the board
INK: RGB = (40, 32, 26)  # outlines and lettering
MUTED: RGB = (112, 98, 84)  # secondary text
FRAME: RGB = (86, 60, 42)  # the board's walnut frame
FRAME_EDGE: RGB = (58, 40, 28)
FRAME_TEXT: RGB = (236, 220, 190)  # coordinates on the frame
LIGHT: RGB = (234, 224, 202)  # light squares
DARK: RGB = (200, 184, 156)  # dark squares
CARD: RGB = (250, 246, 237)  # a seat's score card
CARD_EDGE: RGB = (206, 194, 172)
TRACK: RGB = (226, 216, 196)  # the empty part of a score bar
OUT_CARD: RGB = (228, 224, 216)  # a seat that left the game
OUT_TEXT: RGB = (150, 142, 132)
WHITE: RGB = (255, 255, 255)

SEAT: dict[str, RGB] = {
    "red": (190, 30, 36),
    "yellow": (250, 214, 86),
    "green": (64, 178, 132),
    "blue": (30, 62, 196),
}
# The sign on a piece: whichever of ink and white reads better on the seat colour.
SEAT_MARK: dict[str, RGB] = {"red": WHITE, "yellow": INK, "green": INK, "blue": WHITE}
# Each seat's sign, a shape that needs no language (render/pikemen/sprites.seat_sign).
SEAT_SIGN: dict[str, str] = {"red": "cross", "yellow": "diamond", "green": "star", "blue": "bar"}

# The last move.
FROM_WASH: RGB = (246, 200, 92)  # the square the piece left
PATH: RGB = (226, 142, 20)  # its way
TO_FRAME: RGB = (214, 120, 10)  # where it arrived or turned
CAPTURE: RGB = (200, 24, 40)  # the capture seal
TURN: RGB = (32, 120, 190)  # the "turned" seal
GOLD: RGB = (212, 160, 40)  # the winner's card


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """The colour `t` of the way from `a` to `b`."""
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


def shade(colour: RGB, amount: float) -> RGB:
    """Lighter toward white for positive `amount`, darker toward black for negative."""
    return mix(colour, WHITE, amount) if amount >= 0 else mix(colour, (0, 0, 0), -amount)


FLAT_COLOURS: tuple[RGB, ...] = (
    PAGE, INK, MUTED, FRAME, FRAME_EDGE, FRAME_TEXT, LIGHT, DARK, CARD, CARD_EDGE, TRACK, OUT_CARD, OUT_TEXT,
    WHITE, *SEAT.values(), FROM_WASH, PATH, TO_FRAME, CAPTURE, TURN, GOLD,
)  # fmt: skip
