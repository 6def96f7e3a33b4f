"""PostgreSQL storage through an asyncpg pool, for several bot processes sharing one database.

The queries are the same as SQLite's: the adapter numbers their `?` placeholders and returns
the changed-row count from the server's status line. Writes run in READ COMMITTED
transactions, which gives the guarantees SQLite's BEGIN IMMEDIATE gives, through the
queries themselves: a racing writer's `UPDATE matches … WHERE id = ? AND version = ?` waits
for the first writer's row lock, then re-reads the row, finds the new version and changes
nothing (VersionConflict); a timer's DELETE reports 1 in one transaction only. Reads run in
read-only REPEATABLE READ transactions, so one request sees one consistent state.

Faults the bot cannot fix (a lost server, a read-only database, a full disk, a shutdown, a
lock held too long) surface as `StorageUnavailable` with one log line for the operator;
integrity errors propagate, so `matches.insert_match` can tell a second open match in a
channel by asyncpg's UniqueViolationError.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager, suppress
from functools import lru_cache
from typing import Any
from urllib.parse import parse_qsl, unquote, urlencode, urlsplit, urlunsplit

import asyncpg

from bot.storage.connection import Row, StorageOpenError, StorageUnavailable
from bot.storage.migrations import LATEST_VERSION
from bot.storage.postgres_schema import FIRST_VERSION, UnknownSchema, migrate_postgres

log = logging.getLogger(__name__)

CONNECT_TIMEOUT = 10.0  # seconds to reach the server and log in
ACQUIRE_TIMEOUT = 10.0  # seconds to wait for a free pooled connection
COMMAND_TIMEOUT = 30.0  # seconds for one statement, as the client's last resort
CLOSE_TIMEOUT = 5.0
POOL_SIZE = 10
MIN_SERVER_VERSION = 11  # EXECUTE FUNCTION in the log's trigger
SERVER_SETTINGS = {
    "application_name": "boardgame-host",
    # A row lock held this long means a stuck writer elsewhere: fail (nothing changed) rather
    # than leave a player's reply hanging. SQLite's busy timeout plays the same part.
    "lock_timeout": "5s",
    # A process that hangs inside a transaction must not hold its locks for ever.
    "idle_in_transaction_session_timeout": "60s",
    # Commits do not wait for the disk unless their transaction asks (DURABLE_BEGIN): a player's
    # action always does; bookkeeping whose loss costs a repeat (a post noted as made) does not.
    "synchronous_commit": "off",
}
READ_BEGIN = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"
WRITE_BEGIN = "BEGIN ISOLATION LEVEL READ COMMITTED"
DURABLE_BEGIN = f"{WRITE_BEGIN}; SET LOCAL synchronous_commit = on"

# SQLSTATEs of faults outside the bot's control; nothing was changed and a retry may succeed.
# Classes: 08 connection, 53 insufficient resources (disk full, out of memory, too many
# connections), 57 operator intervention (shutdown, cancel), 58 system (I/O), XX internal
# (corruption). Single states: read-only transaction, serialization failure, deadlock,
# lock timeout, privilege revoked.
FAULT_CLASSES = frozenset({"08", "53", "57", "58", "XX"})
FAULT_STATES = frozenset({"25006", "40001", "40P01", "55P03", "42501"})

_TOKENS = re.compile(r"'[^']*'|\"[^\"]*\"|--[^\n]*|\?")


@lru_cache(maxsize=1024)
def numbered(sql: str) -> str:
    """`?` placeholders as PostgreSQL's `$1, $2, …`, leaving quoted text and comments alone."""
    count = 0

    def number(match: re.Match[str]) -> str:
        nonlocal count
        if match.group() != "?":
            return match.group()
        count += 1
        return f"${count}"

    return _TOKENS.sub(number, sql)


def changed_rows(status: str) -> int:
    """The row count of a status line such as 'UPDATE 1', 'DELETE 0' or 'INSERT 0 3'."""
    words = status.split()
    if words and words[0] in ("INSERT", "UPDATE", "DELETE", "MERGE", "COPY") and words[-1].isdigit():
        return int(words[-1])
    return 0


_WRITE = re.compile(r"\s*(INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+(\w+)", re.IGNORECASE)
_READ_TABLES = re.compile(r"\b(?:FROM|JOIN)\s+(\w+)", re.IGNORECASE)
BATCH_STATEMENTS = 32  # queued writes sent as one statement at most
BATCH_ARGUMENTS = 4_000  # and their arguments (the protocol allows 32,767)


