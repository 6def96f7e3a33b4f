"""The SQLite schema: migrations, pragmas, and the rules the database itself enforces."""

from __future__ import annotations

import sqlite3

import pytest

from bot.storage import matches as queries
from bot.storage.matches import LogRow, NewMatch
from bot.storage.migrations import LATEST_VERSION, SQLITE_MIGRATIONS
from bot.storage.sqlite import SQLiteStorage


async def test_migrations_are_recorded_and_idempotent(sqlite_path: str) -> None:
    first = await SQLiteStorage.open(sqlite_path)
    assert first.schema_version == LATEST_VERSION
    await first.close()
    second = await SQLiteStorage.open(sqlite_path)
    try:
        async with second.transaction() as db:
            versions = [row[0] for row in await db.fetchall("SELECT version FROM schema_migrations ORDER BY version")]
            # Every migration, by its number; numbers are reserved per issue, so they may have gaps.
            assert versions == [version for version, _ in SQLITE_MIGRATIONS]
            assert (await db.fetchone("PRAGMA journal_mode"))[0] == "wal"
            assert (await db.fetchone("PRAGMA foreign_keys"))[0] == 1
            assert (await db.fetchone("PRAGMA busy_timeout"))[0] >= 1000
    finally:
        await second.close()


async def test_one_open_match_per_channel_is_enforced_by_sqlite(sqlite_path: str) -> None:
    await (await SQLiteStorage.open(sqlite_path)).close()
    raw = sqlite3.connect(sqlite_path)
    try:
        insert = (
            "INSERT INTO matches (game, guild_id, channel_id, creator_id, status, players, start_position, position, "
            "created_at, updated_at) VALUES ('nika', 1, 7, 1, ?, 4, 'p', 'p', 0, 0)"
        )
        raw.execute(insert, ("finished",))
        raw.execute(insert, ("lobby",))
        with pytest.raises(sqlite3.IntegrityError):
            raw.execute(insert, ("active",))
        raw.execute(insert, ("aborted",))  # history is kept beside the open match
    finally:
        raw.close()


async def test_the_action_log_is_append_only(sqlite_path: str) -> None:
    db = await SQLiteStorage.open(sqlite_path)
    new = NewMatch("nika", 1, 1, 1, 4, "p", "athens", True, 0.0)
    entry = LogRow(1, "action", "athens", 1, "pass", "p", 0.0)
    try:
        async with db.transaction() as conn:
            match_id = await queries.insert_match(conn, new)
            await queries.append_log(conn, match_id, 1, entry)
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            async with db.transaction() as conn:
                await conn.execute("UPDATE log SET action = 'move j6 w'")
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            async with db.transaction() as conn:
                await conn.execute("DELETE FROM log")
        with pytest.raises(sqlite3.IntegrityError):  # a sequence number is used once
            async with db.transaction() as conn:
                await queries.append_log(conn, match_id, 1, entry)
        async with db.reading() as conn:
            assert [row.action for row in await queries.log_of(conn, match_id)] == ["pass"]
    finally:
        await db.close()


async def test_a_read_sees_one_state_while_the_writer_commits(sqlite_path: str) -> None:
    # A match row and its log read apart must not straddle another action's commit: the
    # service would take the mismatch for a damaged match.
    db = await SQLiteStorage.open(sqlite_path)
    new = NewMatch("nika", 1, 1, 1, 4, "p", "athens", True, 0.0)
    try:
        async with db.reading() as reader:
            assert await queries.count_matches(reader) == 0
            async with db.transaction() as writer:
                await queries.insert_match(writer, new)
            assert await queries.count_matches(reader) == 0
        async with db.reading() as reader:
            assert await queries.count_matches(reader) == 1
    finally:
        await db.close()
