"""A whole Swiss event through the Discord double: opened with /tournament new, joined with the
announcement's button and the command, started, each game in its own thread with its players
pinged, the next round posted as soon as the last game ends, and the final post naming the
winner and linking every game. Games are decided through the service (resignations)."""

from __future__ import annotations

from typing import Any

from bot.client import BoardGameBot
from bot.storage import events as store
from tests.bot.discord_harness import Answer, Players, answer_of, decode_png, service_of, slash
from tests.bot.test_across_days import press
from tests.discord_double import DiscordDouble
from tests.discord_double.models import User

GROUP = "tournament"


async def test_a_swiss_event_in_threads(double: DiscordDouble, bot: BoardGameBot, players: Players) -> None:
    p = players
    service = service_of(bot)
    opened = await slash(double, p.alice, "new", {"game": "numica", "format": "swiss", "rounds": 2,
                                                  "title": "Autumn Swiss"}, group=GROUP)  # fmt: skip
    assert not opened.ephemeral and "Autumn Swiss" in opened.content
    (join_id,) = [c for c in opened.message.custom_ids() if c.startswith("tournament:join:")]
    event_id = int(join_id.rsplit(":", 1)[1])
    record = await press(double, p.bob, opened.message, join_id)
    assert record.callback is not None and record.callback.status in (200, 204)
    for user in (p.carol, p.dave):
        joined = await slash(double, user, "join", {"game": "numica"}, group=GROUP)
        assert "joined" in joined.content
    refused = await slash(double, p.bob, "start", {"game": "numica"}, group=GROUP)
    assert refused.ephemeral  # only the creator or a moderator
    await slash(double, p.alice, "start", {"game": "numica"}, group=GROUP)
    members = {p.alice.id, p.bob.id, p.carol.id, p.dave.id}

    for round_number in (1, 2):
        await bot.timers.settled()  # type: ignore[union-attr]
        async with service.storage.reading() as db:
            tables = [t for t in await store.tables_of(db, event_id) if t.round == round_number]
        assert len(tables) == 2
        for table in tables:
            assert table.match_id is not None
            row, _ = await service.book.load_match(table.match_id)
            thread = double.channels[row.channel_id]
            assert thread.parent_id == double.channel.id and f"R{round_number}" in thread.name
            posts = [m for m in double.messages.values() if m.channel_id == thread.id]
            assert posts and all(f"<@{e}>" in posts[0].content for side in table.sides for e in side)
            loser = table.sides[1][0]
            await service.resign(row.channel_id, loser, confirmed=True)

    await bot.timers.settled()  # type: ignore[union-attr]
    async with service.storage.reading() as db:
        row = await store.event_by_id(db, event_id)
    assert row is not None and row.status == "finished" and set(row.winners) <= members
    final = [m for m in double.messages.values() if m.channel_id == double.channel.id and "is over" in m.content]
    assert len(final) == 1 and final[0].content.count("/channels/") == 4
    assert final[0].files and decode_png(final[0].files[0]).width == 720  # the final standings
    rounds = [m for m in double.messages.values() if m.channel_id == double.channel.id and "Round 2" in m.content]
    assert len(rounds) == 1 and rounds[0].files  # the standings after round 1, as round 2 opens
    standings = await slash(double, p.eve, "standings", {"game": "numica"}, group=GROUP)
    assert standings.message.files
    picture = decode_png(standings.message.files[0])
    assert picture.width == 720
    alt = standings.message.payload["attachments"][0].get("description", "")
    # Members' server names, remembered when they joined.
    assert all(n in alt for n in ("alice", "bob", "carol", "dave")), alt


async def test_a_round_robin_through_a_games_own_tournament_group(
    double: DiscordDouble, bot: BoardGameBot, players: Players
) -> None:
    """`/numica tournament new|join|start|list|standings`: the same commands as `/tournament`, the
    game implied; the event is the same event `/tournament … game:numica` sees."""
    p = players
    service = service_of(bot)

    async def numica(user: User, name: str, options: dict[str, Any] | None = None) -> Answer:
        payload = double.slash_command(user, None, "numica", name, options or {}, group=GROUP)
        return await answer_of(double, await double.send_interaction(payload))

    opened = await numica(p.alice, "new", {"format": "round-robin", "title": "Club round robin"})
    assert not opened.ephemeral and "Club round robin" in opened.content
    assert "Join with the button below or /numica tournament join." in opened.content  # the form Numica has
    (join_id,) = [c for c in opened.message.custom_ids() if c.startswith("tournament:join:")]
    event_id = int(join_id.rsplit(":", 1)[1])
    for user in (p.bob, p.carol):
        assert "joined" in (await numica(user, "join")).content
    assert "Club round robin" in (await numica(p.eve, "list")).content
    assert "Club round robin" in (await slash(double, p.eve, "list", {"game": "numica"}, group=GROUP)).content
    assert (await numica(p.bob, "start")).ephemeral  # only the creator or a moderator
    await numica(p.alice, "start")
    await bot.timers.settled()  # type: ignore[union-attr]
    async with service.storage.reading() as db:
        event = await store.event_by_id(db, event_id)
        tables = [t for t in await store.tables_of(db, event_id) if t.round == 1]
    assert event is not None and event.game == "numica" and event.status == "running"
    played = [t for t in tables if t.match_id is not None]
    assert len(played) == 1  # three entrants: one game and a bye
    row, _ = await service.book.load_match(played[0].match_id)  # type: ignore[arg-type]
    assert double.channels[row.channel_id].parent_id == double.channel.id
    standings = await numica(p.eve, "standings", {"text": "yes"})
    assert all(name in standings.content for name in ("alice", "bob", "carol"))
