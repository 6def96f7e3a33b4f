"""Discord's size rule for an application command, as its docs state it today (Application
Commands, "Slash commands can have a maximum of 8000 characters for combined name, description,
and value properties for each command, its options (including subcommands and groups), and
choices. When localization fields are present, only the longest localization for each field
(including the default value) is counted towards the size limit.")

One implementation for the double (which refuses a larger registration with 50035, as Discord
does) and for the tests that check the bot's own tree against the rule."""

from __future__ import annotations

from typing import Any

COMMAND_CHARACTERS_MAX = 8000


def _longest(node: dict[str, Any], field: str) -> int:
    """A field's length as Discord counts it: the longest of the default and its localisations."""
    localised = node.get(f"{field}_localizations") or {}
    return max([len(str(node.get(field) or ""))] + [len(str(text)) for text in localised.values()])


def command_characters(node: dict[str, Any]) -> int:
    """Names, descriptions and choices' names and values of a command and everything under it,
    each field counted once at its longest localisation."""
    total = _longest(node, "name") + _longest(node, "description")
    for choice in node.get("choices") or []:
        total += _longest(choice, "name") + len(str(choice.get("value", "")))
    return total + sum(command_characters(option) for option in node.get("options") or [])
