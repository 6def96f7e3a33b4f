"""Nika in Spanish: refusals, action lines and results read in the player's language, a result
stored in the state reads in each later reader's language, Spanish direction words are
accepted as input, menus ask in Spanish, and every message of the game has its translation."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir, extract_from_file
from nika_scenarios import START, events, game, play, refusal

from engine.api import Ending, EndingKind
from engine.errors import IllegalAction, NotationError
from engine.i18n import ENGLISH, placeholders, using
from engine.nika import Direction, describe_events, parse_action, parse_direction
from engine.nika.game import GAME
from render.words import catalog, po_file

ROOT = Path(__file__).resolve().parents[3]
SPANISH = catalog("es")


def spanish_refusal(position: str, action: str) -> str:
    with using(SPANISH):
        return refusal(position, action)


def described(position: str, action: str) -> str:
    with using(SPANISH):
        return describe_events(events(position, action))


def notation_error(text: str) -> str:
    with using(SPANISH), pytest.raises(NotationError) as refused:
        parse_action(text)
    with using(SPANISH):
        return str(refused.value)


# --- refusals ---------------------------------------------------------------------------


def test_a_piece_that_is_not_yours_is_refused_in_spanish():
    assert spanish_refusal(START, "move d7 s") == "d7 no es una de tus piezas: es una pieza de Esparta"
    assert spanish_refusal(START, "move k6 n") == "k6 no es una de tus piezas: está vacía"
    assert spanish_refusal("A:k4n S:- M:k5n T:- A2", "advance k4,k5") == (
        "es el turno de Atenas; k5 es una pieza de Messene"
    )


def test_a_single_piece_facing_you_is_not_routed_in_spanish():
    assert spanish_refusal("A:k5n S:- M:- T:k6s A2", "move k5 n") == (
        "el hoplita de Tebas en k6 te mira de frente: una pieza sola solo derrota a un enemigo que no la mira "
        "(una falange sí puede empujar)"
    )


def test_areas_closed_to_a_piece_are_named_in_spanish():
    assert spanish_refusal("A:r8e S:- M:- T:- A2", "move r8 e") == (
        "s8 es el área de victoria de Esparta: Atenas no puede entrar nunca en ella"
    )
    assert spanish_refusal("A:k6n S:- M:- T:- A2", "move k6 n") == (
        "k6 no puede moverse hacia el norte: k7 está en el área central"
    )
    assert spanish_refusal("A:k4n,k5n,k6n S:- M:- T:- A2", "advance k4,k5,k6") == (
        "la línea de piezas de la columna k no puede avanzar: k7 está en el área central"
    )


def test_a_phalanx_refusal_says_why_in_spanish():
    assert spanish_refusal("A:j4w,j5n S:- M:- T:- A2", "rotate j4,j5 e") == (
        "todas las piezas de una falange miran hacia el mismo lado, pero j4 mira hacia w, j5 mira hacia n"
    )
    assert spanish_refusal("A:j4w,j5w S:- M:- T:- A2", "rotate j4,j5 w") == (
        "esa falange ya mira al oeste: al girar tiene que cambiar la orientación"
    )
    assert spanish_refusal("A:j4w,k5w S:- M:- T:- A2", "rotate j4,k5 n") == (
        "j4,k5 no es un grupo unido: las piezas de una falange se tocan de lado a lado"
    )


def test_a_push_too_light_is_refused_with_the_weights_in_spanish():
    assert spanish_refusal("A:f5e,g5e S:- M:- T:h5w,i5w A2", "advance f5,g5") == (
        "el hoplita de Tebas en h5 te mira de frente: peso 2 contra 2, no hay empuje"
    )


def test_a_rally_refusal_is_in_spanish():
    assert spanish_refusal(START, "rally k1 n") == "Atenas no tiene piezas derrotadas que reagrupar"
    assert spanish_refusal("A:j4w S:- M:- T:- A2", "rally k3 n") == (
        "k3 no está en tu área de reagrupamiento: Atenas se reagrupa en j1–l2"
    )


def test_notation_errors_are_in_spanish():
    assert notation_error("move j6 ne") == (
        "las piezas nunca se mueven ni miran en diagonal: usa n, e, s o w (norte, este, sur, oeste)"
    )
    assert notation_error("move j6 noreste") == notation_error("move j6 ne")
    assert notation_error("move j6 arriba-izquierda").startswith("'arriba-izquierda' no es una dirección: usa n, e")
    assert notation_error("fly").startswith("no entiendo 'fly': escribe una de estas: move j6 w · rotate k5 w")
    assert notation_error("move k8 n") == "k8 está en el área central"
    assert notation_error("advance k4") == (
        "advance necesita las casillas de una falange de 2 o más piezas, como advance j4,j5,j6 "
        "(una pieza sola usa move)"
    )
    with using(SPANISH), pytest.raises(NotationError) as refused:
        GAME.load("A:s8n S:- M:- T:- A2")
    with using(SPANISH):
        assert str(refused.value) == "Atenas no puede estar en s8, el área de victoria de Esparta"


def test_a_refusal_renders_in_the_language_of_whoever_reads_it():
    with pytest.raises(IllegalAction) as refused:
        GAME.apply(game(START), parse_action("move d7 s"))
    assert str(refused.value) == "d7 is not one of your pieces: it is Sparta's piece"
    with using(SPANISH):
        assert str(refused.value) == "d7 no es una de tus piezas: es una pieza de Esparta"


# --- what happened ----------------------------------------------------------------------


def test_a_move_is_described_in_spanish():
    assert described(START, "move j6 w") == "Atenas movió de j6 a i6"


def test_a_rout_by_a_single_piece_is_described_in_spanish():
    assert described("A:k5n S:- M:- T:k6e A2", "move k5 n") == (
        "Atenas movió de k5 a k6 y derrotó a la pieza de Tebas en k6"
    )


def test_a_rotation_is_described_in_spanish():
    assert described("A:- S:- M:- T:q7s,r7s T2", "rotate q7,r7 w") == "Tebas giró q7,r7 hacia el oeste"


def test_an_advance_with_a_push_and_a_rout_is_described_in_spanish():
    assert described("A:f5w S:d5e,d6e,e5e,e6e M:f6n T:- S2", "advance d5,d6,e5,e6") == (
        "Esparta avanzó la falange d5,d6,e5,e6: empujó la pieza de Atenas de f5 a g5; "
        "derrotó a la pieza de Messene en f6"
    )
    assert described("A:g5w,h5e S:d5e,e5e,f5e M:- T:- S2", "advance d5,e5,f5") == (
        "Esparta avanzó la falange d5,e5,f5: empujó la pieza de Atenas de g5 a h5 y la pieza de Atenas de h5 a i5"
    )


def test_a_push_that_routs_is_described_in_spanish():
    assert described("A:k4n,k5n S:k6s M:- T:- A2", "advance k4,k5") == (  # into the central area
        "Atenas avanzó la falange k4,k5: empujó fuera del tablero la pieza de Esparta en k6"
    )
    assert described("A:g5w S:d5e,e5e,f5e,i5n M:h5e T:- S2", "advance d5,e5,f5") == (
        "Esparta avanzó la falange d5,e5,f5: empujó la pieza de Atenas de g5 a h5; "
        "empujó la pieza de Messene en h5 hasta i5 y la derrotó"
    )
    assert described("A:k10n,k11n S:k12s M:- T:- A2", "advance k10,k11") == (
        "Atenas avanzó la falange k10,k11: empujó la pieza de Esparta en k12 al área de victoria de Atenas y la derrotó"
    )


def test_a_rally_and_a_pass_are_described_in_spanish():
    assert described("A:- S:- M:- T:- M2", "rally k14 s") == "Messene reagrupó una pieza en k14 mirando al sur"
    assert described(START.replace(" A2", " S2"), "pass") == "Esparta pasó"


def test_a_victory_is_described_in_spanish():
    assert described("A:k12n S:- M:- T:- A2", "move k12 n") == "Atenas movió de k12 a k13 — ¡Gana Atenas–Messene!"


def test_draws_by_the_board_are_described_in_spanish():
    state = play(START, *["pass"] * 7)
    _, happened = GAME.apply(state, parse_action("pass"))
    with using(SPANISH):
        assert GAME.describe(happened) == (
            "Tebas pasó — empate: en cuatro turnos seguidos las ciudades pasaron sus dos acciones"
        )
        assert GAME.describe(happened[1:]) == "Empate: en cuatro turnos seguidos las ciudades pasaron sus dos acciones"


def test_several_actions_are_joined_in_spanish():
    state = game("A:k5n S:- M:- T:- A2")
    state, first = GAME.apply(state, parse_action("rotate k5 e"))
    _, second = GAME.apply(state, parse_action("move k5 n"))
    with using(SPANISH):
        assert GAME.describe([*first, *second]) == "Atenas giró k5 hacia el este; después, Atenas movió de k5 a k6"


# --- results ----------------------------------------------------------------------------


def _ended(kind: EndingKind, seat: str | None = None, side: str | None = None) -> str:
    state, _ = GAME.end(GAME.new(4, {}, 0), Ending(kind, seat, side))
    with using(SPANISH):
        return str(GAME.outcome(state).summary)


def test_a_resignation_reads_in_spanish():
    assert _ended(EndingKind.RESIGNATION, "sparta") == "Atenas–Messene ganó por rendición"


def test_agreements_and_concessions_read_in_spanish():
    assert _ended(EndingKind.AGREEMENT) == "Empate de mutuo acuerdo"
    assert _ended(EndingKind.CONCESSION, "athens", "athens-messene") == (
        "Atenas–Messene declaró Nika y los rivales lo concedieron"
    )
    assert _ended(EndingKind.CONCESSION, "thebes", "athens-messene") == (
        "Atenas–Messene ganó: Esparta–Tebas concedió la partida"
    )


def test_the_victory_and_the_draws_of_the_board_read_in_spanish():
    won = play("A:k12n S:- M:- T:- A2", "move k12 n")
    passed = play(START, *["pass"] * 8)
    with using(SPANISH):
        assert str(GAME.outcome(won).summary) == "Atenas–Messene llegó al área de victoria"
        assert str(GAME.outcome(passed).summary) == (
            "Empate: en cuatro turnos seguidos las ciudades pasaron sus dos acciones"
        )


def test_a_stored_result_reads_in_each_readers_language():
    """The outcome is made once, when the action is played; it is read later, by anyone."""
    state = play("A:k12n S:- M:- T:- A2", "move k12 n")
    summary = GAME.outcome(state).summary
    english = "Athens–Messene reached the victory area"
    assert summary == english and str(summary) == english  # English is the default, unchanged
    with using(SPANISH):
        assert str(summary) == "Atenas–Messene llegó al área de victoria"
        assert summary == english  # it still equals its English text, as records compare it
    with using(SPANISH), pytest.raises(IllegalAction) as over:
        GAME.apply(state, parse_action("pass"))
    with using(SPANISH):
        assert str(over.value) == "la partida ha terminado: Atenas–Messene llegó al área de victoria"
    assert str(over.value) == "the game is over: Athens–Messene reached the victory area"
    assert summary.render(ENGLISH) == english


# --- Spanish input ----------------------------------------------------------------------

SPANISH_WORDS = {"norte": Direction.N, "este": Direction.E, "sur": Direction.S, "oeste": Direction.W,
                 "o": Direction.W, "arriba": Direction.N, "abajo": Direction.S, "derecha": Direction.E,
                 "izquierda": Direction.W}  # fmt: skip


@pytest.mark.parametrize(("word", "direction"), SPANISH_WORDS.items())
def test_spanish_direction_words_are_directions_in_any_case(word, direction):
    assert parse_direction(word) is direction
    assert parse_direction(word.upper()) is direction
    assert parse_direction(f" {word.capitalize()} ") is direction


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("move j6 oeste", "move j6 w"), ("move j6 OESTE", "move j6 w"), ("move j6 o", "move j6 w"),
        ("rotate j4,j5,j6 Norte", "rotate j4,j5,j6 n"), ("rally k1 mirando al sur", "rally k1 s"),
        ("rotate k5 hacia el este", "rotate k5 e"), ("move j6 a i6", "move j6 w"),
        ("move j6 hasta i6", "move j6 w"),
    ],
)  # fmt: skip
def test_actions_with_spanish_words_are_read_and_written_canonically(typed, read):
    assert parse_action(typed).notation() == read


def test_spanish_diagonals_get_the_reason_a_piece_cannot_go_there():
    for word in ("noreste", "noroeste", "sureste", "sudeste", "suroeste", "sudoeste"):
        with pytest.raises(NotationError, match="diagonally"):
            parse_action(f"move j6 {word}")


def test_the_english_words_and_the_letters_read_as_before():
    assert all(parse_direction(d.letter) is d for d in Direction)
    assert parse_direction("e") is Direction.E and parse_direction("s") is Direction.S
    assert parse_direction("west") is Direction.W and parse_direction("up") is Direction.N


# --- menus ------------------------------------------------------------------------------


def test_menu_labels_are_in_the_language_of_whoever_opens_the_menu():
    (move,) = [a for a in GAME.legal_actions(game(START)) if a.notation() == "move j6 w"]
    (advance,) = [a for a in GAME.legal_actions(game("A:k4n,k5n S:- M:- T:- A2")) if a.notation() == "advance k4,k5"]
    with using(SPANISH):
        assert [s.label for s in GAME.action_path(move)] == ["Mover", "j6", "oeste (w)"]
        assert [s.label for s in GAME.action_path(advance)] == ["Avanzar", "k4,k5"]
        assert [s.value for s in GAME.action_path(move)] == ["move", "j6", "w"]  # values stay notation
    assert [s.label for s in GAME.action_path(move)] == ["Move", "j6", "west (w)"]


def test_menu_questions_are_in_spanish():
    from bot.games.nika import FRONT_END

    with using(SPANISH):
        assert FRONT_END.ask(()) == "¿Qué haces?"
        assert FRONT_END.ask(("move",)) == "¿Qué pieza mueves?"
        assert FRONT_END.ask(("move", "j6")) == "¿Hacia dónde mueves j6?"
        assert FRONT_END.ask(("rally", "k1")) == "La pieza reagrupada en k1 mira hacia…"
        assert [str(label) for label in FRONT_END.panel_labels.values()] == [
            "Mover", "Girar", "Avanzar", "Reagrupar", "Pasar"]  # fmt: skip
    assert FRONT_END.ask(("move", "j6")) == "Move j6 which way?"


# --- the catalogue ----------------------------------------------------------------------

# The shared commands and options the help names are the host's to translate; these are Nika's.
OWN_NAMES = {("command", name) for name in ("move", "rotate", "advance", "rally", "pass", "declare", "concede",
                                            "challenge")} | {
    ("option", name) for name in ("city", "team", "piece", "pieces", "direction", "facing", "square")}  # fmt: skip


def _nika_messages() -> set[tuple[str | None, str | tuple[str, str]]]:
    """(context, English) of every Message and Term in Nika's code, as `bot.translations` finds them."""
    passes = [({"M": None, "P": (1, 2)}, None), ({"T": {1: (1,), 2: ((2, "c"), 1)}}, "term")]
    found = set()
    for keywords, default in passes:
        for folder in ("engine/nika", "render/nika"):
            for _, _, text, _, context in extract_from_dir(
                ROOT / folder, method_map=[("**.py", "python")], keywords=keywords, comment_tags=()
            ):
                found.add((context or default, text))
        for _, text, _, context in extract_from_file("python", ROOT / "bot/games/nika.py", keywords=keywords):
            if context not in ("command", "option") or (context, text) in OWN_NAMES:
                found.add((context or default, text))
    return found | OWN_NAMES


