"""Play across days through the Discord double: the action panel, reminders, deadlines,
replays and records, with the bot's clock moved by hand."""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image

from bot.client import BoardGameBot
from bot.clock import ManualClock
from bot.service import MatchService
from engine.record import GameRecord
from tests.bot.discord_harness import (
    TIMEOUT,
    Players,
    decode_png,
    running,
    seat_four,
    service_of,
    slash,
)
from tests.discord_double import DiscordDouble, InteractionRecord, StoredMessage, UploadedFile, User

HOUR = 3600.0
PANEL = ("move", "rotate", "advance", "rally", "pass", "undo")


async def press(
    double: DiscordDouble, user: User, message: StoredMessage, custom_id: str, values: list[str] | None = None
) -> InteractionRecord:
    """Click a button (or pick from a select, when values are given) on a message."""
    assert custom_id in message.custom_ids(), (custom_id, message.custom_ids())
    payload = double.component(
        user, None, message.id, custom_id, values=values, component_type=3 if values is not None else 2
    )
    return await double.wait_for_interaction_response(await double.send_interaction(payload), timeout=TIMEOUT)


def created(double: DiscordDouble, record: InteractionRecord) -> list[StoredMessage]:
    return [m for m in double.messages.values() if m.interaction_id == record.id and not m.deleted]


async def answered(double: DiscordDouble, record: InteractionRecord) -> StoredMessage:
    """What a deferred button press finally posted (publicly, or privately to the presser)."""
    return await double.wait_for_message(lambda m: m.interaction_id == record.id, timeout=TIMEOUT)


def select_values(message: StoredMessage) -> list[str]:
    [row] = message.components
    [select] = row["components"]
    return [option["value"] for option in select["options"]]


async def public_post(double: DiscordDouble, record: InteractionRecord) -> StoredMessage:
    """The board a component interaction posted for everyone (a response or a followup)."""
    message = await double.wait_for_message(
        lambda m: m.interaction_id == record.id and not m.ephemeral and bool(m.files), timeout=TIMEOUT
    )
    decode_png(message.files[0])
    return message


def panel_ids(match_id: int, board: int) -> list[str]:
    return [f"nika:p:{match_id}:{board}:{kind}" for kind in PANEL]


async def test_the_panel_walks_a_player_from_button_to_applied_action(
    double: DiscordDouble, bot: BoardGameBot, players: Players
) -> None:
    p = players
    await seat_four(double, bot, p)
    board = (await slash(double, p.carol, "board")).message
    assert board.custom_ids() == panel_ids(1, 0)

    # Move → which piece (only pieces that can move) → which way (only legal ways) → played.
    asked = await press(double, p.alice, board, "nika:p:1:0:move")
    [picker] = created(double, asked)
    assert picker.ephemeral and picker.content == "Which piece moves?"
    assert sorted(select_values(picker)) == ["j4", "j5", "j6", "k4", "k5", "l4"]
    way = await press(double, p.alice, picker, "nika:s:1:0:move", ["j4"])
    assert way.response_type == 7  # the private picker is updated in place
    picker = double.messages[picker.id]
    assert picker.content == "Move j4 which way?" and select_values(picker) == ["s", "w"]
    played = await press(double, p.alice, picker, "nika:s:1:0:move:j4", ["w"])
    assert played.response_type == 6  # acknowledged at once; the work follows
    post = await public_post(double, played)
    assert double.messages[picker.id].content == "Played: `move j4 w`"
    assert post.content.startswith("Athens moved j4 to i4.")
    assert post.custom_ids() == panel_ids(1, 1)
    # Athens still has an action: only Alice is pinged.
    assert played.followups[0].json["allowed_mentions"] == {"parse": [], "users": [p.alice.id]}

    # Pass is one press; Advance offers ready-made formations.
    passed = await press(double, p.alice, post, "nika:p:1:1:pass")
    post = await public_post(double, passed)
    assert "Athens passed" in post.content and post.custom_ids() == panel_ids(1, 2)
    asked = await press(double, p.bob, post, "nika:p:1:2:advance")
    [picker] = created(double, asked)
    assert "d8,e8" in select_values(picker)
    advanced = await press(double, p.bob, picker, "nika:s:1:2:advance", ["d8,e8"])
    post = await public_post(double, advanced)
    assert post.content.startswith("Sparta advanced d8,e8")
    state = await service_of(bot).state_of(double.channel.id)
    assert [x.action for x in state.played] == ["move j4 w", "pass", "advance d8,e8"]


async def test_foreign_and_outdated_presses_are_refused_privately(
    double: DiscordDouble, bot: BoardGameBot, players: Players
) -> None:
    p = players
    await seat_four(double, bot, p)
    old = (await slash(double, p.carol, "board")).message
    foreign = await press(double, p.bob, old, "nika:p:1:0:pass")
    refusal = await answered(double, foreign)
    assert refusal.ephemeral
    assert refusal.content == f"It is not your turn: Athens is played by <@{p.alice.id}>."
    outsider = await press(double, p.eve, old, "nika:p:1:0:move")
    assert (await answered(double, outsider)).content == "You are not playing in this match."

    moved = await slash(double, p.alice, "move", {"piece": "j4", "direction": "w"})
    await bot.in_flight.drain(TIMEOUT)  # the bot has finished with the move: its board is the latest
    stale = await press(double, p.alice, old, "nika:p:1:0:pass")
    refusal = await answered(double, stale)
    assert refusal.ephemeral and refusal.content.startswith("This board is out of date")
    assert refusal.content.endswith(f"/channels/{double.guild.id}/{double.channel.id}/{moved.message.id}")
    state = await service_of(bot).state_of(double.channel.id)
    assert [x.action for x in state.played] == ["move j4 w"]


