"""The board says what its symbols are: a key to the laurel, the staff and the trays, and a
caption on each tray naming whose routed pieces it holds."""

import pytest

from engine.nika.board import CENTRAL_AREA, ROUTED_TRAY, SQUARES, City
from engine.nika.state import GameState
from render.nika import colours as C
from render.nika.key import KEY_ROWS, tray_label_box
from render.nika.layout import layout_for, region_box
from render.nika.static_board import BOTTOM_RIGHT, TOP_LEFT, TOP_RIGHT, free_corner

from .pictures import board_image, close

PERSPECTIVES = [None, *City]
EMPTY = GameState.from_notation("A:- S:- M:- T:- A2")


def _overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _ink_share(image, box) -> float:
    region = image.crop(box)
    pixels = [region.getpixel((x, y)) for x in range(region.width) for y in range(region.height)]
    return sum(close(p, C.INK, 40) for p in pixels) / len(pixels)


def _occupied(layout):
    return [layout.box(sq) for sq in SQUARES | CENTRAL_AREA | frozenset().union(*ROUTED_TRAY.values())]


@pytest.mark.parametrize("perspective", PERSPECTIVES)
def test_each_tray_is_captioned_with_its_city_right_beside_it(perspective):
    layout = layout_for(perspective)
    image = board_image(EMPTY, perspective=perspective)
    for city in City:
        box = tray_label_box(layout, city)
        tray = region_box(layout, ROUTED_TRAY[city])
        assert box[0] == tray[0] and box[2] == tray[2]  # as wide as the tray
        assert box[3] == tray[1] or box[1] == tray[3]  # just above or below it
        assert not any(_overlap(box, cell) for cell in _occupied(layout))
        assert _ink_share(image, box) > 0.03, city  # the city's name and "routed" are written there


@pytest.mark.parametrize("perspective", PERSPECTIVES)
def test_a_key_names_the_laurel_the_staff_and_the_tray(perspective):
    assert [str(text) for _, text in KEY_ROWS] == ["victory area", "rally area", "routed pieces"]
    layout = layout_for(perspective)
    key = free_corner(layout, TOP_RIGHT)
    assert not any(_overlap(key, cell) for cell in _occupied(layout))
    for other in (free_corner(layout, TOP_LEFT), free_corner(layout, BOTTOM_RIGHT)):  # the title and the teams
        assert not _overlap(key, other)
    image = board_image(EMPTY, perspective=perspective).crop(key)
    colours = {image.getpixel((x, y)) for x in range(image.width) for y in range(image.height)}
    assert C.LAUREL[City.ATHENS] in colours  # the laurel's picture
    assert C.TRAY_WOOD in colours  # the tray's
    assert _ink_share(image, (0, 0, image.width, image.height)) > 0.01  # and the words
