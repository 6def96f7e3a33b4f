"""A game the host has never seen: tic-tac-toe, a package of its own under tests/plugins that
the test environment installs like any third-party game (`pip install -e tests/plugins/tictactoe`).
Nothing in engine/, render/ or bot/ names it; the host finds it through its entry points alone,
with its evaluation, artist, front end and Spanish catalogue.

It is played through the console and through "Discord" (the bot in process against the API
double) to a win, a draw and a resignation, with a computer seat, in English and in Spanish
(its own catalogue's words). The conformance suite (tests/conformance) runs over it too.
"""

from __future__ import annotations

import importlib.metadata
import re
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from bot.client import BoardGameBot
from bot.clock import ManualClock
from bot.commands.front_end import front_end
from bot.console import Console
from bot.dispatcher import TimerDispatcher
from bot.replies import Notice
from bot.service import MatchService
from bot.service.computer import ComputerPlayers
from engine import plugins
from engine.registry import get_game
from engine.search import evaluator_for
from render import render_state
from render.registry import artist_for
from tests.bot import conftest as shared
from tests.bot.discord_harness import TIMEOUT, Answer, Players, answer_of, decode_png, service_of
from tests.discord_double import DiscordDouble, StoredMessage, User
from tests.e2e.test_startup import clean_environment

double, players, bot = shared.double, shared.players, shared.bot  # the Discord double's fixtures, by name
db_path = shared.db_path  # a service on both storage backends
postgres = shared.postgres

ROOT = Path(__file__).resolve().parents[2]
GAME = "tictactoe"
PACKAGE = "boardgame-tictactoe"
FULL_BOARD_DRAW = ["a1", "b1", "c1", "b2", "a2", "c2", "b3", "a3", "c3"]  # x and o in turn: no line
X_WINS = ["a1", "b1", "a2", "b2", "a3"]  # x: a1, a2, a3


# --- found by its entry points ---------------------------------------------------------------
def test_the_game_and_its_parts_come_from_its_own_installed_package() -> None:
    dist = importlib.metadata.distribution(PACKAGE)
    points = {(p.group, p.name): p.value for p in dist.entry_points}
    assert points == {
        (plugins.GAMES, GAME): "tictactoe.game:GAME",
        (plugins.EVALUATIONS, GAME): "tictactoe.ai",
        (plugins.ARTISTS, GAME): "tictactoe.artist:ARTIST",
        (plugins.FRONT_ENDS, GAME): "tictactoe.front_end:FRONT_END",
        (plugins.CATALOGUES, GAME): "tictactoe.locales",
    }
    game = get_game(GAME)
    assert type(game).__module__ == "tictactoe.game"
    home = ROOT / "tests" / "plugins" / "tictactoe"
    for part in (game, artist_for(GAME), front_end(GAME)):
        source = Path(__import__(type(part).__module__, fromlist=["_"]).__file__ or "")
        assert home in source.parents or source.name == "front_end.py"
    assert type(artist_for(GAME)).__module__ == "tictactoe.artist"  # its own picture, not the plain one
    assert front_end(GAME).actions[0].name == "mark"
    assert evaluator_for(game).evaluate.__module__ == "tictactoe.ai"
    assert all(home in path.parents or path == home / "tictactoe" for path in plugins.source_paths(GAME))


def test_its_board_is_its_own_picture_in_either_language() -> None:
    game = get_game(GAME)
    state = game.load("x.o/.x./o.. x")
    after, events = game.apply(state, game.parse_action("c1"))
    english = render_state(GAME, after, [events])
    spanish = render_state(GAME, after, [events], locale="es")
    assert english.alt_text.startswith("Tic-tac-toe board. X wins. X holds a3, b2, c1.")
    assert spanish.alt_text.startswith("Tablero de tres en raya. Gana X. X tiene a3, b2, c1.")
    assert spanish.alt_text.endswith("Última jugada: X marcó c1 — Gana X.")
    assert decode_png_bytes(english.png).size == (440, 504)


def decode_png_bytes(data: bytes) -> object:
    import io

    from PIL import Image

    image = Image.open(io.BytesIO(data))
    image.load()
    assert image.format == "PNG"
    return image


# --- the console ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def computers() -> Iterator[ComputerPlayers]:
    pool = ComputerPlayers(workers=1, budgets={"hard": 100.0})
    yield pool
    pool._pool.shutdown(wait=True, cancel_futures=True)


