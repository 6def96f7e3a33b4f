"""A rules example is drawn as one: titled where a live board says whose turn it is, captioned
with what the action did, and otherwise the same board."""

import io

import pytest
from PIL import Image, ImageChops

from bot.commands.front_end import front_end
from engine.i18n import using
from engine.registry import get_game
from render import EXAMPLE_TITLE, example_filename, render_example, render_state
from render.numica.layout import BOARD_LEFT, BOARD_SIZE, BOARD_TOP
from render.words import catalog

BOARDS = {  # the squares, which an example draws as a live board does
    "nika": (0, 530, 1200, 876),
    "numica": (BOARD_LEFT, BOARD_TOP, BOARD_LEFT + BOARD_SIZE, BOARD_TOP + BOARD_SIZE),
    "pikemen": (0, 0, 752, 730),
}
# Where each game says whose turn it is (or, in an example, what the picture is).
STATUS = {"nika": (378, 378, 822, 498), "numica": (420, 0, 772, 60), "pikemen": (376, 740, 752, 790)}


def _example(game: str, locale: str) -> tuple[Image.Image, Image.Image, str]:
    rules = get_game(game)
    position, action = front_end(game).rules_example
    after, events = rules.apply(rules.load(position), rules.parse_action(action))
    example = render_example(game, after, [events], locale=locale)
    live = render_state(game, after, [events], locale=locale)
    decode = lambda png: Image.open(io.BytesIO(png)).convert("RGB")  # noqa: E731
    return decode(example.png), decode(live.png), example.alt_text


@pytest.mark.parametrize("game", ["nika", "numica", "pikemen"])
@pytest.mark.parametrize("locale", ["en", "es"])
def test_a_rules_example_is_titled_as_one_where_a_live_board_names_the_turn(game, locale):
    example, live, alt = _example(game, locale)
    with using(catalog(locale)):
        assert alt.startswith(f"{EXAMPLE_TITLE}. ")
    assert example_filename(game) == f"{game}-rules-example.png"
    assert ImageChops.difference(example.crop(STATUS[game]), live.crop(STATUS[game])).getbbox() is not None
    board = BOARDS[game]
    assert ImageChops.difference(example.crop(board), live.crop(board)).getbbox() is None  # the same pieces and marks
