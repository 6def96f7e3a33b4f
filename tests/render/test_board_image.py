import hashlib
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from engine.nika.board import HOME_STRIP, RALLY_AREA, VICTORY_AREA, City, Direction
from engine.nika.state import GameState, Outcome, Reason
from render.nika import RenderedBoard, render_board
from render.nika import colours as C
from render.nika.layout import image_size, layout_for, square_center
from render.nika.static_board import panel_box, tray_slots

from .pictures import board_image, close, pixel, play, shows_facing, sq

MID_GAME = "A:g4e,g5e,h4e,h5e,i4e,i5e S:d7s,d8e,j4n,e9n,f9n M:l5s,k11s,k12s T:j5w,k5w,q8w,r8w A2"


def test_render_board_returns_png_and_alt_text():
    rendered = render_board(GameState.start())
    assert isinstance(rendered, RenderedBoard)
    assert rendered.png.startswith(b"\x89PNG\r\n\x1a\n")
    assert rendered.alt_text.startswith("Nika board.")


def test_png_is_1200_wide_and_small():
    for state, events in (play("start"), play(MID_GAME, "advance g4,g5,h4,h5,i4,i5")):
        png = render_board(state, events).png
        assert len(png) <= 200 * 1024
        assert board_image(state, events).size == (1200, 876)


def test_empty_squares_show_their_region_colours():
    image = board_image(GameState.start())
    assert pixel(image, square_center(sq("g5"))) == C.TINT[City.ATHENS]
    assert pixel(image, square_center(sq("n11"))) == C.TINT[City.MESSENE]
    assert pixel(image, square_center(sq("e5"))) == C.TINT[City.SPARTA]
    assert pixel(image, square_center(sq("q11"))) == C.TINT[City.THEBES]
    for city, area in VICTORY_AREA.items():
        x, y = square_center(min(area))
        assert pixel(image, (x, y - 4)) == C.VICTORY[city]  # inside the laurel, which is open at the top
    for city, area in RALLY_AREA.items():
        left, top, _, _ = layout_for(None).box(min(area))
        assert pixel(image, (left + 7, top + 10)) == C.TINT[city]  # beside the rod-and-snake emblem


def test_home_strips_cover_the_ring_in_four_tints():
    image = board_image(GameState.from_notation("A:- S:- M:- T:- A2"))
    for city, strip in HOME_STRIP.items():
        for s in strip:
            assert pixel(image, square_center(s)) == C.TINT[city]


def test_pieces_show_their_city_and_facing():
    state = GameState.start()
    image = board_image(state)
    for piece in state.position.pieces():
        assert shows_facing(image, piece.city, piece.square, int(piece.facing), None), piece


@pytest.mark.parametrize("perspective", list(City))
def test_facing_markers_turn_with_the_perspective(perspective):
    state = GameState.start()
    image = board_image(state, perspective=perspective)
    layout = layout_for(perspective)
    assert image.size == layout.size
    for piece in state.position.pieces():
        screen = (piece.facing - perspective.forward) % 4
        assert shows_facing(image, piece.city, piece.square, screen, perspective), piece
    # Athens' k4 faces north: up for Athens, left for Sparta, down for Messene, right for Thebes.
    assert layout.screen(Direction.N) == {City.ATHENS: 0, City.SPARTA: 3, City.MESSENE: 2, City.THEBES: 1}[perspective]


def test_phalanx_neighbours_are_joined_and_others_are_not():
    image = board_image(GameState.start())
    # j4 and j5 both face west: a bar in Athens white crosses the edge between them.
    (x4, y4), (_, y5) = square_center(sq("j4")), square_center(sq("j5"))
    edge = (x4 + 8, (y4 + y5) / 2)
    assert close(pixel(image, edge), C.CITY[City.ATHENS], 40)
    # j4 faces west and k4 north: no bar between them, the gutter shows.
    xk, _ = square_center(sq("k4"))
    between = ((x4 + xk) / 2, y4 + 20)
    assert close(pixel(image, between), C.SLAB, 30)
    # Sparta's d9, e9, f9 face north: joined.
    (xd, yd), (xe, _) = square_center(sq("d9")), square_center(sq("e9"))
    assert close(pixel(image, ((xd + xe) / 2, yd + 8)), C.CITY[City.SPARTA], 40)


