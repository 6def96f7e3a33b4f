"""A Spanish-speaking newcomer in the console (issue 23): every value typed in Spanish, a whole
Numica game against `join computer:easy` (`/numica unirse máquina:fácil`), and the refusals and
help in Spanish with Spanish names, while what is stored stays language-neutral."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from bot.clock import ManualClock
from bot.commands.group import commands_for
from bot.console import Console
from bot.console_words import greeting
from bot.dispatcher import TimerDispatcher
from bot.service import MatchService
from bot.service.computer import ComputerPlayers
from engine.i18n import choice_name, using
from render.words import catalog, playing

SPANISH = catalog("es")


@pytest.fixture(scope="module")
def computers() -> Iterator[ComputerPlayers]:
    pool = ComputerPlayers(workers=1, budgets={"easy": 20.0, "normal": 20.0, "hard": 20.0})
    yield pool
    pool._pool.shutdown(wait=True, cancel_futures=True)


class Newcomer:
    """The console as a Spanish speaker uses it, with the computer's turns played by the timers
    (as the console's own timer task does) and everything printed kept."""

    def __init__(self, service: MatchService, clock: ManualClock, folder: Path) -> None:
        self.out: list[str] = []
        self.typed: list[str] = []
        self.service, self.clock = service, clock
        self.console = Console(service, folder / "boards", out=self.out.append, locale="es")
        self.dispatcher = TimerDispatcher(service, self.console.announce)

    async def type(self, line: str) -> list[str]:
        seen = len(self.out)
        self.typed.append(line)
        assert await self.console.handle(line)
        await self.clock.advance(2)  # the computer's turn is due at once; its timer fires
        await self.dispatcher.settled(timeout=60)
        return self.out[seen:]


@pytest.fixture
async def newcomer(db_path: str, computers: ComputerPlayers, tmp_path: Path) -> AsyncIterator[Newcomer]:
    clock = ManualClock()
    service = await MatchService.open(db_path, clock=clock, computers=computers)
    player = Newcomer(service, clock, tmp_path)
    await player.console.load_names()
    player.dispatcher.start()
    yield player
    await player.dispatcher.stop()
    await service.close()


def english_words(game: str) -> set[str]:
    """Every command, option and choice name a reader of English types, less those that read
    the same in Spanish (`normal`, the squares): none of them may be typed by the newcomer."""
    words: set[str] = set()
    with using(SPANISH), playing(game):
        for spec in commands_for(game).values():
            if SPANISH.gettext(spec.name, "command") != spec.name:
                words.add(spec.name)
            for option in spec.options:
                if SPANISH.gettext(option.name, "option") != option.name:
                    words.add(option.name)
                words |= {c.value for c in option.choices if str(choice_name(c.value)) != c.value}
    return words


def typed_words(line: str) -> set[str]:
    return set(re.findall(r"[^\W\d]\w*", line.lower()))


async def test_a_spanish_newcomer_plays_a_whole_numica_game_against_the_computer(
    newcomer: Newcomer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("bot.service.lobby.secrets.randbelow", lambda _: 20231)  # one deal of the tiles
    tab = newcomer.console.completions  # what Tab offers for the line typed so far
    assert "nueva " in await tab("/numica nu") and "bando:rojo " in await tab("/numica nueva bando:")
    assert "colocación:elegir " in await tab("/numica nueva bando:rojo colocación:")
    out = await newcomer.type("/numica nueva bando:rojo colocación:elegir plazo:ninguno")
    assert out[0].startswith("@alice abrió una partida de Numica y ocupó Rojo.")
    assert "máquina:fácil " in await tab("/numica unirse máquina:")
    out = await newcomer.type("/numica unirse máquina:fácil")  # no seat named: the free one, Blue
    assert out[0].startswith("Azul: máquina (fácil).")
    await newcomer.type("/numica empezar")
    out = await newcomer.type("/numica colocar opción:sosoosos")
    assert any("Rojo" in line for line in out)
    state = await newcomer.service.state_of(1)
    assert state.computers == {"blue": "easy"} and state.options == {"setup": "choose"}  # stored neutral
    for _ in range(400):  # a game ends within 100 quiet moves of its last capture
        row = await newcomer.service.match_in(1)
        if row is None or row[0].status != "active":
            break
        legal = [a.notation() for a in await newcomer.service.legal_actions(1, newcomer.console.ids["alice"])]
        if not legal:
            await newcomer.clock.advance(2)
            await newcomer.dispatcher.settled(timeout=60)
            continue
        move = next((m for m in legal if "x" in m), legal[0])  # a capture when there is one
        frm, to = re.findall(r"[a-h][1-8]", move)
        # Tab offers the piece, then where it may go: the line is built from its offers.
        line = "/numica mover desde:"
        line += next(c for c in await tab(line) if c == f"desde:{frm} ").removeprefix("desde:") + "hasta:"
        line += next(c for c in await tab(line) if c == f"hasta:{to} ").removeprefix("hasta:")
        out = await newcomer.type(line.strip())
        assert not any(line.startswith("✗") for line in out), out
    state = await newcomer.service.state_of(1)
    assert state.rules.outcome(state.game) is not None, "the game did not end"
    ended = "\n".join(newcomer.out[-6:])
    assert re.search(r"\*\*(Rojo|Azul) gana|Tablas|tablas|[Ee]mpate", ended), ended
    out = await newcomer.type("/numica repetición formato:registro")
    assert out[0].startswith("El registro de la partida #1")
    # Not one English command, option or value was typed, and nothing English came back.
    english = english_words("numica")
    for line in newcomer.typed:
        assert not typed_words(line) & english, (line, typed_words(line) & english)
    assert not [line for line in newcomer.out if re.search(r"\b(to act|wins|moved|captured|took|written)\b", line)]


async def test_spanish_values_are_refused_and_listed_in_spanish(newcomer: Newcomer) -> None:
    out = await newcomer.type("/numica nueva")
    assert out == ["✗ /numica nueva necesita la opción bando, una de: rojo, azul, azar"]
    out = await newcomer.type("/numica nueva bando:verde")
    assert out == ["✗ 'verde' no es una opción válida de bando: usa rojo, azul, azar"]
    out = await newcomer.type("/numica nueva bando:rojo desconocida:1")
    assert out == [
        "✗ /numica nueva no tiene la opción 'desconocida'; sus opciones son: bando, colocación, plazo, reserva, desde, "
        "registro, hilo"
    ]
    out = await newcomer.type("/nika nueva ciudad:atenas-messene plazo:nunca")
    assert out == ["✗ 'nunca' no es una opción válida de plazo: usa ninguno, 1, 2, 3, 7"]
    out = await newcomer.type("/pikemen nueva")
    # Pikemen's seat is a colour: its refusal names the option as its help does.
    assert out == ["✗ /pikemen nueva necesita la opción color, una de: rojo, amarillo, verde, azul"]
    assert await newcomer.service.match_in(1) is None  # nothing was opened


@pytest.mark.parametrize(
    ("line", "stored"),
    [
        ("/nika nueva ciudad:atenas plazo:ninguno", {"athens": "alice"}),
        ("/nika nueva ciudad:Atenas-Messene", {"athens": "alice", "messene": "alice"}),
        ("/numica nueva bando:azul colocación:azar", {"blue": "alice"}),
        ("/pikemen nueva color:amarillo jugadores:3 objetivo:40", {"yellow": "alice"}),
    ],
)
async def test_spanish_choices_are_stored_as_the_neutral_values(newcomer: Newcomer, line: str, stored: dict) -> None:
    out = await newcomer.type(line)
    assert not out[0].startswith("✗"), out
    state = await newcomer.service.state_of(1)
    alice = newcomer.console.ids["alice"]
    assert {seat: "alice" for seat, user in state.seats.items() if user == alice} == stored
    assert set(state.options.values()) <= {"random", "choose", "40", "12"}


async def test_every_command_value_has_a_spanish_name_accepted_where_it_is_typed(newcomer: Newcomer) -> None:
    """Draw offers, the record format, reminders by DM, a computer level, a thread: each by its
    Spanish name (accents optional), each reaching the service as the English value."""
    await newcomer.type("/nika nueva ciudad:atenas-messene")
    out = await newcomer.type("/nika unirse maquina:dificil")  # typed without accents
    assert "máquina (difícil)" in out[0], out
    assert (await newcomer.service.state_of(1)).computers == {"sparta": "hard", "thebes": "hard"}
    out = await newcomer.type("/nika ajustes md:sí")
    assert not out[0].startswith("✗"), out
    out = await newcomer.type("/nika empezar")
    out = await newcomer.type("/nika empate opción:ofrecer")
    assert not out[0].startswith("✗"), out
    out = await newcomer.type("/nika repetición formato:animación")
    assert out == ["✗ aún no se ha jugado ninguna acción"]  # the value was read; there is nothing to replay yet
    out = await newcomer.type("/nika repetición formato:gif")
    assert out == ["✗ 'gif' no es una opción válida de formato: usa animación, registro"]


async def test_the_spanish_help_shows_spanish_values(newcomer: Newcomer) -> None:
    helps = {game: "\n".join(await newcomer.type(f"/{game} ayuda")) for game in ("nika", "numica", "pikemen")}
    assert "ciudad:atenas-messene" in helps["nika"] and "dirección:o`" in helps["nika"]
    assert "bando:rojo` (o `azul`, `azar`)" in helps["numica"] and "colocación:elegir" in helps["numica"]
    assert "color:rojo" in helps["pikemen"] and "color:amarillo" in helps["pikemen"]
    for text in helps.values():
        assert "formato:registro" in text and "opción:ofrecer|aceptar|rechazar" in text and "md:sí" in text
        assert not re.search(r":(red|blue|yellow|athens|record|offer|on|choose)\b", text), text
    assert "Orientaciones: n ne e se s so o no." in helps["pikemen"]  # the Spanish compass letters
    with using(SPANISH):
        assert "/nika nueva ciudad:atenas " in greeting(("nika", "numica"))
