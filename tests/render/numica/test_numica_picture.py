"""The Numica board picture: tiles readable, pieces by shape and colour, marks, bands, views."""

from __future__ import annotations

import io
import random

import pytest
from numica_pictures import START, TILES, close, colours_in, picture, pixel, play, square_box, square_centre
from PIL import Image

from engine.numica import COLOURS, Shape, parse_square
from engine.numica.board import Colour
from engine.numica.game import GAME
from engine.record import GameRecord, RecordEntry
from render import render_replay, render_state
from render.numica import colours as C
from render.numica.artist import ARTIST
from render.numica.layout import BOTTOM_BAND, CELL, HEIGHT, TOP_BAND, WIDTH
from render.numica.panels import BAND
from render.numica.sprites import seal_point

SETUP = f"{TILES} setup"
ALL_SQUARES = [f"{f}{r}" for r in range(1, 9) for f in "abcdefgh"]


def tile_at(name: str) -> str:
    return GAME.load(START).position.tiles[parse_square(name)]


def test_the_board_is_a_png_of_fixed_size_and_the_same_bytes_every_time():
    state, events = play(START, "b1-c2")
    first = render_state("numica", state, [events])
    assert first.png.startswith(b"\x89PNG\r\n\x1a\n")
    assert render_state("numica", state, [events]) == first
    with Image.open(io.BytesIO(first.png)) as image:
        assert image.mode == "P" and image.size == (WIDTH, HEIGHT)
    assert len(first.png) < 150 * 1024


@pytest.mark.parametrize("perspective", [None, "blue"])
def test_every_empty_tile_shows_its_colour_and_its_symbol(perspective):
    image = picture(GAME.load(SETUP), perspective=perspective)
    for name in ALL_SQUARES:
        symbol = tile_at(name)
        left, top, right, bottom = square_box(name, perspective)
        assert pixel(image, (left + 9, top + 24)) == C.TILE[symbol], name  # clear of a slider's arrowheads
        # The symbol is drawn big and solid in its own colour in the middle of the tile.
        middle = colours_in(image, (left + 24, top + 18, right - 24, bottom - 18))
        assert middle[C.TILE_SYMBOL[symbol]] > 120, name


def test_a_piece_carries_the_symbol_of_the_tile_under_it():
    image = picture(GAME.load(START))
    for name in ("a1", "b1", "d1", "a8", "b8"):
        left, top, right, bottom = square_box(name)
        middle = colours_in(image, (left + 28, top + 22, right - 28, bottom - 22))
        assert middle[C.CREAM] > 30, name


def test_pieces_show_their_side_by_colour_and_their_shape_by_outline():
    state = GAME.load(START)
    image = picture(state)
    for piece in state.position.pieces():
        x, y = square_centre(_name(piece.square))
        assert close(pixel(image, (x, y + 18)), C.PIECE[piece.colour]), piece  # between symbol and rim
        # Towards the cell's top-left corner: a square piece reaches there, a round one does not.
        corner = pixel(image, (x - 24, y - 24))
        on_piece = close(corner, C.PIECE[piece.colour], 30) or close(corner, C.PIECE_RIM[piece.colour], 30)
        assert on_piece == (piece.shape is Shape.SQUARE), piece


def test_pieces_that_have_not_moved_carry_a_seal():
    state, events = play(START, "b1-c2")
    image = picture(state, events)
    for piece in state.position.pieces():
        left, top, _, _ = square_box(_name(piece.square))
        sx, sy = seal_point(piece.shape)
        shows_seal = pixel(image, (left + sx, top + sy)) == C.UNMOVED
        assert shows_seal == (not piece.moved), piece


def test_the_last_move_is_framed_where_it_began_and_where_it_ended():
    state, events = play(START, "b1-c2")
    image = picture(state, events)
    left, top, _, bottom = square_box("b1")
    assert close(pixel(image, (left + 2, (top + bottom) / 2)), C.TO_MARK)
    assert close(pixel(image, (left + 6.5, (top + bottom) / 2)), C.FROM_MARK)
    left, top, _, bottom = square_box("c2")
    assert close(pixel(image, (left + 3.5, (top + bottom) / 2)), C.TO_MARK)
    untouched = picture(state)
    assert not close(pixel(untouched, (left + 3.5, (top + bottom) / 2)), C.TO_MARK)


def test_a_capture_is_marked_on_its_square_and_in_the_capturers_band():
    state, events = _captured()
    image = picture(state, events)
    _, top, right, _ = square_box("a7")
    assert pixel(image, (right - 12, top + 20)) == C.CAPTURE
    # Red's band holds the captured blue piece, ringed as the latest capture.
    band = colours_in(image, (0, BOTTOM_BAND, WIDTH, BOTTOM_BAND + BAND))
    assert band[C.PIECE[Colour.BLUE]] > 50 and band[C.CAPTURE] > 20
    quiet_band = colours_in(picture(state), (0, BOTTOM_BAND, WIDTH, BOTTOM_BAND + BAND))
    assert quiet_band[C.CAPTURE] == 0


