"""`python -m bot migrate-db`: a SQLite database copied into PostgreSQL, ids and all, and checked."""

from __future__ import annotations

import asyncio
import os
import shutil
import sqlite3
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest

from bot import migrate_db
from bot.migrate_db import TABLES, CopiedMatch, CopyCheckFailed, CopyRefused, copy, main
from bot.storage import Connection, bot_state, events, matches, outbox, timers
from bot.storage.matches import LogRow, MatchStatus, NewMatch
from bot.storage.migrations import LATEST_VERSION
from bot.storage.postgres import PostgresStorage
from bot.storage.sqlite import SQLiteStorage
from bot.storage.timers import TimerKind
from tests.postgres_server import PostgresServer, find_bin_dir, postgres_server

RELEASE1 = Path(__file__).resolve().parents[1] / "fixtures" / "release1.db"
GUILD = 1_087_654_321_098_765_432
ALICE, BOB = 1_187_654_321_098_765_432, 1_187_654_321_098_765_433
NOW = 1_800_000_000.125


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


def new_match(channel: int, **fields: object) -> NewMatch:
    values: dict[str, object] = {
        "game": "nika", "guild_id": GUILD, "channel_id": channel, "creator_id": ALICE, "players": 2,
        "start_position": f"start {channel}", "to_act": "athens", "rated": True, "now": NOW,
    }  # fmt: skip
    values.update(fields)
    return NewMatch(**values)


async def build_source(path: Path) -> None:
    """A database with something in every table, written by the bot's own queries, with a gap
    in the match ids (a deleted match) that the copy must keep."""
    storage = await SQLiteStorage.open(path)
    async with storage.transaction() as db:
        lobby = await matches.insert_match(db, new_match(1, options={"variant": "long"}, seed=2**62, deadline_days=2))
        await matches.take_seats(db, lobby, ["athens"], user_id=ALICE, computer=None)
        await matches.take_seats(db, lobby, ["sparta"], user_id=None, computer="hard")
        await timers.schedule(db, lobby, TimerKind.LOBBY, NOW + 3600, NOW)
        deleted = await matches.insert_match(db, new_match(2))
        active = await matches.insert_match(db, new_match(3, parent_channel_id=3000))
        await matches.take_seats(db, active, ["athens"], user_id=ALICE, computer=None)
        await matches.take_seats(db, active, ["sparta"], user_id=BOB, computer=None)
        await matches.update_match(db, active, status=MatchStatus.ACTIVE.value, turn_started_at=NOW, reminder_hours=6)
        for seq, action in enumerate(["advance j4,j5,j6", "move k5 n", "move d7 s"], start=1):
            version = await matches.bump_version(db, active, seq - 1, NOW + seq)
            await matches.append_log(
                db, active, version, LogRow(seq, "action", "athens", ALICE, action, f"P{seq}", NOW)
            )
            await matches.update_match(db, active, position=f"P{seq}")
        for ply, key in enumerate([2**63 - 1, -(2**63), 0, 12345]):  # every 64-bit key arrives whole
            await matches.store_key(db, active, ply, key)
        await matches.save_snapshot(db, active, 2, '{"format": 1, "played": []}', keep=2)
        await timers.schedule(db, active, TimerKind.REMINDER, NOW + 6 * 3600, NOW)
        await timers.schedule(db, active, TimerKind.DEADLINE, NOW + 86400, NOW)
        await outbox.add(db, active, GUILD, 3, '{"kind": "board"}', NOW)
        await outbox.add(db, None, GUILD, 4, '{"kind": "note"}', NOW)
        done = await matches.insert_match(db, new_match(5))
        await matches.take_seats(db, done, ["athens"], user_id=ALICE, computer=None)
        await matches.take_seats(db, done, ["sparta"], user_id=BOB, computer=None)
        await matches.append_log(db, done, 1, LogRow(1, "resign", "athens", ALICE, None, "start 5", NOW))
        await matches.update_match(db, done, status="finished", result="sparta-thebes", end_reason="resignation")
        unrated = await matches.insert_match(db, new_match(6, rated=False))
        await matches.update_match(db, unrated, status="aborted")
        await db.execute("DELETE FROM matches WHERE id = ?", deleted)
        await timers.set_guild_reminder_hours(db, GUILD, 12.5)
        await timers.set_dm_reminders(db, BOB, True)
        await db.execute("UPDATE user_settings SET locale = ? WHERE user_id = ?", "el", BOB)
        await bot_state.put(db, "command-tree-hash:global", "abc123")
        # An event whose first round is paired: an odd count, so a bye; one game played.
        event = await events.insert_event(db, events.NewEvent(
            GUILD, 3, "nika", "swiss", "Spring", ALICE, seed=7, now=NOW, players=2, rounds=3, rated=False,
            pod_shape=((1, 1), ((1, 1),)), signup_deadline=NOW + 60,
        ))  # fmt: skip
        for user in (ALICE, BOB, 77):
            await events.add_entrant(db, event, user, NOW, name=f"member {user}")
        await events.add_round(db, event, 1, NOW)
        await events.add_bye(db, event, 1, 77, "1")
        await events.add_table(db, event, events.TableRow(1, 1, 1, ((ALICE,), (BOB,)), None, (2, 1), True))
        await events.set_table_match(db, event, events.TableRow(1, 1, 1, ((ALICE,), (BOB,)), None, None, False), done)
    await storage.close()


