"""Minimal bot run as a SEPARATE process against the double (see test_discord_double.py).

``configure_discord_endpoints`` is the reference for what the real bot must do
with the environment; copy it into the bot's startup, before ``login()``.
"""

from __future__ import annotations

import asyncio
import io
import os
import signal

import discord
import yarl
from discord import app_commands
from discord.gateway import DiscordWebSocket


def configure_discord_endpoints() -> bool:
    """Point discord.py at DISCORD_API_BASE (and the gateway), if set. Returns True if redirected."""
    base = os.environ.get("DISCORD_API_BASE")
    if not base:
        return False
    # Route.url is computed from the class attribute when each Route is built,
    # and webhooks / interaction callbacks use Route too, so this covers all REST.
    discord.http.Route.BASE = base.rstrip("/")
    gateway = os.environ.get("DISCORD_GATEWAY_URL")
    if gateway:
        # discord.py 2.x never asks /gateway/bot for the URL on a normal Client:
        # it always dials this class attribute (and falls back to it after INVALID_SESSION).
        DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)
    return True


async def adopt_gateway_from_api(client: discord.Client) -> None:
    """Alternative to DISCORD_GATEWAY_URL: ask the (fake) API, as Discord documents."""
    _, url, _ = await client.http.get_bot_gateway()
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url)


def _install_commands(client: discord.Client, reply: str) -> app_commands.CommandTree[discord.Client]:
    tree: app_commands.CommandTree[discord.Client] = app_commands.CommandTree(client)
    group = app_commands.Group(name="nika", description="Nika")

    @group.command(name="ping", description="Reply with a file")
    async def ping(interaction: discord.Interaction) -> None:
        png = io.BytesIO(b"\x89PNG\r\n\x1a\nsubprocess")
        await interaction.response.send_message(reply, file=discord.File(png, "board.png"))

    tree.add_command(group)
    return tree


class ExampleBot(discord.Client):
    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default(), guild_ready_timeout=0.05)
        self.tree = _install_commands(self, "pong from subprocess")

    async def setup_hook(self) -> None:
        if os.environ.get("DISCORD_API_BASE") and not os.environ.get("DISCORD_GATEWAY_URL"):
            await adopt_gateway_from_api(self)
        await self.tree.sync()


class ShardedExampleBot(discord.AutoShardedClient):
    """One process of a sharded deployment: DISCORD_SHARD_IDS="0,2" of DISCORD_SHARD_COUNT=3."""

    def __init__(self, shard_ids: list[int], shard_count: int) -> None:
        super().__init__(
            intents=discord.Intents.default(), guild_ready_timeout=0.05, shard_ids=shard_ids, shard_count=shard_count
        )
        self.tree = _install_commands(self, f"pong from shards {shard_ids}")

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        # The default sleeps 5 s between IDENTIFYs (Discord's max_concurrency 1); the double has no such limit.
        return None

    async def setup_hook(self) -> None:
        # With shard_count given, discord.py dials DEFAULT_GATEWAY without asking /gateway/bot.
        await self.tree.sync()


def make_bot() -> discord.Client:
    count = os.environ.get("DISCORD_SHARD_COUNT")
    if not count:
        return ExampleBot()
    shard_ids = [int(i) for i in os.environ.get("DISCORD_SHARD_IDS", "0").split(",")]
    return ShardedExampleBot(shard_ids, int(count))


async def main() -> None:
    configure_discord_endpoints()
    bot = make_bot()
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    async with bot:
        await bot.login(os.environ.get("DISCORD_TOKEN", "example-token"))
        runner = asyncio.create_task(bot.connect(reconnect=False))
        await stop.wait()
        await bot.close()
        await runner


if __name__ == "__main__":
    asyncio.run(main())
