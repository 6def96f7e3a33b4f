"""`python -m bot migrate-db --from <sqlite path> --to <postgresql url>`: copy a SQLite
database into an empty PostgreSQL one, keeping every id, then check the copy.

The source is opened as the bot opens it (so a database from an earlier release is upgraded
to this release's schema first) and read in one snapshot. Everything is written in one
PostgreSQL transaction, with the tables locked against writers, and checked before it
commits: each table's rows must arrive as they were, each match's stored position must be
its last log entry's, and `verify_match` sees every copied match as the bot's own queries
read it back. A copy that does not check out is rolled back, leaving the target empty.

Stop the bot before copying: what it writes to SQLite after the snapshot is not copied.
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys
import time
from collections.abc import Callable, Sequence
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncpg

from bot.storage.connection import Connection, Row, StorageOpenError, StorageUnavailable
from bot.storage.matches import LogRow, MatchRow, SeatRow, log_of, match_by_id, seats_of
from bot.storage.postgres import PostgresConnection, PostgresStorage
from bot.storage.sqlite import SQLiteStorage

USAGE = "python -m bot migrate-db --from <sqlite path> --to <postgresql url>"
COPY_TIMEOUT = 600.0  # seconds for one table's COPY, well past the pool's per-statement limit


@dataclass(frozen=True, slots=True)
class Table:
    name: str
    key: tuple[str, ...]  # the primary key: rows are compared by it
    label: str  # for the summary


# In foreign-key order: a match before its seats, log, timers and notices.
TABLES = (
    Table("matches", ("id",), "matches"),
    Table("seats", ("match_id", "seat"), "seats"),
    Table("log", ("match_id", "seq"), "log entries"),
    Table("snapshots", ("match_id", "version"), "snapshots"),
    Table("timers", ("id",), "timers"),
    Table("outbox", ("id",), "pending notices"),
    Table("guild_settings", ("guild_id",), "server settings"),
    Table("user_settings", ("user_id",), "player settings"),
    Table("bot_state", ("key",), "bot facts"),
    Table("seat_clocks", ("match_id", "seat"), "seat clocks"),
    Table("vacations", ("id",), "vacations"),
    # Tournaments (migration 15): an event before its entrants, rounds, byes and games.
    Table("events", ("id",), "events"),
    Table("entrants", ("event_id", "user_id"), "entrants"),
    Table("event_rounds", ("event_id", "number"), "event rounds"),
    Table("event_byes", ("event_id", "round", "user_id"), "event byes"),
    Table("event_tables", ("event_id", "round", "board", "game"), "event games"),
    Table("rematches", ("match_id", "user_id"), "rematch acceptances"),
    Table("forecasts", ("match_id", "user_id"), "forecasts"),
    Table("repetition_keys", ("match_id", "ply"), "repetition keys"),  # migration 24
    # The stored rating table (migration 26): derived, but copied as it is, so the copy's order of
    # results (`rating_keys`) goes on where the source's stopped.
    Table("ratings", ("guild_id", "game", "user_id"), "ratings"),
    Table("rating_history", ("guild_id", "game", "user_id", "seq"), "rating history points"),
    Table("rating_keys", ("guild_id", "game"), "rating orders"),
)
# Facts such as a command-tree hash may already be in a target the bot started on; the
# target's own value is kept, and such a database still counts as empty.
MERGED = frozenset({"bot_state"})
NOT_COPIED = frozenset({"schema_migrations"})  # each backend records its own

Columns = dict[str, list[tuple[str, str]]]  # table → its (column, PostgreSQL type) in order

# SQLite keeps whatever type a value came in; asyncpg wants the column's own.
_CONVERTERS: dict[str, Callable[[Any], object]] = {
    "bigint": int,
    "integer": int,
    "smallint": int,
    "double precision": float,
    "real": float,
    "boolean": bool,
    "text": str,
}


class CopyRefused(Exception):
    """Nothing was copied: the source or the target cannot take part (the message says why)."""


class CopyCheckFailed(Exception):
    """The copy did not check out; it was rolled back and the target is as it was."""


@dataclass(frozen=True, slots=True)
class CopiedMatch:
    """One match as the bot's queries read it back from the target."""

    match: MatchRow
    seats: list[SeatRow]
    log: list[LogRow]


def verify_match(rows: CopiedMatch) -> None:
    """Further checks of each copied match; raise CopyCheckFailed to reject the copy. The place
    for a full replay of the log through the match's game; by default nothing beyond the checks
    `copy` always makes."""


