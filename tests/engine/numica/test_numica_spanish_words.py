"""Numica in Spanish: refusals, move lines and results read in the player's language, while
notation (squares, moves, `sosoosos`, `red`) stays as it is written in every language."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.extract import extract_from_file
from numica_scenarios import game, play, position, refusal

from bot.translations import KEYWORDS
from engine.api import Ending, EndingKind
from engine.errors import GameOver, IllegalAction, NotationError
from engine.i18n import placeholders, using
from engine.numica import parse_action, parse_arrangement
from engine.numica.game import GAME
from render.words import catalog, po_file

SPANISH = catalog("es")
ENGINE = Path(__file__).resolve().parents[3] / "engine" / "numica"

RED_REST = "a1o,b1o,g1s,h1s"
BLUE_REST = "a8o,b8s,e8o,g8o,h8s"


def in_spanish(function, *args):
    with using(SPANISH):
        return function(*args)


def refused_in_spanish(board: str, move: str) -> str:
    return in_spanish(refusal, board, move)


# --- refusals ----------------------------------------------------------------------------


def test_a_move_that_cannot_be_read_is_explained_in_spanish_with_the_notation_unchanged():
    with pytest.raises(NotationError) as refused:
        parse_action("pasar")
    assert in_spanish(str, refused.value) == (
        "No entiendo 'pasar': escribe el movimiento como dos casillas, como c1-c4 (o d2xf4 para una captura)"
    )
    assert str(refused.value) == (
        "I can't read 'pasar': write a move as two squares, like c1-c4 (or d2xf4 for a capture)"
    )  # the same refusal, read by an English speaker


def test_a_square_off_the_board_is_refused_in_spanish():
    with pytest.raises(NotationError) as refused:
        parse_action("c1-c9")
    assert in_spanish(str, refused.value) == (
        "'c9' está fuera del tablero: las columnas van de la a a la h y las filas del 1 al 8, como c4"
    )


def test_a_tile_refusal_names_the_tile_how_it_moves_and_where_the_piece_can_go_in_spanish():
    board = position(red="c3s*,b1o,d1s,f1o,g1s", blue="a8o,b8s,d8o,e8s,f8o", tiles_at="c3=3")
    assert refused_in_spanish(board, "c3-c5") == (
        "c3 está sobre una loseta 3: se mueve exactamente 3 casillas en línea recta, en cualquiera de las "
        "8 direcciones, así que desde aquí puede ir a f3, c6 o f6"
    )


def test_a_one_tile_is_singular_in_spanish():
    board = position(red="c3s*,b1o,d1s,f1o,g1s", blue="a8o,b8s,d8o,e8s,f8o", tiles_at="c3=1")
    assert refused_in_spanish(board, "c3-c5").startswith(
        "c3 está sobre una loseta 1: se mueve exactamente 1 casilla en línea recta"
    )


def test_a_knight_tile_is_named_in_spanish():
    board = position(red=f"d4s*,{RED_REST}", blue=BLUE_REST, tiles_at="d4=K")
    assert refused_in_spanish(board, "d4-d5").startswith(
        "d4 está sobre una loseta de caballo: se mueve como el caballo del ajedrez, así que desde aquí puede ir a "
    )


def test_a_blocked_rook_is_explained_in_spanish():
    board = position(red=f"d4s*,d6o*,{RED_REST}", blue=BLUE_REST, tiles_at="d4=R")
    assert refused_in_spanish(board, "d4-d7").startswith(
        "el camino de d4 a d7 está cortado en d6: las torres se deslizan y no pueden saltar, así que desde aquí"
    )


def test_moving_the_opponents_piece_names_both_sides_in_spanish():
    board = position(red=RED_REST + ",c3s*", blue=BLUE_REST, tiles_at="b8=K")
    assert refused_in_spanish(board, "b8-c6") == "b8 es una pieza de Azul: es el turno de Rojo"
    assert refusal(board, "b8-c6") == "b8 is Blue's piece: it is Red's turn"


def test_the_first_move_rule_is_explained_in_spanish():
    board = position(red="a1s,c1o,d1o,g1s,h1s", blue="a8o,c8s,d8s,f8o,h8o", tiles_at="a1=R")
    assert refused_in_spanish(board, "a1xa8").startswith("ninguna de las dos piezas se ha movido aún")


def test_a_wrong_back_row_is_refused_in_spanish_with_s_and_o_explained():
    with pytest.raises(NotationError) as refused:
        parse_arrangement("ssssssoo")
    assert in_spanish(str, refused.value) == (
        "una fila inicial tiene exactamente 4 piezas cuadradas (s) y 4 redondas (o), no 6 y 2"
    )
    with pytest.raises(NotationError) as unreadable:
        parse_arrangement("cuadrada")
    assert "s para cuadrada y o para redonda" in in_spanish(str, unreadable.value)


def test_running_out_of_time_out_of_turn_is_refused_in_spanish():
    with pytest.raises(IllegalAction) as refused:
        GAME.end(game(position(red=RED_REST + ",c3s*", blue=BLUE_REST)), Ending(EndingKind.TIMEOUT, "blue"))
    assert in_spanish(str, refused.value) == "es el turno de Rojo: a Azul no se le puede acabar el tiempo ahora"


# --- what happened --------------------------------------------------------------------------


def test_a_move_is_described_in_spanish():
    board = position(red=f"c3s*,{RED_REST}", blue=BLUE_REST, tiles_at="c3=3")
    _, happened = GAME.apply(game(board), parse_action("c3-c6"))
    assert in_spanish(GAME.describe, happened) == "Rojo movió de c3 a c6"
    assert GAME.describe(happened) == "Red moved c3 to c6"


def test_a_capture_and_the_win_it_brings_are_described_in_spanish():
    board = position(red=f"d4s*,{RED_REST}", blue="f5s*,a8o,c8o,e8o,h8o,h7s*", tiles_at="d4=K")
    _, happened = GAME.apply(game(board), parse_action("d4xf5"))
    assert in_spanish(GAME.describe, happened) == (
        "Rojo capturó la pieza cuadrada de Azul en f5 (d4xf5) — Rojo gana: 3 piezas cuadradas capturadas"
    )


def test_both_back_rows_being_set_is_described_in_spanish():
    setup = game(f"{position().split()[0]} setup")
    _, happened = GAME.apply_setup(setup, {"red": "sosoosos", "blue": "oossooss"})
    assert in_spanish(GAME.describe, happened) == (
        "Las dos filas iniciales están colocadas (Rojo sosoosos, Azul oossooss): Rojo mueve primero"
    )


# --- results ---------------------------------------------------------------------------------


def test_a_result_is_stored_once_and_read_in_each_readers_language():
    board = position(red=f"d4s*,{RED_REST}", blue="f5o*,a8s,c8s,e8o,h8o", tiles_at="d4=K")
    finished = play(board, "d4xf5")  # played by an English speaker
    summary = GAME.outcome(finished).summary
    assert in_spanish(str, summary) == "Rojo gana: 2 piezas cuadradas y 2 redondas capturadas"
    assert str(summary) == "Red wins: 2 square and 2 round pieces captured"


@pytest.mark.parametrize(
    ("ending", "spanish"),
    [
        (Ending(EndingKind.RESIGNATION, "blue"), "Azul se rindió: Rojo gana"),
        (Ending(EndingKind.TIMEOUT, "red"), "a Rojo se le acabó el tiempo: Azul gana"),
        (Ending(EndingKind.AGREEMENT), "Empate de mutuo acuerdo"),
    ],
    ids=["resignation", "timeout", "agreement"],
)
def test_endings_off_the_board_read_in_spanish(ending, spanish):
    over, _ = GAME.end(game(position(red=RED_REST + ",c3s*", blue=BLUE_REST)), ending)
    assert in_spanish(str, GAME.outcome(over).summary) == spanish


def test_an_action_after_the_end_is_refused_in_spanish_with_the_result():
    over, _ = GAME.end(game(position(red=RED_REST + ",c3s*", blue=BLUE_REST)), Ending(EndingKind.AGREEMENT))
    with pytest.raises(GameOver) as refused:
        GAME.apply(over, parse_action("c3-c4"))
    assert in_spanish(str, refused.value) == "la partida ha terminado: Empate de mutuo acuerdo"


def test_a_capture_is_labelled_in_spanish_in_menus():
    board = position(red=f"d4s*,{RED_REST}", blue="f5o*,a8s,c8s,e8o,h8o", tiles_at="d4=K")
    capture = next(move for move in GAME.legal_actions(game(board)) if move.capture)
    assert in_spanish(GAME.action_path, capture)[-1].label == "f5 ✕ captura"


# --- the catalogue ----------------------------------------------------------------------------


def test_every_engine_message_of_numica_has_spanish_with_the_same_placeholders():
    po = po_file("es")
    checked = 0
    for path in sorted(ENGINE.glob("*.py")):
        for _, text, _, context in extract_from_file("python", path, keywords=KEYWORDS, comment_tags=()):
            english = text if isinstance(text, tuple) else (text,)
            entry = po.get(english[0] if len(english) == 1 else english, context=context)
            assert entry is not None and entry.string, f"no Spanish for {english[0]!r} ({path.name})"
            forms = entry.string if isinstance(entry.string, tuple) else (entry.string,)
            wanted = set().union(*(placeholders(form) for form in english)) - {"count"}
            for form in forms:
                assert wanted <= placeholders(form) <= wanted | {"count"}, form
            checked += 1
    assert checked > 60
