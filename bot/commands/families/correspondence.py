"""Correspondence play as subcommands of their own: `/<game> rematch`, `forecast`, `vacation
days:`, `pause choice:` and `resume` (issue 20's names).

Discord allows a group 25 subcommands. A game whose own commands leave room for all five gets
them (all or none, so a game reads one way), and loses the folded forms they replace:
`settings vacation:` and `settings pause:`, `play forecast:` (`start` after an ended match stays a
rematch). A game without room (a game with a claim may have 25 already) keeps the folded forms.
`bot.commands.group.commands_for` decides; `bot.commands.forms` tells the texts which form a game
has, so every message names the command that exists."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from bot.commands.families.ending import DRAW_CHOICES
from bot.commands.front_end import FrontEnd
from bot.commands.spec import CommandOption, CommandSpec, Context, OptionKind
from bot.replies import Reply
from engine.api import AnyGame
from engine.i18n import M

NAMES = ("rematch", "forecast", "vacation", "pause", "resume")
# The options these commands replace where they exist: (command, option).
FOLDED = (("settings", "vacation"), ("settings", "pause"), ("play", "forecast"))


def told(public: Reply) -> Reply:
    """A pause is everyone's business: its words go to the channel, with a private "done"."""
    return replace(public, text=str(M("Done: the channel is told.")), mentions=(), announce=public)


async def _rematch(ctx: Context, o: Mapping[str, Any]) -> Reply:
    return await ctx.service.rematch(ctx.who.channel_id, ctx.who.user_id, open_thread=ctx.who.open_thread)


async def _forecast(ctx: Context, o: Mapping[str, Any]) -> Reply:
    lines = o.get("lines")
    shown = lines is None or str(lines).strip().lower() in ("show", "ver")
    return await ctx.service.forecast(ctx.who.channel_id, ctx.who.user_id, None if shown else str(lines))


async def _vacation(ctx: Context, o: Mapping[str, Any]) -> Reply:
    days = o.get("days")
    return await ctx.service.vacation(ctx.who.guild_id, ctx.who.user_id, None if days is None else int(days))


async def _pause(ctx: Context, o: Mapping[str, Any]) -> Reply:
    return told(await ctx.service.pause(ctx.who.channel_id, ctx.who.user_id, o.get("choice") or ""))


async def _resume(ctx: Context, o: Mapping[str, Any]) -> Reply:
    return told(await ctx.service.resume(ctx.who.channel_id, ctx.who.user_id))


def commands(rules: AnyGame, front: FrontEnd) -> tuple[CommandSpec, ...]:
    return (
        CommandSpec("rematch", "Ask for (or accept) a rematch of the match that ended here", _rematch),
        CommandSpec("forecast", "Replies in advance, private: their move > yours (none: show yours)", _forecast, (
            CommandOption("lines", "Their move > your answer; lines split by ; (or show, clear)", max_length=1500),
        ), private=True),
        CommandSpec("vacation", "Start or extend a vacation: your clocks stand still (none: show it)", _vacation, (
            CommandOption("days", "Days of vacation to start or add (0 ends it)", OptionKind.INTEGER,
                          min_value=0, max_value=30),
        ), private=True),
        CommandSpec("pause", "Pause every clock of the match once all players agree", _pause, (
            CommandOption("choice", "Offer a pause, or answer the one on offer", required=True,
                          choices=DRAW_CHOICES),
        ), private=True),
        CommandSpec("resume", "Restart the clocks of a paused match", _resume, private=True),
    )  # fmt: skip


def unfold(spec: CommandSpec) -> CommandSpec:
    """A command without the options these subcommands replace (`play`'s action is then required:
    it is all `play` does)."""
    gone = {option for command, option in FOLDED if command == spec.name}
    if not gone:
        return spec
    options = tuple(o for o in spec.options if o.name not in gone)
    if spec.name == "play":
        options = tuple(replace(o, required=True) if o.name == "action" else o for o in options)
    description = SETTINGS_UNFOLDED if spec.name == "settings" else spec.description
    return replace(spec, options=options, description=description)


SETTINGS_UNFOLDED = "Reminders, deadline, DMs, digest, the server's vacation allowance"
