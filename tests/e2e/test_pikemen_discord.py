"""A three-player Pikemen match on "Discord": the bot runs in process against the API double,
and alice (red), bob (yellow) and carol (blue) play it with slash commands and the Play
panel, from a position near the end, through bob's resignation, to red's win.

Each post is checked for who it pings, the scores, and its board picture."""

from __future__ import annotations

from typing import Any

from bot.client import BoardGameBot
from tests.bot import conftest as discord_fixtures
from tests.bot.discord_harness import TIMEOUT, Answer, Players, decode_png, service_of, slash, suggest
from tests.discord_double import DiscordDouble, InteractionRecord, StoredMessage, User

GAME = "pikemen"
# Red has 10 points. Red's a8 points south; c6 points south-east at Blue's flat large on f3,
# worth the 3 points Red needs. Blue's a1 points north up the a-file.
START = "R10:a8Ls,c6Mse Y0:g5Lu,h5Lu,g4Mu,h4Mu B0:a1Mn,b1Lu,f3Lnw R/12/0"
BOARD_WIDTH = 752  # the Pikemen picture (board and score cards)

# The Discord double, its members and the bot are tests/bot's fixtures; pytest finds them here by name.
double, players, bot = discord_fixtures.double, discord_fixtures.players, discord_fixtures.bot


async def send(double: DiscordDouble, user: User, command: str, options: dict[str, Any] | None = None) -> Answer:
    return await slash(double, user, command, options, group=GAME)


async def press(double: DiscordDouble, user: User, message: StoredMessage, custom_id: str,
                values: list[str] | None = None) -> InteractionRecord:  # fmt: skip
    """Click a button (or pick from a select, when values are given) on a message."""
    assert custom_id in message.custom_ids(), (custom_id, message.custom_ids())
    payload = double.component(user, None, message.id, custom_id, values=values,
                               component_type=3 if values is not None else 2)  # fmt: skip
    return await double.wait_for_interaction_response(await double.send_interaction(payload), timeout=TIMEOUT)


async def public_post(double: DiscordDouble, record: InteractionRecord) -> StoredMessage:
    """The board a button press posted for everyone."""
    return await double.wait_for_message(
        lambda m: m.interaction_id == record.id and not m.ephemeral and bool(m.files), timeout=TIMEOUT
    )


def options_of(message: StoredMessage) -> list[tuple[str, str]]:
    """A private picker's select: (label, value) for each choice."""
    [row] = message.components
    [select] = row["components"]
    return [(option["label"], option["value"]) for option in select["options"]]


def pings(message: StoredMessage, payload: dict[str, Any] | None = None) -> list[int]:
    mentions = (payload if payload is not None else message.payload).get("allowed_mentions") or {}
    assert mentions.get("parse") == []
    return sorted(int(user) for user in mentions.get("users", []))


def check_board(message: StoredMessage) -> None:
    [upload] = message.files
    image = decode_png(upload)
    assert abs(image.width - BOARD_WIDTH) <= 50 and image.height > image.width
    assert upload.description  # the alt text


