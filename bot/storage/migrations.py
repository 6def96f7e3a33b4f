"""Numbered schema migrations, applied in order at start-up and recorded in the database.

Each backend has its own statements under the same numbers, so `schema_migrations` means
the same in both. SQLite keeps every step since the first release (its databases upgrade in
place); PostgreSQL arrived with version 4 and starts from that schema.
"""

from __future__ import annotations

import time

import aiosqlite

from bot.storage.connection import Connection

# Each entry is (version, statements). Never edit an applied migration: add a new one.
SQLITE_MIGRATIONS: list[tuple[int, list[str]]] = [
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
    (
        4,
        [
            # One host, many games: results, seats and timers no longer name Nika's cities, and
            # a match keeps its game's player count, options and seed. SQLite cannot drop a
            # CHECK, so matches, seats and timers are rebuilt (foreign keys are off meanwhile,
            # see migrate_sqlite) and their rows copied across.
            # The log's delete trigger names matches: it goes while the table is swapped.
            "DROP TRIGGER log_is_append_only_delete",
            """
            CREATE TABLE matches_v4 (
                id INTEGER PRIMARY KEY,
                game TEXT NOT NULL,
                guild_id INTEGER NOT NULL,
                channel_id INTEGER NOT NULL,
                parent_channel_id INTEGER,
                creator_id INTEGER NOT NULL,
                status TEXT NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'aborted')),
                players INTEGER NOT NULL,
                options TEXT NOT NULL DEFAULT '{}',
                seed INTEGER NOT NULL DEFAULT 0,
                start_position TEXT NOT NULL,
                position TEXT NOT NULL,
                to_act TEXT,
                version INTEGER NOT NULL DEFAULT 0,
                result TEXT,
                end_reason TEXT,
                rated INTEGER NOT NULL DEFAULT 1,
                created_at REAL NOT NULL,
                updated_at REAL NOT NULL,
                board_message_id INTEGER,
                reminder_hours REAL,
                deadline_days INTEGER,
                turn_started_at REAL,
                turn_reminders INTEGER NOT NULL DEFAULT 0
            )
            """,
            """
            INSERT INTO matches_v4 (id, game, guild_id, channel_id, creator_id, status, players, options, seed,
                start_position, position, to_act, version, result, end_reason, rated, created_at, updated_at,
                board_message_id, reminder_hours, deadline_days, turn_started_at, turn_reminders)
            SELECT id, game, guild_id, channel_id, creator_id, status, 4, '{}', 0,
                start_position, position, to_act, version, result, end_reason, rated, created_at, updated_at,
                board_message_id, reminder_hours, deadline_days, turn_started_at, turn_reminders
            FROM matches
            """,
            "DROP TABLE matches",
            "ALTER TABLE matches_v4 RENAME TO matches",
            """
            CREATE UNIQUE INDEX matches_one_open_per_channel
                ON matches (channel_id) WHERE status IN ('lobby', 'active')
            """,
            "CREATE INDEX matches_by_guild_status ON matches (guild_id, status)",
            """
            CREATE TRIGGER log_is_append_only_delete BEFORE DELETE ON log
            WHEN (SELECT COUNT(*) FROM matches WHERE id = OLD.match_id) > 0
            BEGIN SELECT RAISE(ABORT, 'the action log is append-only'); END
            """,
            # A seat is held by a member, or by the computer at a level.
            """
            CREATE TABLE seats_v4 (
                match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
                seat TEXT NOT NULL,
                user_id INTEGER,
                computer TEXT CHECK (computer IN ('easy', 'normal', 'hard')),
                PRIMARY KEY (match_id, seat),
                CHECK ((user_id IS NULL) != (computer IS NULL))
            )
            """,
            "INSERT INTO seats_v4 (match_id, seat, user_id) SELECT match_id, city, user_id FROM seats",
            "DROP TABLE seats",
            "ALTER TABLE seats_v4 RENAME TO seats",
            "CREATE INDEX seats_by_user ON seats (user_id)",
            "ALTER TABLE log RENAME COLUMN city TO seat",
            """
            CREATE TABLE timers_v4 (
                id INTEGER PRIMARY KEY,
                due REAL NOT NULL,
                kind TEXT NOT NULL,
                match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
                created_at REAL NOT NULL
            )
            """,
            "INSERT INTO timers_v4 (id, due, kind, match_id, created_at) SELECT id, due, kind, match_id, created_at "
            "FROM timers",
            "DROP TABLE timers",
            "ALTER TABLE timers_v4 RENAME TO timers",
            "CREATE INDEX timers_by_due ON timers (due)",
            # Notices the bot owes a channel (a deadline's board, a computer's move): written in the
            # transaction that made them, deleted once posted, so none is lost to a crash or a
            # failed post (at least once; each carries its match version for idempotence).
            """
            CREATE TABLE outbox (
                id INTEGER PRIMARY KEY,
                match_id INTEGER REFERENCES matches (id) ON DELETE CASCADE,
                guild_id INTEGER NOT NULL,
                channel_id INTEGER NOT NULL,
                notice TEXT NOT NULL,
                created_at REAL NOT NULL,
                attempts INTEGER NOT NULL DEFAULT 0,
                next_attempt REAL NOT NULL
            )
            """,
            "CREATE INDEX outbox_by_next_attempt ON outbox (next_attempt)",
            # The locale a player was last seen using, for posts no interaction triggers.
            "ALTER TABLE user_settings ADD COLUMN locale TEXT",
        ],
    ),
    (
        5,
        [
            # The server's locale, for posts no interaction triggers in its channels.
            "ALTER TABLE guild_settings ADD COLUMN locale TEXT",
        ],
    ),
    (
        6,
        [
            # A long match's state at some versions (bot/match/snapshot.py), so that loading it
            # replays a short tail of its log, not all of it. Derived data: losing it costs time only.
            """
            CREATE TABLE snapshots (
                match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
                version INTEGER NOT NULL,
                data TEXT NOT NULL,
                PRIMARY KEY (match_id, version)
            )
            """,
        ],
    ),
    (
        7,
        [
            # Notices' nonces never repeat. The outbox's ids were reused once posted rows were
            # deleted (a plain INTEGER PRIMARY KEY takes the largest id + 1), so Discord took a new
            # notice for a repeat of an old one and created nothing. AUTOINCREMENT never hands out
            # an id twice in a database's life; a random salt per notice keeps nonces apart after a
            # restore from a backup (whose counter is behind the ids already used). `owner` names
            # the process (its shards) whose front end holds a backup: restarted, it posts them at once.
            """
            CREATE TABLE outbox_v7 (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                match_id INTEGER REFERENCES matches (id) ON DELETE CASCADE,
                guild_id INTEGER NOT NULL,
                channel_id INTEGER NOT NULL,
                notice TEXT NOT NULL,
                created_at REAL NOT NULL,
                attempts INTEGER NOT NULL DEFAULT 0,
                next_attempt REAL NOT NULL,
                salt TEXT NOT NULL DEFAULT '',
                owner TEXT
            )
            """,
            "INSERT INTO outbox_v7 (id, match_id, guild_id, channel_id, notice, created_at, attempts, next_attempt) "
            "SELECT id, match_id, guild_id, channel_id, notice, created_at, attempts, next_attempt FROM outbox",
            "DROP TABLE outbox",
            "ALTER TABLE outbox_v7 RENAME TO outbox",
            "CREATE INDEX outbox_by_next_attempt ON outbox (next_attempt)",
        ],
    ),
    (
        8,
        [
            # A match whose channel the bot cannot post to is paused (its clocks stopped) from this
            # time until it can again; why a match is not rated, when a rule made it so (bot/rating_gate.py).
            "ALTER TABLE matches ADD COLUMN suspended_at REAL",
            "ALTER TABLE matches ADD COLUMN unrated_reason TEXT",
            "ALTER TABLE matches ADD COLUMN started_at REAL",  # when the lobby became a match
            # What a notice is, for the few that are handled apart (see bot/replies.py, Notice.kind).
            "ALTER TABLE outbox ADD COLUMN kind TEXT NOT NULL DEFAULT ''",
        ],
    ),
    (
        12,
        [
            # Clocks with a time bank (bot/service/clocks.py): each seat's time, stored as a
            # deadline while it runs (runs_out_at) and as time left while it stands (remaining),
            # so no clock lives in a process's memory.
            "ALTER TABLE matches ADD COLUMN bank_days INTEGER",
            # Pause by agreement: who agreed so far (user ids, comma-separated), and since when
            # every clock stands.
            "ALTER TABLE matches ADD COLUMN pause_agreed TEXT NOT NULL DEFAULT ''",
            "ALTER TABLE matches ADD COLUMN clocks_paused_at REAL",
            """
            CREATE TABLE seat_clocks (
                match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
                seat TEXT NOT NULL,
                remaining REAL NOT NULL,
                runs_out_at REAL,
                on_turn INTEGER NOT NULL DEFAULT 0,
                warned INTEGER NOT NULL DEFAULT 0,
                gained REAL NOT NULL DEFAULT 0,
                PRIMARY KEY (match_id, seat)
            )
            """,
            # Vacations: a member's, per server; ends_at is moved to the end when ended early.
            """
            CREATE TABLE vacations (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                guild_id INTEGER NOT NULL,
                user_id INTEGER NOT NULL,
                started_at REAL NOT NULL,
                ends_at REAL NOT NULL
            )
            """,
            "CREATE INDEX vacations_by_member ON vacations (guild_id, user_id, ends_at)",
            "ALTER TABLE guild_settings ADD COLUMN vacation_days INTEGER",
        ],
    ),
    (
        14,
        [
            # Rematch acceptances (bot/service/rematch.py): who of a finished match accepted, when. The
            # rematch a match led to is named on the new match, once (the unique index settles a race).
            """
            CREATE TABLE rematches (
                match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
                user_id INTEGER NOT NULL,
                accepted_at REAL NOT NULL,
                PRIMARY KEY (match_id, user_id)
            )
            """,
            "ALTER TABLE matches ADD COLUMN rematch_of INTEGER",
            "CREATE UNIQUE INDEX matches_one_rematch ON matches (rematch_of) WHERE rematch_of IS NOT NULL",
        ],
    ),
    (
        15,
        [
            # Tournaments (docs/tournaments.md): an event, its entrants, and its rounds' games and
            # byes. `version` is claimed by whoever pairs a round, so a round is paired once.
            """
            CREATE TABLE events (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                guild_id INTEGER NOT NULL,
                channel_id INTEGER NOT NULL,
                message_id INTEGER,
                game TEXT NOT NULL,
                format TEXT NOT NULL,
                title TEXT NOT NULL,
                creator_id INTEGER NOT NULL,
                status TEXT NOT NULL CHECK (status IN ('signup', 'running', 'finished', 'cancelled')),
                options TEXT NOT NULL DEFAULT '{}',
                deadline_days INTEGER,
                rounds INTEGER,
                double_round INTEGER NOT NULL DEFAULT 0,
                pod_shape TEXT,
                knockout_games INTEGER NOT NULL DEFAULT 3,
                rated INTEGER NOT NULL DEFAULT 1,
                seed INTEGER NOT NULL,
                max_entrants INTEGER,
                players INTEGER NOT NULL DEFAULT 2,
                signup_deadline REAL,
                winners TEXT,
                version INTEGER NOT NULL DEFAULT 0,
                created_at REAL NOT NULL,
                updated_at REAL NOT NULL
            )
            """,
            "CREATE INDEX events_by_guild ON events (guild_id, status)",
            "CREATE INDEX events_by_deadline ON events (signup_deadline) WHERE status = 'signup'",
            """
            CREATE TABLE entrants (
                event_id INTEGER NOT NULL REFERENCES events (id) ON DELETE CASCADE,
                user_id INTEGER NOT NULL,
                position INTEGER NOT NULL,
                name TEXT NOT NULL DEFAULT '',
                rating REAL,
                joined_at REAL NOT NULL,
                withdrawn_after INTEGER,
                PRIMARY KEY (event_id, user_id)
            )
            """,
            """
            CREATE TABLE event_rounds (
                event_id INTEGER NOT NULL REFERENCES events (id) ON DELETE CASCADE,
                number INTEGER NOT NULL,
                paired_at REAL NOT NULL,
                PRIMARY KEY (event_id, number)
            )
            """,
            """
            CREATE TABLE event_byes (
                event_id INTEGER NOT NULL REFERENCES events (id) ON DELETE CASCADE,
                round INTEGER NOT NULL,
                user_id INTEGER NOT NULL,
                points TEXT NOT NULL,
                PRIMARY KEY (event_id, round, user_id)
            )
            """,
            """
            CREATE TABLE event_tables (
                event_id INTEGER NOT NULL REFERENCES events (id) ON DELETE CASCADE,
                round INTEGER NOT NULL,
                board INTEGER NOT NULL,
                game INTEGER NOT NULL,
                sides TEXT NOT NULL,
                match_id INTEGER UNIQUE REFERENCES matches (id),
                ranks TEXT,
                forfeit INTEGER NOT NULL DEFAULT 0,
                PRIMARY KEY (event_id, round, board, game)
            )
            """,
        ],
    ),
    (
        22,
        [
            # Forecasts (bot/service/forecasts.py): a player's private conditional lines for one
            # match, valid only at the position (its key) and version they were made for.
            """
            CREATE TABLE forecasts (
                match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
                user_id INTEGER NOT NULL,
                seat TEXT NOT NULL,
                version INTEGER NOT NULL,
                position_key TEXT NOT NULL,
                lines TEXT NOT NULL,
                created_at REAL NOT NULL,
                PRIMARY KEY (match_id, user_id)
            )
            """,
        ],
    ),
    (
        23,
        [
            # The daily digest (bot/service/digest.py): the UTC hour a member chose, and when their
            # next digest is due; the dispatcher fires it like any timer.
            "ALTER TABLE user_settings ADD COLUMN digest_hour INTEGER",
            "ALTER TABLE user_settings ADD COLUMN digest_due REAL",
            "CREATE INDEX user_settings_by_digest_due ON user_settings (digest_due)",
        ],
    ),
    (
        24,
        [
            # The repetition key of every position of a match, by ply (engine/archive.py): what a
            # very long match's older keys are counted from once they leave memory. Upserted, so a
            # retry or a ply played again after an undo just rewrites its row.
            """
            CREATE TABLE repetition_keys (
                match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
                ply INTEGER NOT NULL,
                key INTEGER NOT NULL,
                PRIMARY KEY (match_id, ply)
            )
            """,
            # How often a key occurs below a ply: an index look-up, however long the match.
            "CREATE INDEX repetition_keys_by_key ON repetition_keys (match_id, key, ply)",
            # Only matches made from now on have every key stored; older ones keep theirs in memory.
            "ALTER TABLE matches ADD COLUMN archives_keys INTEGER NOT NULL DEFAULT 1",
            "UPDATE matches SET archives_keys = 0",
        ],
    ),
    (
        25,
        [
            # An event's matches may share the event's channel where threads are not allowed
            # (bot/service/addressing.py): such a match is stored with parent_channel_id equal to
            # its channel_id, which no other match has, and is left out of the one-open-match rule.
            "DROP INDEX matches_one_open_per_channel",
            """
            CREATE UNIQUE INDEX matches_one_open_per_channel ON matches (channel_id)
                WHERE status IN ('lobby', 'active') AND (parent_channel_id IS NULL OR parent_channel_id <> channel_id)
            """,
        ],
    ),
    (
        26,
        [
            # The stored OpenSkill table (bot/storage/ratings.py): filled by replaying every stored
            # rated result in order (the data step `fill_all`, run right after these statements).
            """
            CREATE TABLE ratings (
                guild_id INTEGER NOT NULL,
                game TEXT NOT NULL,
                user_id INTEGER NOT NULL,
                mu REAL NOT NULL,
                sigma REAL NOT NULL,
                wins INTEGER NOT NULL DEFAULT 0,
                losses INTEGER NOT NULL DEFAULT 0,
                draws INTEGER NOT NULL DEFAULT 0,
                PRIMARY KEY (guild_id, game, user_id)
            )
            """,
            """
            CREATE TABLE rating_history (
                guild_id INTEGER NOT NULL,
                game TEXT NOT NULL,
                user_id INTEGER NOT NULL,
                seq INTEGER NOT NULL,
                match_id INTEGER NOT NULL,
                mu REAL NOT NULL,
                sigma REAL NOT NULL,
                PRIMARY KEY (guild_id, game, user_id, seq)
            )
            """,
            """
            CREATE TABLE rating_keys (
                guild_id INTEGER NOT NULL,
                game TEXT NOT NULL,
                applied INTEGER NOT NULL DEFAULT 0,
                PRIMARY KEY (guild_id, game)
            )
            """,
        ],
    ),
]
# Migrations with a data step in Python after their statements, the same on both backends.
DATA_STEPS = frozenset({26})
# Migrations that rebuild tables run with foreign keys off (SQLite's documented procedure).
SQLITE_REBUILDS = frozenset({4, 7})