class Desk:
    """A console on a service with computer players; a dispatcher fires the timers of every desk."""

    def __init__(self, service: MatchService, folder: Path, locale: str, clock: ManualClock) -> None:
        self.clock = clock
        self.lines: list[str] = []
        self.console = Console(service, folder / "boards", out=self.lines.append, locale=locale)
        self.dispatcher = TimerDispatcher(service, self._announce)

    async def _announce(self, notice: Notice, nonce: str) -> int | None:
        return await self.console.announce(notice, nonce)

    async def type(self, *lines: str) -> str:
        """Run the lines; what the console printed meanwhile."""
        seen = len(self.lines)
        for line in lines:
            assert await self.console.handle(line), line
            await self.clock.advance(5)  # the computer's turn is a timer a moment later
            await self.dispatcher.settled(timeout=60)
        return "\n".join(self.lines[seen:])


@pytest.fixture
async def desks(db_path: str, computers: ComputerPlayers, tmp_path: Path) -> AsyncIterator[dict[str, Desk]]:
    clock = ManualClock()
    service = await MatchService.open(db_path, clock=clock, computers=computers)
    made = {locale: Desk(service, tmp_path / locale, locale, clock) for locale in ("en", "es")}
    for desk in made.values():
        await desk.console.load_names()
    made["es"].dispatcher = made["en"].dispatcher  # one dispatcher fires the timers of both
    made["en"].dispatcher.start()
    yield made
    await made["en"].dispatcher.stop()
    await service.close()


def play_lines(squares: list[str], verb: str = "mark", square: str = "square", group: str = GAME) -> list[str]:
    lines = []
    for number, where in enumerate(squares):
        lines += [f"as @{'alice' if number % 2 == 0 else 'bob'}", f"/{group} {verb} {square}:{where}"]
    return lines


async def test_the_console_plays_it_to_a_win_a_draw_and_a_resignation(desks: dict[str, Desk]) -> None:
    desk = desks["en"]
    opened = await desk.type("/tictactoe new seat:x", "as @bob", "/tictactoe join seat:o", "as @alice",
                             "/tictactoe start")  # fmt: skip
    assert "@alice opened a Tic-tac-toe match and took X." in opened and "X to act — @alice" in opened
    won = await desk.type(*play_lines(X_WINS))
    assert "X marked a3.\n**X wins.** X: @alice · O: @bob" in won and "✗" not in won
    assert len(list((desk.console.boards_dir).glob("tictactoe-match-*.png"))) == 6

    drawn = await desk.type("channel 2", "as @alice", "/tictactoe new seat:x", "as @bob", "/tictactoe join seat:o",
                            "as @alice", "/tictactoe start", *play_lines(FULL_BOARD_DRAW))  # fmt: skip
    assert "X marked c3.\n**A full board: drawn.**" in drawn and "✗" not in drawn

    resigned = await desk.type("channel 3", "as @alice", "/tictactoe new seat:x", "as @bob", "/tictactoe join seat:o",
                               "as @alice", "/tictactoe start", "/tictactoe mark square:b2", "as @bob",
                               "/tictactoe resign", "/tictactoe resign")  # fmt: skip
    assert "? " in resigned and "O resigned" in resigned  # asked once, then confirmed by repeating it
    taken = await desk.type("channel 4", "as @alice", "/tictactoe new seat:x", "as @bob", "/tictactoe join seat:o",
                            "as @alice", "/tictactoe start", "/tictactoe mark square:b2", "/tictactoe mark square:a1")
    assert taken.endswith("✗ it is O's turn (@bob plays it)")  # refused, and nothing changed


async def test_the_computer_takes_a_seat_in_the_console_and_wins(desks: dict[str, Desk]) -> None:
    desk = desks["en"]
    opened = await desk.type("channel 5", "as @alice", "/tictactoe new seat:x",
                             "/tictactoe join seat:o computer:hard", "/tictactoe start")  # fmt: skip
    assert "O: computer (hard)" in opened
    said = ""
    for square in ("a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"):  # the first free square, never a plan
        said += await desk.type(f"/tictactoe mark square:{square}")
        if "O wins" in said or "drawn" in said:
            break
    assert "🤖 O marked" in said and "O wins" in said


