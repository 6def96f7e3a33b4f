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
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager, suppress
from pathlib import Path

import aiosqlite

from bot.storage.connection import (
    READ_FAILED_MESSAGE,
    SAVE_FAILED_MESSAGE,
    Row,
    StorageOpenError,
    StorageUnavailable,
)
from bot.storage.migrations import LATEST_VERSION, migrate_sqlite, recorded_version
from engine.i18n import M, english

log = logging.getLogger(__name__)

# Waiting for another process's lock, per attempt: long enough to ride out a normal commit by a
# second process. A write keeps trying until its own deadline (WRITE_WAIT_SECONDS after it was
# asked for), so writes queued behind a held lock wait their turn together and go through once it
# is released, instead of failing one after another as each used up its own attempt.
BUSY_TIMEOUT_MS = 2_000
# How long a write may wait for the database: the front end has deferred its answer ("thinking…")
# after 1.5 s, and a player who waited ten seconds rather hears that nothing was saved.
WRITE_WAIT_SECONDS = 10.0
# The refusals' English words (players read them in their language: StorageUnavailable's own).
SAVE_FAILED = english(SAVE_FAILED_MESSAGE)
READ_FAILED = english(READ_FAILED_MESSAGE)
FULL_CHECK_BYTES = 32 * 1024 * 1024  # up to this size, start-up runs SQLite's full integrity check
# Left beside a database that disappeared while the bot ran, so that a restart does not begin a
# fresh, empty one in its place as if nothing had been there.
LOST_SUFFIX = ".lost"
GONE_WRITING = M("the bot cannot save right now: its database file is missing. Nothing was changed; the bot's "
                 "operator has to restore it")  # fmt: skip
GONE_READING = M("the bot cannot read its records right now: its database file is missing, and the bot's "
                 "operator has to restore it")  # fmt: skip


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

    async def later(self, sql: str, *args: object) -> None:
        await self.raw.execute(sql, args)  # in-process: nothing to save by waiting


def check_path(path: str, *, make_folder: bool = False) -> None:
    """Refuse paths that cannot hold a database, naming the path and the problem. The database's
    folder is never made for it (a backup's may be): a folder that is gone may have held the data."""
    try:
        target = Path(path)
        if target.is_dir():
            raise StorageOpenError(f"the database path {path} is a folder, not a file: name a file inside it")
        parent = target.parent
        for folder in (parent, *parent.parents):
            if folder.exists() and not folder.is_dir():
                raise StorageOpenError(f"the database path {path} cannot be used: {folder} is a file, not a folder")
        if make_folder:
            parent.mkdir(parents=True, exist_ok=True)
        elif not parent.is_dir():
            raise StorageOpenError(
                f"the database path {path} cannot be used: the folder {parent} does not exist. If the bot kept its "
                f"database there, restore the folder from a backup; for a first start, create the folder"
            )
        lost = Path(path + LOST_SUFFIX)
        if not target.exists() and lost.exists():
            raise StorageOpenError(
                f"the database {path} disappeared while the bot ran ({lost} says when): restore it from a backup, "
                f"or, to start with an empty database, delete {lost}"
            )
        if not target.exists() and Path(path + "-wal").exists():
            raise StorageOpenError(
                f"the database {path} is missing but its journal {path}-wal is there: restore the database from a "
                f"backup (and remove the journal), or remove the journal to start with an empty database"
            )
        if target.exists() and not os.access(target, os.R_OK):
            raise StorageOpenError(f"the database {path} cannot be read: check its permissions")
    except OSError as error:
        raise StorageOpenError(f"the database path {path} cannot be used: {error.strerror or error}") from None
    except ValueError:  # a NUL byte in the path
        raise StorageOpenError(f"the database path {path!r} is not a file name") from None


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


def _open_message(path: str, error: BaseException) -> str:
    text = " ".join(str(error).split())
    if isinstance(error, UnicodeError) or "not a database" in text or "malformed" in text or "corrupt" in text:
        return (
            f"the database {path} is damaged ({text[:200]}): restore it from a backup "
            f"(`python -m bot backup` makes one), or move it away to start afresh"
        )
    if "readonly" in text or "read-only" in text:
        return f"the database {path} cannot be written ({text}): check the file's and folder's permissions"
    if "locked" in text or "busy" in text:
        return f"the database {path} is locked by another process ({text}): is another copy of the bot running?"
    folder = Path(path).parent
    if "unable to open" in text and not os.access(folder, os.W_OK | os.X_OK):
        return f"cannot open the database {path}: the folder {folder} cannot be written (the bot keeps files beside it)"
    return f"cannot open the database {path}: {text}"


