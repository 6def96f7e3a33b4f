"""The /nika command tree as Discord receives it (`to_dict`), checked against Discord's
published limits for application commands and against the command surface players use.

The bot is built but never connected: the tree is complete once the cog is added.
"""

from __future__ import annotations

import unicodedata
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.client import BoardGameBot
from bot.cogs.game import GameCog
from bot.command_translator import CommandTranslator
from bot.config import Settings
from bot.service import MatchService
from engine.registry import games
from tests.discord_double.limits import COMMAND_CHARACTERS_MAX, command_characters

SUB_COMMAND, SUB_COMMAND_GROUP, STRING, INTEGER, BOOLEAN = 1, 2, 3, 4, 5

# Discord's limits (https://discord.com/developers/docs/interactions/application-commands).
NAME_MAX = 32
DESCRIPTION_MAX = 100
MAX_SUBCOMMANDS = 25
MAX_OPTIONS = 25
MAX_CHOICES = 25
CHOICE_MAX = 100

SEATS = ["athens", "sparta", "messene", "thebes", "athens-messene", "sparta-thebes"]
# Subcommand -> its options in order: (name, required, choices or None, autocomplete).
DEADLINES = ["none", "1", "2", "3", "7"]
INTEGER_RANGES = {"history.page": (1, 1000), "settings.reminder_hours": (1, 168), "replay.last": (1, 10000),
                  "new.bank": (1, 30), "settings.vacation": (0, 30), "settings.vacation_allowance": (0, 365),
                  "settings.hour": (0, 23)}  # fmt: skip
USER, ATTACHMENT = 6, 11
SURFACE: dict[str, list[tuple[str, bool, list[str] | None, bool]]] = {
    "new": [
        ("city", True, SEATS, False),
        ("deadline", False, DEADLINES, False),
        ("bank", False, None, False),
        ("from", False, None, False),
        ("record", False, None, False),
        ("thread", False, None, False),
    ],
    "join": [("city", False, SEATS, False), ("computer", False, ["easy", "normal", "hard"], False)],
    "leave": [],
    "start": [],
    "abort": [("match", False, None, True)],  # which of an event's games sharing the channel
    "move": [("piece", True, None, True), ("direction", True, None, True)],
    "rotate": [("pieces", True, None, True), ("facing", True, None, True)],
    "advance": [("pieces", True, None, True)],
    "rally": [("square", True, None, True), ("facing", True, ["n", "e", "s", "w"], False)],
    "pass": [],
    "undo": [],
    # Issue 20: a forecast is /nika play forecast:… (so action is optional), and a rematch is
    # /nika start after a match has ended: Nika's 25 subcommands are Discord's limit.
    "play": [("action", False, None, True), ("forecast", False, None, False)],
    "board": [],
    # The brief lists /nika history bare; the cog gives it an optional page, which is harmless.
    "history": [("page", False, None, False)],
    "rules": [],
    "help": [("topic", False, ["game", "days"], False)],
    "resign": [],
    "draw": [("choice", True, ["offer", "accept", "decline"], False)],
    "declare": [("team", True, ["athens-messene", "sparta-thebes"], False)],
    "concede": [],
    "challenge": [],
    # Issue 6. Discord allows 25 subcommands, and the 21 above are fixed: export is
    # /nika replay format:record, notify is /nika settings dm:on, and the leaderboard is
    # /nika stats without a user.
    "settings": [
        ("reminder_hours", False, None, False),
        ("deadline", False, DEADLINES, False),
        ("scope", False, ["match", "server"], False),
        ("dm", False, ["on", "off"], False),
        ("vacation", False, None, False),
        ("vacation_allowance", False, None, False),
        ("pause", False, ["offer", "accept", "decline", "resume"], False),
        ("digest", False, ["on", "off"], False),
        ("hour", False, None, False),
    ],
    "replay": [("last", False, None, False), ("format", False, ["animation", "record"], False)],
    "stats": [("user", False, None, False)],
    "mygames": [],
}