async def test_three_players_play_to_a_win_through_a_resignation(
    double: DiscordDouble, bot: BoardGameBot, players: Players
) -> None:
    alice, bob, carol = players.alice, players.bob, players.carol

    helped = await send(double, carol, "help")
    assert helped.ephemeral and "tallest player starts" in helped.content

    # The lobby: a casual match from a position, seats by colour.
    opened = await send(double, alice, "new", {"seat": "red", "players": 3, "from": START})
    assert not opened.ephemeral and "opened a Pikemen match (for 3 players; casual, unrated" in opened.content
    assert opened.allowed_mentions == {"parse": [], "users": []}
    await send(double, bob, "join", {"seat": "yellow"})
    joined = await send(double, carol, "join", {"seat": "blue"})
    assert f"Red: <@{alice.id}>\nYellow: <@{bob.id}>\nBlue: <@{carol.id}>" in joined.content
    started = await send(double, alice, "start")
    assert "Scores: Red 10 · Yellow 0 · Blue 0" in started.content
    assert started.allowed_mentions == {"parse": [], "users": [alice.id]}
    check_board(started.message)

    # Out of turn: private, and nothing changes.
    refused = await send(double, bob, "turn", {"piece": "g4", "facing": "w"})
    assert refused.ephemeral and refused.content == f"It is Red's turn (<@{alice.id}> plays it)."

    # Autocomplete: the pieces that can charge, where c6 can go, then how a piece may end up.
    assert await suggest(double, alice, "charge", {"piece": ""}, "piece", group=GAME) == ["c6", "a8"]
    assert await suggest(double, alice, "charge", {"piece": "c6", "to": ""}, "to", group=GAME) == ["d5", "e4", "f3"]
    facings = await suggest(double, alice, "charge", {"piece": "a8", "to": "a6", "facing": ""}, "facing", group=GAME)
    assert facings[0] == "keep" and "u" in facings and "s" not in facings

    # Red: a charge that stands the piece upright at the end. Only Yellow is pinged.
    charged = await send(double, alice, "charge", {"piece": "a8", "to": "a6", "facing": "u"})
    assert charged.content.startswith("Red charged a8 to a6 and stood it upright.")
    assert "Scores: Red 10 · Yellow 0 · Blue 0" in charged.content
    assert charged.allowed_mentions == {"parse": [], "users": [bob.id]}
    check_board(charged.message)

    # Yellow resigns: asked to confirm privately, confirms with the button, and leaves the game.
    asked = await send(double, bob, "resign")
    assert asked.ephemeral and asked.content.startswith("Resigning takes you out of the game.")
    [confirm] = asked.message.custom_ids()
    assert confirm.startswith(f"{GAME}:c:1:") and confirm.endswith(":resign")
    record = await press(double, bob, asked.message, confirm)
    resigned = await public_post(double, record)
    assert resigned.content.startswith(f"Yellow resigned and left the game, 4 pieces removed. (<@{bob.id}>)")
    assert "Scores: Red 10 · Yellow 0 (out) · Blue 0" in resigned.content
    assert resigned.content.endswith(f"Blue to act — <@{carol.id}>")
    assert pings(resigned, record.followups[0].json) == [carol.id]
    check_board(resigned)
    state = await service_of(bot).state_of(double.channel.id)
    assert " Y0!:- " in state.game.notation()  # Yellow's pieces left with him

    # Blue plays from the panel: Play → a1 → a3 → east.
    [play, undo] = resigned.custom_ids()
    assert play.endswith(":play") and undo.endswith(":undo")
    board = play.split(":")[3]
    asked_piece = await press(double, carol, resigned, play)
    [picker] = [m for m in double.messages.values() if m.interaction_id == asked_piece.id]
    assert picker.ephemeral and picker.content == "Which of your pieces? You can charge it or turn it."
    assert [value for _, value in options_of(picker)] == ["a1", "b1", "f3"]
    await press(double, carol, picker, f"{GAME}:s:1:{board}", ["a1"])
    picker = double.messages[picker.id]
    assert picker.content == "Charge a1 to which square — or turn it in place?"
    targets = options_of(picker)
    assert ("turn in place", "turn") in targets and [v for _, v in targets if v != "turn"] == ["a2", "a3", "a4", "a5"]
    await press(double, carol, picker, f"{GAME}:s:1:{board}:a1", ["a3"])
    picker = double.messages[picker.id]
    assert picker.content == "a1 charges to a3. Which way does it point then?"
    assert options_of(picker)[0] == ("keep pointing that way", "keep") and ("→ east", "e") in options_of(picker)
    played = await press(double, carol, picker, f"{GAME}:s:1:{board}:a1:a3", ["e"])
    post = await public_post(double, played)
    assert double.messages[picker.id].content == "Played: `a1-a3 e`"
    assert post.content.startswith("Blue charged a1 to a3 and turned it to point east.")
    assert "Scores: Red 10 · Yellow 0 (out) · Blue 0" in post.content
    assert pings(post, played.followups[0].json) == [alice.id]  # Yellow is out: Red is next
    check_board(post)

    # Red captures Blue's large pikeman, worth 3: 13 points, past the target of 12.
    final = await send(double, alice, "charge", {"piece": "c6", "to": "f3"})
    assert final.content.startswith("Red charged c6 to f3, capturing Blue's large pikeman (+3, now 13)")
    assert "**Red reaches 13 points and wins.**" in final.content
    assert final.content.endswith("Scores: Red 13 · Yellow 0 (out) · Blue 0")
    assert sorted(final.allowed_mentions["users"]) == sorted(u.id for u in (alice, bob, carol))
    assert [i for i in final.message.custom_ids() if ":r:" not in i] == []  # no panel under a result: Rematch only
    check_board(final.message)
    state = await service_of(bot).state_of(double.channel.id)
    assert [p.action for p in state.played] == ["a8-a6 u", None, "a1-a3 e", "c6xf3"]
    assert state.game.outcome.winners == {"red"}

    late = await send(double, carol, "turn", {"piece": "a3", "facing": "n"})
    assert late.ephemeral and late.content.startswith("There is no match in this channel")
