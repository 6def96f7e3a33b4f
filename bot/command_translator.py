"""Slash commands in every language the bot speaks: their names and descriptions from the same
catalogues as the replies (discord.py's translator, set on the command tree)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from engine.i18n import Catalog
from render.words import catalog, language_of, playing


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
            nested = isinstance(context.data, app_commands.Group) and context.data.parent is not None
            return self._translate(string, catalog(language), context.location, nested)

    @staticmethod
    def _translate(
        string: app_commands.locale_str, words: Catalog, where: app_commands.TranslationContextLocation,
        nested: bool = False,
    ) -> str | None:  # fmt: skip
        named = where is app_commands.TranslationContextLocation.group_name
        if named and not nested:
            return None  # a game's group is its slug in every language (a group within it is not)
        if where is app_commands.TranslationContextLocation.command_name or named:
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