@pytest.fixture
async def tree(tmp_path: Path) -> AsyncIterator[list[dict[str, Any]]]:
    database = str(tmp_path / "nika.db")
    bot = BoardGameBot(Settings(token="never-used", database=database))
    service = await MatchService.open(database)
    try:
        for game in games():
            await bot.add_cog(GameCog(bot, service, game.slug))
        await bot.tree.set_translator(CommandTranslator())
        yield await bot.command_payload(None)
    finally:
        await service.close()


def valid_name(name: str) -> bool:
    """^[-_\\p{L}\\p{N}]{1,32}$ (Python's re has no \\p{..}), and lowercase where it has case."""
    letters_digits = all(c in "-_" or unicodedata.category(c)[0] in "LN" for c in name)
    return 1 <= len(name) <= NAME_MAX and letters_digits and name == name.lower()


def nodes(command: dict[str, Any], path: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    """The command, its subcommands and their options, each with a readable path."""
    where = f"{path}/{command['name']}" if path else command["name"]
    yield where, command
    for option in command.get("options") or []:
        yield from nodes(option, where)


def subcommands(tree: list[dict[str, Any]], group: str = "nika") -> dict[str, dict[str, Any]]:
    [found] = [command for command in tree if command["name"] == group]
    return {option["name"]: option for option in found["options"] if option["type"] == SUB_COMMAND}


def test_one_guild_only_command_group_per_game(tree: list[dict[str, Any]]) -> None:
    assert [command["name"] for command in tree] == [game.slug for game in games()]
    assert "nika" in [command["name"] for command in tree]
    for group in tree:
        assert group["type"] == 1
        # Matches are per channel of a server: the commands must not be offered in DMs.
        assert group["contexts"] == [0]
        assert group["dm_permission"] is False
        # Subcommands, and where a game's group has room, one group of them: `tournament`.
        kinds = [option["type"] for option in group["options"]]
        assert kinds.count(SUB_COMMAND_GROUP) == (group["name"] != "nika") and set(kinds) <= {SUB_COMMAND,
                                                                                          SUB_COMMAND_GROUP}


def test_names_and_descriptions_within_limits(tree: list[dict[str, Any]]) -> None:
    checked = 0
    for where, node in (item for command in tree for item in nodes(command)):
        assert valid_name(node["name"]), f"{where}: invalid name {node['name']!r}"
        assert 1 <= len(node["description"]) <= DESCRIPTION_MAX, f"{where}: description length"
        # "…" is what discord.py sends when a parameter was never described: players see it.
        assert node["description"] != "…", f"{where}: no description"
        checked += 1
    # The walk reached every group, subcommand and option (three levels under a subcommand group).
    def count(node: dict[str, Any]) -> int:
        return 1 + sum(count(option) for option in node.get("options") or [])

    assert checked == sum(count(group) for group in tree)
    nika = subcommands(tree)
    assert 1 + len(nika) + sum(len(o.get("options") or []) for o in nika.values()) == (
        1 + len(SURFACE) + sum(len(options) for options in SURFACE.values())
    )


def test_counts_order_and_choices_within_limits(tree: list[dict[str, Any]]) -> None:
    for command in tree:
        assert len(command.get("options") or []) <= MAX_SUBCOMMANDS
        for where, node in nodes(command):
            options = node.get("options") or []
            assert len(options) <= MAX_OPTIONS, f"{where}: too many options"
            leaves = [o for o in options if o["type"] not in (SUB_COMMAND, SUB_COMMAND_GROUP)]
            required = [bool(o.get("required")) for o in leaves]
            assert required == sorted(required, reverse=True), f"{where}: a required option follows an optional one"
            choices = node.get("choices") or []
            assert len(choices) <= MAX_CHOICES, f"{where}: too many choices"
            for choice in choices:
                assert 1 <= len(choice["name"]) <= CHOICE_MAX, f"{where}: choice name {choice['name']!r}"
                assert 1 <= len(str(choice["value"])) <= CHOICE_MAX, f"{where}: choice value {choice['value']!r}"
            # Discord rejects an option that both lists choices and asks for autocomplete.
            assert not (choices and node.get("autocomplete")), f"{where}: choices and autocomplete"


def test_total_characters_per_command_within_limit(tree: list[dict[str, Any]]) -> None:
    """Discord's 8000 characters a command, each field at its longest localisation (limits.py)."""
    for command in tree:
        assert command_characters(command) <= COMMAND_CHARACTERS_MAX, command["name"]


def test_command_surface(tree: list[dict[str, Any]]) -> None:
    found = subcommands(tree)
    assert list(found) == list(SURFACE)
    for name, expected in SURFACE.items():
        options = found[name].get("options") or []
        got = [
            (
                o["name"],
                bool(o.get("required")),
                [c["value"] for c in o["choices"]] if o.get("choices") else None,
                bool(o.get("autocomplete")),
            )
            for o in options
        ]
        assert got == expected, name


def test_autocomplete_exactly_where_players_pick_from_the_board_or_name_a_match(tree: list[dict[str, Any]]) -> None:
    autocompleted = {
        f"{name}.{option['name']}"
        for name, sub in subcommands(tree).items()
        for option in sub.get("options") or []
        if option.get("autocomplete")
    }
    assert autocompleted == {
        "move.piece",
        "move.direction",
        "rotate.pieces",
        "rotate.facing",
        "advance.pieces",
        "rally.square",
        "play.action",
        "abort.match",  # the channel's open matches, where an event's games share it
    }


def test_option_types(tree: list[dict[str, Any]]) -> None:
    found = subcommands(tree)
    for name, sub in found.items():
        for option in sub.get("options") or []:
            where = f"{name}.{option['name']}"
            if where in INTEGER_RANGES:
                assert option["type"] == INTEGER
                assert (option["min_value"], option["max_value"]) == INTEGER_RANGES[where]
            elif where == "new.record":
                assert option["type"] == ATTACHMENT
            elif where == "new.thread":
                assert option["type"] == BOOLEAN
            elif where == "stats.user":
                assert option["type"] == USER
            else:
                assert option["type"] == STRING, where


def test_limit_checks_catch_bad_payloads() -> None:
    """The checks above would fail on what Discord refuses."""
    assert not valid_name("Move")
    assert not valid_name("move piece")
    assert not valid_name("x" * 33)
    assert not valid_name("")
    assert valid_name("athens-messene") and valid_name("pass_2") and valid_name("ход")
    # The size rule counts each field once, at its longest localisation, the default included:
    # a long Spanish description counts, and two locales do not count twice.
    node = {"name": "n", "name_localizations": {"es-ES": "nnn"}, "description": "dd",
            "description_localizations": {"es-ES": "e" * 90, "es-419": "f" * 80},
            "choices": [{"name": "c", "name_localizations": {"es-ES": "cccc"}, "value": "vv"}]}
    assert command_characters(node) == 3 + 90 + 4 + 2
    big = {"name": "n", "description": "d", "options": [
        {"name": f"s{i}", "description": "d", "options": [
            {"name": f"o{j}", "description": "d", "description_localizations": {"es-ES": "e" * 100}}
            for j in range(25)]} for i in range(4)]}
    assert command_characters(big) > COMMAND_CHARACTERS_MAX


LOCALES = ("es-ES", "es-419")


def test_every_localisation_is_within_discords_rules(tree: list[dict[str, Any]]) -> None:
    """Spanish names follow the name rule, descriptions and choice names their limits, and every
    subcommand and option is localised (the size rule, longest localisation per field, is
    test_total_characters_per_command_within_limit's)."""
    for command in tree:
        for where, node in nodes(command):
            names = node.get("name_localizations") or {}
            descriptions = node.get("description_localizations") or {}
            assert set(names) <= set(LOCALES) and set(descriptions) <= set(LOCALES), where
            if where != command["name"] and command["name"] in ("nika", "numica", "pikemen"):
                assert set(names) == set(LOCALES), f"{where}: no Spanish name"
            for locale in LOCALES:
                name = names.get(locale, node["name"])
                description = descriptions.get(locale, node.get("description") or "")
                assert valid_name(name), f"{where}: invalid {locale} name {name!r}"
                assert 1 <= len(description) <= DESCRIPTION_MAX, f"{where}: {locale} description length"
                for choice in node.get("choices") or []:
                    label = (choice.get("name_localizations") or {}).get(locale, choice["name"])
                    assert 1 <= len(label) <= CHOICE_MAX, f"{where}: {locale} choice {label!r}"
        for locale in LOCALES:  # a group's subcommands, and a subcommand's options, differ in Spanish too
            for where, node in nodes(command):
                options = node.get("options") or []
                children = [(o.get("name_localizations") or {}).get(locale, o["name"]) for o in options]
                assert len(children) == len(set(children)), f"{where}: {locale} names collide: {sorted(children)}"


# Issue 20's correspondence subcommands, where a group has room for all five (bot/commands/group.py).
CORRESPONDENCE: dict[str, list[tuple[str, bool, list[str] | None, bool]]] = {
    "rematch": [],
    "forecast": [("lines", False, None, False)],
    "vacation": [("days", False, None, False)],
    "pause": [("choice", True, ["offer", "accept", "decline"], False)],
    "resume": [],
}
OWN_COUNTS = {"nika": 25, "numica": 19, "pikemen": 19, "tictactoe": 18}  # before the five


def shape(sub: dict[str, Any]) -> list[tuple[str, bool, list[str] | None, bool]]:
    return [(o["name"], bool(o.get("required")), [c["value"] for c in o["choices"]] if o.get("choices") else None,
             bool(o.get("autocomplete"))) for o in sub.get("options") or []]  # fmt: skip


def test_each_game_has_correspondence_subcommands_where_they_fit(tree: list[dict[str, Any]]) -> None:
    """Numica, Pikemen and tic-tac-toe get the five after their own commands, and one way each:
    no `settings vacation:`/`pause:` nor `play forecast:`. Nika, full at 25, keeps them folded."""
    assert set(OWN_COUNTS) == {command["name"] for command in tree}
    for command in tree:
        game = command["name"]
        found = subcommands(tree, game)
        settings = [o["name"] for o in found["settings"].get("options") or []]
        play = shape(found["play"])
        assert "vacation_allowance" in settings  # a server setting, in every game
        if game == "nika":
            assert len(found) == 25 and not set(CORRESPONDENCE) & set(found)
            assert {"vacation", "pause"} <= set(settings) and [o[0] for o in play] == ["action", "forecast"]
            continue
        assert list(found)[-5:] == list(CORRESPONDENCE) and len(found) == OWN_COUNTS[game] + 5 <= MAX_SUBCOMMANDS
        for name, expected in CORRESPONDENCE.items():
            assert shape(found[name]) == expected, (game, name)
        [days] = found["vacation"]["options"]
        assert (days["type"], days["min_value"], days["max_value"]) == (INTEGER, 0, 30)
        assert not {"vacation", "pause"} & set(settings)
        assert play == [("action", True, None, True)]
        es = {o["name"]: (o.get("name_localizations") or {}).get("es-ES") for o in command["options"]}
        assert [es[name] for name in CORRESPONDENCE] == ["revancha", "condicional", "vacaciones", "pausa", "reanudar"]


def test_a_game_with_room_has_its_own_tournament_group(tree: list[dict[str, Any]]) -> None:
    """`/<game> tournament …` (issue 21's names): a subcommand group with `/tournament`'s commands
    less `game:`, built from the same specs; Nika's group is full (`/tournament game:nika` serves it)."""
    from bot.commands.tournament import tournament_commands

    for command in tree:
        game = command["name"]
        groups = [o for o in command["options"] if o["type"] == SUB_COMMAND_GROUP]
        if game == "nika":
            assert groups == []
            continue
        [events] = groups
        assert events["name"] == "tournament" and events["name_localizations"]["es-ES"] == "torneo"
        assert len(command["options"]) <= MAX_SUBCOMMANDS
        top = tournament_commands((game,))
        assert [o["name"] for o in events["options"]] == list(top)
        for sub in events["options"]:
            assert sub["type"] == SUB_COMMAND
            expected = [o.name for o in top[sub["name"]].options if o.name != "game"]
            assert [o["name"] for o in sub.get("options") or []] == expected, (game, sub["name"])