def check_position(rows: CopiedMatch) -> None:
    """A match's stored position is its last log entry's (its start position before any entry)."""
    expected = rows.log[-1].position if rows.log else rows.match.start_position
    if rows.match.position != expected:
        source = f"log entry {rows.log[-1].seq}" if rows.log else "start position"
        raise CopyCheckFailed(f"match {rows.match.id}: its stored position is not the one its {source} gives")


@dataclass(frozen=True, slots=True)
class CopySummary:
    source: str
    target: str
    counts: dict[str, int]  # table name → rows copied
    upgraded_from: int | None  # the source's schema version, when opening it upgraded it
    seconds: float

    def lines(self) -> list[str]:
        copied = ", ".join(f"{self.counts[table.name]} {table.label}" for table in TABLES)
        lines = [f"Copied {self.source} to {self.target}:", f"  {copied}."]
        if self.upgraded_from is not None:
            lines.insert(0, f"Upgraded {self.source} from schema version {self.upgraded_from} first.")
        lines.append("Checked: every row arrived as it was; every match's position is its last log entry's.")
        lines.append(f"Done in {self.seconds:.1f} s. Set NIKA_DATABASE to the PostgreSQL URL to run the bot on it.")
        return lines


async def copy(
    sqlite_path: str | Path, url: str, *, verify: Callable[[CopiedMatch], None] | None = None
) -> CopySummary:
    """Copy and check, in one transaction; raises CopyRefused, CopyCheckFailed, StorageOpenError
    or StorageUnavailable, with the target left as it was. `verify` defaults to `verify_match`."""
    started = time.perf_counter()
    path = Path(sqlite_path)
    if not path.is_file():
        raise CopyRefused(f"there is no SQLite database at {path}: give the file the bot ran on")
    before = _sqlite_version(path)
    source = await SQLiteStorage.open(path)
    try:
        target = await PostgresStorage.open(url)
        try:
            async with target.reading() as db:
                columns = await _target_columns(db)
            async with source.reading() as db:
                await _check_tables_known(db)
                rows = await _read_snapshot(db, columns)
            async with target.transaction() as db:
                await _refuse_non_empty(db, target.location)
                counts = await _write(db, columns, rows)
                await _check_rows(db, columns, rows)
                await _check_matches(db, verify or verify_match)
        finally:
            await target.close()
    finally:
        await source.close()
    upgraded = before if before < source.schema_version else None
    return CopySummary(str(path), target.location, counts, upgraded, time.perf_counter() - started)


def _sqlite_version(path: Path) -> int:
    """The schema version recorded in the file before the bot's opening may upgrade it."""
    with closing(sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)) as raw:
        try:
            row = raw.execute("SELECT COALESCE(MAX(version), 0) FROM schema_migrations").fetchone()
        except sqlite3.Error:
            return 0
    return int(row[0]) if row else 0


async def _target_columns(db: Connection) -> Columns:
    """Each table's (column, type) in PostgreSQL, which both sides share at one schema version."""
    rows = await db.fetchall(
        "SELECT table_name, column_name, data_type FROM information_schema.columns "
        "WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position"
    )
    columns: Columns = {table.name: [] for table in TABLES}
    for table, column, data_type in rows:
        if table in columns:  # the database may hold other software's tables too
            columns[str(table)].append((str(column), str(data_type)))
    return columns


