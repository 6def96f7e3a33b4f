"""Tournaments run by the host, on both backends: each format from sign-up to its winners, with
games decided through the service (resignations and agreed draws, so the tests stay quick);
a withdrawal; a drawn knockout game replayed with sides swapped; pods of four (free-for-all and
teams drawn fresh); a restart between rounds; and a round paired exactly once by two processes."""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator

import pytest

from bot.clock import ManualClock
from bot.errors import NotAllowed, ServiceError
from bot.service import MatchService
from bot.storage import events as store
from bot.storage.events import EventRow, TableRow
from tests.bot.conftest import GUILD
from tests.bot.test_postgres_storage import READY, together

CHANNEL = 500
PLAYERS = [101, 102, 103, 104, 105, 106]
_threads = itertools.count(10_000)


def thread_maker() -> object:
    async def make(event: EventRow, table: TableRow) -> int:
        return next(_threads)

    return make


@pytest.fixture
async def hosted(db_path: str) -> AsyncIterator[MatchService]:
    service = await MatchService.open(db_path)
    service.events.thread_maker = thread_maker()  # type: ignore[assignment]
    yield service
    await service.close()


async def tables(service: MatchService, event_id: int) -> list[TableRow]:
    async with service.storage.reading() as db:
        return await store.tables_of(db, event_id)


async def event_row(service: MatchService, event_id: int) -> EventRow:
    async with service.storage.reading() as db:
        row = await store.event_by_id(db, event_id)
    assert row is not None
    return row


async def open_event(service: MatchService, game: str, format: str, entrants: list[int], **options: object) -> int:
    reply = await service.tournament_new(GUILD, CHANNEL, entrants[0], game=game, format=format, **options)
    assert "#" in reply.text
    row = (await service.events.find(GUILD, game, None))
    for user in entrants[1:]:
        await service.tournament_join(GUILD, game, user)
    return row.id


async def decide(service: MatchService, table: TableRow, winner: int | None) -> None:
    """End a table's match: side `winner` wins (the others resign), or a draw by agreement."""
    assert table.match_id is not None
    row, state = await service.book.load_match(table.match_id)
    if winner is None:
        first = table.sides[0][0]
        await service.draw(row.channel_id, first, "offer")
        for side in table.sides[1:]:
            await service.draw(row.channel_id, side[0], "accept")
        return
    for index, side in enumerate(table.sides):
        if index == winner:
            continue
        for user in side:
            row, state = await service.book.load_match(table.match_id)
            if row.status != "active":
                return
            if state.seats_of(user) and any(s in state.seats_in_play() for s in state.seats_of(user)):
                await service.resign(row.channel_id, user, confirmed=True)


async def play_round(service: MatchService, event_id: int) -> int:
    """Decide every open game of the event: the side holding the smallest id wins."""
    open_tables = [t for t in await tables(service, event_id) if t.ranks is None]
    assert all(t.match_id is not None for t in open_tables)
    for table in open_tables:
        winner = min(range(len(table.sides)), key=lambda i: min(table.sides[i]))
        await decide(service, table, winner)
    return len(open_tables)


async def run_to_end(service: MatchService, event_id: int, limit: int = 20) -> EventRow:
    for _ in range(limit):
        row = await event_row(service, event_id)
        if row.status != "running":
            return row
        assert await play_round(service, event_id) > 0
    raise AssertionError("the event did not finish")


