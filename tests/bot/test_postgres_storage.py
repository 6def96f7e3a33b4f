"""The PostgreSQL backend against a real, throwaway server: migrations, the shared queries,
exactly-once writes between racing transactions and processes, and faults."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import sys
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import asyncpg
import pytest

import bot
from bot.storage import (
    ChannelHasMatch,
    StorageOpenError,
    StorageUnavailable,
    VersionConflict,
    bot_state,
    matches,
    open_storage,
    outbox,
    timers,
)
from bot.storage.matches import LogRow, MatchStatus, NewMatch, SeatRow
from bot.storage.migrations import LATEST_VERSION, recorded_version
from bot.storage.postgres import PostgresStorage, changed_rows, is_fault, numbered, without_password
from bot.storage.sqlite import READ_FAILED, SAVE_FAILED
from bot.storage.timers import TimerKind
from tests.postgres_server import PostgresServer, find_bin_dir, postgres_server

# Child processes import the same `bot` package as the tests.
ROOT = Path(bot.__file__).resolve().parent.parent
GUILD = 1000
# Discord ids are 64-bit and past float precision: they must come back exact.
ALICE, BOB, CAROL = 1_187_654_321_098_765_432, 1_187_654_321_098_765_433, 1_187_654_321_098_765_434
CHANNEL = 1_287_654_321_098_765_432
NOW = 1_800_000_000.25


@pytest.fixture(scope="module")
def postgres() -> Iterator[PostgresServer]:
    if find_bin_dir() is None:
        message = "PostgreSQL server binaries are missing (apt-get install postgresql)"
        if os.environ.get("CI"):  # CI installs them (.ci/run): there a missing server is a failure
            pytest.fail(message)
        pytest.skip(message)
    with postgres_server() as server:
        yield server


@pytest.fixture
def database_url(postgres: PostgresServer) -> str:
    return postgres.create_database()


@pytest.fixture
async def storage(database_url: str) -> AsyncIterator[PostgresStorage]:
    opened = await PostgresStorage.open(database_url)
    yield opened
    await opened.close()


def new_match(channel: int = CHANNEL, **fields: object) -> NewMatch:
    values: dict[str, object] = {
        "game": "nika", "guild_id": GUILD, "channel_id": channel, "creator_id": ALICE, "players": 2,
        "start_position": "P0", "to_act": "athens", "rated": True, "now": NOW,
    }  # fmt: skip
    values.update(fields)
    return NewMatch(**values)


async def insert(storage: PostgresStorage, channel: int = CHANNEL, **fields: object) -> int:
    async with storage.transaction() as db:
        return await matches.insert_match(db, new_match(channel, **fields))


def entry(seq: int, action: str, position: str, seat: str = "athens", user: int = ALICE) -> LogRow:
    return LogRow(seq, "action", seat, user, action, position, NOW + seq)


async def lock_waiters(storage: PostgresStorage) -> int:
    # A fresh transaction each time: a transaction sees one snapshot of pg_stat_activity.
    async with storage.reading() as db:
        row = await db.fetchone(
            "SELECT COUNT(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
    return int(row[0]) if row else 0


async def until_blocked(storage: PostgresStorage, count: int = 1) -> None:
    deadline = time.monotonic() + 10
    while await lock_waiters(storage) < count:
        assert time.monotonic() < deadline, "the second transaction never waited for the first's lock"
        await asyncio.sleep(0.01)


async def together(code: str, *args: str, processes: int = 2) -> list[str]:
    """Run `code` in several Python processes, released at once when each says it is ready;
    returns what each printed after that."""
    pipes = {"stdin": asyncio.subprocess.PIPE, "stdout": asyncio.subprocess.PIPE, "stderr": asyncio.subprocess.PIPE}
    started = [
        await asyncio.create_subprocess_exec(sys.executable, "-c", code, *args, cwd=ROOT, **pipes)
        for _ in range(processes)
    ]
    for process in started:
        assert process.stdout is not None
        assert await asyncio.wait_for(process.stdout.readline(), 60) == b"ready\n"
    for process in started:
        assert process.stdin is not None
        process.stdin.write(b"go\n")
        await process.stdin.drain()
    outputs = []
    results = await asyncio.wait_for(asyncio.gather(*(process.communicate() for process in started)), 60)
    for process, (out, err) in zip(started, results, strict=True):
        assert process.returncode == 0, err.decode()
        outputs.append(out.decode())
    return outputs


READY = 'print("ready", flush=True); sys.stdin.readline()  # the barrier of together()'


# ---------------------------------------------------------------- the adapter


def test_placeholders_are_numbered_outside_quoted_text_and_comments() -> None:
    sql = "SELECT '?', \"odd?name\" FROM t WHERE a = ? AND b IN (?, ?) -- why?\n AND c = ?"
    assert numbered(sql) == "SELECT '?', \"odd?name\" FROM t WHERE a = $1 AND b IN ($2, $3) -- why?\n AND c = $4"
    assert numbered("SELECT 'it''s ?' , ?") == "SELECT 'it''s ?' , $1"


def test_the_changed_row_count_comes_from_the_status_line() -> None:
    statuses = ("UPDATE 1", "DELETE 0", "INSERT 0 3", "CREATE TABLE", "SELECT 2")
    assert [changed_rows(status) for status in statuses] == [1, 0, 3, 0, 0]


def test_the_location_never_shows_a_password() -> None:
    url = "postgresql://bot:s3cr%40t@db.example:5432/nika?sslmode=require&password=other"
    assert without_password(url) == "postgresql://bot@db.example:5432/nika?sslmode=require"
    assert without_password("postgres://:only@host/db") == "postgres://host/db"
    assert without_password("postgresql://host/db") == "postgresql://host/db"


@pytest.mark.parametrize(
    "error",
    [
        asyncpg.exceptions.DiskFullError("no space left on device"),
        asyncpg.exceptions.ReadOnlySQLTransactionError("cannot execute INSERT in a read-only transaction"),
        asyncpg.exceptions.AdminShutdownError("terminating connection due to administrator command"),
        asyncpg.exceptions.CannotConnectNowError("the database system is shutting down"),
        asyncpg.exceptions.ConnectionDoesNotExistError("connection was closed in the middle of operation"),
        asyncpg.exceptions.DeadlockDetectedError("deadlock detected"),
        asyncpg.exceptions.LockNotAvailableError("canceling statement due to lock timeout"),
        asyncpg.exceptions.DataCorruptedError("invalid page in block 0"),
        ConnectionRefusedError(111, "Connection refused"),
        TimeoutError(),
    ],
    ids=lambda error: type(error).__name__,
)
def test_faults_outside_the_bots_control_count_as_unavailable(error: BaseException) -> None:
    assert is_fault(error)


@pytest.mark.parametrize(
    "error",
    [
        asyncpg.exceptions.UniqueViolationError("duplicate key"),
        asyncpg.exceptions.CheckViolationError("violates check constraint"),
        asyncpg.exceptions.IntegrityConstraintViolationError("the action log is append-only"),
        asyncpg.exceptions.PostgresSyntaxError("syntax error"),
    ],
    ids=lambda error: type(error).__name__,
)
def test_integrity_errors_and_bugs_are_not_faults(error: BaseException) -> None:
    assert not is_fault(error)


# ------------------------------------------------------------------ migrations


async def test_opening_creates_the_schema_and_records_every_version(storage: PostgresStorage) -> None:
    assert storage.dialect == "postgresql"
    assert storage.schema_version == LATEST_VERSION
    async with storage.transaction() as db:
        assert db.dialect == "postgresql"
        assert await recorded_version(db) == LATEST_VERSION
        versions = [row[0] for row in await db.fetchall("SELECT version FROM schema_migrations ORDER BY version")]
        tables = {
            row[0]
            for row in await db.fetchall(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
            )
        }
        types = dict(
            await db.fetchall(
                "SELECT column_name, data_type FROM information_schema.columns WHERE table_name = 'matches'"
            )
        )
    assert versions == list(range(1, LATEST_VERSION + 1))
    assert tables == {
        "schema_migrations", "matches", "seats", "log", "snapshots", "timers", "outbox", "bot_state", "guild_settings",
        "user_settings", "seat_clocks", "vacations",
        "events", "entrants", "event_rounds", "event_byes", "event_tables", "rematches",
        "forecasts", "ratings", "rating_history", "rating_keys", "repetition_keys",
    }  # fmt: skip
    assert types["guild_id"] == types["channel_id"] == types["creator_id"] == "bigint"
    assert types["rated"] == "boolean"
    assert types["created_at"] == types["reminder_hours"] == "double precision"


async def test_opening_again_applies_nothing(database_url: str) -> None:
    first = await PostgresStorage.open(database_url)
    async with first.reading() as db:
        before = await db.fetchall("SELECT version, applied_at FROM schema_migrations ORDER BY version")
    await first.close()
    second = await PostgresStorage.open(database_url)
    async with second.reading() as db:
        after = await db.fetchall("SELECT version, applied_at FROM schema_migrations ORDER BY version")
    await second.close()
    assert second.schema_version == LATEST_VERSION
    assert after == before


OPEN_THREE = """
import asyncio, sys
from bot.storage.postgres import PostgresStorage