Tables = dict[str, list[dict[str, object]]]


async def columns_of(db: Connection, table: str) -> list[str]:
    if db.dialect == "sqlite":
        return [str(row[1]) for row in await db.fetchall(f"PRAGMA table_info({table})")]
    rows = await db.fetchall(
        "SELECT column_name FROM information_schema.columns WHERE table_name = ? ORDER BY ordinal_position", table
    )
    return [str(row[0]) for row in rows]


async def dump(storage: SQLiteStorage | PostgresStorage) -> Tables:
    """Every table's rows as {column: value}, ordered by primary key (and True == 1 across backends)."""
    tables: Tables = {}
    async with storage.reading() as db:
        for table in TABLES:
            columns = await columns_of(db, table.name)
            rows = [dict(zip(columns, row, strict=True)) for row in await db.fetchall(f"SELECT * FROM {table.name}")]
            tables[table.name] = sorted(rows, key=lambda row: [str(row[column]) for column in table.key])
    return tables


async def dump_sqlite(path: Path) -> Tables:
    storage = await SQLiteStorage.open(path)
    try:
        return await dump(storage)
    finally:
        await storage.close()


async def dump_postgres(url: str) -> Tables:
    storage = await PostgresStorage.open(url)
    try:
        return await dump(storage)
    finally:
        await storage.close()


async def test_every_row_arrives_with_its_id(tmp_path: Path, database_url: str) -> None:
    source = tmp_path / "nika.db"
    await build_source(source)
    summary = await copy(source, database_url)
    expected = await dump_sqlite(source)
    assert await dump_postgres(database_url) == expected
    assert [row["id"] for row in expected["matches"]] == [1, 3, 4, 5]  # the deleted match's id stays unused
    assert summary.counts == {
        "matches": 4, "seats": 6, "log": 4, "snapshots": 1, "timers": 3, "outbox": 2, "guild_settings": 1,
        "seat_clocks": 0, "vacations": 0,
        "user_settings": 1, "bot_state": 1, "events": 1, "entrants": 3, "event_rounds": 1, "event_byes": 1,
        "event_tables": 1, "rematches": 0, "forecasts": 0, "ratings": 0, "rating_history": 0, "rating_keys": 0,
        "repetition_keys": 4,
    }  # fmt: skip
    assert summary.upgraded_from is None
    assert "4 matches, 6 seats, 4 log entries, 1 snapshots, 3 timers, 2 pending notices" in "\n".join(summary.lines())


