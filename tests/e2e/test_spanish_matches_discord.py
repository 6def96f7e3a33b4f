"""Whole matches in Spanish on "Discord": the bot runs in process against the Discord double and
every interaction carries `locale: es-ES`.

- A two-player Nika match from `/nika new` to a win: each action's post is the engine's event
  description as the Spanish catalogue words it, then whose turn it is, and the board's alt
  text is the Spanish one.
- A Numica secret setup, through the setup button and its select, then the reveal.

Every message the players can read is also searched for English: no sentence of the English
catalogue whose Spanish differs may appear in it (notation, which stays English, is exempt
because its entries read the same in both).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from functools import cache
from typing import Any

from bot import texts
from bot.client import BoardGameBot
from bot.service.play import recent_actions
from engine.i18n import using
from engine.nika import GameState, describe_events, parse_action
from render.nika.artist import ARTIST
from render.words import catalog, po_file
from tests.bot import conftest as shared
from tests.bot.discord_harness import TIMEOUT, Answer, Players, answer_of, decode_png, service_of
from tests.discord_double import DiscordDouble, InteractionRecord, StoredMessage, User

double, players, bot = shared.double, shared.players, shared.bot

SPANISH = "es-ES"
# Athens walks f4 → f12 → j12 → j13 (its victory area), two actions a turn; Messene steps j12
# aside first; Sparta and Thebes pass. (The four-player English match plays the same line.)
ATHENS = [
    ("move j4 w", "move i4 w"), ("move h4 w", "move g4 w"), ("move f4 n", "move f5 n"), ("move f6 n", "move f7 n"),
    ("move f8 n", "move f9 n"), ("move f10 n", "move f11 n"), ("move f12 e", "move g12 e"),
    ("move h12 e", "move i12 e"), ("move j12 n",),
]  # fmt: skip


@cache
def english_sentences() -> tuple[str, ...]:
    """Runs of English (a dozen characters or more, between placeholders) of every catalogue
    entry whose Spanish does not contain them too."""
    found = set()
    for message in po_file("es"):
        english = message.id[0] if isinstance(message.id, tuple) else message.id
        spanish = " ".join(message.string) if isinstance(message.string, tuple | list) else message.string
        for run in re.split(r"\{[^}]*\}|[`*\n]", str(english)):
            run = run.strip(" .,:;()—–-")
            if len(run) >= 12 and " " in run and run not in str(spanish):
                found.add(run)
    return tuple(sorted(found))


def assert_spanish(text: str) -> None:
    leaks = [run for run in english_sentences() if run in text]
    assert leaks == [], (leaks, text)


def everything_readable(double: DiscordDouble) -> list[str]:
    """Every message as sent and edited, with its components and its files' alt texts."""
    return [json.dumps([m.payload, *m.history], ensure_ascii=False) for m in double.messages.values() if not m.deleted]


async def send(double: DiscordDouble, user: User, group: str, subcommand: str,
               options: Mapping[str, Any] | None = None) -> Answer:  # fmt: skip
    payload = double.slash_command(user, None, group, subcommand, dict(options or {}), locale=SPANISH)
    return await answer_of(double, await double.send_interaction(payload))


async def press(double: DiscordDouble, user: User, message: StoredMessage, custom_id: str,
                values: list[str] | None = None) -> InteractionRecord:  # fmt: skip
    payload = double.component(user, None, message.id, custom_id, values=values,
                               component_type=3 if values is not None else 2, locale=SPANISH)  # fmt: skip
    return await double.wait_for_interaction_response(await double.send_interaction(payload), timeout=TIMEOUT)


def described(events: list[Any]) -> str:
    """What the engine says the events did, in Spanish."""
    with using(catalog("es")):
        return str(describe_events(events))


