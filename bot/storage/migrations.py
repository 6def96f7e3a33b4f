"""Numbered schema migrations, applied in order at start-up and recorded in the database."""

from __future__ import annotations

import time

import aiosqlite

# Each entry is (version, statements). Never edit an applied migration: add a new one.
MIGRATIONS: list[tuple[int, list[str]]] = [
    (
        1,
        [
            """
            CREATE TABLE matches (
                id INTEGER PRIMARY KEY,
                game TEXT NOT NULL DEFAULT 'nika',
                guild_id INTEGER NOT NULL,
                channel_id INTEGER NOT NULL,
                creator_id INTEGER NOT NULL,
                status TEXT NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'aborted')),
                start_position TEXT NOT NULL,
                position TEXT NOT NULL,
                to_act TEXT,
                version INTEGER NOT NULL DEFAULT 0,
                result TEXT CHECK (result IN ('athens-messene', 'sparta-thebes', 'draw')),
                end_reason TEXT,
                rated INTEGER NOT NULL DEFAULT 1,
                created_at REAL NOT NULL,
                updated_at REAL NOT NULL,
                board_message_id INTEGER
            )
            """,
            # At most one open match per channel (a thread is a channel), enforced by SQLite itself.
            """
            CREATE UNIQUE INDEX matches_one_open_per_channel
                ON matches (channel_id) WHERE status IN ('lobby', 'active')
            """,
            "CREATE INDEX matches_by_guild_status ON matches (guild_id, status)",
            """
            CREATE TABLE seats (
                match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
                city TEXT NOT NULL CHECK (city IN ('athens', 'sparta', 'messene', 'thebes')),
                user_id INTEGER,
                is_bot INTEGER NOT NULL DEFAULT 0,
                PRIMARY KEY (match_id, city),
                CHECK (user_id IS NOT NULL OR is_bot = 1)
            )
            """,
            "CREATE INDEX seats_by_user ON seats (user_id)",
            # The append-only log: board actions and the moves made away from the board
            # (undo, resign, draw offers, Nika declarations). Replaying it gives the match state.
            """
            CREATE TABLE log (
                match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
                seq INTEGER NOT NULL,
                kind TEXT NOT NULL,
                city TEXT,
                user_id INTEGER,
                action TEXT,
                position TEXT NOT NULL,
                created_at REAL NOT NULL,
                PRIMARY KEY (match_id, seq)
            )
            """,
            """
            CREATE TRIGGER log_is_append_only_update BEFORE UPDATE ON log
            BEGIN SELECT RAISE(ABORT, 'the action log is append-only'); END
            """,
            """
            CREATE TRIGGER log_is_append_only_delete BEFORE DELETE ON log
            WHEN (SELECT COUNT(*) FROM matches WHERE id = OLD.match_id) > 0
            BEGIN SELECT RAISE(ABORT, 'the action log is append-only'); END
            """,
        ],
    ),
    (
        2,
        [
            # Small facts the bot keeps between restarts, e.g. the hash of the synced command tree.
            "CREATE TABLE bot_state (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
        ],
    ),
    (
        3,
        [
            # Play across days: per-match reminder interval and turn deadline.
            "ALTER TABLE matches ADD COLUMN reminder_hours REAL",  # NULL: the guild's default, else 24
            "ALTER TABLE matches ADD COLUMN deadline_days INTEGER",  # NULL: no deadline
            "ALTER TABLE matches ADD COLUMN turn_started_at REAL",
            "ALTER TABLE matches ADD COLUMN turn_reminders INTEGER NOT NULL DEFAULT 0",
            # Due reminders and deadlines, dispatched by one task. A row exists only for the
            # current turn: every turn change replaces them in the same transaction.
            """
            CREATE TABLE timers (
                id INTEGER PRIMARY KEY,
                due REAL NOT NULL,
                kind TEXT NOT NULL CHECK (kind IN ('reminder', 'deadline')),
                match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
                created_at REAL NOT NULL
            )
            """,
            "CREATE INDEX timers_by_due ON timers (due)",
            "CREATE TABLE guild_settings (guild_id INTEGER PRIMARY KEY, reminder_hours REAL)",
            "CREATE TABLE user_settings (user_id INTEGER PRIMARY KEY, dm_reminders INTEGER NOT NULL DEFAULT 0)",
        ],
    ),
]

LATEST_VERSION = MIGRATIONS[-1][0]


async def applied_version(db: aiosqlite.Connection) -> int:
    await db.execute("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at REAL)")
    async with db.execute("SELECT COALESCE(MAX(version), 0) FROM schema_migrations") as cursor:
        row = await cursor.fetchone()
    return int(row[0]) if row else 0


async def migrate(db: aiosqlite.Connection) -> int:
    """Apply every migration newer than the recorded version; returns the version now applied."""
    current = await applied_version(db)
    await db.commit()
    for version, statements in MIGRATIONS:
        if version <= current:
            continue
        await db.execute("BEGIN IMMEDIATE")
        try:
            # Another process may have migrated while we waited for the write lock.
            async with db.execute("SELECT 1 FROM schema_migrations WHERE version = ?", (version,)) as cursor:
                if await cursor.fetchone():
                    await db.rollback()
                    continue
            for statement in statements:
                await db.execute(statement)
            await db.execute("INSERT INTO schema_migrations VALUES (?, ?)", (version, time.time()))
            await db.commit()
        except BaseException:
            await db.rollback()
            raise
        current = version
    return current
