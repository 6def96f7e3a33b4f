"""Alt text: a blind player follows the game from it, within Discord's 1024 characters."""

from __future__ import annotations

import random

import pytest
from numica_pictures import START, TILES, play

from engine.api import Ending, EndingKind
from engine.numica.game import GAME
from render.numica import description
from render.numica.description import alt_text


def test_the_start_reads_the_status_and_every_piece_with_its_tile():
    text = alt_text(GAME.load(START))
    assert text.startswith(
        "Numica board. Red to move. Each piece: its square, shape and the tile under it. "
        "Red (8 pieces): a1 square on 1, not moved yet; "
    )
    assert "b1 round on X, not moved yet" in text and "d1 round on bishop, not moved yet" in text
    assert "Blue (8 pieces): a8 round on rook, not moved yet; b8 square on knight, not moved yet;" in text
    assert "Red has captured 0 square, 0 round." in text and "Blue has captured 0 square, 0 round." in text
    assert f"Tiles, rank 8 down to rank 1, files a to h: {TILES.replace('/', ', ')}." in text
    assert "Last move" not in text


def test_the_last_move_and_moved_pieces_are_read():
    state, events = play(START, "b1-c2")
    text = alt_text(state, events)
    assert "Blue to move. Last move: Red moved b1 to c2." in text
    assert "c2 round on knight." in text  # moved: no mark


def test_a_capture_and_the_count_of_captures_are_read():
    board = f"{TILES} red:a1s,c1s,d1o,e1s,f1o,g1s,h1o,b6o* blue:a8o,b8s,c8o,d8s,e8o,f8s,g8o,a7s* red/4"
    state, events = play(board, "b6xa7")
    text = alt_text(state, events)
    assert "Last move: Red captured Blue's square piece on a7 (b6xa7)." in text
    assert "Red has captured 1 square, 0 round." in text and "Blue (7 pieces)" in text


def test_the_result_is_read_first():
    state, _ = GAME.end(GAME.load(START), Ending(EndingKind.RESIGNATION, "blue"))
    assert alt_text(state).startswith("Numica board. Game over: Red wins, Blue resigned.")
    drawn, _ = GAME.end(GAME.load(START), Ending(EndingKind.AGREEMENT))
    assert alt_text(drawn).startswith("Numica board. Game over: Draw, by agreement.")


def test_while_setting_up_it_reads_the_tiles_of_the_whole_board():
    text = alt_text(GAME.load(f"{TILES} setup"))
    assert text.startswith("Numica board. Both sides are arranging their back rows, each in secret;")
    assert "Red fills rank 1 and Blue rank 8." in text and TILES.replace("/", ", ") in text


def test_a_long_description_switches_to_a_terser_form(monkeypatch):
    state, events = play(START, "b1-c2")
    long = alt_text(state, events)
    monkeypatch.setattr(description, "LIMIT", len(long) - 1)
    short = alt_text(state, events)
    assert len(short) < len(long) and "a1 square 1 new" in short and "(new: not moved yet.)" in short
    monkeypatch.setattr(description, "LIMIT", 400)
    assert len(alt_text(state, events)) <= 400


@pytest.mark.parametrize("seed", range(6))
def test_alt_text_always_fits_discord(seed):
    rng = random.Random(seed)
    state = GAME.new(2, {"setup": "random"}, seed)
    while GAME.outcome(state) is None:
        state, events = GAME.apply(state, rng.choice(GAME.legal_actions(state)))
        text = alt_text(state, events)
        assert len(text) <= 1024 and "Tiles" in text
