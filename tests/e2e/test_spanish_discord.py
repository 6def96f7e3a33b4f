"""A Spanish-speaking member on "Discord": the bot runs in process against the Discord double.
Discord shows them every command, option and choice in Spanish (the synced tree carries the
localisations), and each interaction they send with `locale: es-ES` is answered in Spanish,
the board's words and buttons included, while an English-speaking member in the same match
still reads English."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator, Mapping
from typing import Any

from bot.client import BoardGameBot
from render.words import catalog
from tests.bot import conftest as shared
from tests.bot.discord_harness import Answer, Players, answer_of, decode_png, pings_only
from tests.discord_double import DiscordDouble, StoredMessage, User

double, players, bot = shared.double, shared.players, shared.bot

SPANISH = ("es-ES", "es-419")
SUB_COMMAND = 1
TRANSLATED_GAMES = ("nika", "numica", "pikemen")  # games registered only by the tests are not translated


async def send(double: DiscordDouble, user: User, subcommand: str, options: Mapping[str, Any] | None = None,
               *, locale: str = "es-ES") -> Answer:  # fmt: skip
    payload = double.slash_command(user, None, "pikemen", subcommand, dict(options or {}), locale=locale)
    return await answer_of(double, await double.send_interaction(payload))


def labels(message: StoredMessage) -> list[str]:
    """The labels of the buttons under a message."""
    return [item["label"] for row in message.components for item in row.get("components", []) if "label" in item]


def valid_name(name: str) -> bool:
    """Discord's rule for command and option names: ^[-_\\p{L}\\p{N}]{1,32}$, lower case."""
    letters = all(c in "-_" or unicodedata.category(c)[0] in "LN" for c in name)
    return 1 <= len(name) <= 32 and letters and name == name.lower()


def nodes(group: Mapping[str, Any]) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """Every subcommand and option of a group, with its path."""
    for sub in group.get("options") or []:
        yield f"{group['name']} {sub['name']}", sub
        for option in sub.get("options") or []:
            yield f"{group['name']} {sub['name']} {option['name']}:", option


def test_the_synced_tree_carries_valid_spanish_names_descriptions_and_choices(double: DiscordDouble,
                                                                              bot: BoardGameBot) -> None:  # fmt: skip
    tree = {command["name"]: command for command in double.registered_commands()}
    spanish = catalog("es")
    assert set(TRANSLATED_GAMES) <= set(tree)
    for slug in TRANSLATED_GAMES:
        group = tree[slug]
        # The group keeps the game's name in every language; its description is translated.
        assert set(SPANISH) <= set(group["description_localizations"] or {}), slug
        for locale in SPANISH:
            assert group["description_localizations"][locale] != group["description"]
        for where, node in nodes(group):
            names, descriptions = node.get("name_localizations") or {}, node.get("description_localizations") or {}
            assert set(SPANISH) <= set(names), where
            # Only a description that reads the same in Spanish (notation: `c1-c4 · d2xf4`) is left to the default.
            notation = spanish.gettext(node["description"]) == node["description"]
            assert set(SPANISH) <= set(descriptions) or (notation and not descriptions), where
            for locale in SPANISH:
                assert valid_name(names[locale]), (where, names[locale])
                assert notation or 1 <= len(descriptions[locale]) <= 100, (where, descriptions[locale])
            for choice in node.get("choices") or []:
                for locale, label in (choice.get("name_localizations") or {}).items():
                    assert locale in SPANISH and 1 <= len(label) <= 100, (where, label)
        # No two subcommands of a group, nor two options of a subcommand, share a Spanish name.
        for locale in SPANISH:
            subs = [sub["name_localizations"][locale] for sub in group["options"] if sub["type"] == SUB_COMMAND]
            assert len(subs) == len(set(subs)), (slug, sorted(subs))
            for sub in group["options"]:
                options = [o["name_localizations"][locale] for o in sub.get("options") or []]
                assert len(options) == len(set(options)), (slug, sub["name"], options)
    numica = {sub["name"]: sub for sub in tree["numica"]["options"]}
    assert numica["move"]["name_localizations"]["es-ES"] == "mover"
    assert [o["name_localizations"]["es-419"] for o in numica["move"]["options"]] == ["desde", "hasta"]
    draw = numica["draw"]["options"][0]
    assert (draw["name_localizations"]["es-ES"], [c["name_localizations"]["es-ES"] for c in draw["choices"]]) == (
        "opción",
        ["ofrecer", "aceptar", "rechazar"],
    )
    assert [c["value"] for c in draw["choices"]] == ["offer", "accept", "decline"]  # values stay English


async def test_a_spanish_member_plays_in_spanish_beside_an_english_one(double: DiscordDouble, players: Players,
                                                                       bot: BoardGameBot) -> None:  # fmt: skip
    alice, bob = players.alice, players.bob
    opened = await send(double, alice, "new", {"seat": "red"})
    assert opened.content == (
        f"<@{alice.id}> abrió una partida de Pikemen (para 2 jugadores) y ocupó Rojo. Únete con /pikemen unirse; "
        "después, /pikemen empezar cuando cada color tenga jugador."
    )
    joined = await send(double, bob, "join", {"seat": "blue"}, locale="en-US")
    assert joined.content.startswith(f"<@{bob.id}> took Blue.\n**Pikemen lobby**")

    started = await send(double, alice, "start")
    assert started.content.startswith(f"¡Empieza la partida! Rojo: <@{alice.id}> · Azul: <@{bob.id}>")
    assert started.content.endswith(f"Turno de Rojo — <@{alice.id}>")
    pings_only(started, alice)
    [board] = started.files
    assert decode_png(board).size[0] > 400
    assert (board.description or "").startswith("Tablero de Pikemen, 2 jugadores, gana quien llegue antes a 12 puntos.")
    assert labels(started.message) == ["Jugar", "Deshacer"]

    refused = await send(double, bob, "turn", {"piece": "a1", "facing": "n"})
    assert refused.ephemeral and refused.content == f"Es el turno de Rojo (lo juega <@{alice.id}>)."
    english = await send(double, bob, "turn", {"piece": "a1", "facing": "n"}, locale="en-US")
    assert english.content == f"It is Red's turn (<@{alice.id}> plays it)."

    moved = await send(double, alice, "turn", {"piece": "a8", "facing": "se"})
    assert moved.content.startswith("Rojo giró el piquero de a8 hacia el sureste.")
    assert moved.content.endswith(f"Turno de Azul — <@{bob.id}>")
    assert labels(moved.message) == ["Jugar", "Deshacer"]  # in the language of whoever moved

    asked = await send(double, alice, "resign")
    assert asked.ephemeral and asked.content.startswith("Si te rindes, la partida termina y Rojo pierde.")
    assert labels(asked.message) == ["Sí, rendirme"]
