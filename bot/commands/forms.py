"""How a player types correspondence play in a game's group, for every text that names it:
`/<game> pause choice:offer` where the group has the subcommand, `/<game> settings pause:offer`
where it is folded (bot/commands/families/correspondence.py). The service words its replies
through `typed`, so a message never names a command the reader's group does not have."""

from __future__ import annotations

from engine.i18n import Message, Term, Text, choice_name

# verb -> (command, option, fixed value) in a group with room, then in a folded group.
OWN: dict[str, tuple[str, str | None, Text | None]] = {
    "rematch": ("rematch", None, None), "forecast": ("forecast", "lines", None), "vacation": ("vacation", "days", None),
    "pause": ("pause", "choice", None), "resume": ("resume", None, None),
}  # fmt: skip
FOLDED: dict[str, tuple[str, str | None, Text | None]] = {
    "rematch": ("start", None, None), "forecast": ("play", "forecast", None),
    "vacation": ("settings", "vacation", None), "pause": ("settings", "pause", None),
    "resume": ("settings", "pause", choice_name("resume")),
}  # fmt: skip


def typed(game: str, verb: str, value: Text | None = None) -> Message:
    """`/<game> <command> <option>:<value>` for `verb`, in the names the reader's client shows."""
    from bot.commands.group import folded  # the group is assembled from families that word their help here

    command, option, fixed = (FOLDED if folded(game) else OWN)[verb]
    value = fixed if fixed is not None else value
    params: dict[str, object] = {"game": game, "command": Term(command, "command")}
    if option is None or value is None:
        return Message("/{game} {command}", params)
    return Message("/{game} {command} {option}:{value}", {**params, "option": Term(option, "option"), "value": value})


def event_command(game: str, name: str) -> Message:
    """An event command as this game has it: `/<game> tournament join` where its group holds the
    tournament group, `/tournament join game:<game>` where it does not (bot/commands/group.py)."""
    from bot.commands.group import tournament_for
    from bot.commands.tournament import GROUP

    # A top-level group is named alike in every language (bot/command_translator.py), one within a game's is not.
    params: dict[str, object] = {"game": game, "tournament": Term(GROUP, "command"), "name": Term(name, "command")}
    if tournament_for(game):
        return Message("/{game} {tournament} {name}", params)
    return Message("/{tournament} {name} {option}:{game}", {**params, "tournament": GROUP,
                                                              "option": Term("game", "option")})  # fmt: skip