async def test_buttons_keep_working_after_a_restart(double: DiscordDouble, players: Players, tmp_path: Path) -> None:
    database = str(tmp_path / "nika.db")
    async with running(double, database) as bot:
        await seat_four(double, bot, players)
        board = (await slash(double, players.alice, "board")).message
    async with running(double, database) as bot:
        passed = await press(double, players.alice, board, "nika:p:1:0:pass")
        assert "Athens passed" in (await public_post(double, passed)).content


async def test_draw_offers_give_the_other_players_answer_buttons(
    double: DiscordDouble, bot: BoardGameBot, players: Players
) -> None:
    p = players
    await seat_four(double, bot, p)
    offer = (await slash(double, p.alice, "draw", {"choice": "offer"})).message
    accept = "nika:a:1:1:draw_accept"  # match 1, asked by log entry 1
    assert offer.custom_ids() == [accept, "nika:a:1:1:draw_decline"]
    for user in (p.bob, p.carol):
        await answered(double, await press(double, user, offer, accept))
    refused = await answered(double, await press(double, p.eve, offer, accept))
    assert refused.ephemeral and refused.content == "You are not playing in this match."
    last = await answered(double, await press(double, p.dave, offer, accept))
    assert "Draw by agreement" in last.content and not last.ephemeral


async def test_an_old_question_s_buttons_cannot_answer_a_newer_one(
    double: DiscordDouble, bot: BoardGameBot, players: Players
) -> None:
    p = players
    await seat_four(double, bot, p)
    first = (await slash(double, p.alice, "declare", {"team": "athens-messene"})).message
    assert first.custom_ids() == ["nika:a:1:1:concede", "nika:a:1:1:challenge"]
    await answered(double, await press(double, p.bob, first, "nika:a:1:1:challenge"))
    second = (await slash(double, p.carol, "declare", {"team": "athens-messene"})).message
    assert second.custom_ids()[0] == "nika:a:1:3:concede"
    stale = await answered(double, await press(double, p.dave, first, "nika:a:1:1:concede"))
    assert stale.ephemeral and "settled already" in stale.content
    state = await service_of(bot).state_of(double.channel.id)
    assert state.declaration is not None and state.declaration.conceded == frozenset()


async def test_reminders_and_deadlines_are_posted_by_the_timer_task(
    double: DiscordDouble, players: Players, tmp_path: Path
) -> None:
    p, clock = players, ManualClock()
    async with running(double, str(tmp_path / "nika.db"), clock=clock) as bot:
        assert bot.timers is not None
        await slash(double, p.alice, "new", {"city": "athens-messene", "deadline": "2"})
        await slash(double, p.bob, "join", {"city": "sparta-thebes"})
        await slash(double, p.alice, "start")
        said = await slash(double, p.alice, "settings", {"dm": "on"})
        assert said.ephemeral and "direct message" in said.content

        before = len(double.channel_messages(double.channel))
        await clock.advance(25 * HOUR)
        await bot.timers.settled()
        [reminder] = double.channel_messages(double.channel)[before:]
        assert reminder.source == "channel"
        assert reminder.content.startswith(f"⏰ <@{p.alice.id}>, Athens is waiting for you")
        [dm] = await_dm(double, p.alice)
        assert "Athens is waiting for you" in dm.content and str(double.channel.id) in dm.content

        await clock.advance(24 * HOUR)
        await bot.timers.settled()
        expired = double.channel_messages(double.channel)[-1]
        assert "Athens' turn ran out (the 2-day deadline)" in expired.content
        assert expired.content.rstrip().endswith(f"<@{p.bob.id}>")
        decode_png(expired.files[0])
        # One entry records the expired turn, so the board version moves on by one.
        assert expired.custom_ids() == panel_ids(1, 1)
        mine = await slash(double, p.bob, "mygames")
        assert mine.ephemeral and f"/channels/{double.guild.id}/{double.channel.id}/{expired.id}" in mine.content


def await_dm(double: DiscordDouble, user: User) -> list[StoredMessage]:
    return double.channel_messages(double.dm_channel(user))


async def test_replay_and_export_round_trip(double: DiscordDouble, bot: BoardGameBot, players: Players) -> None:
    p = players
    await seat_four(double, bot, p)
    for user, options in [
        (p.alice, {"piece": "j4", "direction": "w"}),
        (p.alice, {"piece": "k5", "direction": "n"}),
        (p.bob, {"piece": "d7", "direction": "s"}),
    ]:
        await slash(double, user, "move", options)
    replay = await slash(double, p.carol, "replay")
    gif = Image.open(io.BytesIO(replay.files[0].data))
    assert gif.format == "GIF" and gif.n_frames == 4
    exported = await slash(double, p.carol, "replay", {"format": "record"})
    record = exported.files[0]
    assert record.filename.endswith(".json")
    final = (await service_of(bot).state_of(double.channel.id)).game.notation()
    assert GameRecord.from_json(record.data.decode()).final_state().notation() == final

    second = double.channel_named("second")
    upload = UploadedFile(field="record", filename=record.filename, data=record.data)
    opened = await slash(double, p.dave, "new", {"city": "athens", "record": upload}, channel=second)
    assert "casual, unrated" in opened.content
    service: MatchService = service_of(bot)
    assert (await service.state_of(second.id)).game.notation() == final