def test_the_bands_count_the_captures_of_each_side():
    state, _ = _captured()
    image = picture(state)
    blue_band = colours_in(image, (WIDTH // 2, TOP_BAND, WIDTH, TOP_BAND + BAND))
    red_band = colours_in(image, (WIDTH // 2, BOTTOM_BAND, WIDTH, BOTTOM_BAND + BAND))
    assert blue_band[C.PIECE[Colour.RED]] == 0  # Blue has captured nothing
    assert red_band[C.PIECE[Colour.BLUE]] > 50  # Red has captured one piece


def test_blues_view_turns_the_board_half_round():
    state = GAME.load(START)
    red_view, blue_view = picture(state), picture(state, perspective="blue")
    assert red_view.tobytes() == picture(state, perspective="red").tobytes()
    assert square_box("a1", "blue")[:2] == square_box("h8")[:2]
    for name in ("a1", "h8", "d4"):
        left, top, _, bottom = square_box(name, "blue")
        assert pixel(blue_view, (left + 9, (top + bottom) / 2)) == C.TILE[tile_at(name)]
    # Each side sees its own band below the board.
    assert colours_in(blue_view, (0, BOTTOM_BAND, 120, BOTTOM_BAND + BAND))[C.PIECE[Colour.BLUE]] > 100
    assert colours_in(red_view, (0, BOTTOM_BAND, 120, BOTTOM_BAND + BAND))[C.PIECE[Colour.RED]] > 100


def test_while_setting_up_the_back_rows_are_empty_and_outlined():
    image = picture(GAME.load(SETUP))
    for colour, rank in zip(COLOURS, (1, 8), strict=True):
        left, top, _, _ = square_box(f"a{rank}")
        assert pixel(image, (left + 1, top + CELL / 2)) == C.PIECE[colour]
        for file in "abcdefgh":
            x, y = square_centre(f"{file}{rank}")
            assert colours_in(image, (x - 20, y - 20, x + 20, y + 20))[C.PIECE[colour]] == 0


def test_every_colour_drawn_flat_is_in_the_palette():
    palette = ARTIST.palette().getpalette() or []
    colours = {tuple(palette[i : i + 3]) for i in range(0, len(palette), 3)}
    assert set(C.FLAT_COLOURS) <= colours


def test_random_games_render_within_the_alt_text_limit():
    rng = random.Random(3)
    state = GAME.new(2, {"setup": "random"}, 3)
    events: list = []
    while GAME.outcome(state) is None:
        state, events = GAME.apply(state, rng.choice(GAME.legal_actions(state)))
    for view in (None, "blue"):
        rendered = render_state("numica", state, [events], perspective=view)
        assert len(rendered.alt_text) <= 1024 and rendered.png


def test_a_replay_draws_every_move():
    first = GAME.load(SETUP)
    state, _ = GAME.apply_setup(first, {"red": "sosoosos", "blue": "sosoosos"})
    entries = []
    for move in ("b1-c2", "b8-c6"):
        entries.append(RecordEntry(GAME.to_act(state), move))
        state, _ = GAME.apply(state, GAME.parse_action(move))
    record = GameRecord("numica", SETUP, entries, setup={"red": "sosoosos", "blue": "sosoosos"})
    with Image.open(io.BytesIO(render_replay(record))) as gif:
        assert gif.format == "GIF" and gif.n_frames == 3


def _name(sq: int) -> str:
    return f"{'abcdefgh'[sq % 8]}{sq // 8 + 1}"


def _captured():
    """Red's round piece on b6, a 1 tile, steps onto a7 and takes Blue's square piece there."""
    board = f"{TILES} red:a1s,c1s,d1o,e1s,f1o,g1s,h1o,b6o* blue:a8o,b8s,c8o,d8s,e8o,f8s,g8o,a7s* red/4"
    return play(board, "b6xa7")


def test_the_render_command_draws_a_new_game_and_a_move(tmp_path, capsys):
    from render.__main__ import main

    out = tmp_path / "numica.png"
    assert main(["--game", "numica", "start", "--seed", "3", "-o", str(out)]) == 0
    # `start` is where play begins, as `python -m engine start` prints it: back rows drawn from the seed.
    assert "Numica board. Red to move." in capsys.readouterr().out
    assert main(["--game", "numica", START, "--last", "b1 c2", "--perspective", "blue", "-o", str(out)]) == 0
    assert "Last move: Red moved b1 to c2." in capsys.readouterr().out
    with Image.open(out) as image:
        assert image.size == (WIDTH, HEIGHT)
