"""Playing: the game's own action commands (its front end's), taking an action back, and
any action in notation."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.commands.front_end import ActionCommand, FrontEnd
from bot.commands.spec import CommandOption, CommandSpec, Context, Runner, on_service
from bot.replies import Reply
from engine.api import AnyGame


def _action_runner(command: ActionCommand) -> Runner:
    async def run(ctx: Context, o: Mapping[str, Any]) -> Reply:
        text = command.notation({k: str(v) for k, v in o.items()})
        return await ctx.service.act(ctx.who.channel_id, ctx.who.user_id, text)

    return run


async def _play(ctx: Context, o: Mapping[str, Any]) -> Reply:
    return await ctx.service.act(ctx.who.channel_id, ctx.who.user_id, o.get("action") or "")


async def _forecast(ctx: Context, o: Mapping[str, Any]) -> Reply:
    return await ctx.service.forecast(ctx.who.channel_id, ctx.who.user_id, o.get("lines"))


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
        CommandSpec("play", f"Play any action in notation, e.g. {example.split(' · ')[0]}", _play,
                    (CommandOption("action", example[:100], required=True, autocomplete=True, max_length=200),)),
        CommandSpec("forecast", "Privately answer your opponent's next moves in advance (two-player games)",
                    _forecast, (CommandOption("lines", "their move > your answer; lines split by ; (clear: remove)",
                                              max_length=1500),), private=True),
    )  # fmt: skip
