"""The host speaks Spanish to a Spanish-speaking player: the service's replies and refusals, the
posts timers make for a Spanish member, the console started with `--locale es`, and every
sentence the host writes has its Spanish entry. English stays as it was (the other tests of
tests/bot compare it word for word)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.clock import ManualClock
from bot.console import Console, parse_command
from bot.dispatcher import TimerDispatcher
from bot.errors import ConfirmFirst, NotAllowed, NotYourTurn, ServiceError
from bot.i18n import speaking
from bot.replies import Notice
from bot.service import MatchService
from bot.translations import host_messages
from engine.i18n import placeholders
from render.words import host_po_file
from tests.bot.conftest import ALICE, BOB, GUILD, FrontEnd

HOUR = 3600.0
SPANISH = "es-ES"


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[MatchService]:
    service = await MatchService.open(str(tmp_path / "host.db"))
    yield service
    await service.close()


async def numica_under_way(service: MatchService, channel: int) -> None:
    """A Numica match past its secret setup, Red (Alice) to move."""
    await service.new_match(GUILD, channel, ALICE, "red", game="numica")
    await service.join(channel, BOB, "blue")
    await service.start(channel, ALICE)
    await service.setup(channel, ALICE, "sosoosos")
    await service.setup(channel, BOB, "sosoosos")


# --- the service's replies -----------------------------------------------------------------
async def test_the_lobby_speaks_spanish_and_names_the_commands_as_discord_shows_them(service: MatchService) -> None:
    with speaking(SPANISH, "pikemen"):  # as the front end speaks around a /pikemen command: its own words first
        opened = await service.new_match(GUILD, 1, ALICE, "red", game="pikemen", players=3, deadline_days=2)
        joined = await service.join(1, BOB, "yellow")
    assert opened.text == (
        f"<@{ALICE}> abrió una partida de Pikemen (para 3 jugadores; con un plazo de 2 días por turno) y ocupó Rojo. "
        "Únete con /pikemen unirse; después, /pikemen empezar cuando cada color tenga jugador."
    )
    assert (
        joined.text
        == f"<@{BOB}> ocupó Amarillo.\n**Sala de Pikemen**\nRojo: <@{ALICE}>\nAmarillo: <@{BOB}>\nAzul: *libre*"
    )


async def test_the_turn_ping_names_the_seat_and_the_actions_left_in_spanish(service: MatchService) -> None:
    await service.new_match(GUILD, 2, ALICE, "athens-messene", game="nika")
    await service.join(2, BOB, "sparta-thebes")
    with speaking(SPANISH):
        started = await service.start(2, ALICE)
        moved = await service.act(2, ALICE, "pass")
    assert started.text.startswith("¡Empieza la partida! Atenas: <@11> · Esparta: <@22>")
    assert started.text.endswith("Turno de Atenas (le quedan 2 acciones) — <@11>")
    assert moved.text.endswith("Turno de Atenas (le queda 1 acción) — <@11>") and moved.mentions == (ALICE,)


async def test_resigning_asks_for_confirmation_in_spanish(service: MatchService) -> None:
    await numica_under_way(service, 3)
    with speaking(SPANISH), pytest.raises(ConfirmFirst) as asked:
        await service.resign(3, ALICE)
    assert asked.value.kind == "resign"
    assert str(asked.value) == (
        "Si te rindes, la partida termina y Rojo pierde. Confírmalo con el botón, o envía el mismo comando otra vez "
        "antes de un minuto."
    )


async def test_refusals_are_spanish_and_english_readers_still_get_english(service: MatchService) -> None:
    await numica_under_way(service, 4)
    with pytest.raises(NotYourTurn) as refused:
        await service.act(4, BOB, "c8-c5")
    # A refusal is a Message: it reads in the language of whoever renders it.
    with speaking(SPANISH):
        assert str(refused.value) == f"es el turno de Rojo (lo juega <@{ALICE}>)"
    with speaking("en-US"):
        assert str(refused.value) == f"it is Red's turn (<@{ALICE}> plays it)"
    with speaking(SPANISH), pytest.raises(ServiceError) as busy:
        await service.new_match(GUILD, 4, BOB, "red", game="numica")
    with speaking(SPANISH):
        assert str(busy.value).endswith("o ábrela en un hilo con /numica nueva hilo:sí")


async def test_a_draw_offer_and_the_game_over_post_are_spanish(service: MatchService) -> None:
    await numica_under_way(service, 5)
    with speaking(SPANISH):
        offered = await service.draw(5, ALICE, "offer")
        with pytest.raises(NotAllowed, match="ya has aceptado este empate"):
            await service.draw(5, ALICE, "accept")
        over = await service.draw(5, BOB, "accept")
    assert offered.text == (
        f"<@{ALICE}> ofrece empate. Falta la respuesta de <@{BOB}>: /numica empate opción:aceptar o opción:rechazar."
    )
    assert offered.mentions == (BOB,) and offered.answers == ("draw_accept", "draw_decline")
    assert over.text.startswith(f"<@{BOB}> acepta el empate. Todos están de acuerdo.\n**Empate de mutuo acuerdo.**")
    assert over.image is not None and over.image.description.startswith("Tablero de Numica.")


async def test_history_settings_and_standings_are_spanish(service: MatchService) -> None:
    await numica_under_way(service, 6)
    [first, *_] = await service.legal_actions(6, ALICE)
    await service.act(6, ALICE, first.notation())
    with speaking(SPANISH):
        history = await service.history(6)
        settings = await service.settings(GUILD, 6, ALICE)
        board = await service.leaderboard(GUILD, ALICE, "numica")
    assert history.text.startswith("**Historial**, página 1 de 1\n`  1` Rojo ")
    assert settings.text.splitlines() == [
        "Por defecto en el servidor: recordatorios tras 24 h sin jugar.",
        "Esta partida (#1): recordatorios tras 24 h, como mucho 3 por turno; sin plazo por turno.",
        "Tus recordatorios por mensaje directo: desactivados.",
        "Tu resumen diario: desactivado.",
    ]
    assert board.text == "Aún no ha terminado ninguna partida puntuada de Numica en este servidor."


# --- timers address each member in their own language ----------------------------------------
async def test_a_reminder_and_a_timeout_speak_the_language_last_seen_from_the_member(tmp_path: Path) -> None:
    clock = ManualClock()
    raw = await MatchService.open(str(tmp_path / "timers.db"), clock=clock)
    service = FrontEnd(raw)  # every reply posted, as the bot's front ends do
    notices: list[Notice] = []

    async def announce(notice: Notice, nonce: str) -> None:
        notices.append(notice)

    dispatcher = TimerDispatcher(raw, announce)
    dispatcher.start()
    try:
        await service.seen_locale(ALICE, SPANISH, GUILD, None)  # Alice last used Discord in Spanish
        await service.new_match(GUILD, 7, ALICE, "red", game="numica", deadline_days=2)
        await service.join(7, BOB, "blue")
        await service.start(7, ALICE)
        await service.setup(7, ALICE, "sosoosos")
        await service.setup(7, BOB, "sosoosos")
        await clock.advance(24 * HOUR)
        await dispatcher.settled()
        [reminder] = notices
        assert reminder.locale == "es" and reminder.reply.mentions == (ALICE,)  # its buttons will speak Spanish too
        assert reminder.reply.text == (
            f"⏰ <@{ALICE}>, Rojo te espera y no ha pasado nada en 24 h. (Recordatorio 1 de 3; /numica tablero "
            "muestra el tablero.)"
        )
        await clock.advance(24 * HOUR)
        await dispatcher.settled()
        expired = notices[-1]
        assert expired.reply.text.startswith(
            "⌛ Se acabó el turno de Rojo (plazo de 2 días).\n**A Rojo se le acabó el tiempo: Azul gana.**"
        )
    finally:
        await dispatcher.stop()
        await service.close()


# --- the console --------------------------------------------------------------------------------
def test_the_spanish_console_reads_spanish_and_english_names() -> None:
    spanish = parse_command("/numica mover desde:c1 hasta:c4", "es")
    assert spanish == ("numica", "move", [("from", "c1"), ("to", "c4")])
    assert parse_command("/numica move from:c1 to:c4", "es") == spanish
    assert parse_command("/pikemen repeticion formato:record", "es") == ("pikemen", "replay", [("format", "record")])
    assert parse_command("/pikemen empate opción:offer", "es") == ("pikemen", "draw", [("choice", "offer")])
    # A position holds `red:` of its own: only the command's own names (in either language) start an option.
    tiles = "RK14R155/K13XK33R/X1223114/23243213/2BK55R21/1X1B344K/X4K34552/1X5BB422"
    position = f"{tiles} red:c1s blue:b8o red/0"
    assert parse_command(f"/numica nueva bando:red desde:{position} plazo:1", "es") == (
        "numica", "new", [("side", "red"), ("from", position), ("deadline", "1")]
    )  # fmt: skip
    # An English console knows only the English names.
    assert parse_command("/numica mover desde:c1", "en") == ("numica", "mover", [("desde", "c1")])


async def test_tab_completes_the_spanish_names_first_then_the_english_ones(tmp_path: Path) -> None:
    service = await MatchService.open(str(tmp_path / "tab.db"))
    try:
        spanish = Console(service, tmp_path / "boards", out=lambda _: None, locale="es")
        commands = await spanish.completions("/numica ")
        assert commands[:3] == ["nueva ", "unirse ", "salir "] and "new " in commands
        assert await spanish.completions("/numica mover ") == ["desde:", "hasta:", "from:", "to:"]
        assert await spanish.completions("/numica move ") == ["desde:", "hasta:", "from:", "to:"]
        english = Console(service, tmp_path / "boards", out=lambda _: None)
        assert await english.completions("/numica move ") == ["from:", "to:"]
    finally:
        await service.close()


async def test_a_console_session_in_spanish(service: MatchService, tmp_path: Path) -> None:
    lines: list[str] = []
    console = Console(service, tmp_path / "boards", out=lines.append, locale="es")
    script = [
        "/numica nueva bando:red",
        "as @bob",
        "/numica join side:blue",  # the English names still work
        "/numica empezar",
        "/numica colocar opción:sosoosos",
        "as @alice",
        "/numica colocar opcion:sosoosos",
        "/numica mover desde:c1 hasta:c9",
        "/numica ayuda",
        "/numica nada",
    ]
    for line in script:
        assert await console.handle(line)
    text = "\n".join(lines)
    assert "@alice abrió una partida de Numica y ocupó Rojo. Únete con /numica unirse" in text
    assert "ahora juegas como @bob" in text
    assert "@bob ocupó Azul." in text
    assert "Tu colocación para Azul está hecha:" in text
    assert "Las dos filas iniciales están colocadas" in text and "Turno de Rojo — @alice" in text
    assert "✗ 'c9' está fuera del tablero" in text
    assert "**En esta consola** escribe los comandos como texto" in text
    assert "✗ No existe /numica nada: prueba /numica ayuda" not in text  # refusals keep the service's case
    assert "✗ no existe /numica nada: prueba /numica ayuda" in text
    assert "[numica-board.png guardado en " in text


# --- the catalogue -------------------------------------------------------------------------------
def test_every_sentence_of_the_host_has_its_spanish_with_the_same_placeholders() -> None:
    po = host_po_file("es")  # the host's own catalogue: its words owe nothing to any game's
    found = host_messages()  # every Message and Term of engine/, render/ and bot/ outside the games' files
    assert len(found) > 200
    for (context, text), plural in found.items():
        entry = po.get(text if plural is None else (text, plural), context=context)
        assert entry is not None and entry.string, (context, text)
        forms = tuple(entry.string) if isinstance(entry.string, tuple | list) else (str(entry.string),)
        wanted = placeholders(text) | (placeholders(plural) if plural else set())
        for form in forms:
            assert form and placeholders(form) <= wanted and wanted - {"count"} <= placeholders(form), (text, form)