async def test_the_copy_reads_back_through_the_bots_queries(tmp_path: Path, database_url: str) -> None:
    source = tmp_path / "nika.db"
    await build_source(source)
    await copy(source, database_url)
    storage = await PostgresStorage.open(database_url)
    async with storage.reading() as db:
        lobby = await matches.open_match_in(db, 1)
        active = await matches.match_by_id(db, 3)
        rated = await matches.finished_rated_matches(db, GUILD, "nika")
        assert [match.id for match, _ in await matches.open_matches_of(db, GUILD, BOB)] == [3]
        assert await timers.reminder_hours(db, GUILD, None) == 12.5
        assert await timers.dm_reminders(db, BOB) is True
        assert await bot_state.get(db, "command-tree-hash:global") == "abc123"
        assert [notice.channel_id for notice in await outbox.due(db, NOW)] == [3, 4]
    assert lobby is not None and (lobby.options, lobby.seed, lobby.rated) == ({"variant": "long"}, 2**62, True)
    assert active is not None and (active.version, active.position, active.reminder_hours) == (3, "P3", 6.0)
    assert rated == [(4, "sparta-thebes", 2, {"athens": ALICE, "sparta": BOB})]
    # New rows take ids after the copied ones.
    async with storage.transaction() as db:
        assert await matches.insert_match(db, new_match(7)) == 6
        assert await outbox.add(db, None, GUILD, 7, "{}", NOW) == 3
        await timers.schedule(db, 6, TimerKind.LOBBY, NOW, NOW)
        assert [timer.id for timer in await timers.of_match(db, 6)] == [4]
    await storage.close()


async def test_a_database_that_holds_matches_is_refused(tmp_path: Path, database_url: str) -> None:
    source = tmp_path / "nika.db"
    await build_source(source)
    storage = await PostgresStorage.open(database_url)
    async with storage.transaction() as db:
        await matches.insert_match(db, new_match(99))
    await storage.close()
    with pytest.raises(CopyRefused, match=r"already holds matches: migrate-db copies only into an empty database"):
        await copy(source, database_url)
    assert [row["channel_id"] for row in (await dump_postgres(database_url))["matches"]] == [99]


async def test_a_match_whose_position_is_not_its_logs_is_not_copied(tmp_path: Path, database_url: str) -> None:
    source = tmp_path / "nika.db"
    await build_source(source)
    storage = await SQLiteStorage.open(source)
    async with storage.transaction() as db:
        await matches.update_match(db, 3, position="somewhere else")
    await storage.close()
    with pytest.raises(CopyCheckFailed, match=r"match 3: its stored position is not the one its log entry 3 gives"):
        await copy(source, database_url)
    assert all(rows == [] for rows in (await dump_postgres(database_url)).values())  # rolled back whole


async def test_a_row_postgresql_refuses_stops_the_whole_copy(tmp_path: Path, database_url: str) -> None:
    source = tmp_path / "nika.db"
    await build_source(source)
    with closing(sqlite3.connect(source)) as raw:  # a seat of no match, slipped past SQLite's checks
        raw.execute("INSERT INTO seats (match_id, seat, user_id) VALUES (99, 'athens', 1)")
        raw.commit()
    with pytest.raises(CopyCheckFailed, match=r"PostgreSQL refused a row of seats \(.*foreign key"):
        await copy(source, database_url)
    assert all(rows == [] for rows in (await dump_postgres(database_url)).values())


