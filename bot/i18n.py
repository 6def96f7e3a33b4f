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

import discord
from discord import app_commands

from engine.i18n import Catalog, using
from render.words import catalog, language_of

# Names Discord accepts for commands and options: lower case, letters, digits, - and _.
NAME_MAX = 32


@contextlib.contextmanager
def speaking(locale: str | None) -> Iterator[Catalog]:
    """Render every Message in this block in the language of a Discord locale."""
    with using(catalog(locale)) as active:
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
        words = catalog(language)
        where = context.location
        if where is app_commands.TranslationContextLocation.group_name:
            return None  # /nika, /numica, /pikemen are names in every language
        if where is app_commands.TranslationContextLocation.command_name:
            translated = words.gettext(string.message, "command")
        elif where is app_commands.TranslationContextLocation.parameter_name:
            translated = words.gettext(string.message, "option")
        else:
            translated = words.gettext(string.message)
        return translated if translated != string.message else None


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