async def _check_tables_known(db: Connection) -> None:
    """No table of the source is left behind (a later migration's table must join TABLES)."""
    rows = await db.fetchall("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    unknown = {str(row[0]) for row in rows} - {table.name for table in TABLES} - NOT_COPIED
    if unknown:
        raise RuntimeError(f"migrate-db does not know the tables {sorted(unknown)}: add them to TABLES")


async def _read_snapshot(db: Connection, columns: Columns) -> dict[str, list[Row]]:
    """Every table's rows, converted to PostgreSQL's types, from one read transaction (a
    reading is a snapshot: a bot still running cannot make the tables disagree)."""
    snapshot: dict[str, list[Row]] = {}
    for table in TABLES:
        names = [name for name, _ in columns[table.name]]
        rows = await db.fetchall(f"SELECT {', '.join(names)} FROM {table.name}")
        snapshot[table.name] = [_converted(table, columns[table.name], row) for row in rows]
    return snapshot


def _converted(table: Table, columns: list[tuple[str, str]], row: Row) -> Row:
    values: list[object] = []
    for (name, data_type), value in zip(columns, row, strict=True):
        if value is None:
            values.append(None)
            continue
        try:
            values.append(_CONVERTERS[data_type](value))
        except (KeyError, TypeError, ValueError):
            raise CopyRefused(
                f"{table.name}.{name} holds {value!r}, which PostgreSQL's {data_type} column cannot take: "
                "nothing was copied"
            ) from None
    return tuple(values)


async def _refuse_non_empty(db: Connection, location: str) -> None:
    names = ", ".join(table.name for table in TABLES)
    # Writers wait until the copy commits; readers go on.
    await db.execute(f"LOCK TABLE {names} IN EXCLUSIVE MODE")
    for table in TABLES:
        if table.name in MERGED:
            continue
        if await db.fetchone(f"SELECT 1 FROM {table.name} LIMIT 1") is not None:
            raise CopyRefused(
                f"the PostgreSQL database {location} already holds {table.label}: migrate-db copies only into an "
                "empty database, so nothing was copied. Create a new database (createdb) and copy into that"
            )


async def _write(db: Connection, columns: Columns, rows: dict[str, list[Row]]) -> dict[str, int]:
    assert isinstance(db, PostgresConnection)
    for table in TABLES:
        names = [name for name, _ in columns[table.name]]
        if table.name in MERGED:
            marks = ", ".join("?" * len(names))
            await db.executemany(
                f"INSERT INTO {table.name} ({', '.join(names)}) VALUES ({marks}) ON CONFLICT DO NOTHING",
                rows[table.name],
            )
        elif rows[table.name]:
            try:
                await db.raw.copy_records_to_table(
                    table.name, records=rows[table.name], columns=names, timeout=COPY_TIMEOUT
                )
            except asyncpg.IntegrityConstraintViolationError as error:
                raise CopyCheckFailed(
                    f"PostgreSQL refused a row of {table.name} ({error}): nothing was copied"
                ) from None
        if "id" in names:
            # The next id the bot makes follows the copied ones.
            await db.fetchone(
                f"SELECT setval(pg_get_serial_sequence('{table.name}', 'id'), "
                f"COALESCE((SELECT MAX(id) FROM {table.name}), 0) + 1, false)"
            )
    return {table.name: len(rows[table.name]) for table in TABLES}


async def _check_rows(db: Connection, columns: Columns, rows: dict[str, list[Row]]) -> None:
    """Every source row is in the target, value for value (compared by primary key, since the
    two databases may sort text differently)."""
    for table in TABLES:
        names = [name for name, _ in columns[table.name]]
        key = [names.index(column) for column in table.key]
        stored = await db.fetchall(f"SELECT {', '.join(names)} FROM {table.name}")
        copied = {tuple(row[i] for i in key): tuple(row) for row in stored}
        expected = {tuple(row[i] for i in key): tuple(row) for row in rows[table.name]}
        if table.name not in MERGED and len(copied) != len(expected):
            raise CopyCheckFailed(f"{table.name}: {len(expected)} rows in the source, {len(copied)} in the copy")
        for row_key, row in expected.items():
            if table.name in MERGED and row_key in copied:
                continue  # the target's own value was kept
            if copied.get(row_key) != row:
                raise CopyCheckFailed(f"{table.name}: the row {dict(zip(table.key, row_key, strict=True))} differs")


async def _check_matches(db: Connection, verify: Callable[[CopiedMatch], None]) -> None:
    for (match_id,) in await db.fetchall("SELECT id FROM matches ORDER BY id"):
        match = await match_by_id(db, match_id)
        assert match is not None
        rows = CopiedMatch(match, await seats_of(db, match_id), await log_of(db, match_id))
        check_position(rows)
        verify(rows)


def main(argv: Sequence[str] | None = None) -> int:
    """The `migrate-db` subcommand; argv is what follows it. Returns the exit status."""
    parser = argparse.ArgumentParser(
        prog="python -m bot migrate-db",
        description="Copy the bot's SQLite database into an empty PostgreSQL database, keeping every id.",
        epilog="Stop the bot first: what it writes to SQLite during the copy would not be copied.",
    )
    parser.add_argument("--from", dest="source", required=True, metavar="SQLITE_PATH", help="the SQLite file")
    parser.add_argument("--to", dest="target", required=True, metavar="POSTGRESQL_URL", help="postgresql://…")
    try:
        args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    except SystemExit as exit_:
        return int(exit_.code or 0)
    if not str(args.target).lower().startswith(("postgresql://", "postgres://")):
        print(f"migrate-db: --to takes a postgresql:// URL\nusage: {USAGE}", file=sys.stderr)
        return 2
    try:
        summary = asyncio.run(copy(args.source, args.target))
    except (CopyRefused, CopyCheckFailed, StorageOpenError, StorageUnavailable) as error:
        print(f"migrate-db: {error}", file=sys.stderr)
        return 1
    print("\n".join(summary.lines()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
