"""Proof that an unmodified discord.py bot runs against tests.discord_double."""

from __future__ import annotations

import asyncio
import io
import logging
import os
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import discord
import pytest
import yarl
from discord import app_commands
from discord.gateway import DiscordWebSocket

from tests.discord_double import DiscordDouble, Perm, User

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
