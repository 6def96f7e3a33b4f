"""The board's colours: a classical palette of parchment, terracotta, olive and bronze.

Every flat colour lives here so the PNG palette can hold each one exactly
(see `encode.py`) and tests can look for them.
"""

from __future__ import annotations

from engine.nika.board import City

RGB = tuple[int, int, int]

PARCHMENT: RGB = (238, 227, 200)  # the page around the board
INK: RGB = (52, 36, 24)  # outlines and lettering
LABEL: RGB = (96, 68, 44)  # coordinate labels
SLAB: RGB = (112, 78, 50)  # the board's body, seen in the gutters between squares
SLAB_EDGE: RGB = (74, 50, 32)
PANEL: RGB = (244, 236, 215)  # marble plaque in the central area
MEANDER: RGB = (166, 84, 52)  # terracotta Greek key
BRONZE: RGB = (196, 146, 62)
BRONZE_DARK: RGB = (122, 84, 30)
OLIVE: RGB = (106, 116, 60)
TRAY: RGB = (92, 64, 42)  # recessed box for routed pieces
TRAY_SLOT: RGB = (78, 53, 34)

# Token fill, as the rulebook names them: white, red, blue, black.
CITY: dict[City, RGB] = {
    City.ATHENS: (250, 247, 238),
    City.SPARTA: (186, 50, 36),
    City.MESSENE: (38, 86, 160),
    City.THEBES: (34, 31, 30),
}
# The letter and rim drawn on a token: chosen for contrast with its fill.
CITY_MARK: dict[City, RGB] = {
    City.ATHENS: (52, 36, 24),
    City.SPARTA: (252, 236, 214),
    City.MESSENE: (240, 240, 236),
    City.THEBES: (232, 206, 150),
}
# Home strips and rally areas: a light wash of the city colour.
TINT: dict[City, RGB] = {
    City.ATHENS: (246, 242, 230),
    City.SPARTA: (232, 186, 164),
    City.MESSENE: (190, 206, 228),
    City.THEBES: (180, 172, 158),
}
# Victory areas: the city colour itself, with a laurel in a colour that reads on it.
VICTORY: dict[City, RGB] = {
    City.ATHENS: (250, 247, 238),
    City.SPARTA: (176, 52, 38),
    City.MESSENE: (40, 84, 152),
    City.THEBES: (40, 36, 34),
}
LAUREL: dict[City, RGB] = {
    City.ATHENS: (118, 128, 64),
    City.SPARTA: (236, 196, 120),
    City.MESSENE: (220, 196, 128),
    City.THEBES: (206, 168, 84),
}

# Last-action highlights.
FROM_FILL: RGB = (238, 206, 120)  # where pieces came from
TO_FRAME: RGB = (222, 150, 24)  # where they arrived
PUSH: RGB = (226, 88, 20)  # the path of a pushed piece
ROUT: RGB = (176, 18, 28)  # where a routed piece fell
RALLY_MARK: RGB = (46, 150, 84)  # a piece returned to the board
WHITE: RGB = (255, 255, 255)
SHADOW: RGB = (0, 0, 0)

FLAT_COLOURS: tuple[RGB, ...] = (
    PARCHMENT, INK, LABEL, SLAB, SLAB_EDGE, PANEL, MEANDER, BRONZE, BRONZE_DARK, OLIVE, TRAY, TRAY_SLOT,
    *CITY.values(), *CITY_MARK.values(), *TINT.values(), *VICTORY.values(), *LAUREL.values(),
    FROM_FILL, TO_FRAME, PUSH, ROUT, RALLY_MARK, WHITE,
)  # fmt: skip


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """The colour `t` of the way from `a` to `b`."""
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


TRAY_WOOD: RGB = mix(PARCHMENT, SLAB, 0.42)  # the floor of a tray of routed pieces
