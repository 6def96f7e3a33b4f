"""The `/tournament` group (bot/commands/tournament.py) on Discord, the persistent Join button
under an event's announcement, and the threads each event game is played in.

Every game of an event is a match in a public thread of the event's channel, named after the
event, round, board and players ("Spring Swiss · R2 · B3 · Ana v Bea"). Why not threads under the
announcement itself: Discord gives a message one thread, and an event has many games. Where the
bot cannot open a thread there (no Create Public Threads or Send Messages in Threads, a channel
without threads such as a thread itself, or Discord refusing at round time), the game is played
in the event's channel itself beside the others (bot/service/addressing.py, docs/tournaments.md)."""

from __future__ import annotations

import logging
import re
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str

from bot.cogs.game import THREAD_MINUTES, GameCog, GameGroup, invoker
from bot.cogs.panel import answered, service_of
from bot.cogs.posting import respond
from bot.commands.spec import CommandSpec, Invoker
from bot.commands.tournament import GROUP, run_tournament, tournament_commands
from bot.replies import Reply
from bot.service import MatchService
from bot.storage.events import EventRow, TableRow
from engine.i18n import M

log = logging.getLogger(__name__)


class TournamentCog(GameCog):
    """`/tournament new|join|leave|start|standings|list|cancel`, run like a game's commands."""

    def __init__(self, bot: Any, service: MatchService, games: tuple[str, ...]) -> None:
        self.bot = bot
        self.service = service
        self.game = ""  # set per command from its game option
        self.games = games
        self.__cog_name__ = "tournament commands"
        self.group = GameGroup(
            name=GROUP, description=locale_str("Events for every game: round robin, Swiss, knockout, pods"),
            guild_only=True, allowed_contexts=app_commands.AppCommandContext(guild=True),
        )  # fmt: skip
        for spec in tournament_commands(games).values():
            self.group.add_command(self._command(spec))
        service.events.thread_maker = self.make_thread

    async def run(self, interaction: discord.Interaction, spec: CommandSpec, options: Any) -> None:
        self.game = str(options.get("game") or "")  # the event's game speaks (refusals in its words)
        await super().run(interaction, spec, options)

    async def _dispatch(self, who: Invoker, spec: CommandSpec, typed: dict[str, Any]) -> Reply:
        return await run_tournament(self.service, who, spec.name, typed, self.games)

    async def make_thread(self, event: EventRow, table: TableRow) -> int:
        """The thread a game is played in: found by its name if a crash left it, else created.
        Where no thread can be opened, the event's channel itself (its games share it)."""
        client: discord.Client = self.bot
        try:
            channel = client.get_channel(event.channel_id) or await client.fetch_channel(event.channel_id)
        except discord.HTTPException:  # gone or hidden: the match's own posts will say so
            return event.channel_id
        if not isinstance(channel, discord.TextChannel) or not _threads_allowed(channel):
            return event.channel_id
        names = []
        for side in table.sides:
            members = []
            for user_id in side:
                member = channel.guild.get_member(user_id)
                members.append(member.display_name if member else str(user_id))
            names.append(" & ".join(members))
        replay = f" · G{table.game}" if table.game > 1 else ""
        name = f"{event.title} · R{table.round} · B{table.board}{replay} · {' v '.join(names)}"[:100]
        for thread in channel.threads:
            if thread.name == name:
                return thread.id
        try:
            thread = await channel.create_thread(name=name, type=discord.ChannelType.public_thread,
                                                 auto_archive_duration=THREAD_MINUTES)  # fmt: skip
        except discord.HTTPException as error:
            if error.status >= 500 or error.status == 429:
                raise  # passing: the opening is tried again
            # Refused for good (403 50001/50013, 400 160004 and the like): the event's channel it is.
            log.warning("event game in the event's channel: no thread", extra={"event": event.id,
                        "status": error.status, "code": error.code})  # fmt: skip
            return event.channel_id
        return thread.id


def _threads_allowed(channel: discord.TextChannel) -> bool:
    """The bot may open a public thread here and speak in it."""
    granted = channel.permissions_for(channel.guild.me)
    return granted.create_public_threads and granted.send_messages_in_threads


class JoinButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"tournament:join:(?P<event>\d+)"):
    """Join the event from its announcement; the custom id names the event, so it works after a restart."""

    def __init__(self, event_id: int) -> None:
        super().__init__(discord.ui.Button(label=str(M("Join")), style=discord.ButtonStyle.success,
                                           custom_id=f"tournament:join:{event_id}"))  # fmt: skip
        self.event_id = event_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> JoinButton:
        return cls(int(match["event"]))

    @answered
    async def callback(self, interaction: discord.Interaction) -> None:
        service = service_of(interaction)
        who = invoker(interaction)
        loaded = await service.events.load(self.event_id)
        reply = await service.tournament_join(who.guild_id, loaded.row.game, who.user_id, self.event_id,
                                              name=who.display_name)  # fmt: skip
        await respond(interaction, reply)
