"""One slash-command group per hosted game (`/<game>`, named by its slug), built from the
command specs (bot/commands): this module turns each spec into a discord.py command whose
parameters Discord types, and runs it through `dispatch`. No game decisions are made here.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
from collections.abc import Callable, Coroutine, Mapping
from dataclasses import replace
from typing import Any, Literal

import discord
from discord import app_commands
from discord.app_commands import Choice, locale_str
from discord.ext import commands

from bot import menus
from bot.cogs.panel import confirm_view, post_reply, thread_opener, went_wrong
from bot.cogs.posting import refuse, respond, send_private
from bot.commands.dispatch import (
    MATCH,
    CommandOption,
    CommandSpec,
    Invoker,
    OptionKind,
    autocomplete,
    commands_for,
    dispatch,
    match_label,
)
from bot.commands.front_end import front_end
from bot.commands.group import tournament_for
from bot.commands.tournament import EVENTS_OF_A_GAME, GROUP, run_tournament
from bot.commands.values import record_text
from bot.errors import ConfirmFirst, ServiceError
from bot.i18n import speaking
from bot.inflight import in_flight_of
from bot.replies import Reply
from bot.service import MatchService
from engine.api import Step
from engine.i18n import M, english

log = logging.getLogger(__name__)

# Answer directly when the work is quick; past this, defer so Discord's 3 s window holds.
DEFER_AFTER_SECONDS = 1.5
# A game record posted as an attachment to /<game> new may be this large.
RECORD_BYTES_MAX = 1_000_000
THREAD_MINUTES: Literal[10080] = 10080  # a match's thread archives after a week without messages


def invoker(interaction: discord.Interaction, *, channel_id: int | None = None,
            parent: int | None = None) -> Invoker:  # fmt: skip
    return Invoker(
        guild_id=interaction.guild_id or 0,
        channel_id=channel_id or interaction.channel_id or 0,
        user_id=interaction.user.id,
        can_manage=interaction.permissions.manage_channels,
        locale=_locale(interaction),
        parent_channel_id=parent,
        display_name=getattr(interaction.user, "display_name", "") or "",
    )


def _annotation(option: CommandOption) -> Any:
    if option.kind is OptionKind.INTEGER:
        if option.min_value is not None or option.max_value is not None:
            return app_commands.Range[int, option.min_value, option.max_value]
        return int
    if option.kind is OptionKind.NUMBER:
        return float
    if option.kind is OptionKind.BOOLEAN:
        return bool
    if option.kind is OptionKind.USER:
        return discord.User
    if option.kind is OptionKind.ATTACHMENT:
        return discord.Attachment
    if option.max_length is not None and not option.choices:
        return app_commands.Range[str, None, option.max_length]
    return str


def _python_name(option: CommandOption) -> str:
    return f"o_{option.name}"


class GameGroup(app_commands.Group):
    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        log.exception("command failed", exc_info=error)
        with speaking(_locale(interaction), self.name):
            await send_private(interaction, went_wrong(self.name))


class GameCog(commands.Cog):
    """The command group of one game, with every command run through `dispatch`."""

    def __init__(self, bot: commands.Bot, service: MatchService, game: str) -> None:
        self.bot = bot
        self.service = service
        self.game = game
        self.__cog_name__ = f"{game} commands"  # one cog per game: each needs its own name
        # Matches live in a server's channels: the commands are not offered in DMs.
        # locale_str: the tree's translator gives Discord the group's description in Spanish too.
        description = english(front_end(game).description)[:100]
        self.group = GameGroup(
            name=game, description=locale_str(description), guild_only=True,
            allowed_contexts=app_commands.AppCommandContext(guild=True),
        )  # fmt: skip
        for spec in commands_for(game).values():
            self.group.add_command(self._command(spec))
        events = tournament_for(game)
        if events:  # `/<game> tournament …`, where the group has room for it (bot/commands/group.py)
            self.events = app_commands.Group(
                name=locale_str(GROUP), description=locale_str(EVENTS_OF_A_GAME),
                parent=self.group,
            )  # fmt: skip
            for spec in events.values():
                self.events.add_command(self._command(spec))

    async def cog_load(self) -> None:
        self.bot.tree.add_command(self.group)

    async def cog_unload(self) -> None:
        self.bot.tree.remove_command(self.group.name)

    # --- building commands from specs ---------------------------------------------------
    def _command(self, spec: CommandSpec) -> app_commands.Command[Any, ..., None]:
        cog = self

        async def callback(interaction: discord.Interaction, **values: Any) -> None:
            given = {option.name: values.get(_python_name(option)) for option in spec.options}
            await cog.run(interaction, spec, given)

        parameters = [inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                        annotation=discord.Interaction)]  # fmt: skip
        for option in spec.options:
            annotation = _annotation(option)
            parameters.append(inspect.Parameter(
                _python_name(option), inspect.Parameter.KEYWORD_ONLY,
                annotation=annotation if option.required else annotation | None,
                default=inspect.Parameter.empty if option.required else None,
            ))  # fmt: skip
        callback.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
        callback.__name__ = spec.name
        # locale_str: the tree's translator gives Discord every name and description in Spanish too.
        renames = {_python_name(o): locale_str(o.name) for o in spec.options}
        described = {_python_name(o): locale_str(o.description[:100]) for o in spec.options}
        decorated: Any = callback
        if renames:
            decorated = app_commands.rename(**renames)(app_commands.describe(**described)(decorated))
        choices = {
            _python_name(o): [_choice(o, c.value, c.label) for c in o.choices] for o in spec.options if o.choices
        }
        if choices:
            decorated = app_commands.choices(**choices)(decorated)
        command: app_commands.Command[Any, ..., None] = app_commands.Command(
            name=locale_str(spec.name), description=locale_str(spec.description[:100]), callback=decorated
        )
        for option in spec.options:
            if option.autocomplete:
                command.autocomplete(_python_name(option))(self._suggester(spec, option))
        return command

    def _suggester(
        self, spec: CommandSpec, option: CommandOption
    ) -> Callable[[discord.Interaction, str], Coroutine[Any, Any, list[Choice[str]]]]:
        if option.name == MATCH:  # `tournament board match:`, `abort match:`: the channel's open matches
            async def matches(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
                return await match_suggestions(self.service, interaction, current)

            return matches

        async def suggest(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
            filled = {key: value for key, value in vars(interaction.namespace).items() if isinstance(value, str)}
            filled[option.name] = current
            with speaking(_locale(interaction), self.game):
                steps = await autocomplete(
                    self.service, invoker(interaction), self.game, spec.name, option.name, filled
                )
                return [Choice(name=str(step.label)[:100] or step.value[:100], value=step.value[:100])
                        for step in steps[:25]]  # fmt: skip

        return suggest

    # --- the one path every command takes --------------------------------------------
    async def run(self, interaction: discord.Interaction, spec: CommandSpec, options: Mapping[str, Any]) -> None:
        # Everything said in answer (replies, refusals, the board's words) is in the player's language.
        with in_flight_of(self.bot).track(), speaking(_locale(interaction), self.game):
            await self.service.seen_locale(interaction.user.id, _locale(interaction), interaction.guild_id or 0,
                                           _guild_locale(interaction))  # fmt: skip
            await self._run(interaction, spec, options)
            if _can_post(interaction) and interaction.channel_id:
                # Discord says the bot may post here: a match paused for this channel tries again now.
                try:
                    await self.service.access_may_be_back(channel_id=interaction.channel_id)
                except ServiceError:  # the command was answered; the probe's own schedule still runs
                    log.info("could not look for paused matches", extra={"channel": interaction.channel_id})

    async def _run(self, interaction: discord.Interaction, spec: CommandSpec, options: Mapping[str, Any]) -> None:
        typed = dict(options)
        named: list[tuple[int, str]] = []
        for option in spec.options:
            value = typed.get(option.name)
            if isinstance(value, discord.abc.User):
                typed[option.name] = value.id
                named.append((value.id, value.display_name))
            elif isinstance(value, discord.Attachment):
                if value.size > RECORD_BYTES_MAX:
                    await refuse(interaction, str(M("that file is too large to be a game record")))
                    return
                try:
                    typed[option.name] = record_text(value.filename, await value.read())
                except ServiceError as error:
                    await refuse(interaction, str(error))
                    return
        who = replace(invoker(interaction), names=tuple(named))
        thread: discord.Thread | None = None
        if spec.name == "new" and typed.pop("thread", None):
            thread = await self._open_thread(interaction)
            if thread is None:
                return
            who = invoker(interaction, channel_id=thread.id, parent=interaction.channel_id)
        if spec.name in ("start", "rematch"):  # a rematch goes to a new thread if this is one
            who = replace(who, open_thread=thread_opener(interaction))
        task = asyncio.ensure_future(self._dispatch(who, spec, typed))
        done, _ = await asyncio.wait({task}, timeout=DEFER_AFTER_SECONDS)
        deferred = not done
        if deferred:
            await interaction.response.defer(thinking=True, ephemeral=spec.private)
        try:
            reply = await task
        except ConfirmFirst as confirm:
            if deferred and not spec.private:
                await interaction.delete_original_response()
            await send_private(interaction, str(confirm), confirm_view(self.game, confirm))
            return
        except ServiceError as error:
            if deferred and not spec.private:  # the public "thinking…" placeholder must not carry a private refusal
                await interaction.delete_original_response()
            if thread is not None:
                await _delete_quietly(thread)
            await refuse(interaction, str(error))
            return
        log.info("command", extra={"command": spec.name, "game": self.game, "match": reply.match_id,
                                   "user": interaction.user.id})  # fmt: skip
        if thread is not None:
            await self._post_in_thread(interaction, thread, reply)
        elif reply.private and not spec.private:  # a private answer to a public command (a forecast)
            if deferred:
                await interaction.delete_original_response()
            await send_private(interaction, reply.text)
        elif spec.private:
            await post_reply(interaction, self.service, reply, ephemeral=True)
        else:
            await self._post(interaction, reply)

    async def _post(self, interaction: discord.Interaction, reply: Reply) -> None:
        if reply.event_id is None:
            await post_reply(interaction, self.service, reply)
            return
        from bot.cogs.tournament import JoinButton  # an event's announcement: its Join button

        view = discord.ui.View(timeout=None)
        view.add_item(JoinButton(reply.event_id))
        message_id = await respond(interaction, reply, view=view)
        if message_id is not None:
            await self.service.events.set_message(reply.event_id, message_id)

    async def _dispatch(self, who: Invoker, spec: CommandSpec, typed: dict[str, Any]) -> Reply:
        if spec.group == GROUP:  # `/<game> tournament <name>`: the game goes without saying
            return await run_tournament(self.service, who, spec.name, typed, game=self.game)
        return await dispatch(self.service, who, self.game, spec.name, typed)

    async def _open_thread(self, interaction: discord.Interaction) -> discord.Thread | None:
        channel = interaction.channel
        if not isinstance(channel, discord.TextChannel):
            await refuse(interaction, str(M("a match thread can be opened in a text channel only")))
            return None
        name = f"{front_end(self.game).slug.capitalize()} — {interaction.user.display_name}"[:100]
        try:
            return await channel.create_thread(name=name, type=discord.ChannelType.public_thread,
                                               auto_archive_duration=THREAD_MINUTES)  # fmt: skip
        except discord.HTTPException:
            cannot = M("I could not open a thread here: I need the Create Public Threads permission")
            await refuse(interaction, str(cannot))
            return None

    async def _post_in_thread(self, interaction: discord.Interaction, thread: discord.Thread, reply: Reply) -> None:
        from bot.cogs.panel import view_for
        from bot.cogs.posting import send_to

        await send_to(thread, reply, view_for(reply))
        moved = M("The match is in its own thread: {thread}", thread=thread.mention)
        await respond(interaction, Reply(f"{reply.text}\n{moved}", match_id=reply.match_id, game=reply.game))


def _choice(option: CommandOption, value: str, label: str) -> Choice[Any]:
    if option.kind is OptionKind.INTEGER:
        return Choice(name=locale_str(label[:100]), value=int(value))
    return Choice(name=locale_str(label[:100]), value=value[:100])


def _can_post(interaction: discord.Interaction) -> bool:
    """Whether the bot may post boards in the interaction's channel, as Discord says with it."""
    granted = interaction.app_permissions
    in_thread = isinstance(interaction.channel, discord.Thread)
    send = granted.send_messages_in_threads if in_thread else granted.send_messages
    return granted.view_channel and send and granted.attach_files


def _locale(interaction: discord.Interaction) -> str:
    return str(interaction.locale.value) if interaction.locale else "en-US"


def _guild_locale(interaction: discord.Interaction) -> str | None:
    return str(interaction.guild_locale.value) if interaction.guild_locale else None


async def _delete_quietly(thread: discord.Thread) -> None:
    try:
        await thread.delete()
    except discord.HTTPException:
        log.info("could not delete an unused match thread", extra={"thread": thread.id})


async def match_suggestions(service: MatchService, interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    """`match:` suggests the channel's open matches, named by their players as the server shows them."""
    guild = interaction.guild

    def name(user: int) -> str:
        member = guild.get_member(user) if guild is not None else None
        return member.display_name if member is not None else str(user)

    found = await service.open_matches_here(interaction.channel_id or 0)
    steps = [Step(str(match_id), match_label(match_id, table, name)) for match_id, table in found]
    return [Choice(name=str(step.label)[:100], value=step.value) for step in menus.matching(steps, current)[:25]]