async def test_round_robin_from_sign_up_to_winner(hosted: MatchService) -> None:
    event_id = await open_event(hosted, "numica", "round-robin", PLAYERS[:4])
    with pytest.raises(NotAllowed):
        await hosted.tournament_join(GUILD, "numica", PLAYERS[1])  # twice
    with pytest.raises(NotAllowed):
        await hosted.tournament_start(GUILD, "numica", PLAYERS[1])  # not the creator
    await hosted.tournament_start(GUILD, "numica", PLAYERS[0])
    first = await tables(hosted, event_id)
    assert len(first) == 2 and all(t.match_id is not None and t.round == 1 for t in first)
    with pytest.raises(NotAllowed):
        await hosted.tournament_join(GUILD, "numica", PLAYERS[5])  # sign-up closed
    row = await run_to_end(hosted, event_id)
    assert row.status == "finished" and row.winners == (PLAYERS[0],)
    played = await tables(hosted, event_id)
    assert len(played) == 6  # everyone met everyone once
    pairs = {frozenset(e for s in t.sides for e in s) for t in played}
    assert len(pairs) == 6
    text = await hosted.tournament_standings(GUILD, "numica", as_text=True)
    assert text.text.splitlines()[1].startswith("1. ")
    picture = await hosted.tournament_standings(GUILD, "numica", names={PLAYERS[0]: "Ana"})
    assert picture.image is not None and picture.image.data.startswith(b"\x89PNG")
    assert "Ana" in picture.image.description
    final = [n for n in await _notices(hosted) if "is over" in n]
    assert len(final) == 1 and f"<@{PLAYERS[0]}>" in final[0] and final[0].count("/channels/") == 6


async def _notices(service: MatchService) -> list[str]:
    async with service.storage.reading() as db:
        rows = await db.fetchall("SELECT notice FROM outbox ORDER BY id")
    import json

    return [json.loads(r[0])["reply"]["text"] for r in rows]


async def test_swiss_odd_count_with_a_withdrawal(hosted: MatchService) -> None:
    event_id = await open_event(hosted, "numica", "swiss", PLAYERS[:5], rounds=3)
    await hosted.tournament_start(GUILD, "numica", PLAYERS[0])
    async with hosted.storage.reading() as db:
        assert len(await store.byes_of(db, event_id)) == 1
    # Round 1 played; then the last entrant withdraws while round 2 is running.
    await play_round(hosted, event_id)
    leaving = PLAYERS[4]
    running = [t for t in await tables(hosted, event_id) if t.ranks is None and any(leaving in s for s in t.sides)]
    await hosted.tournament_leave(GUILD, "numica", leaving)
    if running:  # their running game was resigned: a played loss
        (after,) = [t for t in await tables(hosted, event_id) if (t.round, t.board) == (running[0].round,
                                                                                        running[0].board)]
        assert after.ranks is not None and after.ranks[after.sides.index((leaving,))] == 2
    row = await run_to_end(hosted, event_id)
    assert row.status == "finished"
    every = await tables(hosted, event_id)
    assert {t.round for t in every} == {1, 2, 3}
    later = [t for t in every if t.round == 3]
    assert all(leaving not in t.sides[0] + t.sides[1] for t in later)
    async with hosted.storage.reading() as db:
        byes = await store.byes_of(db, event_id)
    assert len({user for _, user, _ in byes}) == len(byes)  # never twice the same player
    standing = (await hosted.tournament_standings(GUILD, "numica", as_text=True)).text
    assert "withdrawn" in standing


async def test_knockout_replays_a_drawn_game_with_sides_swapped(hosted: MatchService) -> None:
    event_id = await open_event(hosted, "numica", "knockout", PLAYERS[:4])
    await hosted.tournament_start(GUILD, "numica", PLAYERS[0])
    first = await tables(hosted, event_id)
    assert len(first) == 2
    await decide(hosted, first[0], None)  # drawn
    replay = [t for t in await tables(hosted, event_id) if t.game == 2]
    assert len(replay) == 1 and replay[0].sides == tuple(reversed(first[0].sides)) and replay[0].match_id
    row = await run_to_end(hosted, event_id)
    assert row.status == "finished" and row.winners == (PLAYERS[0],)
    assert max(t.round for t in await tables(hosted, event_id)) == 2


async def test_pikemen_four_player_pods(hosted: MatchService) -> None:
    players = PLAYERS[:4]
    event_id = await open_event(hosted, "pikemen", "pods", players, players=4, rounds=2)
    await hosted.tournament_start(GUILD, "pikemen", PLAYERS[0])
    (table,) = await tables(hosted, event_id)
    assert len(table.sides) == 4 and table.match_id is not None
    _, state = await hosted.book.load_match(table.match_id)
    assert state.players == frozenset(players)
    row = await run_to_end(hosted, event_id)
    assert row.status == "finished" and row.winners == (PLAYERS[0],)
    assert {t.round for t in await tables(hosted, event_id)} == {1, 2}


