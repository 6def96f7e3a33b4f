"""The console's own words: its greeting, its help, and who it acts as at first. Kept apart
from the console's commands (bot/console.py) because the greeting is shown before they load
(bot/console_start.py)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.texts import command as command_name
from bot.texts import option as option_name
from engine.i18n import M, choice_name
from render.words import playing

FIRST_USER = "alice"  # who the console acts as until `as @name`…
FIRST_CHANNEL = 1  # …and where


def prompt(user: str = FIRST_USER, channel: int = FIRST_CHANNEL) -> str:
    """The console's prompt: who acts, and where (`alice@#1> `)."""
    return f"{user}@#{channel}> "


def example(games: Sequence[str]) -> str:
    """How to open a match of the first hosted game, in its own words: `/<game> new <seat>:<choice>`.

    Read from the game's rules alone, without assembling its commands (a tenth of the start-up):
    `new`'s seat option is named by the rules' seat word and offers the seats of the largest
    table first (bot/commands/families/lobby.py; tests/bot/test_console_start.py checks that they agree)."""
    from engine.registry import get_game

    if not games:
        return f"/<game> {command_name('new')}"
    first = games[0]
    rules = get_game(first)
    with playing(first):  # the value as the reader types it: `ciudad:atenas`
        value = str(choice_name(rules.seats(max(rules.player_counts))[0].slug))
    return f"/{first} {command_name('new')} {option_name(rules.seat_word)}:{value}"


def greeting(games: Sequence[str]) -> str:
    return str(M(
        """\
Game console — the bot's commands, played locally. Games: {games}
  {example} open a match (/<game> {help} lists every command)
  as @bob                            act as another player (names are remembered)
  channel 2                          use another channel (one match per channel)
  manage on|off                      act with Manage Channels (a moderator)
  help                               this list · quit (or Ctrl-D) leaves
""",
        games=", ".join("/" + s for s in games), example=example(games).ljust(34), help=command_name("help"),
    ))  # fmt: skip


def console_help(games: Sequence[str]) -> str:
    return str(M("""\
Console commands (besides the games' slash commands, typed as text):
  as @name          act as another player; the first use of a name remembers it
  channel N         switch to channel N (each channel holds one match at a time)
  manage on|off     act as someone with Manage Channels (abort a started match, server settings)
  wait 20h          move the clock on (20h, 3d, 1d12h, 90m), firing every reminder, warning and timeout due
  help              this list;  /<game> {help}  lists a game's commands
  quit              leave (Ctrl-D and Ctrl-C too)
Options are written name:value, e.g. {example}; {record}:<path> reads a file.
Boards are written as PNG files into the boards folder; open them to see the board.""",
        help=command_name("help"), example=example(games), record=option_name("record"),
    ))  # fmt: skip
