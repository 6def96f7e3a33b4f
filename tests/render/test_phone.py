"""On a phone Discord shows the board about 400 px wide: a third of its size. Facings,
coordinates, the status line and the actions' numbers must still read there."""

import itertools

import pytest
from PIL import Image

from engine.nika.board import City, Direction
from engine.nika.position import Piece, Position
from engine.nika.state import GameState
from render.nika import colours as C
from render.nika.layout import CELL, MARGIN, SCREEN_STEP, layout_for
from render.nika.sprites import TOKEN_BACKSET, TOKEN_RADIUS
from render.nika.static_board import panel_box
from render.nika.status import text_column

from .pictures import board_image, sq

PHONE = 400
# Apart, so that no two form a phalanx and get linked.
SPREAD = ["e5", "g5", "i5", "k5", "e11", "g11", "i11", "k11", "m5", "o5", "m11", "o11", "p4", "r4", "p12", "r12"]


def phone(image: Image.Image) -> tuple[Image.Image, float]:
    """The board as a phone shows it, and the factor from board pixels to phone pixels."""
    width, height = image.size
    return image.resize((PHONE, round(height * PHONE / width)), Image.Resampling.LANCZOS), PHONE / width


def _luminance(colour) -> float:
    def linear(value: int) -> float:
        v = value / 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(v) for v in colour[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a, b) -> float:
    """The WCAG contrast ratio of two colours (1 to 21)."""
    light, dark = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def ink_rows(image: Image.Image, box, background, ratio: float = 4.5) -> tuple[int, float]:
    """(how many pixel rows, what share of the pixels) in `box` of a phone image contrast with
    the background at least `ratio`:1 — readable strokes, not a blur of the background."""
    region = image.crop(tuple(round(v) for v in box))
    rows, inked = set(), 0
    for y in range(region.height):
        for x in range(region.width):
            if contrast(region.getpixel((x, y)), background) >= ratio:
                rows.add(y)
                inked += 1
    return len(rows), inked / (region.width * region.height)


def _distance(a, b) -> int:
    return sum((x - y) ** 2 for x, y in zip(a, b, strict=True))


def _nearest_is_bronze(colour, city: City) -> bool:
    """Closer to bronze than to the city's colour, its letter's colour or the ink outline."""
    others = (C.CITY[city], C.CITY_MARK[city], C.INK)
    return all(_distance(colour, C.BRONZE) < _distance(colour, other) for other in others)


def _bronze_shares(small: Image.Image, scale: float, piece: Piece) -> tuple[float, float]:
    """The share of bronze in the front half of a token's disc and in its back half, on the phone."""
    x, y = layout_for(None).center(piece.square)
    dx, dy = SCREEN_STEP[layout_for(None).screen(piece.facing)]
    cx, cy = x - dx * TOKEN_BACKSET, y - dy * TOKEN_BACKSET
    counts = {"front": [0, 0], "back": [0, 0]}
    reach = TOKEN_RADIUS + 2
    for px in range(int((cx - reach) * scale), int((cx + reach) * scale) + 2):
        for py in range(int((cy - reach) * scale), int((cy + reach) * scale) + 2):
            rx, ry = (px + 0.5) / scale - cx, (py + 0.5) / scale - cy
            ahead = rx * dx + ry * dy
            if rx * rx + ry * ry > (TOKEN_RADIUS - 1) ** 2 or abs(ahead) < 1:
                continue
            half = counts["front" if ahead > 0 else "back"]
            half[0] += _nearest_is_bronze(small.getpixel((px, py)), piece.city)
            half[1] += 1
    return counts["front"][0] / counts["front"][1], counts["back"][0] / counts["back"][1]