async def test_a_whole_nika_match_in_spanish(double: DiscordDouble, bot: BoardGameBot, players: Players) -> None:
    alice, bob = players.alice, players.bob
    opened = await send(double, alice, "nika", "new", {"city": "athens-messene"})
    assert opened.content.startswith(f"<@{alice.id}> abrió una partida de Nika y ocupó Atenas y Messene.")
    joined = await send(double, bob, "nika", "join", {"city": "sparta-thebes"})
    assert joined.content.startswith(f"<@{bob.id}> ocupó Esparta y Tebas.")
    started = await send(double, alice, "nika", "start")
    assert started.content.startswith("¡Empieza la partida! Atenas: ")
    assert started.content.endswith(f"Turno de Atenas (le quedan 2 acciones) — <@{alice.id}>")

    game = GameState.start()
    holder = {"athens": alice, "messene": alice, "sparta": bob, "thebes": bob}
    script = {"athens": [a for turn in ATHENS for a in turn], "messene": ["move j12 s"]}
    last: Answer | None = None
    while game.outcome is None:
        city = game.to_act.name.lower()
        action = script[city].pop(0) if script.get(city) else "pass"
        piece, direction = action.split()[1:] if action != "pass" else ("", "")
        if action == "pass":
            last = await send(double, holder[city], "nika", "pass")
        else:
            last = await send(double, holder[city], "nika", "move", {"piece": piece, "direction": direction})
        game, events = game.apply(parse_action(action))
        headline = texts.sentence(described(events))
        assert not last.ephemeral and last.content.startswith(headline), (last.content, headline)
        [board] = last.files
        assert (board.description or "").startswith("Tablero de Nika")
        state = await service_of(bot).state_of(double.channel.id)
        assert board.description == ARTIST.alt_text(state.game, recent_actions(state), locale="es")
        assert decode_png(board).width == 1200
        if game.outcome is None:
            to_act = holder[game.to_act.name.lower()]
            assert last.content.endswith(f"— <@{to_act.id}>") and "Turno de " in last.content
    assert last is not None
    result = f"\n**Atenas–Messene llegó al área de victoria.** Atenas: <@{alice.id}> · Esparta: <@{bob.id}>"
    assert result in last.content

    history = await send(double, bob, "nika", "history")
    assert history.ephemeral and history.content.startswith("**Historial**")
    for text in everything_readable(double):
        assert_spanish(text)


async def test_a_numica_secret_setup_in_spanish(double: DiscordDouble, bot: BoardGameBot, players: Players) -> None:
    alice, bob = players.alice, players.bob
    await send(double, alice, "numica", "new", {"side": "red", "setup": "choose"})
    await send(double, bob, "numica", "join", {"side": "blue"})
    started = await send(double, alice, "numica", "start")
    [setup_button] = started.message.custom_ids()
    asked = await press(double, alice, started.message, setup_button)
    [picker] = [m for m in double.messages.values() if m.interaction_id == asked.id]
    assert picker.ephemeral and picker.content.startswith("Elige")
    options = picker.components[0]["components"][0]["options"]
    assert [o["label"] for o in options][:2] == ["columna a", "columna b"]
    [select] = picker.custom_ids()
    chose = await press(double, alice, picker, select, ["a", "b", "g", "h"])
    announced = await double.wait_for_message(lambda m: m.interaction_id == chose.id and not m.ephemeral,
                                              timeout=TIMEOUT)  # fmt: skip
    assert announced.content.startswith("Rojo")
    revealed = await send(double, bob, "numica", "setup", {"choice": "ssssoooo"})
    assert revealed.ephemeral
    state = await service_of(bot).state_of(double.channel.id)
    assert state.revealed_setup == {"red": "ssooooss", "blue": "ssssoooo"}
    reveal = await double.wait_for_message(
        lambda m: not m.ephemeral and bool(m.files) and m.content.startswith("Las dos filas"), timeout=TIMEOUT
    )
    assert (reveal.files[0].description or "").startswith("Tablero de Numica")
    for text in everything_readable(double):
        assert_spanish(text)
