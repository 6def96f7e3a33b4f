"""The bot speaks each player's language: Discord tells it every user's locale.

- replies follow the invoking user's `interaction.locale` (`speaking`, set around every
  command and button press, so every Message rendered meanwhile is in that language);
- posts no interaction triggers (reminders, deadlines, computer moves) use the locale last
  seen from the player they address, else the server's, else English (`LocaleMemory`);
- slash commands carry their names and descriptions in every language the bot speaks
  (`bot/command_translator.py`, set on the command tree).

Nothing here imports discord.py: the console and the service load without it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from engine.i18n import Catalog, using
from render.words import catalog, playing

# Names Discord accepts for commands and options: lower case, letters, digits, - and _.
NAME_MAX = 32


@contextlib.contextmanager
def speaking(locale: str | None, game: str | None = None) -> Iterator[Catalog]:
    """Render every Message in this block in the language of a Discord locale, with `game`'s
    own words first (the game of the command, button or notice)."""
    with using(catalog(locale)) as active, playing(game):
        yield active


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