class PostgresConnection:
    """One pooled connection inside a unit of work. Its BEGIN goes with its first statement's
    turn (`begin`, sent lazily: a unit that sends nothing costs nothing), and writes queued by
    `later` go as one statement: each round trip to the server is an action's latency."""

    dialect = "postgresql"

    def __init__(self, raw: asyncpg.Connection, begin: str | None = None, *, single: bool = False) -> None:
        self.raw = raw
        self._begin = begin  # sent before the first statement, then None
        self._single = single  # a one-statement read: no transaction, and a second statement is a bug
        self._statements = 0
        self._in_transaction = False
        self._queue: list[tuple[str, tuple[object, ...]]] = []
        self._queued_tables: set[str] = set()

    async def execute(self, sql: str, *args: object) -> int:
        await self._ready()
        return changed_rows(str(await self.raw.execute(numbered(sql), *args)))

    async def executemany(self, sql: str, rows: Sequence[Sequence[object]]) -> None:
        if rows:
            await self._ready()
            await self.raw.executemany(numbered(sql), rows)

    async def fetchall(self, sql: str, *args: object) -> list[Row]:
        await self._ready()
        return [tuple(record) for record in await self.raw.fetch(numbered(sql), *args)]

    async def fetchone(self, sql: str, *args: object) -> Row | None:
        await self._ready()
        record = await self.raw.fetchrow(numbered(sql), *args)
        return None if record is None else tuple(record)

    async def insert(self, sql: str, *args: object) -> int:
        found = _WRITE.match(sql)
        if self._queue and found is not None and _READ_TABLES.search(sql) is None \
                and found.group(2).lower() not in self._queued_tables:  # fmt: skip
            # An INSERT … VALUES reads no table, so it may go last in the queued writes' statement.
            self._queue.append((sql, args))
            value = await self._flush()
        else:
            await self._ready()
            value = await self.raw.fetchval(numbered(sql), *args)
        assert value is not None, "an INSERT … RETURNING id returned nothing"
        return int(value)

    async def later(self, sql: str, *args: object) -> None:
        found = _WRITE.match(sql)
        assert found is not None, "only an INSERT, UPDATE or DELETE can wait to be sent"
        table = found.group(2).lower()
        touched = {name.lower() for name in _READ_TABLES.findall(sql)}
        if not found.group(1).upper().startswith("INSERT") or "ON CONFLICT" in sql.upper():
            touched.add(table)  # it changes rows that are there (an upsert too: not one row twice)
        # Every write of one statement sees the tables as they were before it: a write that
        # reads (or changes rows of) a table an earlier queued write wrote goes after those.
        arguments = sum(len(queued) for _, queued in self._queue)
        if (touched & self._queued_tables or len(self._queue) >= BATCH_STATEMENTS
                or arguments + len(args) > BATCH_ARGUMENTS):  # fmt: skip
            await self._flush()
        self._queue.append((sql, args))
        self._queued_tables.add(table)

    @property
    def began(self) -> bool:
        """Whether BEGIN was sent (its answer may not have come back yet)."""
        return self._in_transaction

    async def finish(self, *, autocommit: bool) -> None:
        """Send what is queued, and COMMIT if a transaction began. `autocommit`: a unit that only
        queued writes sends them as one statement outside any transaction (atomic by itself)."""
        if self._begin is not None and self._statements == 0 and autocommit:
            self._begin = None
        await self._flush()
        if self._in_transaction:
            await self.raw.execute("COMMIT")

    async def _ready(self) -> None:
        """Before a statement: what is queued goes first (its effects are then visible)."""
        await self._flush()
        await self._start()

    async def _start(self) -> None:
        if self._single and self._statements:
            raise RuntimeError("a one-statement read ran a second statement: use reading() for a snapshot")
        self._statements += 1
        if self._begin is not None:
            begin, self._begin = self._begin, None
            self._in_transaction = True
            await self.raw.execute(begin)  # simple protocol: BEGIN and its SET LOCAL in one round trip

    async def _flush(self) -> Any:
        """Send the queued writes as one statement; the last one's first value (an INSERT's id)."""
        if not self._queue:
            return None
        queue, self._queue = self._queue, []
        self._queued_tables.clear()
        await self._start()
        *first, (last, last_args) = queue
        # Data-modifying WITHs, then the last write: one statement, its placeholders in text order.
        sql = ("WITH " + ", ".join(f"w{n} AS ({text})" for n, (text, _) in enumerate(first)) + " " if first
               else "") + last  # fmt: skip
        args = [value for _, values in first for value in values] + list(last_args)
        return await self.raw.fetchval(numbered(sql), *args)