@pytest.mark.parametrize("city", list(City))
def test_every_facing_reads_at_phone_size(city):
    """The spearhead fills most of the front of the shield and little of its back: on a phone
    the facing shows as a bronze point on a disc of the city's colour, whichever the city."""
    pieces = [Piece(city, sq(name), facing) for name, facing in zip(SPREAD, Direction, strict=False)]
    small, scale = phone(board_image(GameState.from_position(Position.from_pieces(pieces, City.ATHENS, 2))))
    for piece in pieces:
        front, back = _bronze_shares(small, scale, piece)
        assert front >= 0.6 and back <= 0.25, (piece, front, back)


@pytest.mark.parametrize("perspective", [None, City.SPARTA])
def test_coordinates_read_at_phone_size(perspective):
    layout = layout_for(perspective)
    image = board_image(GameState.start(), perspective=perspective)
    width, height = image.size
    small, scale = phone(image)
    labels = []
    for column in range(layout.columns):
        x = MARGIN + column * CELL
        labels += [(layout.column_label(column), (x, y, x + CELL, y + MARGIN)) for y in (0, height - MARGIN)]
    for row in range(layout.rows):
        y = MARGIN + row * CELL
        labels += [(layout.row_label(row), (x, y, x + MARGIN, y + CELL)) for x in (0, width - MARGIN)]
    for label, box in labels:
        rows, _ = ink_rows(small, [v * scale for v in box], C.PARCHMENT)
        assert rows >= 5, (label, rows)  # even a lowercase letter's x-height keeps full-contrast strokes


@pytest.mark.parametrize("city", list(City))
@pytest.mark.parametrize("actions_left", [1, 2])
def test_whose_turn_and_the_actions_left_read_at_phone_size(city, actions_left):
    state = GameState.from_position(Position.from_pieces([], city, actions_left))
    small, scale = phone(board_image(state))
    left, top, right, bottom = panel_box(layout_for(None))
    column = text_column((right - left, bottom - top))
    line = (left + column, top + (bottom - top) * 0.55, right - 50, bottom - 4)  # "2 actions left", not the pips
    rows, share = ink_rows(small, [v * scale for v in line], C.PANEL)
    assert rows >= 6 and share >= 0.04, (rows, share)


def test_the_turned_boards_status_reads_at_phone_size():
    state = GameState.start()
    small, scale = phone(board_image(state, perspective=City.SPARTA))
    left, top, right, bottom = panel_box(layout_for(City.SPARTA))
    words = (left + 4, top + (bottom - top) * 0.45, right - 4, bottom - 4)  # "to act", the actions left
    _, share = ink_rows(small, [v * scale for v in words], C.PANEL)
    assert share >= 0.02


def test_action_badges_read_at_phone_size():
    """A player back after a round reads every action's number on a phone: each digit keeps five
    or more rows of strokes in clear contrast with its disc (the shared size kept one to three)."""
    from render.nika.highlights import highlights
    from render.nika.numbering import badges
    from render.nika.sprites import BADGE_RADIUS

    from .pictures import play_all, recent_image
    from .test_recent_actions import ROUND, ROUND_ACTIONS

    state, recent = play_all(ROUND, *ROUND_ACTIONS)
    small, scale = phone(recent_image(state, recent))
    found = [b for b in badges(layout_for(None), state.position, [highlights(e) for e in recent]) if not b.passed]
    assert len(found) == 5
    for badge in found:
        x, y = badge.centre
        box = [(x - BADGE_RADIUS * 0.6) * scale, (y - BADGE_RADIUS * 0.75) * scale,
               (x + BADGE_RADIUS * 0.6) * scale, (y + BADGE_RADIUS * 0.75) * scale]  # fmt: skip
        rows, _ = ink_rows(small, box, C.CITY[badge.city], 3.0)
        assert rows >= 5, (badge, rows)