def _is_fault(error: BaseException) -> bool:
    """A refusal by the disk or the file (full, read-only, locked, damaged), not a bug of ours:
    OperationalError, or DatabaseError itself ("database disk image is malformed"). A text that
    no longer decodes is damage too. ProgrammingError, IntegrityError and the like stay errors."""
    return (
        isinstance(error, sqlite3.OperationalError)
        or type(error) is sqlite3.DatabaseError
        or isinstance(error, UnicodeDecodeError)
    )


class SQLiteStorage:
    dialect = "sqlite"

    def __init__(
        self,
        path: str,
        writer: aiosqlite.Connection,
        reader: aiosqlite.Connection | None,
        identity: tuple[int, int] | None = None,
        quick: aiosqlite.Connection | None = None,
    ) -> None:
        self.path = path
        self.location = path
        # The file opened (device, inode): a file deleted, or another put in its place, while the
        # bot runs is noticed before any write is acknowledged (`_check_file`).
        self._identity = identity
        self._gone: str | None = None
        self._writer = writer
        self._reader = reader
        # A second writing connection with synchronous=NORMAL, for writes that need not wait for the
        # disk (`transaction(durable=False)`); the write lock lets one connection write at a time.
        self._quick = quick
        self._write_lock = asyncio.Lock()
        self._read_lock = asyncio.Lock() if reader is not None else self._write_lock
        self.schema_version = 0
        self.write_wait = WRITE_WAIT_SECONDS
        self.writes_waiting = 0  # writes queued for the database right now (for the operator and the tests)

    @classmethod
    async def open(cls, path: str | Path, *, check: bool = True) -> SQLiteStorage:
        """Open (creating if needed) and migrate the database; StorageOpenError says why not.

        Every failure closes what was opened: aiosqlite's worker thread would otherwise keep
        the process alive after the error (a supervisor would see it running, and wait)."""
        path = str(path)
        memory = path == ":memory:"
        if not memory:
            check_path(path)
        new = not memory and not Path(path).exists()
        writer: aiosqlite.Connection | None = None
        reader: aiosqlite.Connection | None = None
        quick: aiosqlite.Connection | None = None
        try:
            writer = await _connect(path)
            await writer.execute("PRAGMA journal_mode = WAL")
            # FULL: a commit survives power loss too, not just a killed process.
            await writer.execute("PRAGMA synchronous = FULL")
            if check and not memory:
                await _check_pages(path, writer)
            found = await recorded_version(SQLiteConnection(writer))
            if found > LATEST_VERSION:
                raise StorageOpenError(
                    f"the database {path} was written by a newer release (schema version {found}; this release "
                    f"knows up to {LATEST_VERSION}): run the newer release, or restore a backup"
                )
            version = await migrate_sqlite(writer)
            if not memory:
                await _probe_write(writer)
                reader = await _connect(path, read_only=True)
                quick = await _connect(path)
                await quick.execute("PRAGMA synchronous = NORMAL")
        except BaseException as error:
            # Whatever went wrong (a damaged page can even fail to decode), close what was opened.
            await _close_all(reader, quick, writer)
            if isinstance(error, StorageOpenError) or not isinstance(error, Exception):
                raise
            if isinstance(error, sqlite3.Error | UnicodeError):
                raise StorageOpenError(_open_message(path, error)) from None
            if isinstance(error, OSError):
                raise StorageOpenError(f"cannot open the database {path}: {error.strerror or error}") from None
            raise StorageOpenError(f"cannot open the database {path}: {type(error).__name__}: {error}") from error
        identity = None if memory else _identity_of(path)
        if new:
            log.info("created a new, empty database (a first start)", extra={"database": path})
        storage = cls(path, writer, reader, identity, quick)
        storage.schema_version = version
        return storage

    async def close(self) -> None:
        # The reader first: the last connection to close checkpoints the WAL into the file and
        # removes it, and a read-only connection cannot; the file alone is then complete.
        await _close_all(self._reader, self._quick, self._writer)

    def _check_file(self, *, writing: bool) -> None:
        """Refuse (StorageUnavailable) once the database file is gone, or another file stands in its
        place: whatever is written would go to a file nobody will read again. Said once in the log;
        the bot must be restarted on a restored file."""
        if self._identity is None:
            return
        if self._gone is None:
            try:
                found: tuple[int, int] | None = _identity_of(self.path)
            except OSError:
                found = None
            if found == self._identity:
                return
            self._gone = "replaced by another file" if found is not None else "deleted"
            log.error(
                "database file gone: refusing every request until the bot is restarted on a restored file",
                extra={"database": self.path, "what": self._gone},
            )
            if found is None:  # so a restart does not begin an empty database in its place
                with suppress(OSError):
                    Path(self.path + LOST_SUFFIX).write_text(
                        f"The database {self.path} was {self._gone} while the bot ran ({time.ctime()}). Restore it "
                        f"from a backup, or delete this file to start with an empty database.\n"
                    )
        raise StorageUnavailable(GONE_WRITING if writing else GONE_READING, writing=writing)

    @asynccontextmanager
    async def reading(self, *, single: bool = False) -> AsyncIterator[SQLiteConnection]:
        """A read-only snapshot: every query inside sees the same committed state (a match row
        and its log read apart could otherwise straddle another action's commit). `single`: one
        statement, consistent by itself, needs no transaction."""
        self._check_file(writing=False)
        async with self._read_lock:
            raw = self._reader or self._writer
            # The writer shares the write lock when there is no reader (":memory:"): no commit
            # can fall between its reads, and it must not open a transaction of its own.
            snapshot = self._reader is not None and not single
            try:
                if snapshot:
                    await raw.execute("BEGIN")
                try:
                    yield SQLiteConnection(raw)
                finally:
                    if snapshot:
                        with suppress(sqlite3.Error):
                            await raw.rollback()  # it wrote nothing: ending it is all that is needed
            except (sqlite3.DatabaseError, UnicodeDecodeError) as error:
                if not _is_fault(error):
                    raise
                _log_fault(self.path, error, writing=False)
                raise StorageUnavailable(writing=False) from error

    @asynccontextmanager
    async def transaction(self, *, durable: bool = True) -> AsyncIterator[SQLiteConnection]:
        """BEGIN IMMEDIATE … COMMIT, rolled back on any exception. Writes take their turn in the
        order they came, each waiting (for this process's turn, then for another process's lock)
        until `write_wait` after it was asked for. `durable=False`: committed without an fsync, on
        the connection kept with synchronous=NORMAL (in WAL mode a power cut may lose it, a killed
        process does not; the next durable commit makes it durable too)."""
        self._check_file(writing=True)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.write_wait
        self.writes_waiting += 1
        try:
            async with asyncio.timeout_at(deadline):
                await self._write_lock.acquire()
        except TimeoutError:
            self.writes_waiting -= 1
            error = sqlite3.OperationalError("database is locked (the writes queued before this one still wait)")
            _log_fault(self.path, error, writing=True)
            raise StorageUnavailable(writing=True) from None
        try:
            raw = self._writer if durable or self._quick is None else self._quick
            try:
                await self._begin(raw, deadline)
            except sqlite3.DatabaseError as error:
                if not _is_fault(error):
                    raise
                _log_fault(self.path, error, writing=True)
                raise StorageUnavailable(writing=True) from error
            finally:
                self.writes_waiting -= 1
            try:
                yield SQLiteConnection(raw)
                await raw.commit()
                # Committed into the file that was opened: if that file left its place meanwhile,
                # the write is lost with it, and the caller must not acknowledge it.
                self._check_file(writing=True)
            except StorageUnavailable:
                raise
            except BaseException as error:
                # SQLite may have rolled back already (a failed write to a full disk does).
                with suppress(sqlite3.Error):
                    await raw.rollback()
                if _is_fault(error):
                    _log_fault(self.path, error, writing=True)
                    raise StorageUnavailable(writing=True) from error
                raise
        finally:
            self._write_lock.release()

    async def _begin(self, raw: aiosqlite.Connection, deadline: float) -> None:
        """BEGIN IMMEDIATE, tried again while another process holds the lock, until `deadline`:
        each attempt waits at most SQLite's busy timeout, and the last one ends at the deadline."""
        loop = asyncio.get_running_loop()
        busy_ms = BUSY_TIMEOUT_MS
        try:
            while True:
                wanted = max(1, min(BUSY_TIMEOUT_MS, int((deadline - loop.time()) * 1000)))
                if wanted != busy_ms:
                    await raw.execute(f"PRAGMA busy_timeout = {wanted}")
                    busy_ms = wanted
                try:
                    await raw.execute("BEGIN IMMEDIATE")
                    return
                except sqlite3.OperationalError as error:
                    if fault_kind(error) != "locked" or loop.time() >= deadline:
                        raise
        finally:
            if busy_ms != BUSY_TIMEOUT_MS:
                await raw.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")

    async def backup(self, target: str | Path) -> None:
        """A consistent copy of the live database, made with SQLite's online backup API. It is
        written beside the target and renamed over it at the end: an interrupted backup never
        leaves half a copy where the last good one was."""
        target = str(target)
        check_path(target, make_folder=True)
        destination_path = Path(target)
        if destination_path.exists() and destination_path.resolve() == Path(self.path).resolve():
            raise StorageOpenError(f"{target} is the live database itself: name another file for the copy")
        if destination_path.exists() and destination_path.stat().st_size and not _is_sqlite_file(destination_path):
            raise StorageOpenError(f"{target} exists and is not a database copy: name another file")
        partial = destination_path.with_name(destination_path.name + ".partial")

        def copy() -> None:
            partial.unlink(missing_ok=True)
            source = sqlite3.connect(self.path)
            destination = sqlite3.connect(partial)
            try:
                with destination:
                    source.backup(destination)
            finally:
                destination.close()
                source.close()
            os.replace(partial, destination_path)

        async with self._write_lock:  # no write of ours lands half-way through the copy
            try:
                await asyncio.to_thread(copy)
            except (sqlite3.Error, OSError) as error:
                with suppress(OSError):
                    partial.unlink(missing_ok=True)
                raise StorageOpenError(f"cannot write the copy {target}: {error}") from None


