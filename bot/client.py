"""The Discord bot: opens storage and loads one cog per hosted game in `setup_hook`, and
syncs the command tree only when it changed (Discord limits daily command creates)."""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from typing import Any

import discord
import yarl
from discord.ext import commands
from discord.gateway import DiscordWebSocket

from bot.clock import Clock
from bot.cogs.game import GameCog
from bot.cogs.panel import DYNAMIC_ITEMS, view_for
from bot.cogs.posting import send_to
from bot.command_translator import CommandTranslator
from bot.config import Settings
from bot.dispatcher import ChannelGone, ChannelUnreachable, TimerDispatcher
from bot.errors import ServiceError
from bot.i18n import speaking
from bot.inflight import InFlight
from bot.replies import Notice
from bot.service import MatchService
from bot.service.computer import ComputerPlayers
from bot.storage import bot_state

log = logging.getLogger(__name__)

# How long close() waits for commands in progress (hosts allow ~10-30 s after SIGTERM).
DRAIN_SECONDS = 5.0
UNKNOWN_CHANNEL = 10003  # Discord's JSON error code
CLOSED_THREAD = frozenset({50083, 160005})  # "thread is archived", "thread is locked"


class BoardGameBot(commands.Bot):
    """The game host: every hosted game (BOARDGAME_GAMES, or all installed) gets its command
    group. `ShardedBot` below is the same host holding some shards of a bot that runs in
    several processes."""

    def __init__(
        self, settings: Settings, *, guild_ready_timeout: float = 2.0, clock: Clock | None = None, **shards: Any
    ) -> None:
        # A text bot: discord.py's warnings that voice libraries are missing say nothing useful.
        discord.VoiceClient.warn_nacl = False
        discord.VoiceClient.warn_dave = False
        # Default intents only: slash commands need no privileged intent.
        # guild_ready_timeout is discord.py's wait for late GUILD_CREATEs before on_ready; tests shorten it.
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            help_command=None,
            guild_ready_timeout=guild_ready_timeout,
            # Nobody is pinged unless a reply names them: text a player typed may echo back.
            allowed_mentions=discord.AllowedMentions.none(),
            **shards,
        )
        self.settings = settings
        self.clock = clock
        self.service: MatchService | None = None
        self.game_cogs: dict[str, GameCog] = {}
        self.timers: TimerDispatcher | None = None
        self.in_flight = InFlight()
        self.warming: asyncio.Task[None] | None = None
        if settings.api_base:
            # Only for tests: every REST call (callbacks and webhooks too) is built on Route.BASE.
            discord.http.Route.BASE = settings.api_base.rstrip("/")

    async def setup_hook(self) -> None:
        if self.settings.api_base:
            # discord.py dials a fixed gateway; a test double names its own in GET /gateway/bot.
            _, url, _ = await self.http.get_bot_gateway()
            DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url)
        computers = ComputerPlayers(workers=self.settings.computer_workers)
        self.service = await MatchService.open(
            self.settings.database, clock=self.clock, computers=computers, lobby_days=self.settings.lobby_days,
            lobbies_per_member=self.settings.lobbies_per_member, owner=self.settings.process_name,
        )  # fmt: skip
        log.info("storage open", extra={"database": self.service.storage.location})
        for slug in self.settings.hosted():  # BOARDGAME_GAMES, or every installed game
            cog = GameCog(self, self.service, slug)
            await self.add_cog(cog)
            self.game_cogs[slug] = cog
        from bot.cogs.tournament import JoinButton, TournamentCog

        await self.add_cog(TournamentCog(self, self.service, tuple(self.game_cogs)))
        # Buttons and menus under any board ever posted, recognised by their custom ids.
        self.add_dynamic_items(*DYNAMIC_ITEMS, JoinButton)
        await self.tree.set_translator(CommandTranslator())
        self.timers = TimerDispatcher(self.service, self.announce, poll_seconds=self.settings.timer_poll_seconds)
        if self.settings.syncs_commands:
            await self.sync_commands_if_changed()
        from render import warm_up

        # Draw the static boards once, so the first player does not wait for them; in the
        # background, so connecting to the gateway does not wait for them either (seconds of
        # CPU on a busy machine).
        self.warming = asyncio.create_task(asyncio.to_thread(warm_up, list(self.game_cogs)), name="warm-up")

    async def command_payload(self, guild: discord.abc.Snowflake | None) -> list[dict[str, Any]]:
        """What a sync sends Discord: every command with its names and descriptions in each
        language (so a changed translation is a changed tree, synced again)."""
        translator = self.tree.translator
        commands = self.tree.get_commands(guild=guild)
        if translator is None:
            return [command.to_dict(self.tree) for command in commands]
        return [await command.get_translated_payload(self.tree, translator) for command in commands]

    async def sync_commands_if_changed(self) -> bool:
        guild = discord.Object(self.settings.dev_guild) if self.settings.dev_guild else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        payload = json.dumps(await self.command_payload(guild), sort_keys=True, default=str)
        digest = hashlib.sha256(payload.encode()).hexdigest()
        scope = f"guild:{guild.id}" if guild else "global"
        key = f"command-tree-hash:{scope}"
        assert self.service is not None
        async with self.service.storage.reading() as db:
            stored = await bot_state.get(db, key)
        if stored == digest:
            log.info("commands unchanged; not syncing", extra={"scope": scope})
            return False
        synced = await self.tree.sync(guild=guild)
        async with self.service.storage.transaction() as db:
            await bot_state.put(db, key, digest)
        log.info("commands synced", extra={"scope": scope, "count": len(synced)})
        return True

    async def announce(self, notice: Notice, nonce: str) -> int | None:
        """Post what a timer produced (a reminder, an expired turn, a computer's move) and send
        opted-in DMs. The nonce makes a repeat of the same notice (after a crash between the
        post and its bookkeeping) return the message already posted, not a second one.
        ChannelGone: Discord no longer knows the channel; ChannelUnreachable: it refuses the bot
        (a permission taken away, a closed thread)."""
        if notice.kind == "dm":
            await self._direct(notice.dm_user_ids, notice.reply.text)
            return None
        try:
            channel = self.get_channel(notice.channel_id) or await self.fetch_channel(notice.channel_id)
            if not isinstance(channel, discord.abc.Messageable):
                raise ChannelGone
            # The buttons under it speak the language its text was written in.
            with speaking(notice.locale, notice.reply.game):
                view = view_for(notice.reply)
            message = await send_to(channel, notice.reply, view, nonce=nonce)
        except discord.NotFound as error:
            if error.code == UNKNOWN_CHANNEL:
                raise ChannelGone from error
            raise
        except discord.HTTPException as error:
            if error.status == 403 or error.code in CLOSED_THREAD:
                raise ChannelUnreachable from error
            raise
        await self._direct(notice.dm_user_ids, f"{notice.reply.text}\n{message.jump_url}")
        return message.id

    async def _direct(self, user_ids: tuple[int, ...], text: str) -> None:
        """Direct messages; a member who does not accept them is skipped (logged)."""
        for user_id in user_ids:
            try:
                user = self.get_user(user_id) or await self.fetch_user(user_id)
                await user.send(text, allowed_mentions=discord.AllowedMentions.none())
            except discord.HTTPException:
                log.info("direct message refused", extra={"user": user_id})

    # A change that may give the bot back its access to a paused match's channel.
    async def on_guild_channel_update(self, before: discord.abc.GuildChannel, after: discord.abc.GuildChannel) -> None:
        await self._access_may_be_back(after.guild.id)

    async def on_thread_update(self, before: discord.Thread, after: discord.Thread) -> None:
        await self._access_may_be_back(after.guild.id)

    async def on_guild_role_update(self, before: discord.Role, after: discord.Role) -> None:
        await self._access_may_be_back(after.guild.id)

    async def on_member_update(self, before: discord.Member, after: discord.Member) -> None:
        if self.user is not None and after.id == self.user.id:  # the bot's own roles changed
            await self._access_may_be_back(after.guild.id)

    async def _access_may_be_back(self, guild_id: int) -> None:
        if self.service is not None:
            try:
                await self.service.access_may_be_back(guild_id=guild_id)
            except ServiceError:  # the database is unavailable: the probes' own schedule still runs
                log.info("could not look for paused matches", extra={"guild": guild_id})

    async def on_ready(self) -> None:
        log.info("ready", extra={"user": str(self.user), "guilds": len(self.guilds)})
        if self.timers is not None:
            self.timers.start()  # once connected, so notices can be posted; idempotent

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
            if service.computers is not None:
                await service.computers.close()


class ShardedBot(BoardGameBot, commands.AutoShardedBot):
    """The host holding `settings.shard_ids` of `settings.shard_count` shards. Several such
    processes share one PostgreSQL database; only the one holding shard 0 syncs commands."""

    def __init__(self, settings: Settings, **options: Any) -> None:
        super().__init__(
            settings, shard_count=settings.shard_count, shard_ids=list(settings.shard_ids or ()), **options
        )

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        if self.settings.api_base:  # a test double on 127.0.0.1 has no identify rate limit to respect
            return
        await super().before_identify_hook(shard_id, initial=initial)


def make_bot(settings: Settings, **options: Any) -> BoardGameBot:
    """One process: a plain bot. With BOARDGAME_SHARD_COUNT: the shards this process holds."""
    if settings.shard_count is not None:
        return ShardedBot(settings, **options)
    return BoardGameBot(settings, **options)

