"""The SQLite schema: migrations, pragmas, and the rules the database itself enforces."""

from __future__ import annotations

import sqlite3

import pytest

from bot.storage import Database
from bot.storage import matches as queries
from bot.storage.migrations import LATEST_VERSION


async def test_migrations_are_recorded_and_idempotent(db_path: str) -> None:
    first = await Database.open(db_path)
    assert first.schema_version == LATEST_VERSION
    await first.close()
    second = await Database.open(db_path)
    try:
        async with second.reading() as db:
            async with db.execute("SELECT version FROM schema_migrations ORDER BY version") as cursor:
                versions = [row[0] for row in await cursor.fetchall()]
            assert versions == list(range(1, LATEST_VERSION + 1))
            async with db.execute("PRAGMA journal_mode") as cursor:
                assert (await cursor.fetchone())[0] == "wal"
            async with db.execute("PRAGMA foreign_keys") as cursor:
                assert (await cursor.fetchone())[0] == 1
            async with db.execute("PRAGMA busy_timeout") as cursor:
                assert (await cursor.fetchone())[0] >= 1000
    finally:
        await second.close()


async def test_one_open_match_per_channel_is_enforced_by_sqlite(db_path: str) -> None:
    await (await Database.open(db_path)).close()
    raw = sqlite3.connect(db_path)
    try:
        insert = (
            "INSERT INTO matches (guild_id, channel_id, creator_id, status, start_position, position, "
            "created_at, updated_at) VALUES (1, 7, 1, ?, 'p', 'p', 0, 0)"
        )
        raw.execute(insert, ("finished",))
        raw.execute(insert, ("lobby",))
        with pytest.raises(sqlite3.IntegrityError):
            raw.execute(insert, ("active",))
        raw.execute(insert, ("aborted",))  # history is kept beside the open match
    finally:
        raw.close()


async def test_the_action_log_is_append_only(db_path: str) -> None:
    db = await Database.open(db_path)
    try:
        async with db.transaction() as conn:
            match_id = await queries.insert_match(
                conn, guild_id=1, channel_id=1, creator_id=1, start_position="p", to_act="athens", rated=True, now=0
            )
            await queries.append_log(
                conn, match_id, 1, kind="action", city="athens", user_id=1, action="pass", position="p", now=0
            )
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            async with db.transaction() as conn:
                await conn.execute("UPDATE log SET action = 'move j6 w'")
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            async with db.transaction() as conn:
                await conn.execute("DELETE FROM log")
        with pytest.raises(sqlite3.IntegrityError):  # a sequence number is used once
            async with db.transaction() as conn:
                await queries.append_log(
                    conn, match_id, 1, kind="action", city="athens", user_id=1, action="pass", position="p", now=0
                )
        async with db.reading() as conn:
            assert [row.action for row in await queries.log_of(conn, match_id)] == ["pass"]
    finally:
        await db.close()