async def main() -> None:
    READY
    opened = await asyncio.gather(*(PostgresStorage.open(sys.argv[1]) for _ in range(3)))
    print(sorted({storage.schema_version for storage in opened}))
    for storage in opened:
        await storage.close()

asyncio.run(main())
""".replace("READY", READY)


async def test_processes_opening_at_once_migrate_once(database_url: str) -> None:
    # Two processes, each opening three pools at once: six sessions race for the migration.
    outputs = await together(OPEN_THREE, database_url)
    assert [output.strip() for output in outputs] == [f"[{LATEST_VERSION}]"] * 2
    storage = await PostgresStorage.open(database_url)
    async with storage.reading() as db:
        versions = [row[0] for row in await db.fetchall("SELECT version FROM schema_migrations ORDER BY version")]
    await storage.close()
    assert versions == list(range(1, LATEST_VERSION + 1))


async def test_a_schema_newer_than_this_release_is_refused(postgres: PostgresServer, database_url: str) -> None:
    storage = await PostgresStorage.open(database_url)
    async with storage.transaction() as db:
        await db.execute("INSERT INTO schema_migrations VALUES (?, ?)", LATEST_VERSION + 1, NOW)
    await storage.close()
    newer = rf"newer release \(schema version {LATEST_VERSION + 1}; this release knows up to {LATEST_VERSION}\)"
    with pytest.raises(StorageOpenError, match=newer):
        await PostgresStorage.open(database_url.replace("postgres@", "postgres:hunter2@"))


async def test_open_storage_picks_postgresql_for_both_url_schemes(database_url: str) -> None:
    for url in (database_url, database_url.replace("postgresql://", "postgres://")):
        storage = await open_storage(url)
        assert isinstance(storage, PostgresStorage)
        await storage.close()


# -------------------------------------------------------------- opening faults


async def test_an_unreachable_server_is_refused_quickly_without_the_password() -> None:
    import socket

    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    started = time.monotonic()
    with pytest.raises(StorageOpenError) as refused:
        await PostgresStorage.open(f"postgresql://bot:hunter2@127.0.0.1:{port}/nika")
    assert time.monotonic() - started < 5
    message = str(refused.value)
    assert f"postgresql://bot@127.0.0.1:{port}/nika" in message
    assert "cannot reach the PostgreSQL server" in message
    assert "hunter2" not in message
    assert "\n" not in message


async def test_a_missing_database_is_refused_by_name(postgres: PostgresServer) -> None:
    with pytest.raises(StorageOpenError, match=r"the database postgresql://postgres@.*/no_such_db does not exist"):
        await PostgresStorage.open(postgres.url_for("no_such_db"))


async def test_an_unknown_login_is_refused_without_the_password(postgres: PostgresServer) -> None:
    url = postgres.url_for("test").replace("postgres@", "intruder:hunter2@")
    with pytest.raises(StorageOpenError) as refused:
        await PostgresStorage.open(url)
    assert "refused the login" in str(refused.value)
    assert "intruder@127.0.0.1" in str(refused.value)
    assert "hunter2" not in str(refused.value)


# ------------------------------------------------------------- shared queries


async def test_a_match_comes_back_as_it_was_stored(storage: PostgresStorage) -> None:
    match_id = await insert(
        storage, options={"variant": "long"}, seed=2**62, deadline_days=2, parent_channel_id=CHANNEL - 1
    )
    async with storage.reading() as db:
        match = await matches.match_by_id(db, match_id)
        assert await matches.open_match_in(db, CHANNEL) == match
        assert await matches.latest_match_in(db, CHANNEL) == match
        assert await matches.count_matches(db) == 1
        assert await matches.open_lobbies_by(db, GUILD, ALICE) == 1
    assert match is not None
    assert (match.id, match.channel_id, match.parent_channel_id, match.creator_id) == (
        match_id, CHANNEL, CHANNEL - 1, ALICE,
    )  # fmt: skip
    assert (match.status, match.options, match.seed) == ("lobby", {"variant": "long"}, 2**62)
    assert (match.rated, match.version) == (True, 0)
    assert (match.created_at, match.deadline_days, match.turn_reminders) == (NOW, 2, 0)
    async with storage.transaction() as db:
        await matches.update_match(  # a StrEnum member goes in as its text
            db, match_id, status=MatchStatus.ACTIVE, rated=False, reminder_hours=6.5, board_message_id=ALICE
        )
    async with storage.reading() as db:
        updated = await matches.match_by_id(db, match_id)
        assert await matches.open_lobbies_by(db, GUILD, ALICE) == 0
    assert updated is not None
    assert (updated.status, updated.rated) == ("active", False)
    assert (updated.reminder_hours, updated.board_message_id) == (6.5, ALICE)


async def test_a_channel_holds_one_open_match_at_a_time(storage: PostgresStorage) -> None:
    first = await insert(storage)
    with pytest.raises(ChannelHasMatch):
        await insert(storage)
    async with storage.transaction() as db:
        await matches.update_match(db, first, status=MatchStatus.FINISHED.value)
    second = await insert(storage)
    assert second > first
    async with storage.reading() as db:
        assert await matches.count_matches(db) == 2  # the refused insert left nothing behind


async def test_seats_go_to_members_or_the_computer_and_can_be_taken_back(storage: PostgresStorage) -> None:
    match_id = await insert(storage)
    async with storage.transaction() as db:
        await matches.take_seats(db, match_id, ["athens", "messene"], user_id=ALICE, computer=None)
        await matches.take_seats(db, match_id, ["sparta"], user_id=BOB, computer=None)
        await matches.take_seats(db, match_id, ["sparta"], user_id=None, computer="hard")  # replaces Bob
        await matches.take_seats(db, match_id, [], user_id=CAROL, computer=None)
    async with storage.transaction() as db:
        await matches.remove_seats(db, match_id, ALICE)
        await matches.take_seats(db, match_id, ["thebes"], user_id=CAROL, computer=None)
    async with storage.reading() as db:
        seats = sorted(await matches.seats_of(db, match_id), key=lambda seat: seat.seat)
    assert seats == [SeatRow("sparta", None, "hard"), SeatRow("thebes", CAROL, None)]


async def test_a_seat_needs_exactly_one_holder(storage: PostgresStorage) -> None:
    match_id = await insert(storage)
    with pytest.raises(asyncpg.CheckViolationError):
        async with storage.transaction() as db:
            await matches.take_seats(db, match_id, ["athens"], user_id=None, computer=None)


async def test_the_log_is_append_only_while_its_match_exists(storage: PostgresStorage) -> None:
    match_id = await insert(storage)
    async with storage.transaction() as db:
        await matches.take_seats(db, match_id, ["athens"], user_id=ALICE, computer=None)
        for seq in (1, 2):
            await matches.append_log(db, match_id, seq, entry(seq, f"move {seq}", f"P{seq}"))
        await timers.schedule(db, match_id, TimerKind.REMINDER, NOW + 60, NOW)
        await outbox.add(db, match_id, GUILD, CHANNEL, "{}", NOW)
    async with storage.reading() as db:
        assert await matches.log_of(db, match_id) == [entry(1, "move 1", "P1"), entry(2, "move 2", "P2")]
    for statement in ("UPDATE log SET action = 'cheat' WHERE match_id = ?", "DELETE FROM log WHERE match_id = ?"):
        with pytest.raises(asyncpg.IntegrityConstraintViolationError, match="append-only"):
            async with storage.transaction() as db:
                await db.execute(statement, match_id)
    # Deleting the match takes its log, seats, timers and notices along.
    async with storage.transaction() as db:
        assert await db.execute("DELETE FROM matches WHERE id = ?", match_id) == 1
    async with storage.reading() as db:
        for table in ("log", "seats", "timers", "outbox"):
            assert await db.fetchone(f"SELECT COUNT(*) FROM {table}") == (0,)


async def test_racing_writers_claim_a_version_exactly_once(storage: PostgresStorage) -> None:
    match_id = await insert(storage)
    first_claimed, finish_first = asyncio.Event(), asyncio.Event()

    async def move(action: str, hold: bool) -> str:
        try:
            async with storage.transaction() as db:
                version = await matches.bump_version(db, match_id, 0, NOW)
                await matches.append_log(db, match_id, version, entry(version, action, action))
                await matches.update_match(db, match_id, position=action)
                if hold:
                    first_claimed.set()
                    await finish_first.wait()
        except VersionConflict:
            return "conflict"
        return "claimed"

    first = asyncio.create_task(move("first", hold=True))
    await first_claimed.wait()
    second = asyncio.create_task(move("second", hold=False))
    await until_blocked(storage)  # the second writer waits on the first's row lock…
    assert not second.done()
    finish_first.set()
    assert await first == "claimed"
    assert await second == "conflict"  # …then sees version 1 and changes nothing
    async with storage.reading() as db:
        match = await matches.match_by_id(db, match_id)
        log = await matches.log_of(db, match_id)
    assert match is not None
    assert (match.version, match.position, [row.action for row in log]) == (1, "first", ["first"])


async def test_of_many_writers_claiming_one_version_exactly_one_wins(storage: PostgresStorage) -> None:
    match_id = await insert(storage)

    async def claim() -> bool:
        try:
            async with storage.transaction() as db:
                await matches.bump_version(db, match_id, 0, NOW)
                await asyncio.sleep(0.01)  # hold the claim while the others arrive
        except VersionConflict:
            return False
        return True

    assert sorted(await asyncio.gather(*(claim() for _ in range(8)))) == [False] * 7 + [True]


async def test_racing_transactions_take_a_timer_once(storage: PostgresStorage) -> None:
    match_id = await insert(storage)
    async with storage.transaction() as db:
        await timers.schedule(db, match_id, TimerKind.DEADLINE, NOW, NOW)
        due = await timers.next_due(db)
    assert due is not None
    first_took, finish_first = asyncio.Event(), asyncio.Event()

    async def fire(hold: bool) -> bool:
        async with storage.transaction() as db:
            taken = await timers.take(db, due.id)
            if taken:
                await outbox.add(db, match_id, GUILD, CHANNEL, "deadline", NOW)
            if hold:
                first_took.set()
                await finish_first.wait()
        return taken

    first = asyncio.create_task(fire(hold=True))
    await first_took.wait()
    second = asyncio.create_task(fire(hold=False))
    await until_blocked(storage)
    finish_first.set()
    assert (await first, await second) == (True, False)
    async with storage.reading() as db:
        [pending] = await outbox.due(db, NOW)
        assert (pending.id, pending.match_id, pending.notice, pending.attempts) == (1, match_id, "deadline", 0)


TAKE_ALL = """
import asyncio, json, sys
from bot.storage import outbox, timers
from bot.storage.postgres import PostgresStorage

