"""Playing: the game's own action commands (its front end's), taking an action back, and
any action in notation."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot import texts
from bot.commands.front_end import ActionCommand, FrontEnd
from bot.commands.spec import CommandOption, CommandSpec, Context, Runner, on_service
from bot.errors import ServiceError
from bot.replies import Reply
from engine.api import AnyGame
from engine.i18n import M


def _action_runner(command: ActionCommand) -> Runner:
    async def run(ctx: Context, o: Mapping[str, Any]) -> Reply:
        text = command.notation({k: str(v) for k, v in o.items()})
        return await ctx.service.act(ctx.who.channel_id, ctx.who.user_id, text)

    return run


async def _play(ctx: Context, o: Mapping[str, Any]) -> Reply:
    """An action now, or a forecast: answers to the opponent's next turns, kept private (Discord
    allows a group 25 commands and a game with a claim has 25 already, so a forecast is a way to play)."""
    forecast = o.get("forecast")
    if forecast is not None:
        if o.get("action"):
            raise ServiceError(M("give an {action} to play now, or a {forecast}, not both",
                                 action=texts.option("action"), forecast=texts.option("forecast")))  # fmt: skip
        shown = str(forecast).strip().lower() in ("show", "ver")
        return await ctx.service.forecast(ctx.who.channel_id, ctx.who.user_id, None if shown else str(forecast))
    if not o.get("action"):
        raise ServiceError(M("give an {action} in the game's notation (or a {forecast})",
                             action=texts.option("action"), forecast=texts.option("forecast")))  # fmt: skip
    return await ctx.service.act(ctx.who.channel_id, ctx.who.user_id, o.get("action") or "")


def commands(rules: AnyGame, front: FrontEnd) -> tuple[CommandSpec, ...]:
    example = front.play_example or "a move in notation"
    actions = tuple(
        CommandSpec(action.name, action.description, _action_runner(action), action.options, path=action.path,
                    normalize=action.normalize, plays=action.plays)
        for action in front.actions
    )  # fmt: skip
    return (
        *actions,
        CommandSpec("undo", "Take back your last action while you still may", on_service("undo")),
        CommandSpec("play", f"Play any action in notation, e.g. {example.split(' · ')[0]}", _play, (
            CommandOption("action", example[:100], autocomplete=True, max_length=200),
            CommandOption("forecast", "Replies in advance, private: their move > yours; lines split by ;",
                          max_length=1500),
        )),
    )  # fmt: skip
