"""The lobby: open a match and take seats, seat the computer, leave, start, abort; and the
secret setup choice of games that have one."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.commands.front_end import FrontEnd
from bot.commands.spec import CommandOption, CommandSpec, Context, OptionKind, on_service
from bot.commands.values import missing
from bot.errors import ServiceError
from bot.replies import Reply
from bot.texts import LEVELS
from engine.api import AnyGame, Choice
from engine.i18n import english

DEADLINES = (
    Choice("none", "no deadline"),
    *(Choice(str(d), f"{d} day{'s' if d > 1 else ''} a turn") for d in (1, 2, 3, 7)),
)
COMPUTER_LEVELS = tuple(Choice(level, f"the computer ({level})") for level in LEVELS)


def seat_choices(rules: AnyGame, front: FrontEnd) -> tuple[Choice, ...]:
    """Every seat of every table, then the sides that have several seats (a whole team), then
    `random` where sides are single seats and there are two of them (a two-player game's side)."""
    labels = front.seat_labels
    found: dict[str, str] = {}
    teams: dict[str, str] = {}
    for players in sorted(rules.player_counts, reverse=True):  # the largest table's turn order first
        for seat in rules.seats(players):
            found.setdefault(seat.slug, english(labels.get(seat.slug, seat.title)))
        for side in rules.sides(players):
            if len(side.seats) > 1:
                teams.setdefault(side.slug, english(labels.get(side.slug, f"{side.title} (a whole team)")))
    choices = [Choice(v, label) for v, label in {**found, **teams}.items()]
    if not teams and rules.player_counts == (2,):
        choices.append(Choice("random", "random"))
    return tuple(choices)


def deadline(value: str | None) -> int | None:
    if value is None:
        return None
    return 0 if value == "none" else int(value)


def _options_of(rules: AnyGame, values: Mapping[str, Any]) -> dict[str, str]:
    return {option.name: str(values[option.name]) for option in rules.options if values.get(option.name) is not None}


async def _new(ctx: Context, o: Mapping[str, Any]) -> Reply:
    rules = ctx.rules
    return await ctx.service.new_match(
        ctx.who.guild_id, ctx.who.channel_id, ctx.who.user_id, o.get(rules.seat_word) or "",
        game=ctx.game, players=o.get("players"), options=_options_of(rules, o), start=o.get("record") or o.get("from"),
        deadline_days=deadline(o.get("deadline")), parent_channel_id=ctx.who.parent_channel_id,
        bank_days=o.get("bank"),
    )  # fmt: skip


async def _join(ctx: Context, o: Mapping[str, Any]) -> Reply:
    if not o.get(ctx.rules.seat_word) and o.get("computer") is None:  # the computer alone takes "the free seat"
        from bot.commands.group import commands_for  # the group is assembled from this family

        join = commands_for(ctx.game)["join"]
        raise ServiceError(missing(join, join.options[0]))
    return await ctx.service.join(ctx.who.channel_id, ctx.who.user_id,
                                  o.get(ctx.rules.seat_word) or "", computer=o.get("computer"))  # fmt: skip


async def _start(ctx: Context, o: Mapping[str, Any]) -> Reply:
    """Start the lobby; after a match has finished here, ask for (or accept) its rematch. Discord
    allows a group 25 commands, and a game with a claim has 25 already: a rematch is the next start."""
    here = await ctx.service.match_in(ctx.who.channel_id)
    if here is not None and here[0].status == "finished":
        return await ctx.service.rematch(ctx.who.channel_id, ctx.who.user_id, open_thread=ctx.who.open_thread)
    return await ctx.service.start(ctx.who.channel_id, ctx.who.user_id)


async def _abort(ctx: Context, o: Mapping[str, Any]) -> Reply:
    return await ctx.service.abort(ctx.who.channel_id, ctx.who.user_id, can_manage=ctx.who.can_manage)


async def _setup(ctx: Context, o: Mapping[str, Any]) -> Reply:
    return await ctx.service.setup(ctx.who.channel_id, ctx.who.user_id, o.get("choice") or "")


def commands(rules: AnyGame, front: FrontEnd) -> tuple[CommandSpec, ...]:
    teams = any(len(s.seats) > 1 for n in rules.player_counts for s in rules.sides(n))
    seat = CommandOption(
        rules.seat_word,
        f"The {rules.seat_word}, or whole team, you will play" if teams else f"The {rules.seat_word} you will play",
        required=True, choices=seat_choices(rules, front),
    )  # fmt: skip
    new_options = [seat]
    if rules.seat_sets_differ():
        counts = tuple(Choice(str(n), f"{n} players") for n in rules.player_counts)
        new_options.append(CommandOption("players", "How many play", OptionKind.INTEGER, choices=counts))
    new_options += [
        # An option taking any number of a range offers its choices as suggestions (Discord's
        # choices would refuse the rest); the game checks what is typed.
        CommandOption(option.name, option.description, autocomplete=True, max_length=12) if option.numbers
        else CommandOption(option.name, option.description, choices=option.choices)
        for option in rules.options
    ]  # fmt: skip
    new_options += [
        CommandOption("deadline", "How long each turn may take before time runs out", choices=DEADLINES),
        CommandOption("bank", "Most days a clock may save (deadline to 30)", OptionKind.INTEGER, min_value=1,
                      max_value=30),
        CommandOption("from", "Start a casual match from a position or a game record (text)", max_length=6000),
        CommandOption("record", "Start a casual match from an exported game record (file)", OptionKind.ATTACHMENT),
        CommandOption("thread", "Open the match in a new thread of this channel", OptionKind.BOOLEAN),
    ]
    # Not required: `join computer:easy` alone seats the computer in the free seat (a member names theirs).
    join_seat = CommandOption(seat.name, seat.description.replace("you will play", "to take"), choices=seat.choices)
    specs = [
        CommandSpec("new", f"Open a {rules.title} match in this channel and take a seat", _new, tuple(new_options)),
        CommandSpec("join", "Take a seat in this channel's lobby (or seat the computer in one)", _join,
                    (join_seat, CommandOption("computer", "The creator seats the computer here instead, at a level",
                                              choices=COMPUTER_LEVELS))),
        CommandSpec("leave", "Give up your seat (in a started match: resign)", on_service("leave")),
        CommandSpec("start", "Start the match when every seat is held, or its rematch", _start),
        CommandSpec("abort", "Abort this channel's match (creator in the lobby, or Manage Channels)", _abort,
                    # Where an event's games share the channel, a moderator names the one to abort.
                    (CommandOption("match", "Which match of this channel (an event's games may share it)",
                                   max_length=12, autocomplete=True),)),
    ]  # fmt: skip
    if rules.has_setup:
        specs.append(CommandSpec("setup", "Make your secret setup choice (nobody sees it until all are made)", _setup,
                                 (CommandOption("choice", "Your setup, e.g. sosoosos", required=True, autocomplete=True,
                                                max_length=100),), private=True))  # fmt: skip
    return tuple(specs)
