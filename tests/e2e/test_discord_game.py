"""A whole four-player game on "Discord": the unmodified bot runs as `python -m bot` in
its own process against the Discord double, and four people play it with slash
commands from `/nika new` to a win.

Every reply is checked against an oracle: the same game replayed with the engine in
this process gives each summary, the alt text of each board and who must be pinged.
"""

from __future__ import annotations

import asyncio
import io
import json
import os
import secrets
import sys
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord
import pytest
from PIL import Image

from engine.nika import City, GameState, describe_events
from render.nika import alt_text
from tests.bot.discord_harness import LOADING, TIMEOUT, Answer, answer_of
from tests.discord_double import DiscordDouble, User

ROOT = Path(__file__).resolve().parents[2]
# Distinctive, so that finding it anywhere in the bot's output is unambiguous.
TOKEN = f"E2E.{secrets.token_urlsafe(18)}.token"
EPHEMERAL = 1 << 6
BOARD_WIDTH = 1200

# Athens' winning line (two actions a turn). Sparta and Thebes pass throughout; Messene
# steps j12 aside on her first turn (so Athens can walk in) and passes after that.
ATHENS = [
    ("move j4 w", "move i4 w"),
    ("move h4 w", "move g4 w"),
    ("move f4 n", "move f5 n"),
    ("move f6 n", "move f7 n"),
    ("move f8 n", "move f9 n"),  # f8 n routs Sparta's f9
    ("move f10 n", "move f11 n"),
    ("move f12 e", "move g12 e"),
    ("move h12 e", "move i12 e"),
    ("move j12 n",),  # j13 is Athens' victory area
]


@dataclass
class Table:
    """The double, the four players and the oracle game, with what has been checked."""

    double: DiscordDouble
    seats: dict[City, User]
    game: GameState = field(default_factory=GameState.start)
    last_events: list[Any] = field(default_factory=list)  # of the last action, highlighted on boards
    checked_messages: set[int] = field(default_factory=set)
    checked_interactions: set[int] = field(default_factory=set)

    @property
    def players(self) -> list[User]:
        return list(self.seats.values())

    def public_count(self) -> int:
        return len(self.double.channel_messages(self.double.channel))

    async def send(self, user: User, subcommand: str, options: Mapping[str, str] | None = None) -> Answer:
        payload = self.double.slash_command(user, None, "nika", subcommand, dict(options or {}))
        interaction_id = await self.double.send_interaction(payload)
        reply = await answer_of(self.double, interaction_id)
        self.checked_interactions.add(interaction_id)
        self.checked_messages.add(reply.message.id)
        return reply

    async def suggest(self, user: User, subcommand: str, options: Mapping[str, str], focused: str) -> list[str]:
        payload = self.double.autocomplete(user, None, "nika", subcommand, dict(options), focused)
        interaction_id = await self.double.send_interaction(payload)
        record = await self.double.wait_for_interaction_response(interaction_id, timeout=TIMEOUT)
        assert record.response_type == 8
        choices = record.response_data["choices"]
        assert len(choices) <= 25
        self.checked_interactions.add(interaction_id)
        return [choice["value"] for choice in choices]

    async def lobby(self, user: User, subcommand: str, options: Mapping[str, str], expect: str) -> None:
        reply = await self.send(user, subcommand, options)
        assert not reply.ephemeral and reply.files == []
        assert expect in reply.content
        assert reply.allowed_mentions == {"parse": [], "users": []}  # lobby chatter pings nobody

    async def act(self, city: City, action: str, *, via_play: bool = False) -> Answer:
        """Play one action as the city's player; check the public board post it gets."""
        assert self.game.to_act == city
        after, events = self.game.parse_and_apply(action)
        if via_play:
            reply = await self.send(self.seats[city], "play", {"action": action})
        elif action == "pass":
            reply = await self.send(self.seats[city], "pass")
        else:
            _, piece, direction = action.split()
            reply = await self.send(self.seats[city], "move", {"piece": piece, "direction": direction})
        self.game, self.last_events = after, events
        summary = describe_events(events)
        assert not reply.ephemeral, reply.content
        assert reply.content.startswith(summary), (reply.content, summary)
        check_board(reply, after, events)
        if after.is_over:
            pinged = self.players
        else:
            pinged = [self.seats[after.to_act]]
            assert f"<@{pinged[0].id}>" in reply.content
        assert reply.allowed_mentions is not None
        assert reply.allowed_mentions["parse"] == []
        assert sorted(reply.allowed_mentions["users"]) == sorted(u.id for u in pinged)
        return reply


