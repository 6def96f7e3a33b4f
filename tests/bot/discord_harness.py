"""Helpers for driving an in-process BoardGameBot through the Discord API double: send an
interaction as Discord would, and read back what the bot answered."""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

from PIL import Image

from bot.client import BoardGameBot
from bot.clock import Clock
from bot.config import Settings
from bot.service import MatchService
from tests.discord_double import DiscordDouble, InteractionRecord, StoredMessage, UploadedFile, User

TOKEN = "cog-test-token.not-a-real-one"
EPHEMERAL = 1 << 6
LOADING = 1 << 7
TIMEOUT = 20.0  # generous: the first board render loads fonts, and CI machines are slow


@dataclass
class Answer:
    """What players see for one slash command: the message and the JSON the bot sent."""

    record: InteractionRecord
    message: StoredMessage
    body: dict[str, Any]

    @property
    def content(self) -> str:
        return self.message.content

    @property
    def ephemeral(self) -> bool:
        return self.message.ephemeral

    @property
    def files(self) -> list[UploadedFile]:
        return self.message.files

    @property
    def allowed_mentions(self) -> dict[str, Any] | None:
        return self.body.get("allowed_mentions")

    @property
    def deferred(self) -> bool:
        """The bot said "thinking…" first and answered in a followup."""
        return self.record.response_type == 5


@dataclass
class Players:
    alice: User
    bob: User
    carol: User
    dave: User
    eve: User  # in the server, not in the match
    mod: User  # holds Manage Channels


async def answer_of(double: DiscordDouble, interaction_id: int) -> Answer:
    """The reply to an interaction, whether the bot answered at once or deferred first."""
    record = await double.wait_for_interaction_response(interaction_id, timeout=TIMEOUT)
    assert record.callback is not None and record.callback.status in (200, 204)
    if record.response_type == 5:
        # Deferred ("thinking…"): the reply is the followup.
        [followup] = await double.wait_for_followups(interaction_id, 1, timeout=TIMEOUT)
        assert followup.status == 200
        body = followup.json
    else:
        assert record.response_type == 4, record.response_type
        body = record.response_data
    visible = [
        m
        for m in double.messages.values()
        if m.interaction_id == interaction_id and not m.deleted and not m.payload["flags"] & LOADING
    ]
    assert len(visible) == 1, visible
    return Answer(record, visible[0], body)


async def slash(
    double: DiscordDouble,
    user: User,
    subcommand: str,
    options: Mapping[str, Any] | None = None,
    channel: Any = None,
    group: str = "nika",
) -> Answer:
    payload = double.slash_command(user, channel, group, subcommand, dict(options or {}))
    return await answer_of(double, await double.send_interaction(payload))


async def suggest(
    double: DiscordDouble,
    user: User,
    subcommand: str,
    options: Mapping[str, str],
    focused: str,
    channel: Any = None,
    group: str = "nika",
) -> list[str]:
    """The values the bot suggests for `focused`, checked against Discord's limits."""
    payload = double.autocomplete(user, channel, group, subcommand, dict(options), focused)
    record = await double.wait_for_interaction_response(await double.send_interaction(payload), timeout=TIMEOUT)
    assert record.response_type == 8
    choices = record.response_data["choices"]
    assert len(choices) <= 25
    assert all(1 <= len(c["name"]) <= 100 and 1 <= len(c["value"]) <= 100 for c in choices)
    return [c["value"] for c in choices]


def decode_png(upload: UploadedFile) -> Image.Image:
    image = Image.open(io.BytesIO(upload.data))
    image.load()
    assert image.format == "PNG"
    return image


def pings_only(answer: Answer, *users: User) -> None:
    """Discord may notify exactly these users, and nobody through @everyone or roles."""
    assert answer.allowed_mentions == {"parse": [], "users": [u.id for u in users]}


@asynccontextmanager
async def running(
    double: DiscordDouble, database: str, *, dev_guild: int | None = None, clock: Clock | None = None,
    games: tuple[str, ...] | None = None,
) -> AsyncIterator[BoardGameBot]:
    """A BoardGameBot connected to the double, closed (and its storage with it) on exit."""
    settings = Settings(token=TOKEN, database=database, api_base=double.base_url, dev_guild=dev_guild, games=games)
    bot = BoardGameBot(settings, guild_ready_timeout=0.05, clock=clock)
    runner: asyncio.Task[None] | None = None
    try:
        await bot.login(TOKEN)  # runs setup_hook: storage, cog, command sync
        runner = asyncio.create_task(bot.connect(reconnect=False))
        await double.wait_ready(timeout=TIMEOUT)
        # Closing before on_ready would make discord.py schedule it on a closed client.
        await asyncio.wait_for(bot.wait_until_ready(), timeout=TIMEOUT)
        yield bot
    finally:
        await bot.close()
        if runner is not None:
            await asyncio.wait_for(runner, timeout=TIMEOUT)
            await double.wait_disconnected(timeout=TIMEOUT)


def service_of(bot: BoardGameBot) -> MatchService:
    assert bot.service is not None
    return bot.service


async def seat_four(double: DiscordDouble, bot: BoardGameBot, p: Players, *, start: str | None = None) -> None:
    """A started four-player match in the default channel, set up on the bot's own service."""
    service, guild, channel = service_of(bot), double.guild.id, double.channel.id
    await service.new_match(guild, channel, p.alice.id, "athens", start=start, game="nika")
    for user, city in ((p.bob, "sparta"), (p.carol, "messene"), (p.dave, "thebes")):
        await service.join(channel, user.id, city)
    await service.start(channel, p.alice.id)
