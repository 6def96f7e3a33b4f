"""Texts that name an event command name it as Discord shows it to the reader: a game's own
`tournament` group is translated like any command within a game's group (`/pikemen torneo nueva`),
the top-level `/tournament` is named alike in every language (`/tournament nueva game:`)."""

from __future__ import annotations

import pytest
from discord import app_commands

from bot.command_translator import CommandTranslator
from bot.commands.group import tournament_for
from bot.commands.spec import Invoker
from bot.commands.tournament import run_tournament, tournament_commands
from bot.commands.values import checked
from bot.errors import ServiceError
from bot.i18n import speaking
from engine.registry import games
from render.words import catalog

WHERE = app_commands.TranslationContextLocation


def shown(word: str, *, group: bool = False) -> str:
    """A command's (or, `group`, a game's subcommand group's) name as Discord shows it in Spanish."""
    location = WHERE.group_name if group else WHERE.command_name
    return CommandTranslator._translate(app_commands.locale_str(word), catalog("es"), location, group) or word


@pytest.mark.parametrize("game", sorted(g.slug for g in games()))
def test_a_missing_option_names_the_event_command_as_discord_shows_it(game: str) -> None:
    own = tournament_for(game)
    spec = own["new"] if own else tournament_commands()["new"]
    with speaking("es-ES", game):
        with pytest.raises(ServiceError) as refused:
            checked(spec, {})
        said = str(refused.value)
    if own:  # `/pikemen torneo nueva necesita la opción formato…`
        assert shown("tournament", group=True) != "tournament"
        assert said.startswith(f"/{game} {shown('tournament', group=True)} {shown('new')} "), said
    else:  # Nika's group is full: the top-level group, untranslated on Discord
        assert said.startswith(f"/tournament {shown('new')} "), said


async def test_an_unknown_event_command_is_named_in_its_group_as_discord_shows_it() -> None:
    who = Invoker(1, 2, 3, locale="es-ES")
    with speaking("es-ES", "pikemen"):
        with pytest.raises(ServiceError) as refused:
            await run_tournament(None, who, "frobnicate", {}, game="pikemen")
        assert str(refused.value) == f"no existe /pikemen {shown('tournament', group=True)} frobnicate"
    with speaking("es-ES", "nika"):
        with pytest.raises(ServiceError) as refused:
            await run_tournament(None, who, "frobnicate", {})
        assert str(refused.value) == "no existe /tournament frobnicate"
