"""Looking: the board, the history, the rules in a minute and the help page."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.commands.forms import typed
from bot.commands.front_end import FrontEnd, named
from bot.commands.spec import CommandOption, CommandSpec, Context, OptionKind
from bot.replies import Reply
from engine.api import AnyGame, Choice
from engine.i18n import M, T, choice_name


async def _board(ctx: Context, o: Mapping[str, Any]) -> Reply:
    return await ctx.service.board(ctx.who.channel_id, ctx.who.user_id)


async def _history(ctx: Context, o: Mapping[str, Any]) -> Reply:
    return await ctx.service.history(ctx.who.channel_id, o.get("page") or 1, user_id=ctx.who.user_id)


async def _rules(ctx: Context, o: Mapping[str, Any]) -> Reply:
    front = ctx.front
    text = named(front.rules, ctx.names)
    if front.rules_example is None:
        return Reply(text)
    rules = ctx.rules
    position, action = front.rules_example
    after, events = rules.apply(rules.load(position), rules.parse_action(action))
    return Reply(text, image=await ctx.service.book.render_example(ctx.game, after, [events]))


# Messages, not text: each reader gets them in their own language.
DISCORD_HELP = M(
    "Every option suggests only what is legal for you right now: start typing and pick. "
    "Or press the buttons under the latest board: they walk you through legal choices only."
)
HELP_TOPICS = (Choice("game", "The game"), Choice("days", "Play across days: rematch, forecast, vacation…"))
# Correspondence play, for every game (bot/service/rematch.py, forecasts.py, vacations.py, agreed_pause.py,
# digest.py), each command named as this game's group has it (bot/commands/forms.py).
ACROSS_DAYS_HELP = M(
    "**Rematch:** when a match ends, press Rematch under the result, or `{rematch}`: once everyone has "
    "accepted (within a day) it starts with the seats rotated.\n"
    "**Forecast (two players):** after your move, `{forecast}` answers their next turn in advance, privately; go "
    "deeper with more `>`, give several lines separated by `;`, and the actions of one turn separated by `,`. "
    "`{forecast_show}` shows it, `{forecast_clear}` removes it; any undo clears it.\n"
    "**Vacation:** `{vacation}` stops your clocks in every match of this server for that many days (`0` ends it "
    "early).\n"
    "**Pause:** `{pause}` proposes stopping every clock of the match; once all players accept, it is paused "
    "until anyone types `{resume}`.\n"
    "**Daily digest:** `/{slug} {settings} {digest}:on {hour}:8` sends you one direct message a day at 08:00 UTC "
    "listing every match where it is your turn, instead of reminders by DM."
)
CONSOLE_HELP = M(
    "**In this console** type the commands as text, options as name:value (Tab completes, Up recalls). "
    "`as @name` plays as someone else, `channel N` switches channel, `manage on` acts as a moderator, "
    "`help` lists these, `quit` leaves. Boards are written as PNG files into the boards folder."
)


async def _help(ctx: Context, o: Mapping[str, Any]) -> Reply:
    how = CONSOLE_HELP if ctx.who.console else DISCORD_HELP
    if o.get("topic") == "days":  # its own page: the game's help fills a message already
        return Reply(named(M(ACROSS_DAYS_HELP.template, **_forms(ctx.game)), ctx.names))
    return Reply(f"{named(ctx.front.help, ctx.names)}\n{how}")


def _forms(game: str) -> dict[str, Any]:
    return {
        "slug": game, "rematch": typed(game, "rematch"),
        "forecast": typed(game, "forecast", M("<their move> > <your answer>")),
        "forecast_show": typed(game, "forecast", T("show", "forecast")),
        "forecast_clear": typed(game, "forecast", T("clear", "forecast")),
        "vacation": typed(game, "vacation", "7"), "pause": typed(game, "pause", choice_name("offer")),
        "resume": typed(game, "resume"),
    }  # fmt: skip


def commands(rules: AnyGame, front: FrontEnd) -> tuple[CommandSpec, ...]:
    return (
        CommandSpec("board", "Show this channel's board", _board, cooldown=True),
        CommandSpec("history", "List the actions played so far", _history,
                    (CommandOption("page", "Page number (15 actions a page)", OptionKind.INTEGER, min_value=1,
                                   max_value=1000),), private=True, cooldown=True),
        CommandSpec("rules", f"The rules of {rules.title} in one minute, with a picture", _rules, private=True),
        CommandSpec("help", f"How to play {rules.title} here", _help, (
            CommandOption("topic", "The game, or play across days (rematch, forecast, vacation, pause)",
                          choices=HELP_TOPICS),
        ), private=True),
    )  # fmt: skip
