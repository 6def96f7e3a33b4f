"""An event in a channel where the bot may not open threads, through the Discord double: its
games are played in the event's channel itself, two of a round open there at once. Each player's
`/pikemen board` and `/pikemen play` reach their own game; every post names its game; a resignation
confirmed by button ends the right game; an onlooker's command without `match:` gets a private
list of the games and changes nothing; `/tournament board match:` shows the one named."""

from __future__ import annotations

from bot.client import BoardGameBot
from bot.service import MatchService
from bot.storage import events as store
from bot.storage.events import TableRow
from tests.bot.discord_harness import Players, service_of, slash, suggest
from tests.bot.test_across_days import press
from tests.discord_double import DiscordDouble
from tests.discord_double.models import Perm

GROUP = "tournament"
GAME = "pikemen"


async def round_tables(service: MatchService, event_id: int, number: int) -> list[TableRow]:
    async with service.storage.reading() as db:
        return [t for t in await store.tables_of(db, event_id) if t.round == number]


async def versions(service: MatchService, tables: list[TableRow]) -> dict[int, int]:
    out = {}
    for table in tables:
        assert table.match_id is not None
        row, _ = await service.book.load_match(table.match_id)
        out[row.id] = row.version
    return out


async def test_an_event_without_threads_plays_its_games_in_its_channel(
    double: DiscordDouble, bot: BoardGameBot, players: Players
) -> None:
    p = players
    service = service_of(bot)
    channel = double.channel
    deny = {"id": str(double.bot_user.id), "type": 1, "allow": "0", "deny": str(Perm.CREATE_PUBLIC_THREADS)}
    channel.permission_overwrites.append(deny)  # no threads here for the bot
    await double.dispatch_channel_event("CHANNEL_UPDATE", channel)

    opened = await slash(double, p.alice, "new", {"game": GAME, "format": "swiss", "rounds": 2,
                                                  "title": "Shared Swiss"}, group=GROUP)  # fmt: skip
    assert not opened.ephemeral and "Shared Swiss" in opened.content  # no longer refused
    (join_id,) = [c for c in opened.message.custom_ids() if c.startswith("tournament:join:")]
    event_id = int(join_id.rsplit(":", 1)[1])
    for user in (p.bob, p.carol, p.dave):
        await slash(double, user, "join", {"game": GAME}, group=GROUP)
    await slash(double, p.alice, "start", {"game": GAME}, group=GROUP)
    members = {p.alice.id, p.bob.id, p.carol.id, p.dave.id}
    user_of = {u.id: u for u in (p.alice, p.bob, p.carol, p.dave)}

    for number in (1, 2):
        await bot.timers.settled()  # type: ignore[union-attr]
        tables = await round_tables(service, event_id, number)
        assert len(tables) == 2
        rows = [(await service.book.load_match(t.match_id or 0))[0] for t in tables]
        assert all(r.channel_id == channel.id and r.status == "active" for r in rows)  # two open here at once
        assert not [c for c in double.channels.values() if c.is_thread]
        for table in tables:  # each first board names its game
            first = [m for m in double.messages.values() if m.channel_id == channel.id
                     and f"Round {number} · board {table.board}" in m.content and m.files]  # fmt: skip
            assert first, f"no named first board for round {number} board {table.board}"

        # An onlooker without match: a private list of the games; nothing changes.
        before = await versions(service, tables)
        for command in ("board", "resign") if number == 1 else ("resign",):
            answer = await slash(double, p.eve, command, {}, group=GAME)
            assert answer.ephemeral and "several matches" in answer.content.lower()
            assert all(f"#{r.id}" in answer.content for r in rows) and "/channels/" in answer.content
        assert await versions(service, tables) == before
        # …and names one through /tournament board, whose match: suggests the open ones.
        suggested = await suggest(double, p.eve, "board", {"game": GAME, "match": ""}, "match", group=GROUP)
        assert sorted(suggested) == sorted(str(r.id) for r in rows)
        named = await slash(double, p.eve, "board", {"game": GAME, "match": str(rows[1].id)}, group=GROUP)
        assert not named.ephemeral and f"board {tables[1].board}" in named.content and named.message.files

        for table, row in zip(tables, rows, strict=True):
            # Each player's board is their own game's, named.
            for side in table.sides if number == 1 else ():
                seen = await slash(double, user_of[side[0]], "board", {}, group=GAME)
                assert f"Round {number} · board {table.board}" in seen.content, seen.content
            # The player to act plays a legal move: it lands in their match only.
            _, state = await service.book.load_match(row.id)
            mover = state.acting_user()
            assert mover is not None
            action = state.rules.legal_actions(state.game)[0].notation()
            before = await versions(service, tables)
            played = await slash(double, user_of[mover], "play", {"action": action}, group=GAME)
            assert not played.ephemeral, played.content
            after = await versions(service, tables)
            assert after[row.id] > before[row.id]
            assert all(after[other] == before[other] for other in after if other != row.id)

        for table, row in zip(tables, rows, strict=True):  # the second side resigns, confirmed by button
            loser = user_of[table.sides[1][0]]
            asked = await slash(double, loser, "resign", {}, group=GAME)
            assert asked.ephemeral
            (confirm,) = [c for c in asked.message.custom_ids() if ":c:" in c or "confirm" in c]
            record = await press(double, loser, asked.message, confirm)
            followups = await double.wait_for_followups(record.id, 1, timeout=10)  # deferred, then the result
            said = str((followups[0].json or {}).get("content"))
            assert f"Round {number} · board {table.board}" in said, said
            finished, _ = await service.book.load_match(row.id)
            assert finished.status == "finished"
            if number == 1 and table is tables[0]:  # while the other game goes on: their own, ended one
                seen = await slash(double, loser, "board", {}, group=GAME)
                assert f"Round 1 · board {table.board}" in seen.content, seen.content

    await bot.timers.settled()  # type: ignore[union-attr]
    async with service.storage.reading() as db:
        event = await store.event_by_id(db, event_id)
    assert event is not None and event.status == "finished" and set(event.winners) <= members
    final = [m for m in double.messages.values()
             if m.channel_id == channel.id and "**Shared Swiss** is over" in m.content]  # fmt: skip
    assert len(final) == 1 and final[0].content.count("/channels/") == 4
