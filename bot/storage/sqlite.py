"""SQLite storage through aiosqlite: a real file, numbered migrations, one writer.

Two connections: every write goes through the writer, one transaction at a time
(BEGIN IMMEDIATE, so the lock is taken before anything is read); reads go through a
reader connection of their own, so in WAL mode a player's action never waits behind
another user's board or history request.

Faults the bot cannot fix (a full disk, a read-only file, a lock held by another
process, a damaged page) surface as `StorageUnavailable` with one log line for the
operator; the player is told that nothing was changed.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager, suppress
from pathlib import Path

import aiosqlite

from bot.storage.connection import Row, StorageOpenError, StorageUnavailable
from bot.storage.migrations import LATEST_VERSION, migrate_sqlite, recorded_version

log = logging.getLogger(__name__)

# Waiting for another process's lock: short enough that a deferred reply still comes
# within a few seconds, long enough to ride out a normal commit by a second process.
BUSY_TIMEOUT_MS = 2_000
SAVE_FAILED = "the bot cannot save right now; nothing was changed, try again shortly"
READ_FAILED = "the bot cannot read its records right now; try again shortly"


class SQLiteConnection:
    dialect = "sqlite"

    def __init__(self, raw: aiosqlite.Connection) -> None:
        self.raw = raw

    async def execute(self, sql: str, *args: object) -> int:
        cursor = await self.raw.execute(sql, args)
        return cursor.rowcount

    async def executemany(self, sql: str, rows: Sequence[Sequence[object]]) -> None:
        await self.raw.executemany(sql, rows)

    async def fetchall(self, sql: str, *args: object) -> list[Row]:
        async with self.raw.execute(sql, args) as cursor:
            return list(await cursor.fetchall())

    async def fetchone(self, sql: str, *args: object) -> Row | None:
        async with self.raw.execute(sql, args) as cursor:
            return await cursor.fetchone()

    async def insert(self, sql: str, *args: object) -> int:
        async with self.raw.execute(sql, args) as cursor:
            row = await cursor.fetchone()
        assert row is not None, "an INSERT … RETURNING id returned nothing"
        return int(row[0])


def check_path(path: str) -> None:
    """Refuse paths that cannot hold a database, naming the path and the problem."""
    target = Path(path)
    if target.is_dir():
        raise StorageOpenError(f"the database path {path} is a folder, not a file: name a file inside it")
    parent = target.parent
    for folder in (parent, *parent.parents):
        if folder.exists() and not folder.is_dir():
            raise StorageOpenError(f"the database path {path} cannot be used: {folder} is a file, not a folder")
    try:
        parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise StorageOpenError(f"cannot create the folder {parent} for the database: {error.strerror}") from None
    if target.exists() and not os.access(target, os.R_OK):
        raise StorageOpenError(f"the database {path} cannot be read: check its permissions")


async def _connect(path: str, *, read_only: bool = False) -> aiosqlite.Connection:
    if read_only:
        uri = Path(path).resolve().as_uri() + "?mode=ro"
        connection = await aiosqlite.connect(uri, uri=True, isolation_level=None)
    else:
        connection = await aiosqlite.connect(path, isolation_level=None)
    try:
        await connection.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        await connection.execute("PRAGMA foreign_keys = ON")
    except BaseException:
        await connection.close()
        raise
    return connection


def _open_message(path: str, error: sqlite3.Error) -> str:
    text = str(error)
    if "not a database" in text or "malformed" in text or "corrupt" in text:
        return (
            f"the database {path} is damaged ({text}): restore it from a backup "
            f"(`python -m bot backup` makes one), or move it away to start afresh"
        )
    if "readonly" in text or "read-only" in text:
        return f"the database {path} cannot be written ({text}): check the file's and folder's permissions"
    if "locked" in text or "busy" in text:
        return f"the database {path} is locked by another process ({text})"
    return f"cannot open the database {path}: {text}"


class SQLiteStorage:
    dialect = "sqlite"

    def __init__(self, path: str, writer: aiosqlite.Connection, reader: aiosqlite.Connection | None) -> None:
        self.path = path
        self.location = path
        self._writer = writer
        self._reader = reader
        self._write_lock = asyncio.Lock()
        self._read_lock = asyncio.Lock() if reader is not None else self._write_lock
        self.schema_version = 0

    @classmethod
    async def open(cls, path: str | Path, *, check: bool = True) -> SQLiteStorage:
        """Open (creating if needed) and migrate the database; StorageOpenError says why not.

        Every failure closes what was opened: aiosqlite's worker thread would otherwise keep
        the process alive after the error (a supervisor would see it running, and wait)."""
        path = str(path)
        memory = path == ":memory:"
        if not memory:
            check_path(path)
        writer: aiosqlite.Connection | None = None
        reader: aiosqlite.Connection | None = None
        try:
            writer = await _connect(path)
            await writer.execute("PRAGMA journal_mode = WAL")
            # FULL: a commit survives power loss too, not just a killed process.
            await writer.execute("PRAGMA synchronous = FULL")
            if check and not memory:
                await _quick_check(path, writer)
            found = await recorded_version(SQLiteConnection(writer))
            if found > LATEST_VERSION:
                raise StorageOpenError(
                    f"the database {path} was written by a newer release (schema version {found}; this release "
                    f"knows up to {LATEST_VERSION}): run the newer release, or restore a backup"
                )
            version = await migrate_sqlite(writer)
            if not memory:
                reader = await _connect(path, read_only=True)
        except StorageOpenError:
            await _close_all(writer, reader)
            raise
        except sqlite3.Error as error:
            await _close_all(writer, reader)
            raise StorageOpenError(_open_message(path, error)) from None
        except OSError as error:
            await _close_all(writer, reader)
            raise StorageOpenError(f"cannot open the database {path}: {error.strerror or error}") from None
        storage = cls(path, writer, reader)
        storage.schema_version = version
        return storage

    async def close(self) -> None:
        # The reader first: the last connection to close checkpoints the WAL into the file and
        # removes it, and a read-only connection cannot; the file alone is then complete.
        await _close_all(self._reader, self._writer)

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[SQLiteConnection]:
        async with self._read_lock:
            raw = self._reader or self._writer
            try:
                yield SQLiteConnection(raw)
            except sqlite3.IntegrityError:
                raise
            except sqlite3.DatabaseError as error:
                _log_fault(self.path, error, writing=False)
                raise StorageUnavailable(READ_FAILED, writing=False) from error

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[SQLiteConnection]:
        """BEGIN IMMEDIATE … COMMIT, rolled back on any exception."""
        async with self._write_lock:
            raw = self._writer
            try:
                await raw.execute("BEGIN IMMEDIATE")
            except sqlite3.DatabaseError as error:
                _log_fault(self.path, error, writing=True)
                raise StorageUnavailable(SAVE_FAILED, writing=True) from error
            try:
                yield SQLiteConnection(raw)
                await raw.commit()
            except BaseException as error:
                with suppress(sqlite3.Error):
                    await raw.rollback()
                if isinstance(error, sqlite3.DatabaseError) and not isinstance(error, sqlite3.IntegrityError):
                    _log_fault(self.path, error, writing=True)
                    raise StorageUnavailable(SAVE_FAILED, writing=True) from error
                raise

    async def backup(self, target: str | Path) -> None:
        """A consistent copy of the live database, made with SQLite's online backup API."""
        target = str(target)
        check_path(target)

        def copy() -> None:
            source = sqlite3.connect(self.path)
            destination = sqlite3.connect(target)
            try:
                with destination:
                    source.backup(destination)
            finally:
                destination.close()
                source.close()

        async with self._write_lock:  # no write of ours lands half-way through the copy
            await asyncio.to_thread(copy)


async def _quick_check(path: str, writer: aiosqlite.Connection) -> None:
    async with writer.execute("PRAGMA quick_check") as cursor:
        rows = [str(row[0]) for row in await cursor.fetchall()]
    if rows != ["ok"]:
        detail = "; ".join(rows[:3])
        raise StorageOpenError(
            f"the database {path} is damaged ({detail}): restore it from a backup "
            f"(`python -m bot backup` makes one while the bot runs), or move it away to start afresh"
        )


async def _close_all(*connections: aiosqlite.Connection | None) -> None:
    for connection in connections:
        if connection is not None:
            with suppress(Exception):
                await connection.close()


def _log_fault(path: str, error: sqlite3.Error, *, writing: bool) -> None:
    log.error("storage fault", extra={"database": path, "error": str(error), "writing": writing})
