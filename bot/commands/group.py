"""A game's command group: its families of commands in the order Discord shows them, each
family one declarative builder (`bot/commands/families/`). The first release's order holds:
the lobby, playing, looking, ending early (draws, then claims), play across days, records.

To add a kind of command to every game (a tournament's, say), write a family module with a
`commands(rules, front)` builder and put it in FAMILIES where it should appear.

Discord allows a group 25 subcommands. After a game's own commands come correspondence play's
five (`rematch`, `forecast`, `vacation`, `pause`, `resume`) where all five fit; a game without
room keeps them folded into `start`, `play forecast:` and `settings` (families/correspondence.py)."""

from __future__ import annotations

from dataclasses import replace
from functools import cache

from bot import texts
from bot.commands.families import across_days, correspondence, ending, lobby, looking, playing, records
from bot.commands.front_end import front_end
from bot.commands.spec import CommandSpec
from bot.commands.tournament import tournament_commands
from bot.errors import ServiceError
from engine.i18n import M, T, Term
from engine.registry import get_game

FAMILIES = (lobby.commands, playing.commands, looking.commands, ending.commands, across_days.commands,
            records.commands)  # fmt: skip
MAX_SUBCOMMANDS = 25  # Discord's limit for a group


def _own(slug: str) -> list[CommandSpec]:
    rules, front = get_game(slug), front_end(slug)
    return [spec for family in FAMILIES for spec in family(rules, front)]


@cache
def folded(slug: str) -> bool:
    """Whether a game's group lacks room for correspondence play's own subcommands, which then
    stay options of `settings` and `play` (and `start` asks for a rematch)."""
    return len(_own(slug)) + len(correspondence.NAMES) > MAX_SUBCOMMANDS


@cache
def commands_for(slug: str) -> dict[str, CommandSpec]:
    """Every command of a game's group, in the order Discord shows them."""
    own = _own(slug)
    if not folded(slug):
        own = [correspondence.unfold(spec) for spec in own]
        own += correspondence.commands(get_game(slug), front_end(slug))
    specs = [replace(spec, game=slug) for spec in own]
    named = {spec.name: spec for spec in specs}
    if len(named) != len(specs):
        raise ValueError(f"{slug}: two commands of its group have one name: {[s.name for s in specs]}")
    return named


# Commands about no one match: nothing to address.
NOT_ABOUT_A_MATCH = frozenset({"new", "join", "rules", "help", "stats", "mygames"})


@cache
def tournament_for(slug: str) -> dict[str, CommandSpec]:
    """`/<game> tournament …`: the `/tournament` group's commands without `game:`, as a subcommand
    group of a game's own group where it still has room (after correspondence play's five, so a
    game with room for this has those too); {} elsewhere (`/tournament game:` serves every game)."""
    if folded(slug) or len(commands_for(slug)) + 1 > MAX_SUBCOMMANDS:
        return {}
    return tournament_commands((slug,), implied=True)


@cache
def names_of(slug: str) -> dict[str, Term]:
    """Every command and option name of a game's group as the reader's client shows it, for the
    placeholders of its help and rules: `{move}`, `{piece}`, and `{setup_option}` for an option
    named like a command."""
    specs = commands_for(slug).values()
    commands = {spec.name for spec in specs}
    names: dict[str, Term] = {name: T(name, "command") for name in commands}
    for spec in specs:
        for option in spec.options:
            key = f"{option.name}_option" if option.name in commands else option.name
            names.setdefault(key, T(option.name, "option"))
    return names


def refuse_unknown(slug: str, name: str) -> ServiceError:
    return ServiceError(M("there is no /{game} {name}: try /{game} {help}", game=slug, name=name[:30],
                          help=texts.command("help")))  # fmt: skip
