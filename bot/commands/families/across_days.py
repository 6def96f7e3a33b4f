"""Play across days: reminders (in the channel or by DM), the turn deadline, and the daily digest."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

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
    hours = o.get("reminder_hours")
    return await ctx.service.settings(
        ctx.who.guild_id, ctx.who.channel_id, ctx.who.user_id,
        reminder_hours=float(hours) if hours is not None else None, deadline_days=deadline(o.get("deadline")),
        server_default=o.get("scope") == "server", dm_reminders=_switch(o.get("dm")), can_manage=ctx.who.can_manage,
        digest=_switch(o.get("digest")), digest_hour=o.get("hour"),
    )  # fmt: skip


def commands(rules: AnyGame, front: FrontEnd) -> tuple[CommandSpec, ...]:
    return (
        CommandSpec("settings", "Reminders, turn deadline, and reminders by DM", _settings, (
            CommandOption("reminder_hours", "Remind the player to act after this many hours without a move",
                          OptionKind.INTEGER, min_value=1, max_value=168),
            CommandOption("deadline", "Turn deadline (only before the match starts)", choices=DEADLINES),
            CommandOption("scope", "Change this match, or the server's default reminder interval", choices=SCOPES),
            CommandOption("dm", "Also send your reminders to you by direct message", choices=SWITCH),
            CommandOption("digest", "A daily DM listing the matches where it is your turn", choices=SWITCH),
            CommandOption("hour", "The digest's hour, in UTC (0-23)", OptionKind.INTEGER, min_value=0, max_value=23),
        ), private=True),
    )  # fmt: skip