def check_board(reply: Answer, state: GameState, events: Any = ()) -> None:
    """One PNG about 1200 px wide, described by the board's alt text."""
    [upload] = reply.files
    assert upload.filename.endswith(".png")
    image = Image.open(io.BytesIO(upload.data))
    image.load()
    assert image.format == "PNG"
    assert abs(image.width - BOARD_WIDTH) <= 50 and image.height > 600
    # The board marks every action since the acting player's previous turn; its alt text lists
    # them, the last one as the engine describes it alone.
    alone = alt_text(state, events)
    assert upload.description.startswith(alone.split(" Last action")[0]) and len(upload.description) <= 1024
    # …and ends with the same pieces, city by city, as the board of the last action alone.
    assert upload.description[-60:] == alone[-60:]
    [attachment] = reply.message.payload["attachments"]
    assert attachment["description"] == upload.description
    assert attachment["width"] == image.width


def bot_environment(double: DiscordDouble, tmp_path: Path) -> dict[str, str]:
    # Nothing of the caller's Discord/Nika configuration leaks in; in particular no
    # DISCORD_GATEWAY_URL: the bot must learn the gateway from GET /gateway/bot itself.
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "NIKA_", "BOARDGAME_"))}
    env.update(
        DISCORD_TOKEN=TOKEN,
        DISCORD_API_BASE=double.base_url,
        NIKA_DATABASE=str(tmp_path / "nika.db"),
        NIKA_LOG_LEVEL="INFO",
        NIKA_DEV_GUILD="",  # overrides a developer's .env, if there is one
        NIKA_BOARDS_DIR=str(tmp_path / "boards"),
        PYTHONUNBUFFERED="1",
    )
    return env


@pytest.fixture
async def double() -> AsyncIterator[DiscordDouble]:
    async with DiscordDouble(token=TOKEN) as fake:
        yield fake


async def test_four_players_play_a_game_to_a_win(double: DiscordDouble, tmp_path: Path) -> None:
    seats = {
        City.ATHENS: double.add_user("alice"),
        City.SPARTA: double.add_user("bob"),
        City.MESSENE: double.add_user("carol"),
        City.THEBES: double.add_user("dave"),
    }
    table = Table(double, seats)
    stdout, stderr = tmp_path / "bot.stdout", tmp_path / "bot.stderr"
    with stdout.open("wb") as out, stderr.open("wb") as err:
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            cwd=ROOT,
            env=bot_environment(double, tmp_path),
            stdin=asyncio.subprocess.DEVNULL,  # no terminal: never fall back to the console
            stdout=out,
            stderr=err,
        )
    try:
        await double.wait_ready(timeout=90)  # a fresh interpreter imports discord.py and Pillow
        await play_the_game(table)
        await check_everything_the_bot_sent(table)
    finally:
        if proc.returncode is None:
            proc.terminate()
        try:
            returncode = await asyncio.wait_for(proc.wait(), timeout=TIMEOUT)
        except TimeoutError:
            proc.kill()
            await proc.wait()
            raise
    err_text, out_text = stderr.read_text(), stdout.read_text()
    # SIGTERM is the host's "please stop": the bot closes the gateway and storage and exits 0.
    assert returncode == 0, err_text
    await double.wait_disconnected(timeout=TIMEOUT)
    check_logs(out_text, err_text)
    [identify] = double.identify_payloads
    assert identify["intents"] == discord.Intents.default().value


