"""Tournaments' commands: one top-level group, `/tournament <new|join|leave|start|standings|list|cancel>
game:<slug> …`, over the event desk (bot/service/events.py; docs/tournaments.md); and the same
commands without `game:` as `/<game> tournament …`, a subcommand group of each game's own group
that has room for it (bot/commands/group.py).

Why a top-level group too: Discord allows a group 25 subcommands and a game's group may already
hold 25 (one built-in game's does); one group serves every game, the game its first option, and
lists every game's events."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from functools import cache
from typing import Any

from bot.commands.families.lobby import DEADLINES, deadline
from bot.commands.spec import CommandOption, CommandSpec, Context, Invoker, OptionKind
from bot.commands.values import checked
from bot.errors import ServiceError
from bot.replies import Reply
from engine.api import Choice
from engine.i18n import M, Term
from engine.registry import games, get_game
from render.words import playing

GROUP = "tournament"
EVENTS_OF_A_GAME = "Events of this game: round robin, Swiss, knockout, pods"  # `/<game> tournament`
FORMATS = (
    Choice("round-robin", "round robin"), Choice("swiss", "Swiss"), Choice("knockout", "knockout"),
    Choice("pods", "pods (3–4 players, or teams)"),
)  # fmt: skip
YES_NO = (Choice("yes", "yes"), Choice("no", "no"))


def _game_option(slugs: tuple[str, ...]) -> CommandOption:
    return CommandOption("game", "The game", required=True,
                         choices=tuple(Choice(s, get_game(s).title) for s in slugs))  # fmt: skip


def _event_option() -> CommandOption:
    return CommandOption("event", "The event's number (when the server has several)", OptionKind.INTEGER,
                         min_value=1, max_value=2**31 - 1)  # fmt: skip


def _options_of(game: str, values: Mapping[str, Any]) -> dict[str, str]:
    names = {option.name for option in get_game(game).options}
    return {name: str(values[name]) for name in names if values.get(name) is not None}


async def _new(ctx: Context, o: Mapping[str, Any]) -> Reply:
    who = ctx.who
    return await ctx.service.tournament_new(
        who.guild_id, who.channel_id, who.user_id, game=ctx.game, format=o["format"], title=o.get("title"),
        players=o.get("players"), options=_options_of(ctx.game, o), deadline_days=deadline(o.get("deadline")),
        rounds=o.get("rounds"), double=o.get("double") == "yes", signup_hours=o.get("signup"),
        max_entrants=o.get("entrants"), rated=o.get("rated") != "no", name=who.display_name,
    )  # fmt: skip


async def _join(ctx: Context, o: Mapping[str, Any]) -> Reply:
    w = ctx.who
    return await ctx.service.tournament_join(w.guild_id, ctx.game, w.user_id, o.get("event"), name=w.display_name)


async def _leave(ctx: Context, o: Mapping[str, Any]) -> Reply:
    return await ctx.service.tournament_leave(ctx.who.guild_id, ctx.game, ctx.who.user_id, o.get("event"))


async def _start(ctx: Context, o: Mapping[str, Any]) -> Reply:
    w = ctx.who
    return await ctx.service.tournament_start(w.guild_id, ctx.game, w.user_id, o.get("event"), can_manage=w.can_manage)


async def _cancel(ctx: Context, o: Mapping[str, Any]) -> Reply:
    w = ctx.who
    return await ctx.service.tournament_cancel(w.guild_id, ctx.game, w.user_id, o.get("event"),
                                               can_manage=w.can_manage)  # fmt: skip


async def _standings(ctx: Context, o: Mapping[str, Any]) -> Reply:
    w = ctx.who
    return await ctx.service.tournament_standings(w.guild_id, ctx.game, o.get("event"), viewer=w.user_id,
                                                  page=o.get("page") or 1, as_text=o.get("text") == "yes")  # fmt: skip


async def _board(ctx: Context, o: Mapping[str, Any]) -> Reply:
    """A match's board where an event's games share the channel: the one `match:` names, else the
    invoker's own (bot/service/addressing.py)."""
    return await ctx.service.event_board(ctx.who.channel_id, ctx.who.user_id, o.get("match"))


async def _list(ctx: Context, o: Mapping[str, Any]) -> Reply:
    return await ctx.service.tournament_list(ctx.who.guild_id, ctx.game)