def test_every_nika_message_has_its_spanish_translation_with_the_same_placeholders():
    messages = _nika_messages()
    assert len(messages) > 200
    po = po_file("es")
    for context, text in messages:
        entry = po.get(text, context=context)
        assert entry is not None and entry.string, (context, text)
        english = text if isinstance(text, tuple) else (text,)
        spanish = entry.string if isinstance(entry.string, tuple | list) else (entry.string,)
        wanted = set().union(*map(placeholders, english))
        for form in spanish:
            assert form and placeholders(form) | {"count"} >= wanted and placeholders(form) <= wanted, (text, form)


def _surface(slug: str) -> set[str]:
    """The words of a game's command group, seats and sides: data the command translator reads."""
    from bot.commands.group import commands_for
    from engine.registry import get_game

    words = set()
    for spec in commands_for(slug).values():
        words |= {spec.name, spec.description}
        for option in spec.options:
            words |= {option.name, option.description, *(choice.label for choice in option.choices)}
    game = get_game(slug)
    for players in game.player_counts:
        words |= {seat.title for seat in game.seats(players)} | {side.title for side in game.sides(players)}
    return words


def test_the_check_lists_nothing_of_nikas():
    """What only Nika shows, from its code and its command surface; what every game shares is the host's."""
    from bot.translations import problems

    own = {text for _, text in _nika_messages() if isinstance(text, str)}
    own |= _surface("nika") - _surface("numica") - _surface("pikemen")
    assert {"Declare Nika: a team has secured victory", "west (w)", "Sparta–Thebes"} <= own
    assert [line for line in problems("es") if any(line.endswith(f" {text!r}") for text in own)] == []