LATEST_VERSION = SQLITE_MIGRATIONS[-1][0]


async def data_step(version: int, db: Connection) -> None:
    """A migration's work that SQL alone cannot do, in the migration's transaction."""
    if version == 26:
        from bot.storage.ratings import fill_all

        await fill_all(db)


async def recorded_version(db: Connection) -> int:
    """The newest migration the database says it has (0 for a new file)."""
    await db.execute("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at REAL)")
    row = await db.fetchone("SELECT COALESCE(MAX(version), 0) FROM schema_migrations")
    return int(row[0]) if row else 0


async def migrate_sqlite(db: aiosqlite.Connection) -> int:
    """Apply every migration newer than the recorded version; returns the version now applied."""
    async with db.execute("SELECT COALESCE(MAX(version), 0) FROM schema_migrations") as cursor:
        row = await cursor.fetchone()
    current = int(row[0]) if row else 0
    from bot.storage.sqlite import SQLiteConnection

    for version, statements in SQLITE_MIGRATIONS:
        if version <= current:
            continue
        rebuild = version in SQLITE_REBUILDS
        if rebuild:
            await db.execute("PRAGMA foreign_keys = OFF")  # only takes effect outside a transaction
        await db.execute("BEGIN IMMEDIATE")
        try:
            # Another process may have migrated while we waited for the write lock.
            async with db.execute("SELECT 1 FROM schema_migrations WHERE version = ?", (version,)) as cursor:
                if await cursor.fetchone():
                    await db.rollback()
                    continue
            for statement in statements:
                await db.execute(statement)
            if version in DATA_STEPS:
                await data_step(version, SQLiteConnection(db))
            if rebuild:
                async with db.execute("PRAGMA foreign_key_check") as cursor:
                    broken = await cursor.fetchall()
                if broken:
                    raise RuntimeError(f"migration {version} left broken references: {list(broken)[:3]}")
            await db.execute("INSERT INTO schema_migrations VALUES (?, ?)", (version, time.time()))
            await db.commit()
        except BaseException:
            await db.rollback()
            raise
        finally:
            if rebuild:
                await db.execute("PRAGMA foreign_keys = ON")
        current = version
    return current