async def test_nika_team_pods_draw_partners_afresh(hosted: MatchService) -> None:
    players = PLAYERS[:4]
    event_id = await open_event(hosted, "nika", "pods", players, players=4, rounds=2)
    await hosted.tournament_start(GUILD, "nika", PLAYERS[0])
    (first,) = await tables(hosted, event_id)
    assert [len(s) for s in first.sides] == [2, 2]
    assert first.match_id is not None
    _, state = await hosted.book.load_match(first.match_id)
    assert all(len(state.seats_of(p)) == 1 for p in players)  # one city each
    row = await run_to_end(hosted, event_id)
    assert row.status == "finished"
    second = next(t for t in await tables(hosted, event_id) if t.round == 2)
    teams = {frozenset(s) for s in first.sides}
    assert not teams & {frozenset(s) for s in second.sides}  # new partners


async def test_refusals_change_nothing(hosted: MatchService) -> None:
    with pytest.raises(ServiceError):
        await hosted.tournament_new(GUILD, CHANNEL, PLAYERS[0], game="numica", format="ladder")
    with pytest.raises(ServiceError):
        await hosted.tournament_new(GUILD, CHANNEL, PLAYERS[0], game="numica", format="pods")
    with pytest.raises(ServiceError):
        await hosted.tournament_new(GUILD, CHANNEL, PLAYERS[0], game="numica", format="knockout", double=True)
    assert "no event" in (await hosted.tournament_list(GUILD, "numica")).text
    event_id = await open_event(hosted, "numica", "swiss", PLAYERS[:1])
    with pytest.raises(NotAllowed):
        await hosted.tournament_start(GUILD, "numica", PLAYERS[0])  # one entrant
    await hosted.tournament_cancel(GUILD, "numica", PLAYERS[0])
    assert (await event_row(hosted, event_id)).status == "cancelled"


async def test_sign_up_deadline_starts_or_cancels(db_path: str) -> None:
    clock = ManualClock(1_000_000.0)
    service = await MatchService.open(db_path, clock=clock)
    service.events.thread_maker = thread_maker()  # type: ignore[assignment]
    try:
        full = await open_event(service, "numica", "swiss", PLAYERS[:3], signup_hours=2)
        lonely_reply = await service.tournament_new(GUILD, CHANNEL, PLAYERS[5], game="pikemen", format="pods",
                                                    signup_hours=1)  # fmt: skip
        assert lonely_reply.text
        assert await service.events.next_deadline() == 1_000_000.0 + 3600
        await clock.advance(2 * 3600 + 1)
        assert await service.events.fire_deadlines() == 2
        assert await service.events.fire_deadlines() == 0  # once
        assert (await event_row(service, full)).status == "running"
        assert len(await tables(service, full)) == 1
        rows = await service.tournament_list(GUILD, "pikemen")
        assert "cancelled" in rows.text
    finally:
        await service.close()


async def test_restart_between_rounds(db_path: str) -> None:
    service = await MatchService.open(db_path)
    service.events.thread_maker = thread_maker()  # type: ignore[assignment]
    event_id = await open_event(service, "numica", "round-robin", PLAYERS[:4])
    await service.tournament_start(GUILD, "numica", PLAYERS[0])
    service.book.after_finish = None  # the process dies right after the round's last result is stored
    await play_round(service, event_id)
    await service.close()
    assert all(t.round == 1 for t in await _tables_at(db_path, event_id))
    again = await MatchService.open(db_path)
    again.events.thread_maker = thread_maker()  # type: ignore[assignment]
    try:
        await again.events.resume()
        second = [t for t in await tables(again, event_id) if t.round == 2]
        assert len(second) == 2 and all(t.match_id is not None for t in second)
        row = await run_to_end(again, event_id)
        assert row.status == "finished"
    finally:
        await again.close()