async def main() -> None:
    storage = await PostgresStorage.open(sys.argv[1])
    ids = json.loads(sys.argv[2])
    READY
    taken, gone = [], []
    for timer_id in ids:
        async with storage.transaction() as db:
            if await timers.take(db, timer_id):
                await outbox.add(db, None, 1, 1, f"timer {timer_id}", 0.0)
                taken.append(timer_id)
            else:
                gone.append(timer_id)
            await asyncio.sleep(0.005)  # hold the row lock while the other process arrives
    await storage.close()
    print(json.dumps([taken, gone]))

asyncio.run(main())
""".replace("READY", READY)


async def test_two_processes_fire_each_timer_once(storage: PostgresStorage, database_url: str) -> None:
    match_id = await insert(storage)
    async with storage.transaction() as db:
        for n in range(60):
            await timers.schedule(db, match_id, TimerKind.REMINDER, NOW + n, NOW)
        ids = [timer.id for timer in await timers.of_match(db, match_id)]
    # Both walk the timers in one order, so each DELETE meets the other's: the loser waits on
    # the row lock, then finds the row gone (often one process wins every race).
    (first, first_gone), (second, second_gone) = [
        json.loads(output) for output in await together(TAKE_ALL, database_url, json.dumps(ids))
    ]
    assert sorted(first + second) == sorted(ids)  # every timer fired, none twice
    assert sorted(first + first_gone) == sorted(second + second_gone) == sorted(ids)
    async with storage.reading() as db:
        notices = sorted(notice.notice for notice in await outbox.due(db, NOW, limit=1000))
        assert await timers.of_match(db, match_id) == []
    assert notices == sorted(f"timer {timer_id}" for timer_id in ids)


async def test_timers_are_scheduled_postponed_and_cleared(storage: PostgresStorage) -> None:
    match_id = await insert(storage)
    async with storage.transaction() as db:
        await timers.schedule(db, match_id, TimerKind.REMINDER, NOW + 30, NOW)
        await timers.schedule(db, match_id, TimerKind.DEADLINE, NOW + 60, NOW)
        await timers.schedule(db, match_id, TimerKind.COMPUTER, NOW + 10, NOW)
    async with storage.transaction() as db:
        soonest = await timers.next_due(db)
        assert soonest is not None and (soonest.kind, soonest.due) == (TimerKind.COMPUTER, NOW + 10)
        await timers.postpone(db, soonest.id, NOW + 90)
        assert [t.kind for t in await timers.of_match(db, match_id)] == [
            TimerKind.REMINDER, TimerKind.DEADLINE, TimerKind.COMPUTER,
        ]  # fmt: skip
        await timers.clear(db, match_id, TimerKind.REMINDER, TimerKind.COMPUTER)
        assert [t.kind for t in await timers.of_match(db, match_id)] == [TimerKind.DEADLINE]
        await timers.clear(db, match_id)
        assert await timers.next_due(db) is None


async def test_the_outbox_keeps_a_notice_until_delivered_backing_off_on_failure(storage: PostgresStorage) -> None:
    match_id = await insert(storage)
    async with storage.transaction() as db:
        first = await outbox.add(db, match_id, GUILD, CHANNEL, '{"n": 1}', NOW)
        second = await outbox.add(db, None, GUILD, CHANNEL + 1, '{"n": 2}', NOW + 1)
    assert second == first + 1
    async with storage.transaction() as db:
        assert [n.id for n in await outbox.due(db, NOW)] == [first]
        assert [n.id for n in await outbox.due(db, NOW + 1)] == [first, second]
        assert [n.id for n in await outbox.due(db, NOW + 1, limit=1)] == [first]
        pending = (await outbox.due(db, NOW))[0]
        assert await outbox.failed(db, pending, NOW) is True
        assert await outbox.next_attempt(db) == NOW + 1
        retried = await outbox.due(db, NOW + outbox.RETRY_SECONDS[0])
        assert [(n.id, n.attempts) for n in retried] == [(first, 1), (second, 0)]
        await outbox.delivered(db, second)
        assert await outbox.next_attempt(db) == NOW + outbox.RETRY_SECONDS[0]
        worn_out = outbox.PendingNotice(first, match_id, GUILD, CHANNEL, '{"n": 1}', outbox.GIVE_UP_AFTER - 1)
        assert await outbox.failed(db, worn_out, NOW) is False  # given up: dropped
        assert await outbox.next_attempt(db) is None
        third = await outbox.add(db, match_id, GUILD, CHANNEL, "{}", NOW)
        await outbox.drop_for_match(db, match_id)
        assert await outbox.due(db, NOW + 10**6) == []
    assert third > second


async def test_a_members_open_matches_and_the_rated_results_are_listed(storage: PostgresStorage) -> None:
    ids = [await insert(storage, channel) for channel in (1, 2, 3, 4)]
    async with storage.transaction() as db:
        for match_id in ids:
            await matches.take_seats(db, match_id, ["athens"], user_id=ALICE, computer=None)
            await matches.take_seats(db, match_id, ["sparta"], user_id=BOB, computer=None)
            await matches.take_seats(db, match_id, ["thebes"], user_id=None, computer="easy")
        await matches.take_seats(db, ids[1], ["messene"], user_id=ALICE, computer=None)
        for match_id, result, rated, at in ((ids[2], "sparta-thebes", True, 5.0), (ids[3], "draw", False, 4.0)):
            await matches.update_match(db, match_id, status="finished", result=result, rated=rated, updated_at=at)
        await matches.update_match(db, ids[0], updated_at=NOW + 1)
    async with storage.reading() as db:
        mine = await matches.open_matches_of(db, GUILD, ALICE)
        assert await matches.open_matches_of(db, GUILD + 1, ALICE) == []
        rated = await matches.finished_rated_matches(db, GUILD, "nika")
        assert await matches.finished_rated_matches(db, GUILD, "numica") == []
    assert [(match.id, seats) for match, seats in mine] == [(ids[1], ["athens", "messene"]), (ids[0], ["athens"])]
    assert rated == [(ids[2], "sparta-thebes", 2, {"athens": ALICE, "sparta": BOB})]


async def test_settings_and_facts_are_upserted(storage: PostgresStorage) -> None:
    async with storage.transaction() as db:
        assert await timers.reminder_hours(db, GUILD, None) == timers.DEFAULT_REMINDER_HOURS
        await timers.set_guild_reminder_hours(db, GUILD, 12)
        await timers.set_guild_reminder_hours(db, GUILD, 6.5)
        assert await timers.dm_reminders(db, ALICE) is False
        await timers.set_dm_reminders(db, ALICE, True)
        await bot_state.put(db, "command-tree-hash:global", "abc")
        await bot_state.put(db, "command-tree-hash:global", "def")
    async with storage.reading() as db:
        assert await timers.reminder_hours(db, GUILD, None) == 6.5
        assert await timers.reminder_hours(db, GUILD, 2.0) == 2.0
        assert await timers.dm_reminders(db, ALICE) is True
        assert await bot_state.get(db, "command-tree-hash:global") == "def"
        assert await bot_state.get(db, "missing") is None
    async with storage.transaction() as db:
        await timers.set_dm_reminders(db, ALICE, False)
        assert await timers.dm_reminders(db, ALICE) is False
        assert await db.fetchone("SELECT COUNT(*) FROM guild_settings") == (1,)


async def test_a_read_sees_one_state_while_others_write(storage: PostgresStorage) -> None:
    async with storage.reading() as db:
        assert await matches.count_matches(db) == 0
        await insert(storage)  # committed by another connection meanwhile
        assert await matches.count_matches(db) == 0
    async with storage.reading() as db:
        assert await matches.count_matches(db) == 1


async def test_a_failed_transaction_leaves_nothing_behind(storage: PostgresStorage) -> None:
    with pytest.raises(VersionConflict):
        async with storage.transaction() as db:
            match_id = await matches.insert_match(db, new_match())
            await matches.bump_version(db, match_id, 7, NOW)
    async with storage.reading() as db:
        assert await matches.count_matches(db) == 0


# -------------------------------------------------------------- faults in use


async def test_a_read_only_database_refuses_writes_as_unavailable(
    postgres: PostgresServer, database_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    await (await PostgresStorage.open(database_url)).close()  # migrated while writable
    name = database_url.rsplit("/", 1)[1]
    postgres.sql(f"ALTER DATABASE {name} SET default_transaction_read_only = on")
    storage = await PostgresStorage.open(database_url)
    try:
        with caplog.at_level(logging.ERROR, logger="bot.storage.postgres"), pytest.raises(StorageUnavailable) as failed:
            async with storage.transaction() as db:
                await matches.insert_match(db, new_match())
        assert (str(failed.value), failed.value.writing) == (SAVE_FAILED, True)
        assert SAVE_FAILED == "the bot cannot save right now; nothing was changed, try again shortly"
        faults = [r for r in caplog.records if r.getMessage() == "storage fault"]
        assert len(faults) == 1
        assert faults[0].__dict__["database"] == storage.location
        assert faults[0].__dict__["writing"] is True
        async with storage.reading() as db:  # reading still works
            assert await matches.count_matches(db) == 0
    finally:
        await storage.close()


async def test_a_server_stopping_mid_use_makes_storage_unavailable(caplog: pytest.LogCaptureFixture) -> None:
    with postgres_server() as own:  # a server of its own, since this test stops it
        storage = await PostgresStorage.open(own.create_database())
        try:
            await insert(storage)
            caplog.set_level(logging.ERROR, logger="bot.storage.postgres")
            with pytest.raises(StorageUnavailable) as mid_write:
                async with storage.transaction() as db:
                    await matches.update_match(db, 1, position="P1")
                    await asyncio.to_thread(own.stop)
                    await matches.update_match(db, 1, position="P2")
            assert (str(mid_write.value), mid_write.value.writing) == (SAVE_FAILED, True)
            with pytest.raises(StorageUnavailable) as reading:
                async with storage.reading() as db:
                    await matches.count_matches(db)
            assert (str(reading.value), reading.value.writing) == (READ_FAILED, False)
            with pytest.raises(StorageUnavailable) as writing:
                async with storage.transaction() as db:
                    await matches.count_matches(db)
            assert writing.value.writing is True
            assert [r.getMessage() for r in caplog.records] == ["storage fault"] * 3
        finally:
            started = time.monotonic()
            await storage.close()
            assert time.monotonic() - started < 2


async def test_a_unit_cancelled_mid_statement_hands_back_no_open_transaction(storage: PostgresStorage) -> None:
    """A task cancelled inside a transaction while a statement runs (the timer task, at shutdown)
    leaves no transaction open in the pool: asyncpg would report one as an error on reset."""
    loop = asyncio.get_running_loop()
    reported: list[str] = []
    previous = loop.get_exception_handler()
    loop.set_exception_handler(lambda _loop, context: reported.append(str(context.get("message"))))

    async def sleeping() -> None:
        async with storage.transaction() as db:
            await db.execute("UPDATE matches SET updated_at = updated_at WHERE id = 0")  # the transaction begins
            await db.fetchone("SELECT pg_sleep(30)")

    try:
        task = asyncio.create_task(sleeping())
        deadline = time.monotonic() + 10
        while True:  # until the server runs the sleep: the cancel lands mid-statement
            async with storage.reading(single=True) as db:
                row = await db.fetchone("SELECT COUNT(*) FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(30)' "
                                        "AND state = 'active'")  # fmt: skip
            if row and row[0]:
                break
            assert time.monotonic() < deadline and not task.done(), "the statement never ran"
            await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        async with storage.reading() as db:  # the pool still serves
            assert await db.fetchone("SELECT 1") == (1,)
    finally:
        loop.set_exception_handler(previous)
    assert not [m for m in reported if "active transaction" in m]
