"""The Discord bot: opens storage and loads the cogs in `setup_hook`, and syncs the
command tree only when it changed (Discord limits daily command creates)."""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging

import discord
import yarl
from discord.ext import commands
from discord.gateway import DiscordWebSocket

from bot.clock import Clock
from bot.cogs.nika import NikaCog
from bot.cogs.panel import DYNAMIC_ITEMS
from bot.config import Settings
from bot.dispatcher import TimerDispatcher
from bot.inflight import InFlight
from bot.service import MatchService
from bot.storage import bot_state

log = logging.getLogger(__name__)

# How long close() waits for commands in progress (hosts allow ~10-30 s after SIGTERM).
DRAIN_SECONDS = 5.0


class NikaBot(commands.Bot):
    def __init__(self, settings: Settings, *, guild_ready_timeout: float = 2.0, clock: Clock | None = None) -> None:
        # Default intents only: slash commands need no privileged intent.
        # guild_ready_timeout is discord.py's wait for late GUILD_CREATEs before on_ready; tests shorten it.
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            help_command=None,
            guild_ready_timeout=guild_ready_timeout,
            # Nobody is pinged unless a reply names them: text a player typed may echo back.
            allowed_mentions=discord.AllowedMentions.none(),
        )
        self.settings = settings
        self.clock = clock
        self.service: MatchService | None = None
        self.nika: NikaCog | None = None
        self.timers: TimerDispatcher | None = None
        self.in_flight = InFlight()
        if settings.api_base:
            # Only for tests: every REST call (callbacks and webhooks too) is built on Route.BASE.
            discord.http.Route.BASE = settings.api_base.rstrip("/")

    async def setup_hook(self) -> None:
        if self.settings.api_base:
            # discord.py dials a fixed gateway; a test double names its own in GET /gateway/bot.
            _, url, _ = await self.http.get_bot_gateway()
            DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url)
        self.service = await MatchService.open(self.settings.database, clock=self.clock)
        log.info("storage open", extra={"database": self.settings.database})
        self.nika = NikaCog(self, self.service)
        await self.add_cog(self.nika)
        # Buttons and menus under any board ever posted, recognised by their custom ids.
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        self.timers = TimerDispatcher(self.service, self.nika.announce)
        await self.sync_commands_if_changed()
        from render import warm_up

        # Draw the static board once now, so the first player does not wait for it.
        await asyncio.to_thread(warm_up)

    def command_payload(self, guild: discord.abc.Snowflake | None) -> list[dict[str, object]]:
        return [command.to_dict(self.tree) for command in self.tree.get_commands(guild=guild)]

    async def sync_commands_if_changed(self) -> bool:
        guild = discord.Object(self.settings.dev_guild) if self.settings.dev_guild else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        payload = json.dumps(self.command_payload(guild), sort_keys=True, default=str)
        digest = hashlib.sha256(payload.encode()).hexdigest()
        scope = f"guild:{guild.id}" if guild else "global"
        key = f"command-tree-hash:{scope}"
        assert self.service is not None
        async with self.service.db.reading() as db:
            stored = await bot_state.get(db, key)
        if stored == digest:
            log.info("commands unchanged; not syncing", extra={"scope": scope})
            return False
        synced = await self.tree.sync(guild=guild)
        async with self.service.db.transaction() as db:
            await bot_state.put(db, key, digest)
        log.info("commands synced", extra={"scope": scope, "count": len(synced)})
        return True

    async def on_ready(self) -> None:
        log.info("ready", extra={"user": str(self.user), "guilds": len(self.guilds)})
        if self.timers is not None:
            self.timers.start()  # once connected, so reminders can be posted; idempotent

    async def close(self) -> None:
        if not self.is_closed():
            # Let interactions in progress reply and record their board message while the
            # gateway, HTTP session and database are still open.
            await self.in_flight.drain(DRAIN_SECONDS)
        if self.timers is not None:
            await self.timers.stop()
        await super().close()
        # Take the service before awaiting, so concurrent close() calls (a signal during
        # `async with bot`, say) cannot close the database twice.
        service, self.service = self.service, None
        if service is not None:
            await service.close()