async def play_the_game(table: Table) -> None:
    alice, bob, carol, dave = table.seats.values()

    helped = await table.send(dave, "help")
    assert helped.ephemeral and helped.files == [] and "/nika new" in helped.content
    assert table.public_count() == 0

    await table.lobby(alice, "new", {"city": "athens"}, f"<@{alice.id}> opened a Nika match and took Athens.")
    await table.lobby(bob, "join", {"city": "sparta"}, f"<@{bob.id}> took Sparta.")
    await table.lobby(carol, "join", {"city": "messene"}, f"<@{carol.id}> took Messene.")
    await table.lobby(dave, "join", {"city": "thebes"}, f"<@{dave.id}> took Thebes.")
    started = await table.send(alice, "start")
    assert not started.ephemeral and started.content.startswith("The match begins!")
    check_board(started, table.game)
    assert started.allowed_mentions == {"parse": [], "users": [alice.id]}

    # Out of turn: refused privately, and the channel does not hear of it.
    public = table.public_count()
    refused = await table.send(bob, "move", {"piece": "d7", "direction": "e"})
    assert refused.ephemeral and refused.message.payload["flags"] & EPHEMERAL
    assert refused.content == f"It is Athens' turn (<@{alice.id}> plays it)."
    assert refused.files == []
    assert table.public_count() == public

    # Autocomplete: what Athens may move, then where j4 may go.
    assert set(await table.suggest(alice, "move", {"piece": "j"}, "piece")) == {"j4", "j5", "j6"}
    assert await table.suggest(alice, "move", {"piece": "j4", "direction": ""}, "direction") == ["s", "w"]
    assert await table.suggest(bob, "move", {"piece": ""}, "piece") == []

    for turn, actions in enumerate(ATHENS):
        for index, action in enumerate(actions):
            reply = await table.act(City.ATHENS, action, via_play=(turn, index) == (0, 1))
        if table.game.is_over:
            break
        await table.act(City.SPARTA, "pass")
        await table.act(City.SPARTA, "pass")
        await table.act(City.MESSENE, "move j12 s" if turn == 0 else "pass")
        await table.act(City.MESSENE, "pass")
        await table.act(City.THEBES, "pass", via_play=turn == 0)
        await table.act(City.THEBES, "pass")
        if turn == 4:
            board = await table.send(carol, "board")
            assert not board.ephemeral and "Athens to act (2 actions left)" in board.content
            check_board(board, table.game, table.last_events)
            assert board.allowed_mentions == {"parse": [], "users": []}

    assert table.game.is_over
    assert "Athens–Messene win" in reply.content
    assert "**Athens–Messene reached the victory area.**" in reply.content
    for player in table.players:
        assert f"<@{player.id}>" in reply.content
    # The match is over: the channel is free, and a late action is refused privately.
    late = await table.send(bob, "pass")
    assert late.ephemeral and late.content.startswith("There is no match in this channel")


async def check_everything_the_bot_sent(table: Table) -> None:
    double = table.double
    # Every interaction got exactly the answer checked above.
    assert set(double.interactions) == table.checked_interactions
    assert all(record.callback is not None for record in double.interactions.values())
    bot_messages = {
        m.id
        for m in double.messages.values()
        if int(m.payload["author"]["id"]) == double.bot_user.id and not m.payload["flags"] & LOADING
    }
    assert bot_messages == table.checked_messages
    # The bot speaks only through interaction replies, never a plain channel message.
    assert [m for m in double.messages.values() if m.source == "channel"] == []
    assert double.unknown_requests == []
    assert double.internal_errors == []
    assert all(200 <= r.status < 300 for r in double.requests), [r for r in double.requests if r.status >= 300]


def check_logs(out_text: str, err_text: str) -> None:
    assert TOKEN not in out_text and TOKEN not in err_text
    assert "Traceback" not in err_text and "Traceback" not in out_text
    lines = [json.loads(line) for line in out_text.splitlines() if line.strip()]
    assert lines, "the bot logged nothing"
    for line in lines:
        assert isinstance(line, dict)
        assert {"time", "level", "logger", "message"} <= set(line)
        assert line["level"] in ("debug", "info", "warning"), line
    messages = [line["message"] for line in lines]
    assert "commands synced" in messages
    assert messages.count("command") > 60  # one line per command handled
    assert messages[-1] == "stopped"
