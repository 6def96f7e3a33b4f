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


class ExampleBot(discord.Client):
    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default(), guild_ready_timeout=0.05)
        self.tree = app_commands.CommandTree(self)
        group = app_commands.Group(name="nika", description="Nika")

        @group.command(name="ping", description="Reply with a file")
        async def ping(interaction: discord.Interaction) -> None:
            png = io.BytesIO(b"\x89PNG\r\n\x1a\nsubprocess")
            await interaction.response.send_message("pong from subprocess", file=discord.File(png, "board.png"))

        self.tree.add_command(group)

    async def setup_hook(self) -> None:
        if os.environ.get("DISCORD_API_BASE") and not os.environ.get("DISCORD_GATEWAY_URL"):
            await adopt_gateway_from_api(self)
        await self.tree.sync()


async def main() -> None:
    configure_discord_endpoints()
    bot = ExampleBot()
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