async def test_the_verify_hook_sees_every_copied_match_and_can_reject_the_copy(
    tmp_path: Path, postgres: PostgresServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = tmp_path / "nika.db"
    await build_source(source)
    seen: list[tuple[int, int, int]] = []
    # The module's verify_match is looked up at each copy, so it can be pointed at a full replay.
    monkeypatch.setattr(migrate_db, "verify_match", lambda rows: seen.append(shape(rows)))
    await copy(source, postgres.create_database())
    assert seen == [(1, 2, 0), (3, 2, 3), (4, 2, 1), (5, 0, 0)]  # (match, seats, log entries)

    def reject(rows: CopiedMatch) -> None:
        if rows.log:
            raise CopyCheckFailed(f"match {rows.match.id} does not replay")

    rejected = postgres.create_database()
    with pytest.raises(CopyCheckFailed, match="match 3 does not replay"):
        await copy(source, rejected, verify=reject)
    assert (await dump_postgres(rejected))["matches"] == []


def shape(rows: CopiedMatch) -> tuple[int, int, int]:
    return rows.match.id, len(rows.seats), len(rows.log)


RELEASE1_COUNTS = {
    "matches": 8, "seats": 28, "log": 13, "snapshots": 0, "timers": 5, "outbox": 0, "guild_settings": 1,
    "seat_clocks": 0, "vacations": 0,
    "user_settings": 1, "bot_state": 0, "events": 0, "entrants": 0, "event_rounds": 0, "event_byes": 0,
    "event_tables": 0, "rematches": 0, "forecasts": 0, "ratings": 4, "rating_history": 4, "rating_keys": 1,
    "repetition_keys": 0,  # older than migration 24
}  # fmt: skip


async def test_the_first_releases_database_arrives_whole_once_upgraded(tmp_path: Path, database_url: str) -> None:
    source = tmp_path / "release1.db"
    shutil.copyfile(RELEASE1, source)
    upgraded = await SQLiteStorage.open(source)  # schema 3 → 4, as the bot does on start
    assert upgraded.schema_version == LATEST_VERSION
    await upgraded.close()
    summary = await copy(source, database_url)
    assert summary.counts == RELEASE1_COUNTS
    expected = await dump_sqlite(source)
    assert {table: len(rows) for table, rows in expected.items()} == RELEASE1_COUNTS
    assert await dump_postgres(database_url) == expected


async def test_copying_a_first_release_database_upgrades_it_first(tmp_path: Path, database_url: str) -> None:
    source = tmp_path / "release1.db"
    shutil.copyfile(RELEASE1, source)
    summary = await copy(source, database_url)
    assert summary.upgraded_from == 3
    assert summary.lines()[0] == f"Upgraded {source} from schema version 3 first."
    assert await dump_postgres(database_url) == await dump_sqlite(source)


def test_the_command_prints_what_it_copied(
    tmp_path: Path, database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "nika.db"
    asyncio.run(build_source(source))
    assert main(["--from", str(source), "--to", database_url]) == 0
    out = capsys.readouterr().out
    assert f"Copied {source} to {database_url}:" in out
    assert "4 matches, 6 seats, 4 log entries, 1 snapshots, 3 timers, 2 pending notices, 1 server settings" in out
    assert "Checked: every row arrived as it was" in out
    # A second run finds the database full and says so, changing nothing.
    assert main(["--from", str(source), "--to", database_url]) == 1
    assert "migrate-db: the PostgreSQL database" in capsys.readouterr().err


def test_the_command_wants_an_existing_file_and_a_postgresql_url(
    tmp_path: Path, database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "missing.db"
    assert main(["--from", str(missing), "--to", database_url]) == 1
    assert f"there is no SQLite database at {missing}" in capsys.readouterr().err
    assert not missing.exists()  # not created by trying to open it
    assert main(["--from", str(missing), "--to", str(tmp_path / "other.db")]) == 2
    assert "--to takes a postgresql:// URL" in capsys.readouterr().err
    assert main(["--from", str(missing)]) == 2
    assert "--to" in capsys.readouterr().err


def test_an_unreachable_target_is_reported_without_its_password(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "nika.db"
    asyncio.run(build_source(source))
    assert main(["--from", str(source), "--to", "postgresql://bot:hunter2@127.0.0.1:1/nika"]) == 1
    err = capsys.readouterr().err
    assert "cannot reach the PostgreSQL server at postgresql://bot@127.0.0.1:1/nika" in err
    assert "hunter2" not in err