def _identity_of(path: str) -> tuple[int, int]:
    found = os.stat(path)
    return found.st_dev, found.st_ino


def _is_sqlite_file(path: Path) -> bool:
    with path.open("rb") as file:
        return file.read(16) == b"SQLite format 3\x00"


async def _probe_write(writer: aiosqlite.Connection) -> None:
    """Fail now, with a clear message, if the file cannot be written: SQLite opens a read-only
    file without complaint, and every player's action would then be refused at its commit."""
    async with writer.execute("PRAGMA user_version") as cursor:
        row = await cursor.fetchone()
    await writer.execute(f"PRAGMA user_version = {int(row[0]) if row else 0}")


async def _check_pages(path: str, writer: aiosqlite.Connection) -> None:
    """SQLite's own check of every page. A small file gets the full check (indexes against
    their tables too: a damaged index would hide a match); a large one the quick check,
    which is linear in its size, so start-up stays fast."""
    size = sum(Path(path + suffix).stat().st_size for suffix in ("", "-wal") if Path(path + suffix).exists())
    pragma = "integrity_check" if size <= FULL_CHECK_BYTES else "quick_check"
    async with writer.execute(f"PRAGMA {pragma}") as cursor:
        rows = [str(row[0]) for row in await cursor.fetchall()]
    if rows != ["ok"]:
        detail = " ".join("; ".join(rows[:3]).split())[:200]
        raise StorageOpenError(
            f"the database {path} is damaged ({detail}): restore it from a backup "
            f"(`python -m bot backup` makes one while the bot runs), or move it away to start afresh"
        )


async def _close_all(*connections: aiosqlite.Connection | None) -> None:
    for connection in connections:
        if connection is not None:
            with suppress(Exception):
                await connection.close()


def fault_kind(error: BaseException) -> str:
    """One word for the operator's log: what the disk or the file refused."""
    text = str(error).lower()
    for words, kind in (
        (("full", "disk i/o"), "disk-full-or-io"),
        (("readonly", "read-only"), "read-only"),
        (("locked", "busy"), "locked"),
        (("malformed", "not a database", "corrupt", "decode"), "damaged"),
    ):
        if any(word in text for word in words):
            return kind
    return "other"


def _log_fault(path: str, error: BaseException, *, writing: bool) -> None:
    log.error(
        "storage fault: nothing was changed",
        extra={"database": path, "fault": fault_kind(error), "error": str(error), "writing": writing},
    )