async def test_the_console_speaks_its_spanish(desks: dict[str, Desk]) -> None:
    desk = desks["es"]
    opened = await desk.type("channel 6", "as @alice", "/tictactoe nueva puesto:x", "as @bob",
                             "/tictactoe unirse puesto:o", "as @alice", "/tictactoe empezar")  # fmt: skip
    assert "@alice abrió una partida de Tic-tac-toe y ocupó X." in opened and "Turno de X — @alice" in opened
    won = await desk.type(*play_lines(X_WINS, verb="marcar", square="casilla"))
    assert "X marcó a3.\n**Gana X.** X: @alice · O: @bob" in won and "✗" not in won
    refused = await desk.type("channel 7", "as @alice", "/tictactoe nueva puesto:x", "as @bob",
                              "/tictactoe unirse puesto:o", "as @alice", "/tictactoe empezar",
                              "/tictactoe marcar casilla:b2", "as @bob", "/tictactoe marcar casilla:b2",
                              "/tictactoe rendirse", "/tictactoe rendirse")  # fmt: skip
    assert "✗ b2 ya está marcada" in refused and "O se rindió" in refused
    rules = await desk.type("/tictactoe reglas")
    assert rules.startswith("**El tres en raya en un minuto**") and "[tictactoe-rules-example.png" in rules
    helped = await desk.type("/tictactoe ayuda")
    assert "`/tictactoe marcar casilla:b2`" in helped and "{" not in helped


# --- on "Discord" -----------------------------------------------------------------------------
async def send(double: DiscordDouble, user: User, subcommand: str, options: dict[str, object] | None = None,
               locale: str = "en-US") -> Answer:  # fmt: skip
    payload = double.slash_command(user, None, GAME, subcommand, dict(options or {}), locale=locale)
    return await answer_of(double, await double.send_interaction(payload))


async def seat_two(double: DiscordDouble, p: Players, locale: str = "en-US") -> Answer:
    await send(double, p.alice, "new", {"seat": "x"}, locale)
    await send(double, p.bob, "join", {"seat": "o"}, locale)
    return await send(double, p.alice, "start", locale=locale)


async def mark(double: DiscordDouble, p: Players, squares: list[str], locale: str = "en-US") -> Answer:
    last = None
    for number, square in enumerate(squares):
        last = await send(double, p.alice if number % 2 == 0 else p.bob, "mark", {"square": square}, locale)
        assert not last.ephemeral, last.content
    assert last is not None
    return last


async def test_on_discord_its_commands_are_its_own_in_both_languages(
    double: DiscordDouble, bot: BoardGameBot, players: Players
) -> None:
    [group] = [c for c in double.registered_commands() if c["name"] == GAME]
    assert group["description"] == "Play tic-tac-toe: three in a row on a grid of nine squares"
    mark_command = next(o for o in group["options"] if o["name"] == "mark")
    assert mark_command["name_localizations"]["es-ES"] == "marcar"
    assert mark_command["options"][0]["name_localizations"]["es-ES"] == "casilla"
    new = next(o for o in group["options"] if o["name"] == "new")
    seat = new["options"][0]
    assert (seat["name"], seat["name_localizations"]["es-ES"]) == ("seat", "puesto")
    assert [c["name"] for c in seat["choices"]] == ["X (marks first)", "O", "random"]
    assert seat["choices"][0]["name_localizations"]["es-ES"] == "X (marca primero)"


async def test_on_discord_a_win_a_draw_and_a_resignation(
    double: DiscordDouble, bot: BoardGameBot, players: Players
) -> None:
    p = players
    started = await seat_two(double, p)
    assert started.content.endswith(f"X to act — <@{p.alice.id}>") and started.files
    won = await mark(double, p, X_WINS)
    assert won.content.startswith("X marked a3.\n**X wins.**")
    assert {int(user["id"]) for user in won.message.payload["mentions"]} == {p.alice.id, p.bob.id}
    [board] = won.files
    assert board.description.startswith("Tic-tac-toe board. X wins.")
    assert decode_png(board).size == (440, 504)

    second = double.guild.text_channels()[1]
    await send_in(double, p.alice, second, "new", {"seat": "x"})
    await send_in(double, p.bob, second, "join", {"seat": "o"})
    await send_in(double, p.alice, second, "start")
    for number, square in enumerate(FULL_BOARD_DRAW):
        last = await send_in(double, p.alice if number % 2 == 0 else p.bob, second, "mark", {"square": square})
    assert last.content.startswith("X marked c3.\n**A full board: drawn.**")

    await send(double, p.alice, "new", {"seat": "x"})
    await send(double, p.bob, "join", {"seat": "o"})
    await send(double, p.alice, "start")
    await send(double, p.alice, "mark", {"square": "b2"})
    asked = await send(double, p.bob, "resign")
    assert asked.ephemeral and asked.message.custom_ids()  # a confirm button
    resigned = await send(double, p.bob, "resign")
    assert "O resigned" in resigned.content and not resigned.ephemeral
    table = {s.user_id: s for s in await service_of(bot).standings(double.guild.id, GAME)}
    # The win and the draw count; a resignation after one move does not (bot/rating_gate.py).
    assert (table[p.alice.id].wins, table[p.bob.id].losses, table[p.alice.id].draws) == (1, 1, 1)


