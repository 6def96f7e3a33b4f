"""Running commands: a game's group, a
command name and its typed options in, a Reply out. The Discord cogs and the local console
both call `dispatch`, so a command means the same thing everywhere."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from bot import menus
from bot.addressed import addressing
from bot.commands.front_end import front_end
from bot.commands.group import NOT_ABOUT_A_MATCH, commands_for, names_of, refuse_unknown
from bot.commands.spec import CommandOption, CommandSpec, Context, Invoker, OptionKind
from bot.commands.values import checked, command_path, parse_options, parse_value
from bot.errors import NoMatch, ServiceError
from bot.replies import Reply
from engine.api import Step
from engine.i18n import M, Message, Term, choice_name
from engine.registry import get_game
from render.words import playing

if TYPE_CHECKING:  # the service calls no command: bot.commands.forms tells it how commands are typed
    from bot.service import MatchService
    from bot.storage.events import TableRow

MATCH = "match"  # the option naming one of the channel's matches (bot.service.addressing.MATCH_OPTION)


def match_label(match_id: int, table: TableRow | None, name: Callable[[int], str] = str) -> str:
    """How `match:` suggests a match: "#12 · R1 · B2 · Ana vs Luis" for an event's game."""
    if table is None:
        return f"#{match_id}"
    players = " vs ".join(" & ".join(name(u) for u in side) for side in table.sides)
    return f"#{match_id} · R{table.round} · B{table.board} · {players}"


__all__ = [
    "CommandOption", "CommandSpec", "Context", "Invoker", "OptionKind", "autocomplete", "commands_for", "dispatch",
    "parse_options", "parse_value",
]  # fmt: skip


async def dispatch(service: MatchService, who: Invoker, game: str, name: str, options: Mapping[str, Any]) -> Reply:
    """Run `/<game> <name>` with typed options. Refusals raise ServiceError."""
    command = commands_for(game).get(name)
    if command is None:
        raise refuse_unknown(game, name)
    with playing(game):  # choices are typed and refused in the game's own words (`ciudad:atenas`)
        values = checked(command, options)
    if command.cooldown and who.rate_limited:
        service.cooldowns.take(who.user_id, game, name)
    # Which match the command means, where an event's matches share this channel (None: its one match).
    # A command with a `match:` option (`abort`) may name one (bot/service/addressing.py, MATCH_OPTION).
    takes_match = command.option(MATCH) is not None
    named = values.get(MATCH) if takes_match else None
    naming = Message("/{game} {command}", {"game": command_path(command), "command": Term(name, "command")})
    chosen = None if name in NOT_ABOUT_A_MATCH else await service.address(
        who.channel_id, who.user_id, named, naming if takes_match else None)  # fmt: skip
    try:
        with playing(game), addressing(chosen):  # the game's own words first, whoever calls
            reply = await command.run(Context(service, who, game, front_end(game), names_of(game)), values)
    except NoMatch as missing:
        raise missing.for_game(game) from None
    return await service.labelled(reply) if chosen is not None else reply


def path_values(command: CommandSpec, options: Mapping[str, Any], upto: int) -> list[str | None]:
    """The menu steps the options fill before position `upto` (None where not filled yet)."""
    chosen: list[str | None] = []
    for step in command.path[:upto]:
        if step.startswith("@"):
            name = step[1:]
            value = options.get(name)
            if value is None or str(value).strip() == "":
                chosen.append(None)
                continue
            normal = command.normalize.get(name)
            text = str(value).strip().lower()
            chosen.append(normal(text) if normal else text)
        else:
            chosen.append(step)
    return chosen


async def autocomplete(
    service: MatchService, who: Invoker, game: str, name: str, focused: str, options: Mapping[str, Any]
) -> list[Step]:
    """What to suggest for the focused option: only what is legal for this member right now."""
    command = commands_for(game).get(name)
    if command is None:
        return []
    typed = str(options.get(focused) or "")
    offered = next((o for o in get_game(game).options if o.name == focused), None)
    if name == "new" and offered is not None:  # a match option: its choices, as the reader names them
        return menus.matching([Step(str(choice_name(c.value)), str(M(c.label))) for c in offered.choices], typed)
    if name == "setup":
        return await _setup_suggestions(service, who, typed)
    if focused == MATCH:  # the channel's open matches, by number, round, board and players
        found = await service.open_matches_here(who.channel_id)
        return menus.matching([Step(str(match_id), match_label(match_id, table)) for match_id, table in found], typed)
    meant = await service.address(who.channel_id, who.user_id)
    with addressing(meant):
        try:
            legal = await service.legal_actions(who.channel_id, who.user_id)
        except ServiceError:  # no match of theirs here: nothing to suggest
            return []
    if not legal:
        return []
    rules = get_game(game)
    if name == "play":
        steps = [Step(a.notation(), a.notation()) for a in legal]
        return menus.matching(steps, typed)
    if command.plays is not None:
        legal = [action for action in legal if command.plays(action)]
    step = f"@{focused}"
    if step not in command.path:
        return []
    index = command.path.index(step)
    chosen = path_values(command, options, index)
    return menus.matching(menus.next_steps(rules, legal, chosen), typed)


async def _setup_suggestions(service: MatchService, who: Invoker, typed: str) -> list[Step]:
    found = await service.match_in(who.channel_id)
    if found is None:
        return []
    _, state = found
    mine = [s for s in state.rules.setup_pending(state.game) if state.seats.get(s) == who.user_id]
    if not mine:
        return []
    steps = [Step(c.value, c.label) for c in state.rules.setup_choices(state.game, mine[0])]
    return menus.matching(steps, typed)
