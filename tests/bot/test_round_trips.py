"""What an action costs in round trips to PostgreSQL (counted on the wire, tests/round_trips.py),
and the queued writes (`Connection.later`) that make it few, on both backends."""

from __future__ import annotations

import random

import pytest

from bot.match import snapshot
from bot.service import MatchService
from bot.storage import matches, open_storage, outbox, timers
from bot.storage.matches import NewMatch
from bot.storage.timers import TimerKind
from tests.bot.conftest import ALICE, BOB, GUILD, seat
from tests.postgres_server import PostgresServer
from tests.round_trips import RoundTripCounter

ACTION_ROUND_TRIPS = 8  # issue 24: an action as a command costs it: which match it means, its commit, its post
NOW = 1_800_000_000.0


async def test_an_action_costs_at_most_eight_round_trips_on_postgresql(
    postgres: PostgresServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(snapshot, "SNAPSHOT_EVERY", 8)  # the actions that also store a snapshot are measured too
    database = postgres.create_database()
    async with RoundTripCounter(database) as counter:
        service = await MatchService.open(counter.url)
        try:
            channel = 5
            await seat(service, channel, {ALICE: "athens-messene", BOB: "sparta-thebes"})
            rng = random.Random(4)
            costs: list[int] = []
            turns_changed = moves_within_turn = 0
            for number in range(24):
                state = await service.state_of(channel)
                acting = state.acting_user()
                assert acting is not None
                action = rng.choice([a for a in state.rules.legal_actions(state.game) if a.notation() != "pass"])
                before = counter.count
                assert await service.address(channel, acting) is None  # every command asks which match it means
                reply = await service.act(channel, acting, action.notation())  # as a slash command does
                await service.posted(reply, 900 + number)  # and the front end's report of its post
                cost = counter.count - before
                after = await service.state_of(channel)
                if number >= 4:  # the first actions also prepare each statement once per connection
                    costs.append(cost)
                    if after.to_act != state.to_act:
                        turns_changed += 1
                    else:
                        moves_within_turn += 1
        finally:
            await service.close()
    assert turns_changed and moves_within_turn, "both kinds of action measured"
    assert counter.opened >= 1
    assert max(costs) <= ACTION_ROUND_TRIPS, costs
    # And it was committed before it was acknowledged: a fresh service (no cache) reads it back.
    service = await MatchService.open(database)
    try:
        assert (await service.state_of(channel)).version == after.version
        async with service.storage.reading() as db:
            assert await db.fetchone("SELECT COUNT(*) FROM snapshots") == (snapshot.KEPT,)
    finally:
        await service.close()


async def test_durable_transactions_wait_for_the_disk_and_bookkeeping_does_not(postgres: PostgresServer) -> None:
    storage = await open_storage(postgres.create_database())
    try:
        async with storage.transaction() as db:
            assert (await db.fetchone("SHOW synchronous_commit")) == ("on",)
        async with storage.transaction(durable=False) as db:
            assert (await db.fetchone("SHOW synchronous_commit")) == ("off",)
        # Nothing a transaction set stays on its connection for the next one (the pool does not reset).
        for _ in range(3):
            async with storage.transaction() as db:
                await matches.hold_member(db, GUILD, ALICE)
            async with storage.reading() as db:
                assert (await db.fetchone("SELECT COUNT(*) FROM pg_locks WHERE locktype = 'advisory'")) == (0,)
    finally:
        await storage.close()


async def _a_match(db_path: str) -> int:
    storage = await open_storage(db_path)
    try:
        async with storage.transaction() as db:
            return await matches.insert_match(db, NewMatch("nika", GUILD, 7, ALICE, 4, "start", "athens", True, NOW))
    finally:
        await storage.close()


async def test_queued_writes_take_effect_in_order(db_path: str) -> None:
    """A queued write that deletes what an earlier queued one inserted, a read after queued writes,
    and a queue cut short by an error: as if each had run at once."""
    match_id = await _a_match(db_path)
    storage = await open_storage(db_path)
    try:
        async with storage.transaction() as db:
            await timers.schedule(db, match_id, TimerKind.REMINDER, NOW + 10, NOW)
            await timers.schedule(db, match_id, TimerKind.COMPUTER, NOW + 5, NOW)
            await timers.clear(db, match_id, TimerKind.REMINDER)  # after the inserts: it removes one
            await matches.update_match_later(db, match_id, turn_reminders=2)
            await matches.update_match_later(db, match_id, turn_reminders=3)  # the later one wins
            seen = [timer.kind for timer in await timers.of_match(db, match_id)]  # the queue goes first
            assert seen == [TimerKind.COMPUTER]
            await timers.schedule_reminder(db, match_id, GUILD, None, NOW, NOW)
            notice = await outbox.add(db, match_id, GUILD, 7, "{}", NOW)  # an insert with the queue
        async with storage.reading() as db:
            kinds = {timer.kind: timer.due for timer in await timers.of_match(db, match_id)}
            row = await matches.match_by_id(db, match_id)
            assert [pending.id for pending in await outbox.due(db, NOW)] == [notice]
        assert kinds == {TimerKind.COMPUTER: NOW + 5, TimerKind.REMINDER: NOW + 24 * 3600}
        assert row is not None and row.turn_reminders == 3
        with pytest.raises(RuntimeError):
            async with storage.transaction() as db:
                await timers.clear(db, match_id)
                raise RuntimeError("changed my mind")
        async with storage.transaction(durable=False) as db:  # only queued writes: one statement
            await outbox.delivered(db, notice)
            await db.later("INSERT INTO guild_settings (guild_id, reminder_hours) VALUES (?, ?)", GUILD, 2.0)
            await timers.clear(db, match_id, TimerKind.REMINDER)
            await timers.schedule_reminder(db, match_id, GUILD, None, NOW, NOW)  # reads the setting just written
        async with storage.reading() as db:
            kinds = {timer.kind: timer.due for timer in await timers.of_match(db, match_id)}
            assert await outbox.due(db, NOW) == []
        assert kinds == {TimerKind.COMPUTER: NOW + 5, TimerKind.REMINDER: NOW + 2 * 3600}
    finally:
        await storage.close()


async def test_a_one_statement_read_refuses_a_second(db_path: str) -> None:
    match_id = await _a_match(db_path)
    storage = await open_storage(db_path)
    try:
        async with storage.reading(single=True) as db:
            assert (await matches.match_by_id(db, match_id)) is not None
        if storage.dialect == "postgresql":  # SQLite's reads cost no round trip: nothing to guard
            with pytest.raises(RuntimeError, match="second statement"):
                async with storage.reading(single=True) as db:
                    await matches.match_by_id(db, match_id)
                    await matches.seats_of(db, match_id)
    finally:
        await storage.close()