def test_the_cities_pieces_stay_apart_at_phone_size():
    """At a third of the size a square is 18 px: the shields' colours tell the cities apart on
    their own, in lightness too for a reader without colour vision (and their signs as well,
    `test_every_citys_sign_reads_at_phone_size`)."""
    pieces = [Piece(city, sq(name), Direction.N) for city, name in zip(City, ("e5", "i5", "m5", "p5"), strict=True)]
    small, scale = phone(board_image(GameState.from_position(Position.from_pieces(pieces, City.ATHENS, 2))))
    backs = {}
    for piece in pieces:
        x, y = layout_for(None).center(piece.square)
        backs[piece.city] = small.getpixel((round(x * scale), round((y + 5) * scale)))  # in the notch, before the sign
    for a, b in itertools.combinations(City, 2):
        assert contrast(backs[a], backs[b]) >= 1.3 or _distance(backs[a], backs[b]) > 3 * 60**2, (a, b)


def _sign_blobs(small: Image.Image, scale: float, piece: Piece) -> list[list[tuple[float, float]]]:
    """The parts of a token's sign on the phone: the pixels of the strip behind the spearhead
    nearer the sign's colour than the shield's, the bronze or the ink, grouped by adjacency;
    each part as its pixels' places across the token (in board pixels)."""
    from render.nika.sprites import SIGN_Y

    x, y = layout_for(None).center(piece.square)
    dx, dy = SCREEN_STEP[layout_for(None).screen(piece.facing)]
    cx, cy = x - dx * TOKEN_BACKSET, y - dy * TOKEN_BACKSET
    sign_colour, others = C.CITY_MARK[piece.city], (C.CITY[piece.city], C.BRONZE)
    inked: dict[tuple[int, int], float] = {}
    reach = TOKEN_RADIUS + 2
    for px in range(int((cx - reach) * scale), int((cx + reach) * scale) + 2):
        for py in range(int((cy - reach) * scale), int((cy + reach) * scale) + 2):
            rx, ry = (px + 0.5) / scale - cx, (py + 0.5) / scale - cy
            behind, across = -(rx * dx + ry * dy), rx * -dy + ry * dx
            # The strip behind the barbs' outline and inside the rim's (both ink, like Athens' sign).
            if not 7 <= behind <= SIGN_Y + 7 or abs(across) > 16 or rx * rx + ry * ry > (TOKEN_RADIUS - 2) ** 2:
                continue
            colour = small.getpixel((px, py))
            if all(_distance(colour, sign_colour) < _distance(colour, other) for other in others):
                inked[(px, py)] = across
    blobs, seen = [], set()
    for start in inked:
        if start in seen:
            continue
        seen.add(start)
        blob, todo = [], [start]
        while todo:
            px, py = todo.pop()
            blob.append(inked[(px, py)])
            for near in ((px + 1, py), (px - 1, py), (px, py + 1), (px, py - 1)):
                if near in inked and near not in seen:
                    seen.add(near)
                    todo.append(near)
        blobs.append(blob)
    return blobs


@pytest.mark.parametrize("city", list(City))
def test_every_citys_sign_reads_at_phone_size(city):
    """Issue 23: the cities' letters were blurs on a phone (and a language's: S, or E for
    Esparta). Each city's sign needs no language and survives the phone's third of the size,
    whichever way the piece faces: one dot for Athens, two for Messene, three for Thebes, and
    a bar for Sparta, as wide as three dots and in one piece."""
    pieces = [Piece(city, sq(name), facing) for name, facing in zip(SPREAD, Direction, strict=False)]
    small, scale = phone(board_image(GameState.from_position(Position.from_pieces(pieces, City.ATHENS, 2))))
    parts = {City.ATHENS: 1, City.MESSENE: 2, City.SPARTA: 1, City.THEBES: 3}[city]
    for piece in pieces:
        blobs = [blob for blob in _sign_blobs(small, scale, piece) if len(blob) >= 2]  # a lone pixel is no part
        assert len(blobs) == parts, (piece, [sorted(round(a) for a in blob) for blob in blobs])
        span = max(a for blob in blobs for a in blob) - min(a for blob in blobs for a in blob)
        if city is City.SPARTA:
            assert span >= 12, (piece, span)  # a bar, not a dot
        if city is City.ATHENS:
            assert span <= 9, (piece, span)  # a dot, not a bar