def is_fault(error: BaseException) -> bool:
    """True for errors that say the database cannot serve now, not that the bot asked wrongly."""
    if isinstance(error, OSError | TimeoutError | asyncpg.PostgresConnectionError):
        return True
    if isinstance(error, asyncpg.PostgresError):
        state = str(error.sqlstate or "")
        return state in FAULT_STATES or state[:2] in FAULT_CLASSES
    return False


def without_password(url: str) -> str:
    """The URL for messages and logs: the user stays, any password (in it or its query) goes."""
    parts = urlsplit(url)
    netloc = parts.netloc
    if "@" in netloc:
        userinfo, hosts = netloc.rsplit("@", 1)
        user = userinfo.split(":", 1)[0]
        netloc = f"{user}@{hosts}" if user else hosts
    query = urlencode(
        [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if k.lower() not in _SECRET_PARAMETERS]
    )
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


_SECRET_PARAMETERS = ("password", "sslpassword")


def _secrets_of(url: str) -> list[str]:
    parts = urlsplit(url)
    found = [v for k, v in parse_qsl(parts.query) if k.lower() in _SECRET_PARAMETERS]
    userinfo = parts.netloc.rsplit("@", 1)[0] if "@" in parts.netloc else ""
    if ":" in userinfo:
        password = userinfo.split(":", 1)[1]
        found += [password, unquote(password)]
    return [secret for secret in found if secret]


def _one_line(error: BaseException, secrets: Sequence[str]) -> str:
    text = (str(error).strip().splitlines() or [type(error).__name__])[0]
    for secret in secrets:
        text = text.replace(secret, "***")
    return text


def _open_message(location: str, error: BaseException, secrets: Sequence[str]) -> str:
    detail = _one_line(error, secrets)
    state = str(getattr(error, "sqlstate", "") or "")
    if isinstance(error, TimeoutError):
        return f"the PostgreSQL server at {location} did not answer within {CONNECT_TIMEOUT:g} s: check host and port"
    if isinstance(error, OSError):
        return f"cannot reach the PostgreSQL server at {location} ({detail}): check that it runs, and the host and port"
    if state.startswith("28"):
        return f"the PostgreSQL server refused the login to {location} ({detail}): check the user name and password"
    if state == "3D000":
        return f"the database {location} does not exist ({detail}): create it (createdb), or fix the URL"
    if state == "42501":
        return f"cannot set up the bot's tables in {location} ({detail}): grant the user CREATE on the schema"
    if state == "57P03":
        return f"the PostgreSQL server at {location} is starting or stopping ({detail}): try again shortly"
    if isinstance(error, asyncpg.ClientConfigurationError | ValueError):
        return f"the database URL {location} cannot be used ({detail}): see the PostgreSQL connection URI format"
    return f"cannot open the database {location}: {detail}"


