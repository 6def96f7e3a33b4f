"""Play across days: reminders (in the channel or by DM), the turn deadline, vacations, pausing the
clocks by agreement, and the daily digest."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.commands.families.correspondence import told
from bot.commands.families.ending import DRAW_CHOICES
from bot.commands.families.lobby import DEADLINES, deadline
from bot.commands.front_end import FrontEnd
from bot.commands.spec import CommandOption, CommandSpec, Context, OptionKind
from bot.replies import Reply
from engine.api import AnyGame, Choice

SCOPES = (Choice("match", "this match"), Choice("server", "server default"))
SWITCH = (Choice("on", "on"), Choice("off", "off"))


def _switch(value: str | None) -> bool | None:
    return None if value is None else value == "on"


async def _settings(ctx: Context, o: Mapping[str, Any]) -> Reply:
    if (done := await _correspondence(ctx, o)) is not None:
        return done
    hours = o.get("reminder_hours")
    return await ctx.service.settings(
        ctx.who.guild_id, ctx.who.channel_id, ctx.who.user_id,
        reminder_hours=float(hours) if hours is not None else None, deadline_days=deadline(o.get("deadline")),
        server_default=o.get("scope") == "server", dm_reminders=_switch(o.get("dm")), can_manage=ctx.who.can_manage,
        digest=_switch(o.get("digest")), digest_hour=o.get("hour"),
    )  # fmt: skip


PAUSE_CHOICES = (*DRAW_CHOICES, Choice("resume", "resume"))


async def _correspondence(ctx: Context, o: Mapping[str, Any]) -> Reply | None:
    """A vacation, the server's allowance, or a pause by agreement. The allowance is a server
    setting; a vacation and a pause are settings only in a game whose group has no room for their
    own subcommands (Discord allows 25: bot/commands/families/correspondence.py)."""
    if (allowance := o.get("vacation_allowance")) is not None:
        return await ctx.service.vacation_allowance(ctx.who.guild_id, int(allowance), can_manage=ctx.who.can_manage)
    if (days := o.get("vacation")) is not None:
        return await ctx.service.vacation(ctx.who.guild_id, ctx.who.user_id, int(days))
    if (choice := o.get("pause")) is not None:
        if choice == "resume":
            public = await ctx.service.resume(ctx.who.channel_id, ctx.who.user_id)
        else:
            public = await ctx.service.pause(ctx.who.channel_id, ctx.who.user_id, choice)
        return told(public)
    return None


def commands(rules: AnyGame, front: FrontEnd) -> tuple[CommandSpec, ...]:
    return (
        CommandSpec("settings", "Reminders, deadline, DMs, vacation, pause", _settings, (
            CommandOption("reminder_hours", "Remind the player to act after this many hours without a move",
                          OptionKind.INTEGER, min_value=1, max_value=168),
            CommandOption("deadline", "Turn deadline (only before the match starts)", choices=DEADLINES),
            CommandOption("scope", "Change this match, or the server's default reminder interval", choices=SCOPES),
            CommandOption("dm", "Also send your reminders to you by direct message", choices=SWITCH),
            CommandOption("vacation", "Days of vacation to start or add (0 ends it)", OptionKind.INTEGER,
                          min_value=0, max_value=30),
            CommandOption("vacation_allowance", "Server's vacation days a year per member", OptionKind.INTEGER,
                          min_value=0, max_value=365),
            CommandOption("pause", "Pause all clocks once everyone agrees, or resume", choices=PAUSE_CHOICES),
            CommandOption("digest", "A daily DM listing the matches where it is your turn", choices=SWITCH),
            CommandOption("hour", "The digest's hour, in UTC (0-23)", OptionKind.INTEGER, min_value=0, max_value=23),
        ), private=True),
    )  # fmt: skip