async def _tables_at(db_path: str, event_id: int) -> list[TableRow]:
    service = await MatchService.open(db_path)
    try:
        return await tables(service, event_id)
    finally:
        await service.close()


async def test_knockout_seeds_by_rating_when_the_event_starts(hosted: MatchService) -> None:
    # The last to sign up won a rated match before: seeded first, they meet the lowest seed.
    channel = 900
    top, beaten = PLAYERS[3], PLAYERS[5]
    await hosted.new_match(GUILD, channel, top, "red", game="numica")
    await hosted.join(channel, beaten, "blue")
    await hosted.start(channel, top)
    row, _ = await hosted.book.load(channel)
    async with hosted.storage.transaction() as db:  # a played rated result, as the rating gate keeps it
        from bot.storage import matches as queries
        from bot.storage import ratings as rating_rows

        await queries.update_match(db, row.id, status="finished", result="red", rated=True)
        await rating_rows.rate_match(db, row.id)  # as a finishing transaction rates it
    event_id = await open_event(hosted, "numica", "knockout", PLAYERS[:4])
    await hosted.tournament_start(GUILD, "numica", PLAYERS[0])
    loaded = await hosted.events.load(event_id)
    seeded = [e.id for e in loaded.state.event.seeded]
    assert seeded == [top, *PLAYERS[:3]]  # then the unrated, in sign-up order
    first = await tables(hosted, event_id)
    assert any({side[0] for side in t.sides} == {top, seeded[-1]} for t in first)  # 1 v 4


async def test_a_timeout_forfeits_the_game_and_the_event_goes_on(db_path: str) -> None:
    clock = ManualClock(1_000_000.0)
    service = await MatchService.open(db_path, clock=clock)
    service.events.thread_maker = thread_maker()  # type: ignore[assignment]
    try:
        event_id = await open_event(service, "pikemen", "round-robin", PLAYERS[:2], deadline_days=1)
        await service.tournament_start(GUILD, "pikemen", PLAYERS[0])
        (table,) = await tables(service, event_id)
        assert table.match_id is not None
        row, _ = await service.book.load_match(table.match_id)
        assert row.deadline_days == 1  # the event's clock
        await clock.advance(3 * 86_400)
        for _ in range(20):  # every due timer, as the dispatcher fires them
            timer = await service.next_timer()
            if timer is None or timer.due > clock.now():
                break
            await service.fire_timer(timer)
        (decided,) = await tables(service, event_id)
        assert decided.ranks is not None and sorted(decided.ranks) == [1, 2]
        assert (await event_row(service, event_id)).status == "finished"
    finally:
        await service.close()


async def test_an_event_in_the_console(db_path: str, tmp_path: object) -> None:
    """`/tournament …` works in the local console too; having no threads, the console plays an
    event's games in its channel, each player's commands reaching their own game there."""
    from pathlib import Path

    from bot.console import Console

    service = await MatchService.open(db_path)
    lines: list[str] = []
    console = Console(service, Path(str(tmp_path)) / "boards", out=lines.append)
    try:
        for line in ["/tournament new game:numica format:round-robin title:Club night", "as @bob",
                     "/tournament join game:numica", "as @carol", "/tournament join game:numica", "as @dave",
                     "/tournament join game:numica", "/tournament start game:numica", "as @alice",
                     "/tournament start game:numica", "/tournament standings game:numica text:yes",
                     "/tournament frobnicate game:numica"]:  # fmt: skip
            assert await console.handle(line)
        text = "\n".join(lines)
        assert "opened the event **Club night**" in text and "@bob joined **Club night**" in text
        assert "✗ only the event's creator" in text and "**Club night** begins with 4 entrants" in text
        here = console.channel
        assert f"round 1, board 1 of event #1: played in channel {here}" in text and "1=. alice" in text
        assert f"round 1, board 2 of event #1: played in channel {here}" in text
        assert "✗ there is no /tournament frobnicate" in text
        async with service.storage.reading() as db:
            tables = await store.tables_of(db, 1)
        assert len(tables) == 2 and all(t.match_id is not None for t in tables)
        for table in tables:  # each player's board is their own game's
            player = next(name for name, uid in console.ids.items() if uid == table.sides[0][0])
            del lines[:]
            assert await console.handle(f"as @{player}") and await console.handle("/numica board")
            assert f"Round 1 · board {table.board}" in "\n".join(lines), lines
        del lines[:]
        assert await console.handle("as @eve") and await console.handle("/numica board")
        assert "✗ several matches" in "\n".join(lines).lower()
        del lines[:]
        assert await console.handle(f"/tournament board game:numica match:{tables[1].match_id}")
        assert f"Round 1 · board {tables[1].board}" in "\n".join(lines)
    finally:
        await service.close()