def test_trays_show_the_routed_count_as_tokens():
    state = GameState.from_notation("A:j4w S:d7s,d8e M:- T:p7s,q7s,q8w,r7s,r8w,r9n A2")
    empty = board_image(
        GameState.from_notation(
            "A:j4w,j5w,j6w,k4n,k5n,l4e S:d7s,d8e,d9n,e8e,e9n,f9n "
            "M:j12w,k11s,k12s,l10e,l11e,l12e T:p7s,q7s,q8w,r7s,r8w,r9n A2"
        )
    )
    image = board_image(state)
    layout = layout_for(None)
    for city, routed in ((City.ATHENS, 5), (City.SPARTA, 4), (City.MESSENE, 6), (City.THEBES, 0)):
        for index, (x, y) in enumerate(tray_slots(layout, city)):
            probe = (x, y + 8)
            filled = not close(pixel(image, probe), pixel(empty, probe), 20)
            assert filled == (index < routed), (city, index)
            if filled:
                assert close(pixel(image, (x + 6, y - 6)), C.CITY[city], 30)


def test_status_panel_changes_with_the_city_to_act_and_the_result():
    left, top, right, bottom = panel_box(layout_for(None))
    start = GameState.start()
    sparta_to_act = GameState.from_notation(start.notation().replace(" A2", " S1"))
    athens = board_image(start).crop((left, top, right, bottom))
    sparta = board_image(sparta_to_act).crop((left, top, right, bottom))
    assert athens.tobytes() != sparta.tobytes()
    banner = board_image(start.conclude(Outcome(None, Reason.AGREEMENT))).crop((left, top, right, bottom))
    assert close(pixel(athens, (athens.width / 2, 6)), C.PANEL, 8)
    assert not close(pixel(banner, (banner.width / 2, 6)), C.PANEL, 8)  # the ribbon replaces the plaque


def test_same_input_same_bytes_whatever_was_drawn_before():
    state, events = play(MID_GAME, "advance g4,g5,h4,h5,i4,i5")
    first = render_board(state, events).png
    render_board(GameState.start(), perspective=City.THEBES)
    render_board(state, events, perspective=City.MESSENE)
    assert render_board(state, events).png == first


_FRESH_PROCESS = """
import hashlib, sys
from concurrent.futures import ThreadPoolExecutor
from engine.nika.actions import parse_action
from engine.nika.board import City
from engine.nika.state import GameState
from render.nika import render_board

state, events = GameState.from_notation(sys.argv[1]).apply(parse_action(sys.argv[2]))
# Four threads at once on cold caches, as the bot's workers might.
with ThreadPoolExecutor(4) as pool:
    pngs = list(pool.map(lambda _: render_board(state, events, perspective=City.SPARTA).png, range(4)))
print(" ".join(hashlib.sha256(png).hexdigest() for png in pngs))
"""


def test_same_bytes_in_a_fresh_process_and_from_concurrent_threads():
    """Caches and the learned palette must not depend on what a process drew first, or on threads."""
    action = "advance g4,g5,h4,h5,i4,i5"
    state, events = play(MID_GAME, action)
    here = hashlib.sha256(render_board(state, events, perspective=City.SPARTA).png).hexdigest()
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(root)}
    command = [sys.executable, "-c", _FRESH_PROCESS, MID_GAME, action]
    result = subprocess.run(command, cwd=root, env=env, capture_output=True, text=True, check=True)
    assert result.stdout.split() == [here] * 4


def test_rotated_views_are_portrait():
    for city in (City.SPARTA, City.THEBES):
        assert board_image(GameState.start(), perspective=city).size == image_size(city) == (876, 1200)
    assert board_image(GameState.start(), perspective=City.MESSENE).size == (1200, 876)


def test_random_games_render_in_every_perspective():
    rng = random.Random(11)
    state, events = GameState.start(), []
    for step in range(60):
        if state.is_over:
            state, events = GameState.start(), []
        state, events = state.apply(rng.choice(state.legal_actions()))
        if step % 6 == 0:
            for perspective in (None, *City):
                png = render_board(state, events, perspective=perspective).png
                assert len(png) <= 200 * 1024
                assert board_image(state, events, perspective).size == image_size(perspective)
