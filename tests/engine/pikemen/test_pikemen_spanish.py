"""Pikemen in Spanish: refusals, move lines and results read in the player's language, a
result stored in the state reads in each later reader's language, Spanish direction words
are accepted as input, and every message of the game has its Spanish translation."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir, extract_from_file
from pikemen_scenarios import described, end, game, play, refusal

from engine.api import Ending, EndingKind
from engine.errors import IllegalAction, NotationError
from engine.i18n import ENGLISH, placeholders, using
from engine.pikemen.actions import parse_action, parse_orientation
from engine.pikemen.game import GAME
from engine.pikemen.geometry import Orientation
from render.words import catalog, po_file

ROOT = Path(__file__).resolve().parents[3]
SPANISH = catalog("es")
OPEN = "R3:a6Ls,c2Lne B6:a3Mn,f5Lw,h1Lu,b7Sse R/12/0"


def spanish_refusal(position: str, move: str) -> str:
    with using(SPANISH):
        return refusal(position, move)


# --- refusals ---------------------------------------------------------------------------


def test_a_refusal_says_why_in_spanish():
    assert spanish_refusal(OPEN, "h1-h3") == "el piquero de h1 no es tuyo: es de Azul"
    assert spanish_refusal("R10:c2Mu B10:h8Lu R/12/0", "c2-c4") == (
        "el piquero mediano de c2 está de pie: gíralo antes para que pueda cargar"
    )
    assert spanish_refusal(OPEN, "a6-b6") == (
        "el piquero grande de a6 apunta al sur: solo carga en esa dirección (hacia a5); "
        "gíralo primero para ir a otro sitio"
    )
    assert spanish_refusal("R10:c3Mn,c5Lu B10:h8Lu R/12/0", "c3-c6") == "el camino de c3 a c6 está cortado en c5"


def test_an_upright_piece_refusal_names_its_size_in_spanish():
    assert spanish_refusal("R10:c2Mne B10:e4Mu,h8Lu R/12/0", "c2xe4") == (
        "el piquero de e4 está de pie y es tan grande como el tuyo: no se puede capturar "
        "(solo un piquero más grande captura a uno de pie)"
    )


def test_a_move_written_otherwise_is_refused_with_its_written_form_in_spanish():
    with using(SPANISH), pytest.raises(IllegalAction) as refused:
        GAME.apply(game(OPEN), parse_action("a6-a3"))
    with using(SPANISH):
        assert str(refused.value) == ("escribe esa jugada como a6xa3: captura al piquero mediano de Azul en a3")


def test_a_turn_to_the_same_way_is_refused_in_spanish():
    assert spanish_refusal(OPEN, "c2 ne") == (
        "el piquero de c2 ya apunta al noreste: gíralo a otra orientación (una jugada tiene que cambiar algo)"
    )


def test_notation_errors_are_in_spanish():
    with using(SPANISH):
        with pytest.raises(NotationError) as refused:
            parse_orientation("arriba-abajo")
        assert str(refused.value).startswith("'arriba-abajo' no es una orientación: usa n, ne, e, se, s, so, o, no")
        with pytest.raises(NotationError) as refused:
            parse_action("a6-b4")
        assert str(refused.value) == (
            "de a6 a b4 no hay una línea recta: un piquero carga a lo largo de una fila, una columna o una diagonal"
        )
        with pytest.raises(NotationError) as refused:
            GAME.load("R0:a8Lu B0:h1Lu R/31/0")
        assert str(refused.value) == "con 2 jugadores, el objetivo es de 12 a 30 puntos"


def test_a_refusal_renders_in_the_language_of_whoever_reads_it():
    with pytest.raises(IllegalAction) as refused:
        GAME.apply(game(OPEN), parse_action("h1-h3"))
    assert str(refused.value) == "h1 is not yours: it is Blue's"
    with using(SPANISH):
        assert str(refused.value) == "el piquero de h1 no es tuyo: es de Azul"


# --- what happened ----------------------------------------------------------------------


def test_moves_are_described_in_spanish():
    with using(SPANISH):
        assert described(OPEN, "a6-a4") == "Rojo cargó de a6 a a4"
        assert described(OPEN, "a6xa3") == "Rojo cargó de a6 a a3 y capturó al piquero mediano de Azul (+2, ahora 5)"
        assert described(OPEN, "a6xa3 ne") == (
            "Rojo cargó de a6 a a3, capturó al piquero mediano de Azul (+2, ahora 5) y lo giró hacia el noreste"
        )
        assert described(OPEN, "a6-a4 u") == "Rojo cargó de a6 a a4 y lo puso de pie"
        assert described(OPEN, "c2 n") == "Rojo giró el piquero de c2 hacia el norte"
        assert described(OPEN, "c2 u") == "Rojo puso de pie el piquero de c2"


def test_several_moves_are_joined_in_spanish():
    state = game(OPEN)
    state, first = GAME.apply(state, GAME.parse_action("c2 n"))
    _, second = GAME.apply(state, GAME.parse_action("h1 n"))
    with using(SPANISH):
        assert GAME.describe([*first, *second]) == (
            "Rojo giró el piquero de c2 hacia el norte; después, Azul giró el piquero de h1 hacia el norte"
        )


def test_a_departure_is_described_in_spanish_with_the_pieces_it_removed():
    state = game("R9:a8Lu,b8Mu Y4:f8Ls G1:h1Lu,g1Mu B2:a1Ln R/12/0")
    _, events = GAME.end(state, Ending(EndingKind.RESIGNATION, "red"))
    with using(SPANISH):
        assert GAME.describe(events) == "Rojo se rindió y dejó la partida; se retiraron 2 piezas"
    _, events = GAME.end(state, Ending(EndingKind.RESIGNATION, "blue"))
    with using(SPANISH):
        assert GAME.describe(events) == "Azul se rindió y dejó la partida; se retiró 1 pieza"


def test_losing_the_last_piece_is_described_in_spanish():
    with using(SPANISH):
        assert described("R3:a6Ls,c2Lne Y0:a3Mn B6:h1Lu,h8Lu R/12/0", "a6xa3") == (
            "Rojo cargó de a6 a a3 y capturó al piquero mediano de Amarillo (+2, ahora 5) — "
            "Amarillo se ha quedado sin piezas: a partir de ahora se salta su turno"
        )


# --- results ----------------------------------------------------------------------------


def test_reaching_the_target_reads_in_spanish():
    state = play("R10:a6Ls B6:a3Mn,h1Lu R/12/0", "a6xa3")
    with using(SPANISH):
        assert str(GAME.outcome(state).summary) == "Rojo llega a 12 puntos y gana"


def test_a_draw_between_seats_reads_in_spanish():
    state = play("R4:a1Lne,h8Lu Y6:c3Mn B3:h1Lu R/12/0", "a1xc3")
    with using(SPANISH):
        assert str(GAME.outcome(state).summary) == (
            "Empate a 6 puntos entre Rojo y Amarillo: ya nadie puede llegar a 12 puntos"
        )


def test_draws_by_agreement_and_departures_read_in_spanish():
    four = "R9:a8Lu Y4:f8Ls G1:h1Lu B2:a1Ln R/12/0"
    after_yellow, _ = end(four, EndingKind.RESIGNATION, "yellow")
    agreed, _ = end(after_yellow, EndingKind.AGREEMENT)
    lost, _ = end("R9:a8Lu B9:a1Ln R/12/0", EndingKind.TIMEOUT, "red")
    with using(SPANISH):
        assert str(GAME.outcome(agreed).summary) == "Empate de mutuo acuerdo entre Rojo, Verde y Azul"
        assert str(GAME.outcome(lost).summary) == "Rojo se quedó sin tiempo: gana Azul"


def test_a_stored_result_reads_in_each_readers_language():
    """The outcome is made once, when the move is played; it is read later, by anyone."""
    state = play("R4:a1Lne,h8Lu Y6:c3Mn B3:h1Lu R/12/0", "a1xc3")
    summary = GAME.outcome(state).summary
    english = "Draw between Red and Yellow on 6 points: no one can reach 12 points any more"
    assert summary == english and str(summary) == english  # English is the default, unchanged
    with using(SPANISH):
        assert str(summary).startswith("Empate a 6 puntos")
        assert summary == english  # it still equals its English text, as records compare it
    with using(SPANISH), pytest.raises(IllegalAction) as over:
        GAME.apply(state, parse_action("h8 s"))
    with using(SPANISH):
        assert str(over.value) == "la partida ha terminado: " + str(summary)
    assert summary.render(ENGLISH) == english


# --- Spanish input ----------------------------------------------------------------------

SPANISH_WORDS = {
    "norte": Orientation.N, "noreste": Orientation.NE, "este": Orientation.E, "sureste": Orientation.SE,
    "sudeste": Orientation.SE, "sur": Orientation.S, "suroeste": Orientation.SW, "sudoeste": Orientation.SW,
    "oeste": Orientation.W, "noroeste": Orientation.NW, "arriba": Orientation.U,
}  # fmt: skip


@pytest.mark.parametrize(("word", "orientation"), SPANISH_WORDS.items())
def test_spanish_direction_words_are_orientations_in_any_case(word, orientation):
    assert parse_orientation(word) is orientation
    assert parse_orientation(word.upper()) is orientation
    assert parse_orientation(f" {word.capitalize()} ") is orientation


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("b7 noreste", "b7 ne"), ("b7 Sudoeste", "b7 sw"), ("b7 ARRIBA", "b7 u"), ("b7 de pie", "b7 u"),
        ("b7 sur este", "b7 se"), ("b7 nor-oeste", "b7 nw"), ("a6-a3 oeste", "a6-a3 w"), ("a6 a3 norte", "a6-a3 n"),
        ("a6 hasta a3 sureste", "a6-a3 se"), ("a6 hacia a3 y luego arriba", "a6-a3 u"),
    ],
)  # fmt: skip
def test_moves_with_spanish_words_are_read_and_written_canonically(typed, read):
    assert parse_action(typed).notation() == read


def test_spanish_words_leave_the_english_ones_and_the_letters_as_they_were():
    assert parse_orientation("e") is Orientation.E and parse_orientation("s") is Orientation.S
    assert parse_orientation("up") is Orientation.U and parse_orientation("north east") is Orientation.NE
    assert all(parse_orientation(o.letter) is o for o in Orientation)


# --- menus ------------------------------------------------------------------------------


def test_menu_labels_are_in_the_language_of_whoever_opens_the_menu():
    (capture,) = [a for a in GAME.legal_actions(game(OPEN)) if a.notation() == "a6xa3 ne"]
    (keep,) = [a for a in GAME.legal_actions(game(OPEN)) if a.notation() == "a6-a4"]
    (turn,) = [a for a in GAME.legal_actions(game(OPEN)) if a.notation() == "c2 u"]
    with using(SPANISH):
        assert [s.label for s in GAME.action_path(capture)] == ["a6", "a3 ✕ captura", "↗ noreste"]
        assert GAME.action_path(keep)[-1].label == "mantener la orientación"
        assert [s.label for s in GAME.action_path(turn)][1:] == ["girar en el sitio", "▲ de pie"]
        assert [s.value for s in GAME.action_path(capture)] == ["a6", "a3", "ne"]  # values stay notation


# --- the catalogue ----------------------------------------------------------------------


# The shared commands and options the help names are the host's to translate; these are Pikemen's.
OWN_NAMES = {("command", "charge"), ("command", "turn"), ("option", "piece"), ("option", "to"),
             ("option", "facing"), ("option", "players"), ("option", "target"), ("option", "seat")}  # fmt: skip


def _pikemen_messages() -> set[tuple[str | None, str | tuple[str, str]]]:
    keywords = {"M": None, "P": (1, 2), "T": ((2, "c"), 1)}
    found = set()
    for folder in ("engine/pikemen", "render/pikemen"):
        for _, _, text, _, context in extract_from_dir(
            ROOT / folder, method_map=[("**.py", "python")], keywords=keywords, comment_tags=()
        ):
            found.add((context, text))
    for _, text, _, context in extract_from_file("python", ROOT / "bot/games/pikemen.py", keywords=keywords):
        if context not in ("command", "option") or (context, text) in OWN_NAMES:
            found.add((context, text))
    return found | OWN_NAMES


def test_every_pikemen_message_has_its_spanish_translation_with_the_same_placeholders():
    messages = _pikemen_messages()
    assert len(messages) > 100
    po = po_file("es")
    for context, text in messages:
        entry = po.get(text, context=context)
        assert entry is not None and entry.string, (context, text)
        english = text if isinstance(text, tuple) else (text,)
        spanish = entry.string if isinstance(entry.string, tuple | list) else (entry.string,)
        wanted = set().union(*map(placeholders, english))
        for form in spanish:
            assert form and placeholders(form) | {"count"} >= wanted and placeholders(form) <= wanted, (text, form)
