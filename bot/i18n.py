"""The bot speaks each player's language: Discord tells it every user's locale.

- replies follow the invoking user's `interaction.locale` (`speaking`, set around every
  command and button press, so every Message rendered meanwhile is in that language);
- posts no interaction triggers (reminders, deadlines, computer moves) use the locale last
  seen from the player they address, else the server's, else English (`LocaleMemory`);
- slash commands carry their names and descriptions in every language the bot speaks
  (`CommandTranslator`, set on the command tree).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import discord
from discord import app_commands

from engine.i18n import Catalog, using
from render.words import catalog, language_of, playing

# Names Discord accepts for commands and options: lower case, letters, digits, - and _.
NAME_MAX = 32


@contextlib.contextmanager
def speaking(locale: str | None, game: str | None = None) -> Iterator[Catalog]:
    """Render every Message in this block in the language of a Discord locale, with `game`'s
    own words first (the game of the command, button or notice)."""
    with using(catalog(locale)) as active, playing(game):
        yield active


class CommandTranslator(app_commands.Translator):
    """Localised names and descriptions of every group, command, option and choice, from the
    same catalogues as the replies. The values players' choices send stay English."""

    async def translate(
        self, string: app_commands.locale_str, locale: discord.Locale, context: app_commands.TranslationContextTypes
    ) -> str | None:
        language = language_of(locale.value)
        if language == "en":
            return None
        with playing(_game_of(context.data)):
            return self._translate(string, catalog(language), context.location)

    @staticmethod
    def _translate(
        string: app_commands.locale_str, words: Catalog, where: app_commands.TranslationContextLocation
    ) -> str | None:
        if where is app_commands.TranslationContextLocation.group_name:
            return None  # a game's group is its slug in every language
        if where is app_commands.TranslationContextLocation.command_name:
            translated = words.gettext(string.message, "command")
        elif where is app_commands.TranslationContextLocation.parameter_name:
            translated = words.gettext(string.message, "option")
        else:
            translated = words.gettext(string.message)
        return translated if translated != string.message else None


def _game_of(data: Any) -> str | None:
    """The game group a command, an option or a group belongs to (a choice does not say)."""
    if isinstance(data, app_commands.Parameter):
        data = data.command
    while isinstance(data, app_commands.Command | app_commands.Group):
        if data.parent is None:
            return data.name
        data = data.parent
    return None


class LocaleMemory:
    """The locale last seen from each member and server, kept in storage by the service; this
    only avoids writing it again when nothing changed."""

    def __init__(self) -> None:
        self._seen: dict[tuple[str, int], str] = {}

    def changed(self, kind: str, key: int, locale: str | None) -> bool:
        if not locale or not key:
            return False
        if self._seen.get((kind, key)) == locale:
            return False
        self._seen[(kind, key)] = locale
        return True
