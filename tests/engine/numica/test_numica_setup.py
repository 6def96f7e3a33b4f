"""Setup: the tiles are dealt at random from the seed; then each side arranges its back row
in secret (or both rows are drawn at random); Red moves first."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from numica_scenarios import EXAMPLE_TILES

from engine.api import Ending, EndingKind
from engine.errors import IllegalAction, NotationError
from engine.numica import ARRANGEMENTS, TILE_COUNTS, TILE_SET, deal
from engine.numica.game import GAME


def tiles_of(state) -> str:
    return GAME.notation(state).split()[0]


def test_the_deal_uses_the_64_tile_set_and_is_fixed_by_the_seed():
    first = GAME.new(2, {}, 7)
    assert first.position.tiles == deal(random.Random(7))
    assert Counter(first.position.tiles) == Counter(TILE_COUNTS) == Counter(TILE_SET)
    assert tiles_of(GAME.new(2, {}, 7)) == tiles_of(first)
    assert len({tiles_of(GAME.new(2, {}, seed)) for seed in range(20)}) == 20


def test_with_setup_choose_the_game_waits_for_both_sides_in_secret():
    state = GAME.new(2, {"setup": "choose"}, 3)
    assert GAME.notation(state) == f"{tiles_of(state)} setup"
    assert GAME.setup_pending(state) == ("red", "blue") and GAME.setup_secret()
    assert GAME.to_act(state) is None and GAME.legal_actions(state) == [] and GAME.outcome(state) is None
    with pytest.raises(IllegalAction, match=r"^both sides are still arranging their back rows"):
        GAME.apply(state, GAME.parse_action("a1-a2"))


def test_each_side_chooses_among_the_70_rows_of_four_square_and_four_round_pieces():
    state = GAME.load(f"{EXAMPLE_TILES} setup")
    red, blue = GAME.setup_choices(state, "red"), GAME.setup_choices(state, "blue")
    assert [c.value for c in red] == [c.value for c in blue] == list(ARRANGEMENTS)
    assert len(ARRANGEMENTS) == 70 and all(row.count("s") == 4 and len(row) == 8 for row in ARRANGEMENTS)
    # Labels show each file's shape on the tile it would stand on (Red rank 1: 1X5BB422).
    assert next(c.label for c in red if c.value == "sosoosos") == "■1 ●X ■5 ●B ●B ■4 ●2 ■2 (sosoosos)"
    assert next(c.label for c in blue if c.value == "sosoosos") == "■R ●K ■1 ●4 ●R ■1 ●5 ■5 (sosoosos)"


@pytest.mark.parametrize(
    "text",
    [
        "sosoosos",
        "SOSOOSOS",
        " s o s o o s o s ",
        "s,o,s,o,o,s,o,s",
        "square round square round round square round square",
        "■●■●●■●■",
        "so so os os",
    ],
)
def test_a_back_row_is_read_tolerantly(text):
    assert GAME.parse_setup(GAME.new(2, {}, 1), "red", text) == "sosoosos"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("sssssooo", "a back row has exactly 4 square (s) and 4 round (o) pieces, not 5 and 3"),
        ("sosoos", "a back row has 8 pieces, one per file a to h, not 6"),
        ("rook knight", "I can't read 'rook knight': a back row is 8 letters for files a to h"),
    ],
)
def test_a_back_row_that_is_not_four_and_four_is_refused(text, reason):
    with pytest.raises(NotationError) as refused:
        GAME.parse_setup(GAME.new(2, {}, 1), "blue", text)
    assert str(refused.value).startswith(reason)


def test_both_rows_are_placed_at_once_and_red_moves_first():
    state, happened = GAME.apply_setup(GAME.load(f"{EXAMPLE_TILES} setup"), {"red": "sosoosos", "blue": "OSOSSOSO"})
    assert GAME.notation(state) == (
        f"{EXAMPLE_TILES} red:a1s,b1o,c1s,d1o,e1o,f1s,g1o,h1s blue:a8o,b8s,c8o,d8s,e8s,f8o,g8s,h8o red/0"
    )
    assert GAME.to_act(state) == "red" and GAME.setup_pending(state) == ()
    assert [e.to_dict() for e in happened] == [{"event": "arranged", "red": "sosoosos", "blue": "osossoso"}]
    assert GAME.describe(happened) == "Both back rows are set (Red sosoosos, Blue osossoso): Red moves first"


def test_setup_needs_both_rows_from_the_two_sides():
    state = GAME.new(2, {}, 1)
    with pytest.raises(IllegalAction, match=r"^Blue has not arranged its back row yet"):
        GAME.apply_setup(state, {"red": "sosoosos"})
    with pytest.raises(IllegalAction, match="not a side of Numica"):
        GAME.apply_setup(state, {"red": "sosoosos", "blue": "sosoosos", "green": "sosoosos"})
    with pytest.raises(IllegalAction, match="not a side of Numica"):
        GAME.setup_choices(state, "green")


def test_once_play_has_begun_there_is_no_setup_left():
    state, _ = GAME.apply_setup(GAME.new(2, {}, 1), {"red": "sosoosos", "blue": "sosoosos"})
    assert GAME.setup_choices(state, "red") == ()
    with pytest.raises(IllegalAction, match=r"^the back rows are already set up"):
        GAME.apply_setup(state, {"red": "sosoosos", "blue": "sosoosos"})
    with pytest.raises(IllegalAction, match=r"^the back rows are already set up"):
        GAME.parse_setup(state, "red", "sosoosos")


def test_with_setup_random_both_rows_are_drawn_from_the_seed():
    state = GAME.new(2, {"setup": "random"}, 11)
    rng = random.Random(11)
    tiles = deal(rng)
    red, blue = rng.choice(ARRANGEMENTS), rng.choice(ARRANGEMENTS)
    expected, _ = GAME.apply_setup(GAME.load(f"{tiles_of(state)} setup"), {"red": red, "blue": blue})
    assert state.position.tiles == tiles
    assert GAME.notation(state) == GAME.notation(expected)
    assert GAME.setup_pending(state) == () and GAME.to_act(state) == "red"
    assert GAME.notation(GAME.new(2, {"setup": "at random"}, 11)) == GAME.notation(state)


def test_a_side_may_resign_or_run_out_of_time_while_setting_up():
    state, _ = GAME.end(GAME.new(2, {}, 1), Ending(EndingKind.TIMEOUT, "blue"))
    assert str(GAME.outcome(state).summary) == "Blue ran out of time: Red wins"
    assert GAME.setup_pending(state) == ()
    resigned, _ = GAME.end(GAME.new(2, {}, 1), Ending(EndingKind.RESIGNATION, "red"))
    assert GAME.outcome(resigned).winners == frozenset({"blue"})


def test_numica_is_for_two_and_knows_its_options():
    with pytest.raises(ValueError, match="Numica is for 2 players"):
        GAME.new(3, {}, 1)
    with pytest.raises(NotationError, match="setup is one of choose, random"):
        GAME.new(2, {"setup": "later"}, 1)
    with pytest.raises(NotationError, match="Numica has no option 'tiles'"):
        GAME.new(2, {"tiles": "web"}, 1)