async def send_in(double: DiscordDouble, user: User, channel: object, subcommand: str,
                  options: dict[str, object] | None = None) -> Answer:  # fmt: skip
    payload = double.slash_command(user, channel, GAME, subcommand, dict(options or {}))
    return await answer_of(double, await double.send_interaction(payload))


async def test_on_discord_the_computer_answers_and_all_of_it_in_spanish(
    double: DiscordDouble, bot: BoardGameBot, players: Players
) -> None:
    p, channel, spanish = players, double.channel.id, "es-ES"
    opened = await send(double, p.alice, "new", {"seat": "x"}, spanish)
    assert opened.content.startswith(f"<@{p.alice.id}> abrió una partida de Tic-tac-toe y ocupó X.")
    seated = await send(double, p.alice, "join", {"seat": "o", "computer": "hard"}, spanish)
    assert seated.content.startswith("O: máquina (difícil). Un miembro que se una aún puede relevarla.")
    await send(double, p.alice, "start", locale=spanish)
    played = await send(double, p.alice, "mark", {"square": "a1"}, spanish)
    assert played.content.startswith("X marcó a1.")

    def the_computers_board(message: StoredMessage) -> bool:
        return message.interaction_id is None and bool(message.files) and message.channel_id == channel

    post = await double.wait_for_message(the_computers_board, timeout=TIMEOUT)
    assert re.match(r"🤖 O marcó [abc][123]", post.content), post.content
    assert post.content.endswith(f"Turno de X — <@{p.alice.id}>")
    assert (post.files[0].description or "").startswith("Tablero de tres en raya. Turno de X.")
    refused = await send(double, p.alice, "mark", {"square": "a1"}, spanish)
    assert refused.ephemeral and refused.content == "A1 ya está marcada."
    state = await service_of(bot).state_of(channel)
    assert [played.seat for played in state.played] == ["x", "o"]


# --- a package that cannot be used ------------------------------------------------------------
def installed_beside(folder: Path, entry_points: str) -> dict[str, str]:
    """An environment in which one more package is installed, declaring `entry_points` (the
    metadata a wheel installs, on the path)."""
    info = folder / "other_game-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: other-game\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(entry_points)
    return clean_environment(PYTHONPATH=f"{ROOT}:{folder}")


@pytest.mark.parametrize(
    ("entry_points", "said"),
    [
        ("[boardgame_host.games]\nbroken = other_game_missing:GAME\n",
         "error: boardgame_host.games 'broken' from the package other-game does not load (other_game_missing:GAME)"),
        ("[boardgame_host.games]\nnika = other_game_missing:GAME\n",
         "error: two installed packages provide boardgame_host.games 'nika': the package "),
    ],
)  # fmt: skip
def test_a_game_package_that_cannot_be_used_stops_the_bot_with_one_line(
    tmp_path: Path, entry_points: str, said: str
) -> None:
    env = installed_beside(tmp_path / "site", entry_points)
    slug = entry_points.split("\n")[1].split(" = ")[0]
    for command in (["-m", "bot", "console"], ["-m", "engine", "--game", slug, "start"]):
        done = subprocess.run([sys.executable, *command], cwd=tmp_path, env=env, capture_output=True, text=True,
                              timeout=90, stdin=subprocess.DEVNULL)  # fmt: skip
        assert done.returncode == 2, done.stderr
        assert done.stderr.startswith(said) and done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