@cache
def tournament_commands(slugs: tuple[str, ...] | None = None, *, implied: bool = False) -> dict[str, CommandSpec]:
    """The group's commands for the hosted games (every installed game by default). `implied`:
    the commands of one game's own `/<game> tournament` group, where the game goes without saying
    (no `game:` option)."""
    hosted = slugs or tuple(g.slug for g in games())
    event = _event_option()
    named_game = () if implied else (_game_option(hosted),)
    players = sorted({n for s in hosted for n in get_game(s).player_counts if n >= 3})
    by_name: dict[str, CommandOption] = {}
    for slug in hosted:  # each game's match options (a game refuses another's when the event opens)
        for option in get_game(slug).options:
            by_name.setdefault(option.name, CommandOption(option.name, option.description, choices=option.choices))
    new_options = [
        *named_game,
        CommandOption("format", "How the event is played", required=True, choices=FORMATS),
        CommandOption("title", "The event's name", max_length=80),
        CommandOption("rounds", "Rounds of a Swiss or pods event", OptionKind.INTEGER, min_value=1, max_value=30),
        CommandOption("double", "A round robin meets twice, sides swapped", choices=YES_NO),
        CommandOption("signup", "Hours until sign-up closes and the event starts", OptionKind.INTEGER,
                      min_value=1, max_value=720),
        CommandOption("entrants", "The most entrants it takes", OptionKind.INTEGER, min_value=2, max_value=256),
        CommandOption("rated", "Whether its games are rated", choices=YES_NO),
        CommandOption("deadline", "How long each turn may take before time runs out", choices=DEADLINES),
        *([CommandOption("players", "Players at each table of a pods event", OptionKind.INTEGER,
                         choices=tuple(Choice(str(n), f"{n} players") for n in players))] if players else []),
        *by_name.values(),
    ]  # fmt: skip
    specs = [
        CommandSpec("new", "Open an event in this channel: round robin, Swiss, knockout or pods", _new,
                    tuple(new_options)),
        CommandSpec("join", "Sign up for an event", _join, (*named_game, event)),
        CommandSpec("leave", "Leave an event (once it started: withdraw, resigning your running game)", _leave,
                    (*named_game, event)),
        CommandSpec("start", "Start an event (its creator or a moderator)", _start, (*named_game, event)),
        CommandSpec("standings", "An event's standings", _standings, (*named_game, event,
                    CommandOption("page", "Page number (20 entrants a page)", OptionKind.INTEGER, min_value=1,
                                  max_value=100),
                    CommandOption("text", "As text rather than a picture", choices=YES_NO)), cooldown=True),
        CommandSpec("list", "This server's events of a game", _list, named_game, private=True),
        CommandSpec("cancel", "Cancel an event (its creator or a moderator)", _cancel, (*named_game, event)),
        CommandSpec("board", "A match's board: one of an event's games sharing this channel", _board,
                    (*named_game, CommandOption("match", "Which match of this channel (an event's games may share it)",
                                                max_length=12, autocomplete=True))),
    ]  # fmt: skip
    game = hosted[0] if implied else ""  # an implied group's commands belong to its one game's group
    return {spec.name: replace(spec, group=GROUP, game=game) for spec in specs}


async def run_tournament(service: Any, who: Invoker, name: str, options: Mapping[str, Any],
                         slugs: tuple[str, ...] | None = None, *, game: str | None = None) -> Reply:  # fmt: skip
    """Run `/tournament <name>` with typed options, or `/<game> tournament <name>` when `game` is
    given. Refusals raise ServiceError."""
    from bot.commands.front_end import front_end
    from bot.commands.group import names_of

    command = (tournament_commands((game,), implied=True) if game else tournament_commands(slugs)).get(name)
    if command is None:
        if game:  # `/<game> tournament`: a group within a game's, which Discord shows translated
            group, typed = Term(GROUP, "command"), name[:30]
            raise ServiceError(M("there is no /{game} {tournament} {name}", game=game, tournament=group, name=typed))
        raise ServiceError(M("there is no /tournament {name}", name=name[:30]))
    values = checked(command, options)
    game = game or str(values["game"])
    if command.cooldown and who.rate_limited:
        service.cooldowns.take(who.user_id, game, f"{GROUP} {name}")
    with playing(game):
        return await command.run(Context(service, who, game, front_end(game), names_of(game)), values)
