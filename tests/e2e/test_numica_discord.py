"""A whole Numica match on "Discord": the bot runs in process against the Discord double,
and two members play it with slash commands, the secret setup select and the Play
button, from `/numica new` to a win.

The match starts from a dealt board with no pieces yet (`from:<tiles> setup`), so both
sides still arrange their rows in secret, and the tiles are laid so that Red's piece on
h1 can win in four moves: h1 and h2 are rooks, e8 to h8 are 1 tiles. Red goes h1-h2,
h2xh8, h8xg8, g8xf8 and takes Blue's three round pieces on h8, g8 and f8.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from bot.client import BoardGameBot
from engine.numica.game import GAME
from tests.bot import conftest as shared
from tests.bot.discord_harness import (
    EPHEMERAL,
    LOADING,
    TIMEOUT,
    Answer,
    Players,
    answer_of,
    decode_png,
    pings_only,
    service_of,
    suggest,
)
from tests.discord_double import DiscordDouble, InteractionRecord, StoredMessage, User

# The Discord double, its members and the running bot, as tests/bot defines them.
double, players, bot = shared.double, shared.players, shared.bot

GROUP = "numica"
TILES = "XXXX1111/KBBBBRRX/111KKKKK/22221111/33222222/43333333/4444444R/5555555R"
RED_FILES = ["a", "b", "g", "h"]  # Red's square pieces, picked in the setup select
RED_ROW = "ssooooss"  # not the help page's example row, so any sight of it is a leak
BLUE_ROW = "ssssoooo"  # Blue's round pieces stand on e8, f8, g8 and h8
BOARD_WIDTH = 772


async def send(double: DiscordDouble, user: User, subcommand: str, options: Mapping[str, Any] | None = None) -> Answer:
    payload = double.slash_command(user, None, GROUP, subcommand, dict(options or {}))
    return await answer_of(double, await double.send_interaction(payload))


async def press(double: DiscordDouble, user: User, message: StoredMessage, custom_id: str,
                values: list[str] | None = None) -> InteractionRecord:  # fmt: skip
    """Click a button, or pick from a select when values are given."""
    assert custom_id in message.custom_ids(), (custom_id, message.custom_ids())
    payload = double.component(user, None, message.id, custom_id, values=values,
                               component_type=3 if values is not None else 2)  # fmt: skip
    return await double.wait_for_interaction_response(await double.send_interaction(payload), timeout=TIMEOUT)


async def public_post(double: DiscordDouble, interaction_id: int) -> StoredMessage:
    """The board an interaction posted for everyone (as its answer, or a followup)."""
    return await double.wait_for_message(
        lambda m: m.interaction_id == interaction_id and not m.ephemeral and bool(m.files), timeout=TIMEOUT
    )


def owner(double: DiscordDouble, message: StoredMessage) -> int | None:
    """Who may read a private message: the member whose interaction it answered."""
    if message.interaction_id is None:
        return None
    payload = double.interactions[message.interaction_id].payload
    return int(payload["member"]["user"]["id"])


def readable_by(double: DiscordDouble, user: User) -> list[StoredMessage]:
    """Every message `user` can see: public posts, and private answers to their own interactions."""
    return [
        m for m in double.messages.values()
        if not m.deleted and not m.payload["flags"] & LOADING and (not m.ephemeral or owner(double, m) == user.id)
    ]  # fmt: skip


def everything_said(message: StoredMessage) -> str:
    """The message as sent and as edited, with its components and the files' alt texts."""
    return json.dumps([message.payload, *message.history])


def pings(double: DiscordDouble, message: StoredMessage) -> dict[str, Any]:
    """Whom the request that posted a followup allowed Discord to notify."""
    assert message.interaction_id is not None
    [request] = [r for r in double.interactions[message.interaction_id].followups
                 if isinstance(r.json, dict) and r.json.get("content") == message.content]  # fmt: skip
    return dict(request.json["allowed_mentions"])


