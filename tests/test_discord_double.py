"""Proof that an unmodified discord.py bot runs against tests.discord_double."""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import logging
import os
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest
import yarl
from discord import app_commands
from discord.gateway import DiscordWebSocket

from tests.discord_double import Channel, DiscordDouble, InteractionRecord, Perm, User, shard_of

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\rIHDR" + (7).to_bytes(4, "big") + (5).to_bytes(4, "big") + b"rest"
PIECES = ["hoplite", "horseman", "hero", "archer"]
TOKEN = "test-token"


class JoinView(discord.ui.View):
    """Persistent view: registered once in setup_hook, survives without a message id."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Join", custom_id="nika:join", style=discord.ButtonStyle.primary)
    async def join(self, interaction: discord.Interaction, button: discord.ui.Button[JoinView]) -> None:
        await interaction.response.edit_message(content=f"joined by {interaction.user.id}", view=None)


class PingBot(discord.Client):
    def __init__(self, guild_id: int) -> None:
        # guild_ready_timeout: on_ready would otherwise wait 2 s after the last GUILD_CREATE.
        super().__init__(intents=discord.Intents.default(), guild_ready_timeout=0.05)
        self.guild_id = guild_id
        self.tree = app_commands.CommandTree(self)
        self.callback_message_ids: list[int | None] = []
        self.seen_manage_channels: list[bool] = []
        group = app_commands.Group(name="nika", description="Play Nika")

        @group.command(name="ping", description="Reply with the board")
        async def ping(interaction: discord.Interaction) -> None:
            board = discord.File(io.BytesIO(PNG), filename="board.png", description="the board")
            response = await interaction.response.send_message("pong", file=board)
            # Only works if the double answered ?with_response=1 in the shape discord.py parses.
            self.callback_message_ids.append(response.message_id)
            await interaction.followup.send("followup!", ephemeral=True)
            assert isinstance(interaction.channel, discord.TextChannel)
            await interaction.channel.send("channel hello", file=discord.File(io.BytesIO(b"abc"), "notes.txt"))

        @group.command(name="move", description="Move a piece")
        @app_commands.describe(piece="Which piece", steps="How far")
        async def move(interaction: discord.Interaction, piece: str, steps: int = 1) -> None:
            await interaction.response.send_message(f"moved {piece} {steps}")

        @move.autocomplete("piece")
        async def piece_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
            return [app_commands.Choice(name=p.title(), value=p) for p in PIECES if p.startswith(current)]

        @group.command(name="challenge", description="Challenge someone")
        async def challenge(interaction: discord.Interaction, opponent: discord.Member) -> None:
            text = f"{interaction.user.id} challenges {opponent.display_name} ({opponent.id})"
            await interaction.response.send_message(text, view=JoinView())

        @group.command(name="newgame", description="Open a game channel")
        async def newgame(interaction: discord.Interaction, name: str) -> None:
            self.seen_manage_channels.append(interaction.permissions.manage_channels)
            if not interaction.permissions.manage_channels:
                await interaction.response.send_message("no permission", ephemeral=True)
                return
            await interaction.response.defer(thinking=True)
            assert interaction.guild is not None
            channel = await interaction.guild.create_text_channel(name)
            await interaction.edit_original_response(content=f"created {channel.mention}")

        self.tree.add_command(group, guild=discord.Object(guild_id))

    async def setup_hook(self) -> None:
        self.add_view(JoinView())
        # Single-env-var style: learn the gateway URL from the fake API itself.
        _, url, _ = await self.http.get_bot_gateway()
        DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url)
        await self.tree.sync(guild=discord.Object(self.guild_id))


@pytest.fixture
async def double() -> AsyncIterator[DiscordDouble]:
    async with DiscordDouble(token=TOKEN) as fake:
        yield fake


@pytest.fixture
async def bot(
    double: DiscordDouble, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> AsyncIterator[PingBot]:
    # monkeypatch restores both class attributes after the test.
    monkeypatch.setattr(discord.http.Route, "BASE", double.base_url)
    monkeypatch.setattr(DiscordWebSocket, "DEFAULT_GATEWAY", DiscordWebSocket.DEFAULT_GATEWAY)
    client = PingBot(double.guild.id)
    await client.login(TOKEN)
    runner = asyncio.create_task(client.connect(reconnect=True))
    try:
        await double.wait_ready(timeout=5)
        yield client
    finally:
        await client.close()
        await asyncio.wait_for(runner, timeout=5)
        await double.wait_disconnected(timeout=5)
    assert double.internal_errors == []
    # discord.py logs (rather than raises) exceptions from commands, views and events.
    errors = [r.getMessage() for r in caplog.records if r.name.startswith("discord") and r.levelno >= logging.ERROR]
    assert errors == []


async def test_login_identify_and_command_sync(double: DiscordDouble, bot: PingBot) -> None:
    put = await double.wait_for_request(
        lambda r: r.matches("PUT", rf"/applications/{double.app_id}/guilds/{double.guild.id}/commands")
    )
    assert [c["name"] for c in put.json] == ["nika"]
    assert {o["name"] for o in put.response[0]["options"]} == {"ping", "move", "challenge", "newgame"}
    assert double.command_id("nika", double.guild.id) == int(put.response[0]["id"])
    assert double.intents == discord.Intents.default().value
    assert put.headers["Authorization"] == f"Bot {TOKEN}"
    assert bot.user is not None and bot.user.id == double.bot_user.id
    assert bot.get_guild(double.guild.id) is not None
    assert double.unknown_requests == []


async def test_slash_command_file_followup_and_channel_send(double: DiscordDouble, bot: PingBot) -> None:
    alice = double.add_user("alice")
    payload = double.slash_command(alice, None, "nika", "ping")
    assert payload["data"]["id"] == str(double.command_id("nika", double.guild.id))
    interaction_id = await double.send_interaction(payload)

    record = await double.wait_for_interaction_response(interaction_id)
    assert record.response_type == 4
    assert record.response_data["content"] == "pong"
    [upload] = record.callback.files if record.callback else []
    assert (upload.filename, upload.data, upload.description) == ("board.png", PNG, "the board")

    [followup] = await double.wait_for_followups(interaction_id)
    assert followup.json["content"] == "followup!"
    assert followup.query["wait"] == "1"

    sent = await double.wait_for_message(lambda m: m.source == "channel")
    assert sent.content == "channel hello"
    assert sent.files[0].data == b"abc"
    original = double.message(record.original_message_id or 0)
    assert bot.callback_message_ids == [original.id]
    assert original.payload["attachments"][0]["width"] == 7
    # Ephemeral followups stay out of what other members would see.
    assert [m.content for m in double.channel_messages(double.channel)] == ["pong", "channel hello"]
    async with aiohttp.ClientSession() as http, http.get(original.payload["attachments"][0]["url"]) as resp:
        assert await resp.read() == PNG
    assert double.unknown_requests == []


async def test_autocomplete_round_trip(double: DiscordDouble, bot: PingBot) -> None:
    bob = double.add_user("bob")
    payload = double.autocomplete(bob, None, "nika", "move", {"piece": "h"}, focused="piece")
    focused = payload["data"]["options"][0]["options"][0]
    assert focused == {"name": "piece", "type": 3, "value": "h", "focused": True}
    record = await double.wait_for_interaction_response(await double.send_interaction(payload))
    assert record.response_type == 8
    assert record.response_data["choices"] == [
        {"name": "Hoplite", "value": "hoplite"},
        {"name": "Horseman", "value": "horseman"},
        {"name": "Hero", "value": "hero"},
    ]


async def test_user_option_and_persistent_button(double: DiscordDouble, bot: PingBot) -> None:
    alice, bob = double.add_user("alice"), double.add_user("bob", nick="Bobby")
    challenge = double.slash_command(alice, None, "nika", "challenge", {"opponent": bob})
    record = await double.wait_for_interaction_response(await double.send_interaction(challenge))
    message = double.message(record.original_message_id or 0)
    assert message.content == f"{alice.id} challenges Bobby ({bob.id})"
    assert message.custom_ids() == ["nika:join"]

    click = double.component(bob, None, message.id, "nika:join")
    clicked = await double.wait_for_interaction_response(await double.send_interaction(click))
    assert clicked.response_type == 7
    assert message.content == f"joined by {bob.id}"
    assert message.components == []
    assert len(message.history) == 1


async def test_permissions_deferred_edit_and_channel_create(double: DiscordDouble, bot: PingBot) -> None:
    pleb = double.add_user("pleb")
    mod: User = double.add_user("mod", permissions=Perm.MANAGE_CHANNELS)

    denied = await double.send_interaction(double.slash_command(pleb, None, "nika", "newgame", {"name": "g1"}))
    assert (await double.wait_for_interaction_response(denied)).response_data["flags"] == 64

    allowed = await double.send_interaction(double.slash_command(mod, None, "nika", "newgame", {"name": "g1"}))
    record = await double.wait_for_interaction_response(allowed)
    assert record.response_type == 5
    edit = await double.wait_for_request(lambda r: r.method == "PATCH" and r.route.endswith("/messages/@original"))
    created = double.channel_named("g1")
    assert edit.json["content"] == f"created <#{created.id}>"
    assert bot.seen_manage_channels == [False, True]
    # CHANNEL_CREATE reached the bot's cache (barrier instead of polling the bot).
    await double.sync_gateway()
    assert isinstance(bot.get_channel(created.id), discord.TextChannel)
    assert double.message(record.original_message_id or 0).payload["flags"] == 0  # LOADING cleared


async def test_reconnect_resumes_session(double: DiscordDouble, bot: PingBot) -> None:
    session = double.active_session
    await double.request_reconnect()
    await double.wait_for(lambda: True if double.resume_count == 1 and session and session.is_connected else None)
    assert double.active_session is session
    payload = double.slash_command(double.add_user("carol"), None, "nika", "move", {"piece": "hero", "steps": 2})
    record = await double.wait_for_interaction_response(await double.send_interaction(payload))
    assert record.response_data["content"] == "moved hero 2"


async def test_unknown_routes_are_recorded(double: DiscordDouble) -> None:
    headers = {"Authorization": f"Bot {TOKEN}"}
    async with (
        aiohttp.ClientSession(headers=headers) as http,
        http.get(f"{double.base_url}/guilds/1/audit-logs") as resp,
    ):
        assert resp.status == 404
        assert await resp.json() == {"message": "Unknown", "code": 0}
    assert [r.route for r in double.unknown_requests] == ["/guilds/1/audit-logs"]


async def test_bot_in_separate_process(double: DiscordDouble) -> None:
    script = Path(__file__).parent / "discord_double" / "example_bot.py"
    env = {**os.environ, "DISCORD_API_BASE": double.base_url, "DISCORD_TOKEN": TOKEN}
    proc = await asyncio.create_subprocess_exec(
        sys.executable, str(script), env=env, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE
    )
    try:
        await double.wait_ready(timeout=8)
        payload = double.slash_command(double.add_user("dave"), None, "nika", "ping")
        assert payload["data"]["id"] == str(double.command_id("nika"))  # synced globally
        record = await double.wait_for_interaction_response(await double.send_interaction(payload))
        assert record.response_data["content"] == "pong from subprocess"
        assert record.callback is not None and record.callback.files[0].data.startswith(b"\x89PNG")
    finally:
        if proc.returncode is None:
            proc.terminate()
        _, stderr = await asyncio.wait_for(proc.communicate(), timeout=5)
    assert proc.returncode == 0, stderr.decode()
    assert double.unknown_requests == []


# ------------------------------------------------------------------ sharding


class ShardBot(discord.AutoShardedClient):
    """A sharded bot with one global command that says which process answered."""

    def __init__(self, name: str, **sharding: Any) -> None:
        super().__init__(intents=discord.Intents.default(), guild_ready_timeout=0.05, **sharding)
        self.name = name
        self.tree = app_commands.CommandTree(self)

        @self.tree.command(name="where", description="Say which process answers")
        async def where(interaction: discord.Interaction) -> None:
            await interaction.response.send_message(f"{self.name} in {interaction.guild_id}")

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        # discord.py's default sleeps 5 s before each later IDENTIFY (max_concurrency 1);
        # the double enforces no identify rate limit.
        return None

    async def setup_hook(self) -> None:
        await self.tree.sync()


@contextlib.asynccontextmanager
async def running(client: discord.Client) -> AsyncIterator[discord.Client]:
    """Log in, connect in the background, and always close and reap the client."""
    await client.login(TOKEN)
    runner = asyncio.create_task(client.connect(reconnect=True))
    try:
        yield client
    finally:
        await client.close()
        await asyncio.wait_for(runner, timeout=5)


@pytest.fixture
async def sharded(monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> AsyncIterator[DiscordDouble]:
    async with DiscordDouble(token=TOKEN, shard_count=2, max_concurrency=1) as fake:
        monkeypatch.setattr(discord.http.Route, "BASE", fake.base_url)
        # Used for shard_count=N clients and for every re-IDENTIFY after INVALID_SESSION.
        monkeypatch.setattr(DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(fake.gateway_url))
        yield fake
    assert fake.internal_errors == []
    errors = [r.getMessage() for r in caplog.records if r.name.startswith("discord") and r.levelno >= logging.ERROR]
    assert errors == []


@pytest.fixture
def carried(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int | None, str]]:
    """(shard id of the client websocket, event name) of every dispatch a client received."""
    seen: list[tuple[int | None, str]] = []

    def log_receive(ws: DiscordWebSocket, msg: str, /) -> None:
        event = json.loads(msg).get("t")
        if event:
            seen.append((ws.shard_id, event))

    monkeypatch.setattr(DiscordWebSocket, "log_receive", log_receive)
    return seen


def guild_ids(events: list[dict[str, Any]]) -> list[int]:
    return [int(g["id"]) for g in events]


async def answer(double: DiscordDouble, user: User, channel: Channel) -> str:
    payload = double.slash_command(user, channel, "where")
    record = await double.wait_for_interaction_response(await double.send_interaction(payload))
    return str(record.response_data["content"])


def test_guilds_can_be_placed_on_a_chosen_shard() -> None:
    fake = DiscordDouble(shard_count=3)
    placed = [fake.add_guild(f"g{n}", shard_id=n % 3) for n in range(7)]
    assert [shard_of(g.id, 3) for g in placed] == [n % 3 for n in range(7)]
    assert shard_of(fake.guild.id, 3) == 0  # the default guild sits on shard 0
    assert shard_of(fake.add_guild("of five", shard_id=4, shard_count=5).id, 5) == 4
    ids = [g.id for g in placed]
    assert ids == sorted(set(ids))
    with pytest.raises(ValueError):
        fake.add_guild("nowhere", shard_id=3)


async def test_gateway_bot_reports_shards_and_session_start_limits() -> None:
    async with (
        DiscordDouble(token=TOKEN, shard_count=4, max_concurrency=16) as fake,
        aiohttp.ClientSession(headers={"Authorization": f"Bot {TOKEN}"}) as http,
        http.get(f"{fake.base_url}/gateway/bot") as resp,
    ):
        body = await resp.json()
    assert body["url"] == fake.gateway_url
    assert body["shards"] == 4
    assert body["session_start_limit"]["max_concurrency"] == 16
    assert body["session_start_limit"]["remaining"] == body["session_start_limit"]["total"]


async def test_identify_with_an_invalid_shard_is_closed_with_4010() -> None:
    async with DiscordDouble(token=TOKEN, shard_count=2) as fake, aiohttp.ClientSession() as http:
        for shard in ([2, 2], [0, 0], [-1, 2], "0,2"):
            async with http.ws_connect(f"{fake.gateway_url}?v=10&encoding=json") as ws:
                hello = await ws.receive_json()
                assert hello["op"] == 10
                await ws.send_json({"op": 2, "d": {"token": TOKEN, "intents": 1, "properties": {}, "shard": shard}})
                closed = await ws.receive()
                assert (closed.type, ws.close_code) == (aiohttp.WSMsgType.CLOSE, 4010)
        assert fake.identify_payloads == []


async def test_auto_sharded_client_gets_each_shard_only_its_own_guilds(sharded: DiscordDouble) -> None:
    far = sharded.add_guild("Far Guild", ["lobby"], shard_id=1)
    also_home = sharded.add_guild("Second Home", shard_id=0)
    async with running(ShardBot("auto")) as bot:
        sessions = await sharded.wait_shards_ready()
        await asyncio.wait_for(bot.wait_until_ready(), timeout=5)
        assert [s.shard for s in sessions.values()] == [(0, 2), (1, 2)]
        assert [p["shard"] for p in sharded.identify_payloads] == [[0, 2], [1, 2]]
        home_ids = [sharded.guild.id, also_home.id]
        assert guild_ids(sessions[0].events("READY")[0]["guilds"]) == home_ids
        assert guild_ids(sessions[0].events("GUILD_CREATE")) == home_ids
        assert guild_ids(sessions[1].events("READY")[0]["guilds"]) == [far.id]
        assert guild_ids(sessions[1].events("GUILD_CREATE")) == [far.id]
        assert sessions[1].events("READY")[0]["shard"] == [1, 2]
        assert bot.shard_count == 2
        assert {g.id: g.shard_id for g in bot.guilds} == {sharded.guild.id: 0, also_home.id: 0, far.id: 1}


async def test_a_guild_interaction_reaches_only_the_shard_that_owns_the_guild(
    sharded: DiscordDouble, carried: list[tuple[int | None, str]]
) -> None:
    far = sharded.add_guild("Far Guild", ["lobby"], shard_id=1)
    alice = sharded.add_user("alice")
    sharded.add_member(alice, far)
    async with running(ShardBot("auto")):
        sessions = await sharded.wait_shards_ready()
        assert await answer(sharded, alice, far.text_channels()[0]) == f"auto in {far.id}"
        await sharded.sync_gateway()  # both shards have read everything sent so far
        assert [s for s, e in carried if e == "INTERACTION_CREATE"] == [1]
        # The bot's reply comes back as MESSAGE_CREATE on the same shard.
        assert [s for s, e in carried if e == "MESSAGE_CREATE"] == [1]
        assert len(sessions[1].events("INTERACTION_CREATE")) == 1
        assert sessions[0].events("INTERACTION_CREATE") == []

        assert await answer(sharded, alice, sharded.channel) == f"auto in {sharded.guild.id}"
        await sharded.sync_gateway()
        assert [s for s, e in carried if e == "INTERACTION_CREATE"] == [1, 0]


async def test_a_dm_interaction_goes_to_shard_zero(
    sharded: DiscordDouble, carried: list[tuple[int | None, str]]
) -> None:
    bob = sharded.add_user("bob")
    async with running(ShardBot("auto")):
        sessions = await sharded.wait_shards_ready()
        assert await answer(sharded, bob, sharded.dm_channel(bob)) == "auto in None"
        await sharded.sync_gateway()
        assert [s for s, e in carried if e == "INTERACTION_CREATE"] == [0]
        assert sessions[1].events("INTERACTION_CREATE") == []


async def test_one_shard_resumes_after_reconnect_while_the_other_stays_connected(sharded: DiscordDouble) -> None:
    far = sharded.add_guild("Far Guild", ["lobby"], shard_id=1)
    carol = sharded.add_user("carol")
    sharded.add_member(carol, far)
    async with running(ShardBot("auto")):
        sessions = await sharded.wait_shards_ready()
        steady = sessions[0].connection
        await sharded.request_reconnect(shard_id=1)
        await sharded.wait_for(lambda: True if sharded.resume_count == 1 and sessions[1].is_connected else None)
        assert sharded.shard_session(1) is sessions[1]
        assert sessions[0].connection is steady
        assert len(sharded.identify_payloads) == 2
        assert await answer(sharded, carol, far.text_channels()[0]) == f"auto in {far.id}"


async def test_processes_holding_one_shard_each_serve_side_by_side_and_survive_each_other(
    sharded: DiscordDouble, carried: list[tuple[int | None, str]]
) -> None:
    far = sharded.add_guild("Far Guild", ["lobby"], shard_id=1)
    lobby = far.text_channels()[0]
    dave = sharded.add_user("dave")
    sharded.add_member(dave, far)
    # Each client holds one shard, so a websocket's shard id also tells which client it is.
    async with running(ShardBot("first", shard_ids=[0], shard_count=2)):
        async with running(ShardBot("second", shard_ids=[1], shard_count=2)):
            first, second = (await sharded.wait_shards_ready()).values()
            assert await answer(sharded, dave, sharded.channel) == f"first in {sharded.guild.id}"
            assert await answer(sharded, dave, lobby) == f"second in {far.id}"
        await sharded.wait_disconnected(shard_id=1)

        assert await answer(sharded, dave, sharded.channel) == f"first in {sharded.guild.id}"
        # Shard 1's process is gone: its events wait in the dead session and nobody answers.
        orphan = await sharded.send_interaction(sharded.slash_command(dave, lobby, "where"))
        await sharded.sync_gateway()
        assert second.events("INTERACTION_CREATE")[-1]["id"] == str(orphan)
        assert first.events("INTERACTION_CREATE")[-1]["id"] != str(orphan)
        assert [s for s, e in carried if e == "INTERACTION_CREATE"] == [0, 1, 0]
        assert sharded.interaction(orphan).callback is None

        # A replacement process IDENTIFYs shard 1 afresh and takes over from there.
        async with running(ShardBot("third", shard_ids=[1], shard_count=2)):
            third = await sharded.wait_ready(shard_id=1)
            assert third is not second and second.superseded
            assert await answer(sharded, dave, lobby) == f"third in {far.id}"
            assert str(orphan) not in [i["id"] for i in third.events("INTERACTION_CREATE")]


async def test_an_identify_without_shard_owns_every_guild(sharded: DiscordDouble) -> None:
    far = sharded.add_guild("Far Guild", ["lobby"], shard_id=1)
    async with aiohttp.ClientSession() as http, http.ws_connect(f"{sharded.gateway_url}?v=10&encoding=json") as ws:
        await ws.receive_json()  # HELLO
        await ws.send_json({"op": 2, "d": {"token": TOKEN, "intents": 1, "properties": {}}})
        ready = (await ws.receive_json())["d"]
        session = await sharded.wait_ready()
        assert "shard" not in ready
        assert guild_ids(ready["guilds"]) == [sharded.guild.id, far.id]
        assert session.shard == (0, 1) and session.owns(far.id)
        await sharded.dispatch("TYPING_START", {"guild_id": str(far.id), "channel_id": "1"})
        assert session.events("TYPING_START") != []


async def test_a_killed_shard_process_leaves_the_other_process_serving(sharded: DiscordDouble) -> None:
    far = sharded.add_guild("Far Guild", ["lobby"], shard_id=1)
    erin = sharded.add_user("erin")
    sharded.add_member(erin, far)
    script = Path(__file__).parent / "discord_double" / "example_bot.py"
    procs = {
        shard: await asyncio.create_subprocess_exec(
            sys.executable,
            str(script),
            env={
                **os.environ,
                **sharded.env(),
                "DISCORD_TOKEN": TOKEN,
                "DISCORD_SHARD_COUNT": "2",
                "DISCORD_SHARD_IDS": str(shard),
            },
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE,
        )
        for shard in (0, 1)
    }
    try:
        await sharded.wait_shards_ready(timeout=15)
        await sharded.wait_for_request(lambda r: r.matches("PUT", rf"/applications/{sharded.app_id}/commands"))

        async def ping(channel: Channel) -> InteractionRecord:
            payload = sharded.slash_command(erin, channel, "nika", "ping")
            return await sharded.wait_for_interaction_response(await sharded.send_interaction(payload))

        assert (await ping(far.text_channels()[0])).response_data["content"] == "pong from shards [1]"
        procs[1].kill()  # no close frame: the socket just drops
        await procs[1].wait()
        await sharded.wait_disconnected(shard_id=1)
        assert (await ping(sharded.channel)).response_data["content"] == "pong from shards [0]"
    finally:
        for proc in procs.values():
            if proc.returncode is None:
                proc.terminate()
        stderrs = [(await asyncio.wait_for(proc.communicate(), timeout=5))[1] for proc in procs.values()]
    assert procs[0].returncode == 0, stderrs[0].decode()


async def test_a_nonce_the_same_author_used_within_minutes_returns_the_earlier_message(
    double: DiscordDouble, bot: PingBot
) -> None:
    """Discord's documented enforce_nonce: the same author and nonce within the window give back
    the message already created, and nothing new; another nonce (or none) creates a message."""
    channel = bot.get_channel(double.channel.id)
    assert isinstance(channel, discord.TextChannel)
    first = await channel.send("first", nonce="o1")  # discord.py sends enforce_nonce with every nonce
    repeat = await channel.send("second", nonce="o1")
    other = await channel.send("third", nonce="o2")
    plain = await channel.send("fourth")
    assert repeat.id == first.id and repeat.content == "first"
    assert [m.content for m in double.channel_messages(double.channel)] == ["first", "third", "fourth"]
    assert double.nonce_repeats == [("o1", first.id)]
    assert other.id != first.id and plain.id not in (first.id, other.id)
    double.nonce_window = 0.0  # minutes later: the nonce is free again
    again = await channel.send("fifth", nonce="o1")
    assert again.id != first.id and again.content == "fifth"


async def test_discord_refuses_content_and_nonces_past_its_limits(double: DiscordDouble, bot: PingBot) -> None:
    channel = bot.get_channel(double.channel.id)
    assert isinstance(channel, discord.TextChannel)
    with pytest.raises(discord.HTTPException) as refused:
        await channel.send("x" * 2001)
    assert refused.value.code == 50035
    with pytest.raises(discord.HTTPException):
        await channel.send("ok", nonce="n" * 26)
    await channel.send("x" * 2000)
    assert [len(m.content) for m in double.channel_messages(double.channel)] == [2000]


def _sized(total: int) -> dict[str, Any]:
    """A command of exactly `total` characters by Discord's count, whose longest field is each
    time a Spanish description (so only the longest-localisation rule gives that total)."""
    left = total - len("big") - len("d")
    subcommands: list[dict[str, Any]] = []
    while left > 0:
        name = f"s{len(subcommands)}"
        left -= len(name) + 1
        options = []
        while left > 0 and len(options) < 25:
            option = f"o{len(options)}"
            description = max(1, min(100, left - len(option)))
            options.append({"type": 3, "name": option, "description": "d",
                            "description_localizations": {"es-ES": "e" * description, "es-419": "f"}})
            left -= len(option) + description
        subcommands.append({"type": 1, "name": name, "description": "d", "options": options})
    return {"name": "big", "description": "d", "type": 1, "options": subcommands}


async def test_discord_refuses_a_command_larger_than_8000_characters(double: DiscordDouble, bot: PingBot) -> None:
    """Discord's current rule: 8000 characters per command, each field counted at its longest
    localisation (the default included), not once per locale; larger is refused with 50035."""
    from tests.discord_double.limits import command_characters

    fits, too_big = _sized(8000), _sized(8001)
    assert command_characters(fits) == 8000 and command_characters(too_big) == 8001
    created = await bot.http.upsert_guild_command(double.app_id, double.guild.id, fits)
    assert created["name"] == "big"
    with pytest.raises(discord.HTTPException) as refused:
        await bot.http.upsert_guild_command(double.app_id, double.guild.id, too_big)
    assert refused.value.code == 50035 and "8000" in refused.value.text


async def test_discord_refuses_repeated_option_names_and_choices_with_autocomplete(
    double: DiscordDouble, bot: PingBot
) -> None:
    twice = {"name": "twice", "description": "d", "options": [{"type": 3, "name": "a", "description": "d"}] * 2}
    both = {"name": "both", "description": "d", "options": [
        {"type": 3, "name": "a", "description": "d", "autocomplete": True, "choices": [{"name": "x", "value": "x"}]}]}
    many = {"name": "many", "description": "d", "options": [
        {"type": 3, "name": "a", "description": "d",
         "choices": [{"name": f"c{i}", "value": f"c{i}"} for i in range(26)]}]}
    for body in (twice, both, many):
        with pytest.raises(discord.HTTPException) as refused:
            await bot.http.upsert_guild_command(double.app_id, double.guild.id, body)
        assert refused.value.code == 50035, body["name"]
    assert double.command_id("twice", double.guild.id) is None