FINISH_AT_ONCE = f"""
import asyncio, os, sys
from bot.errors import ServiceError
from bot.service import MatchService
async def main():
    service = await MatchService.open(sys.argv[1])
    games = [(int(sys.argv[i]), int(sys.argv[i + 1])) for i in range(2, len(sys.argv), 2)]
    if os.getpid() % 2:
        games.reverse()
    {READY}
    for channel, loser in games:  # each process ends both last games, in its own order
        try:
            await service.resign(channel, loser, confirmed=True)
        except ServiceError:
            pass  # the other process ended it first
    await service.close()
    print("done")
asyncio.run(main())
"""


async def test_two_processes_finishing_the_last_games_pair_the_next_round_once(db_path: str) -> None:
    service = await MatchService.open(db_path)
    service.events.thread_maker = thread_maker()  # type: ignore[assignment]
    event_id = await open_event(service, "numica", "swiss", PLAYERS[:4], rounds=3)
    await service.tournament_start(GUILD, "numica", PLAYERS[0])
    args = []
    for table in await tables(service, event_id):
        assert table.match_id is not None
        row, _ = await service.book.load_match(table.match_id)
        args += [str(row.channel_id), str(table.sides[1][0])]
    await service.close()
    assert await together(FINISH_AT_ONCE, db_path, *args) == ["done\n", "done\n"]
    every = await _tables_at(db_path, event_id)
    assert all(t.ranks is not None for t in every if t.round == 1)
    assert sorted((t.round, t.board) for t in every) == [(1, 1), (1, 2), (2, 1), (2, 2)]


async def test_members_joining_at_once_all_get_in_up_to_the_maximum(hosted: MatchService) -> None:
    import asyncio

    await hosted.tournament_new(GUILD, CHANNEL, PLAYERS[0], game="numica", format="swiss", max_entrants=5)
    joins = [hosted.tournament_join(GUILD, "numica", user) for user in range(200, 206)]
    results = await asyncio.gather(*joins, return_exceptions=True)
    refused = [r for r in results if isinstance(r, NotAllowed)]
    assert len(refused) == 2 and all("full" in str(r) for r in refused)
    row = await hosted.events.find(GUILD, "numica", None)
    assert len((await hosted.events.load(row.id)).state.event.entrants) == 5


async def test_withdrawing_in_the_last_game_of_a_round_is_not_paired_again(hosted: MatchService) -> None:
    event_id = await open_event(hosted, "numica", "swiss", PLAYERS[:4], rounds=3)
    await hosted.tournament_start(GUILD, "numica", PLAYERS[0])
    first, last = await tables(hosted, event_id)
    await decide(hosted, first, 0)
    leaving = last.sides[1][0]
    await hosted.tournament_leave(GUILD, "numica", leaving)  # resigns the round's last game
    (after,) = [t for t in await tables(hosted, event_id) if t.board == last.board and t.round == 1]
    assert after.ranks == (1, 2)
    second = [t for t in await tables(hosted, event_id) if t.round == 2]
    assert len(second) == 1 and leaving not in second[0].sides[0] + second[0].sides[1]
    async with hosted.storage.reading() as db:
        byes = [(number, user) for number, user, _ in await store.byes_of(db, event_id)]
    assert len(byes) == 1 and byes[0][0] == 2 and byes[0][1] != leaving  # three left: one sits out