def check_board(message: StoredMessage) -> None:
    [upload] = message.files
    image = decode_png(upload)
    assert abs(image.width - BOARD_WIDTH) <= 50 and image.height > image.width
    assert upload.description and message.payload["attachments"][0]["description"] == upload.description


async def test_two_members_set_up_in_secret_and_play_numica_to_a_win(
    double: DiscordDouble, bot: BoardGameBot, players: Players
) -> None:
    alice, bob = players.alice, players.bob
    service = service_of(bot)

    rules = await send(double, bob, "rules")
    assert rules.ephemeral and rules.content.startswith("**Numica in one minute**")
    check_board(rules.message)
    helped = await send(double, bob, "help")
    assert helped.ephemeral and "/numica move from:c1 to:c4" in helped.content

    # --- the lobby ------------------------------------------------------------------------
    opened = await send(double, alice, "new", {"side": "red", "setup": "choose", "from": f"{TILES} setup"})
    assert not opened.ephemeral and opened.content.startswith(f"<@{alice.id}> opened a Numica match (")
    assert "casual, unrated" in opened.content and "took Red" in opened.content
    joined = await send(double, bob, "join", {"side": "blue"})
    assert joined.content.startswith(f"<@{bob.id}> took Blue.")
    started = await send(double, alice, "start")
    assert not started.ephemeral and "First every side sets up in secret" in started.content
    assert started.message.custom_ids() == ["numica:u:1:0"]  # the setup button, no move panel yet
    pings_only(started, alice, bob)
    check_board(started.message)
    blue_view = await send(double, bob, "board")

    # --- Red arranges its row with the select under the board ------------------------------
    asked = await press(double, alice, started.message, "numica:u:1:0")
    [picker] = [m for m in double.messages.values() if m.interaction_id == asked.id]
    assert picker.ephemeral and picker.content.startswith("Pick the 4 files of your back row")
    assert picker.custom_ids() == ["numica:v:1"]
    chose = await press(double, alice, picker, "numica:v:1", RED_FILES)
    announced = await double.wait_for_message(lambda m: m.interaction_id == chose.id, timeout=TIMEOUT)
    assert double.messages[picker.id].content.endswith(f"({RED_ROW}). You can change it until Blue has chosen.")
    assert not announced.ephemeral
    assert announced.content == f"Red has set up in secret. Waiting for Blue (<@{bob.id}>): /numica setup."
    assert pings(double, announced) == {"parse": [], "users": [bob.id]}  # named and allowed: Blue is pinged
    assert announced.custom_ids() == ["numica:u:1:0"]

    # Blue cannot move yet, and nothing Blue can read tells Red's row, not even a board.
    early = await send(double, bob, "move", {"from": "a8", "to": "a4"})
    assert early.ephemeral and early.message.payload["flags"] & EPHEMERAL
    assert early.content.startswith("The game has not begun")
    again = await send(double, bob, "board")
    assert again.files[0].data == blue_view.files[0].data
    assert again.files[0].description == blue_view.files[0].description
    for message in readable_by(double, bob):
        assert RED_ROW not in everything_said(message), message.content
    assert any(RED_ROW in everything_said(m) for m in readable_by(double, alice))  # she sees her own

    # --- Blue types its row; both are revealed on one board ---------------------------------
    payload = double.slash_command(bob, None, GROUP, "setup", {"choice": BLUE_ROW})
    interaction = await double.send_interaction(payload)
    reveal = await public_post(double, interaction)
    [private] = [m for m in double.messages.values() if m.interaction_id == interaction and m.ephemeral]
    assert private.content.startswith("Your setup for Blue is set: ") and f"({BLUE_ROW})" in private.content
    assert reveal.content.startswith("Both back rows are set (")
    assert reveal.content.endswith(f": Red moves first.\nRed to act — <@{alice.id}>")
    assert pings(double, reveal) == {"parse": [], "users": [alice.id]}
    assert reveal.custom_ids() == ["numica:p:1:1:play", "numica:p:1:1:undo"]
    check_board(reveal)
    assert "h1" in reveal.files[0].description
    state = await service.state_of(double.channel.id)
    assert state.revealed_setup == {"red": RED_ROW, "blue": BLUE_ROW}

    # --- Red's first move through the Play button: piece, then target -------------------------
    asked = await press(double, alice, reveal, "numica:p:1:1:play")
    [picker] = [m for m in double.messages.values() if m.interaction_id == asked.id]
    assert picker.ephemeral and picker.content == "Which piece moves?"
    pieces = [o["value"] for o in picker.components[0]["components"][0]["options"]]
    assert sorted(pieces) == sorted({m.notation()[:2] for m in GAME.legal_actions(state.game)})
    await press(double, alice, picker, "numica:s:1:1", ["h1"])
    picker = double.messages[picker.id]
    assert picker.content == "Move h1 to…"
    played = await press(double, alice, picker, "numica:s:1:1:h1", ["h2"])
    post = await public_post(double, played.id)
    assert post.content == f"Red moved h1 to h2.\nBlue to act — <@{bob.id}>"
    assert pings(double, post) == {"parse": [], "users": [bob.id]}

    # Out of turn: refused privately; the channel hears nothing.
    public = len(double.channel_messages(double.channel))
    refused = await send(double, alice, "move", {"from": "h2", "to": "h8"})
    assert refused.ephemeral and refused.content == f"It is Blue's turn (<@{bob.id}> plays it)."
    assert len(double.channel_messages(double.channel)) == public

    async def blue_moves_aside() -> None:
        """Blue moves a square piece from its X tiles on a8–d8 into the middle, out of Red's way."""
        legal = await service.legal_actions(double.channel.id, bob.id)
        move = next(m.notation() for m in legal if m.notation()[0] in "abcd" and m.notation()[1] == "8"
                    and m.notation()[3] in "abcd" and m.notation()[4] in "3456")  # fmt: skip
        answer = await send(double, bob, "move", {"from": move[:2], "to": move[3:]})
        assert answer.content.startswith(f"Blue moved {move[:2]} to {move[3:]}.")
        pings_only(answer, alice)

    # --- Red hunts along the h file and rank 8 --------------------------------------------------
    await blue_moves_aside()
    assert (await suggest(double, alice, "move", {"from": ""}, "from", group=GROUP))[:1] != []
    assert (await suggest(double, alice, "move", {"from": "h2", "to": ""}, "to", group=GROUP))[0] == "h8"
    assert await suggest(double, bob, "move", {"from": ""}, "from", group=GROUP) == []
    took = await send(double, alice, "move", {"from": "h2", "to": "h8"})  # typed with a dash
    assert took.content.startswith("Red captured Blue's round piece on h8 (h2xh8).")
    await blue_moves_aside()
    took = await send(double, alice, "play", {"action": "h8xg8"})
    assert took.content.startswith("Red captured Blue's round piece on g8 (h8xg8).")
    await blue_moves_aside()
    final = await send(double, alice, "move", {"from": "g8", "to": "f8"})

    # --- the end -------------------------------------------------------------------------------
    assert final.content == (
        "Red captured Blue's round piece on f8 (g8xf8).\n"
        f"**Red wins: 3 round pieces captured.** Red: <@{alice.id}> · Blue: <@{bob.id}>"
    )
    assert not final.ephemeral and final.message.custom_ids() == ["numica:r:1"]  # only Rematch under a result
    assert sorted(final.allowed_mentions["users"]) == sorted([alice.id, bob.id])  # type: ignore[index]
    check_board(final.message)
    assert "Red wins" in final.files[0].description
    late = await send(double, bob, "move", {"from": "a4", "to": "a5"})
    assert late.ephemeral and late.content.startswith("There is no match in this channel")
    actions = [p.action for p in (await service.state_of(double.channel.id)).played]
    assert len(actions) == 7 and actions[::2] == ["h1-h2", "h2xh8", "h8xg8", "g8xf8"]
