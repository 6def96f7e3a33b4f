"""The /nika slash commands. Each command turns its options into a `dispatch` call and
posts the Reply; refusals come back privately. No game decisions are made here."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from bot import suggestions
from bot.cogs.posting import message_kwargs, post_reply, refuse, respond, send_private
from bot.commands import PRIVATE_COMMANDS, Invoker, dispatch
from bot.errors import ServiceError
from bot.inflight import in_flight_of
from bot.replies import Notice, Reply
from bot.service import MatchService
from engine.nika import Action

log = logging.getLogger(__name__)

# Answer directly when the work is quick; past this, defer so Discord's 3 s window holds.
DEFER_AFTER_SECONDS = 1.5
# A game record posted as an attachment to /nika new may be this large.
RECORD_BYTES_MAX = 1_000_000

SEATS = [
    Choice(name="Athens (white, south)", value="athens"),
    Choice(name="Sparta (red, west)", value="sparta"),
    Choice(name="Messene (blue, north)", value="messene"),
    Choice(name="Thebes (black, east)", value="thebes"),
    Choice(name="Athens + Messene (a whole team)", value="athens-messene"),
    Choice(name="Sparta + Thebes (a whole team)", value="sparta-thebes"),
]
TEAMS = [Choice(name="Athens–Messene", value="athens-messene"), Choice(name="Sparta–Thebes", value="sparta-thebes")]
DIRECTIONS = [Choice(name=f"{word} ({word[0]})", value=word[0]) for word in ("north", "east", "south", "west")]
DRAW = [Choice(name=c, value=c) for c in ("offer", "accept", "decline")]
DEADLINES = [Choice(name="no deadline", value="none")] + [
    Choice(name=f"{days} day{'s' if days > 1 else ''} a turn", value=str(days)) for days in (1, 2, 3, 7)
]
SCOPES = [Choice(name="this match", value="match"), Choice(name="server default", value="server")]
SWITCH = [Choice(name="on", value="on"), Choice(name="off", value="off")]
REPLAY_FORMATS = [Choice(name="animation (GIF)", value="animation"), Choice(name="game record (JSON)", value="record")]


def invoker(interaction: discord.Interaction) -> Invoker:
    return Invoker(
        guild_id=interaction.guild_id or 0,
        channel_id=interaction.channel_id or 0,
        user_id=interaction.user.id,
        can_manage=interaction.permissions.manage_channels,
    )


def _choices(pairs: Sequence[tuple[str, str]]) -> list[Choice[str]]:
    return [Choice(name=label[:100], value=value[:100]) for label, value in pairs]


@app_commands.guild_only()
class NikaCog(commands.GroupCog, group_name="nika", group_description="Play Nika, the Greek hoplite team game"):
    def __init__(self, bot: commands.Bot, service: MatchService) -> None:
        self.bot = bot
        self.service = service
        super().__init__()

    # --- the one path every command takes --------------------------------------------
    async def run(self, interaction: discord.Interaction, name: str, **options: str | None) -> None:
        with in_flight_of(self.bot).track():
            await self._run(interaction, name, **options)

    async def _run(self, interaction: discord.Interaction, name: str, **options: str | None) -> None:
        given = {key: str(value) for key, value in options.items() if value is not None}
        private = name in PRIVATE_COMMANDS
        task = asyncio.ensure_future(dispatch(self.service, invoker(interaction), name, given))
        done, _ = await asyncio.wait({task}, timeout=DEFER_AFTER_SECONDS)
        deferred = not done
        if deferred:
            await interaction.response.defer(thinking=True, ephemeral=private)
        try:
            reply = await task
        except ServiceError as error:
            await self.refuse(interaction, str(error), deferred=deferred and not private)
            return
        log.info("command", extra={"command": name, "match": reply.match_id, "user": interaction.user.id})
        await self.post(interaction, reply, private=private)

    async def refuse(self, interaction: discord.Interaction, message: str, *, deferred: bool) -> None:
        if deferred:  # the public "thinking…" placeholder must not carry a private refusal
            await interaction.delete_original_response()
        await refuse(interaction, message)

    async def post(self, interaction: discord.Interaction, reply: Reply, *, private: bool) -> None:
        if private:
            await respond(interaction, reply, ephemeral=True)
        else:
            await post_reply(interaction, self.service, reply)

    async def announce(self, notice: Notice) -> None:
        """Post what a timer produced (a reminder, an expired turn) and send opted-in DMs."""
        channel = self.bot.get_channel(notice.channel_id) or await self.bot.fetch_channel(notice.channel_id)
        if not isinstance(channel, discord.abc.Messageable):
            log.warning("cannot post in channel", extra={"channel": notice.channel_id})
            return
        message = await channel.send(**message_kwargs(notice.reply))  # type: ignore[arg-type]
        if notice.reply.image is not None and notice.reply.match_id is not None:
            await self.service.remember_board_message(notice.reply.match_id, message.id)
        for user_id in notice.dm_user_ids:
            try:
                user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
                await user.send(
                    f"{notice.reply.text}\n{message.jump_url}", allowed_mentions=discord.AllowedMentions.none()
                )
            except discord.HTTPException:
                # DMs closed: the channel reminder still stands.
                log.info("reminder DM refused", extra={"user": user_id})

    async def legal(self, interaction: discord.Interaction) -> list[Action]:
        return await self.service.legal_actions(interaction.channel_id or 0, interaction.user.id)

    async def suggest(
        self, interaction: discord.Interaction, pick: Callable[[list[Action]], Sequence[tuple[str, str]]]
    ) -> list[Choice[str]]:
        legal = await self.legal(interaction)
        return _choices(pick(legal)) if legal else []  # nothing when it is not this user's turn

    # --- lobby ------------------------------------------------------------------------
    @app_commands.command(name="new", description="Open a Nika match in this channel and take a seat")
    @app_commands.describe(
        city="The city, or whole team, you will play",
        deadline="How long each turn may take before it is passed automatically",
        from_="Start a casual match from a position or a game record (text)",
        record="Start a casual match from an exported game record (file)",
    )
    @app_commands.rename(from_="from")
    @app_commands.choices(city=SEATS, deadline=DEADLINES)
    async def new(
        self,
        interaction: discord.Interaction,
        city: str,
        deadline: str | None = None,
        from_: str | None = None,
        record: discord.Attachment | None = None,
    ) -> None:
        if record is not None:
            if record.size > RECORD_BYTES_MAX:
                await self.refuse(interaction, "that file is too large to be a game record", deferred=False)
                return
            from_ = (await record.read()).decode("utf-8", errors="replace")
        await self.run(interaction, "new", city=city, deadline=deadline, **{"from": from_})

    @app_commands.command(name="join", description="Take a seat in this channel's lobby")
    @app_commands.describe(city="The city, or whole team, you will play")
    @app_commands.choices(city=SEATS)
    async def join(self, interaction: discord.Interaction, city: str) -> None:
        await self.run(interaction, "join", city=city)

    @app_commands.command(name="leave", description="Give up your seat before the match starts")
    async def leave(self, interaction: discord.Interaction) -> None:
        await self.run(interaction, "leave")

    @app_commands.command(name="start", description="Start the match once all four cities are held")
    async def start(self, interaction: discord.Interaction) -> None:
        await self.run(interaction, "start")

    @app_commands.command(name="abort", description="Abort this channel's match (creator or Manage Channels)")
    async def abort(self, interaction: discord.Interaction) -> None:
        await self.run(interaction, "abort")

    # --- actions ----------------------------------------------------------------------
    @app_commands.command(name="move", description="Move one piece one square; it ends facing that way")
    @app_commands.describe(piece="Square of your piece, e.g. j6", direction="Where it steps")
    async def move(self, interaction: discord.Interaction, piece: str, direction: str) -> None:
        await self.run(interaction, "move", piece=piece, direction=direction)

    @move.autocomplete("piece")
    async def move_piece(self, interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        return await self.suggest(interaction, lambda legal: suggestions.movable_pieces(legal, current))

    @move.autocomplete("direction")
    async def move_direction(self, interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        piece = str(getattr(interaction.namespace, "piece", "") or "")
        return await self.suggest(interaction, lambda legal: suggestions.move_directions(legal, piece, current))

    @app_commands.command(name="rotate", description="Turn one piece, or a phalanx, to face a new way")
    @app_commands.describe(pieces="Square(s), e.g. k5 or j4,j5,j6", facing="The new facing")
    async def rotate(self, interaction: discord.Interaction, pieces: str, facing: str) -> None:
        await self.run(interaction, "rotate", pieces=pieces, facing=facing)

    @rotate.autocomplete("pieces")
    async def rotate_pieces(self, interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        return await self.suggest(interaction, lambda legal: suggestions.rotatable_groups(legal, current))

    @rotate.autocomplete("facing")
    async def rotate_facing(self, interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        pieces = str(getattr(interaction.namespace, "pieces", "") or "")
        return await self.suggest(interaction, lambda legal: suggestions.rotate_facings(legal, pieces, current))

    @app_commands.command(name="advance", description="Advance a phalanx one square the way it faces")
    @app_commands.describe(pieces="The phalanx's squares, e.g. j4,j5,j6")
    async def advance(self, interaction: discord.Interaction, pieces: str) -> None:
        await self.run(interaction, "advance", pieces=pieces)

    @advance.autocomplete("pieces")
    async def advance_pieces(self, interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        return await self.suggest(interaction, lambda legal: suggestions.advancing_formations(legal, current))

    @app_commands.command(name="rally", description="Bring a routed piece back on your rally area")
    @app_commands.describe(square="An empty square of your rally area", facing="Which way it faces")
    @app_commands.choices(facing=DIRECTIONS)
    async def rally(self, interaction: discord.Interaction, square: str, facing: str) -> None:
        await self.run(interaction, "rally", square=square, facing=facing)

    @rally.autocomplete("square")
    async def rally_square(self, interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        return await self.suggest(interaction, lambda legal: suggestions.rally_squares(legal, current))

    @app_commands.command(name="pass", description="Spend one action doing nothing")
    async def pass_(self, interaction: discord.Interaction) -> None:
        await self.run(interaction, "pass")

    @app_commands.command(name="undo", description="Take back your last action while your turn lasts")
    async def undo(self, interaction: discord.Interaction) -> None:
        await self.run(interaction, "undo")

    @app_commands.command(name="play", description="Play any action in notation, e.g. advance j4,j5,j6")
    @app_commands.describe(action="move j6 w · rotate k5 w · advance j4,j5,j6 · rally k1 n · pass")
    async def play(self, interaction: discord.Interaction, action: str) -> None:
        await self.run(interaction, "play", action=action)

    @play.autocomplete("action")
    async def play_action(self, interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        return await self.suggest(interaction, lambda legal: suggestions.any_action(legal, current))

    # --- information ------------------------------------------------------------------
    @app_commands.command(name="board", description="Show this channel's board")
    async def board(self, interaction: discord.Interaction) -> None:
        await self.run(interaction, "board")

    @app_commands.command(name="history", description="List the actions played so far")
    @app_commands.describe(page="Page number (15 actions a page)")
    async def history(self, interaction: discord.Interaction, page: app_commands.Range[int, 1, 1000] = 1) -> None:
        await self.run(interaction, "history", page=str(page))

    @app_commands.command(name="rules", description="The rules of Nika in one minute, with a picture")
    async def rules(self, interaction: discord.Interaction) -> None:
        await self.run(interaction, "rules")

    @app_commands.command(name="help", description="How to play Nika here")
    async def help(self, interaction: discord.Interaction) -> None:
        await self.run(interaction, "help")

    # --- ending early -----------------------------------------------------------------
    @app_commands.command(name="resign", description="Concede the match for your team")
    async def resign(self, interaction: discord.Interaction) -> None:
        await self.run(interaction, "resign")

    @app_commands.command(name="draw", description="Offer, accept or decline a draw (everyone must agree)")
    @app_commands.describe(choice="Offer a draw, or answer the one on offer")
    @app_commands.choices(choice=DRAW)
    async def draw(self, interaction: discord.Interaction, choice: str) -> None:
        await self.run(interaction, "draw", choice=choice)

    @app_commands.command(name="declare", description="Declare Nika: a team has secured victory")
    @app_commands.describe(team="The team whose victory is certain")
    @app_commands.choices(team=TEAMS)
    async def declare(self, interaction: discord.Interaction, team: str) -> None:
        await self.run(interaction, "declare", team=team)

    @app_commands.command(name="concede", description="Accept the Nika declaration against your team")
    async def concede(self, interaction: discord.Interaction) -> None:
        await self.run(interaction, "concede")

    @app_commands.command(name="challenge", description="Refuse the Nika declaration: play goes on")
    async def challenge(self, interaction: discord.Interaction) -> None:
        await self.run(interaction, "challenge")

    # --- across days -------------------------------------------------------------------
    @app_commands.command(name="settings", description="Reminders, turn deadline, and reminders by DM")
    @app_commands.describe(
        reminder_hours="Remind the player to act after this many hours without a move",
        deadline="Turn deadline (only before the match starts)",
        scope="Change this match, or the server's default reminder interval",
        dm="Also send your reminders to you by direct message",
    )
    @app_commands.choices(deadline=DEADLINES, scope=SCOPES, dm=SWITCH)
    async def settings(
        self,
        interaction: discord.Interaction,
        reminder_hours: app_commands.Range[int, 1, 168] | None = None,
        deadline: str | None = None,
        scope: str | None = None,
        dm: str | None = None,
    ) -> None:
        hours = str(reminder_hours) if reminder_hours is not None else None
        await self.run(interaction, "settings", reminder_hours=hours, deadline=deadline, scope=scope, dm=dm)

    @app_commands.command(name="replay", description="Replay this channel's match as an animation, or export it")
    @app_commands.describe(last="Only the last N actions", format="An animation, or the game record file")
    @app_commands.choices(format=REPLAY_FORMATS)
    async def replay(
        self,
        interaction: discord.Interaction,
        last: app_commands.Range[int, 1, 10000] | None = None,
        format: str | None = None,
    ) -> None:
        await self.run(interaction, "replay", last=str(last) if last else None, format=format)

    @app_commands.command(name="stats", description="The server's leaderboard, or one player's record")
    @app_commands.describe(user="A player (leave empty for the leaderboard)")
    async def stats(self, interaction: discord.Interaction, user: discord.User | None = None) -> None:
        await self.run(interaction, "stats", user=str(user.id) if user else None)

    @app_commands.command(name="mygames", description="Matches on this server where it is your turn")
    async def mygames(self, interaction: discord.Interaction) -> None:
        await self.run(interaction, "mygames")

    async def cog_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        log.exception("command failed", exc_info=error)
        # The failure may have come after the action was saved: send players to the board, not to retry.
        await send_private(interaction, "Something went wrong on my side. Check /nika board before trying again.")