class PostgresStorage:
    dialect = "postgresql"

    def __init__(self, location: str, pool: asyncpg.Pool, schema_version: int) -> None:
        self.location = location
        self._pool = pool
        self.schema_version = schema_version

    @classmethod
    async def open(cls, url: str) -> PostgresStorage:
        """Connect and migrate; StorageOpenError names the database (without its password) and
        says what to do. Every failure closes the pool, so no connection outlives the error."""
        location = without_password(url)
        secrets = _secrets_of(url)
        pool: asyncpg.Pool | None = None
        try:
            pool = asyncpg.create_pool(
                url,
                # One connection at once, so a bad URL fails here; no floor kept afterwards, as
                # asyncpg's floor keeping retries (and logs a traceback) all through an outage.
                init_size=1,
                min_size=0,
                max_size=POOL_SIZE,
                timeout=CONNECT_TIMEOUT,
                command_timeout=COMMAND_TIMEOUT,
                server_settings=SERVER_SETTINGS,
                reset=_keep_session,
            )
            await pool
            async with pool.acquire(timeout=CONNECT_TIMEOUT) as raw:
                server = raw.get_server_version()
                if server.major < MIN_SERVER_VERSION:
                    raise StorageOpenError(
                        f"the PostgreSQL server at {location} runs version {server.major}; the bot needs "
                        f"{MIN_SERVER_VERSION} or newer"
                    )
                version = await migrate_postgres(raw)
        except StorageOpenError:
            _terminate(pool)
            raise
        except UnknownSchema as unknown:
            _terminate(pool)
            if unknown.version > LATEST_VERSION:
                raise StorageOpenError(
                    f"the database {location} was written by a newer release (schema version {unknown.version}; "
                    f"this release knows up to {LATEST_VERSION}): run the newer release, or restore a backup"
                ) from None
            raise StorageOpenError(
                f"the database {location} records schema version {unknown.version}, which no PostgreSQL schema "
                f"had (they start at {FIRST_VERSION}): it was not made by this bot; use an empty database"
            ) from None
        except Exception as error:
            _terminate(pool)
            raise StorageOpenError(_open_message(location, error, secrets)) from None
        except BaseException:  # cancelled or interrupted: still leave no connection open
            _terminate(pool)
            raise
        return cls(location, pool, version)

    async def close(self) -> None:
        try:
            await asyncio.wait_for(self._pool.close(), CLOSE_TIMEOUT)
        except Exception:
            # A connection still busy, or a server gone mid-goodbye: close them the hard way.
            _terminate(self._pool)

    @asynccontextmanager
    async def reading(self, *, single: bool = False) -> AsyncIterator[PostgresConnection]:
        """A read-only snapshot: every query inside sees the same committed state. `single`: one
        statement, which sees one committed state by itself, so no transaction is begun (its BEGIN
        and COMMIT would be two more round trips)."""
        async with self._unit(writing=False, begin=None if single else READ_BEGIN, single=single) as db:
            yield db

    @asynccontextmanager
    async def transaction(self, *, durable: bool = True) -> AsyncIterator[PostgresConnection]:
        """BEGIN … COMMIT (READ COMMITTED), rolled back on any exception. The connections' default
        is synchronous_commit off; a durable transaction turns it on for itself in its BEGIN's
        round trip, so its COMMIT waits for the server's disk. `durable=False` does not wait, and a
        unit of only queued writes (`later`) is sent as one statement without BEGIN and COMMIT."""
        async with self._unit(writing=True, begin=DURABLE_BEGIN if durable else WRITE_BEGIN,
                              autocommit=not durable) as db:  # fmt: skip
            yield db

    @asynccontextmanager
    async def _unit(
        self, *, writing: bool, begin: str | None, single: bool = False, autocommit: bool = False
    ) -> AsyncIterator[PostgresConnection]:
        try:
            raw = await self._pool.acquire(timeout=ACQUIRE_TIMEOUT)
        except Exception as error:
            if not is_fault(error) and not isinstance(error, asyncpg.InterfaceError):
                raise
            raise self._unavailable(error, writing=writing) from error
        try:
            db = PostgresConnection(raw, begin, single=single)
            try:
                yield db
                await db.finish(autocommit=autocommit)
            except BaseException as error:
                if not isinstance(error, Exception) and (db.began or raw.is_in_transaction()):
                    # Cancelled (a stopping task) after BEGIN was sent: BEGIN or a statement may still
                    # be in flight, so asyncpg may not know yet that a transaction is open, and the
                    # pool would find it open on release (logged as an error). Drop the connection:
                    # the server rolls back.
                    with suppress(Exception):
                        raw.terminate()
                with suppress(Exception):  # a dead connection may already be back in the pool
                    if not raw.is_closed() and raw.is_in_transaction():
                        await raw.execute("ROLLBACK")
                # A closed connection is a lost server whatever asyncpg called the failure.
                if isinstance(error, Exception) and (is_fault(error) or _is_closed(raw)):
                    raise self._unavailable(error, writing=writing) from error
                raise
        finally:
            await self._release(raw)

    def _unavailable(self, error: BaseException, *, writing: bool) -> StorageUnavailable:
        log.error("storage fault", extra={"database": self.location, "error": str(error), "writing": writing})
        return StorageUnavailable(writing=writing)  # its message, in the player's language

    async def _release(self, raw: asyncpg.Connection) -> None:
        try:
            await self._pool.release(raw, timeout=CLOSE_TIMEOUT)
        except Exception:
            # The pool resets a connection on release; a dead one is dropped and replaced later.
            with suppress(Exception):
                raw.terminate()


async def _keep_session(raw: asyncpg.Connection) -> None:
    """The pool's reset of a connection coming back: nothing to undo. asyncpg's default (advisory
    locks unlocked, cursors closed, LISTENs ended, settings reset) is a round trip per unit of
    work, and the bot leaves none of those behind: its advisory locks are transaction-scoped
    (pg_advisory_xact_lock), its cursors end with their transaction, it never LISTENs, and it
    changes settings only with SET LOCAL. asyncpg still rolls back a transaction left open
    (a failed ROLLBACK) before calling this."""


def _is_closed(raw: asyncpg.Connection) -> bool:
    try:
        return bool(raw.is_closed())
    except asyncpg.InterfaceError:  # the pool already took back a connection that died
        return True


def _terminate(pool: Any) -> None:
    if pool is not None:
        with suppress(Exception):
            pool.terminate()
