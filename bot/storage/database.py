"""The SQLite connection: pragmas, migrations, and one-at-a-time access.

One aiosqlite connection serves the process. Statements from different coroutines
would otherwise interleave inside each other's transactions, so every unit of work
(a read or a write transaction) holds `lock`.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import aiosqlite

from bot.storage.migrations import migrate

BUSY_TIMEOUT_MS = 10_000


class Database:
    def __init__(self, connection: aiosqlite.Connection, path: str) -> None:
        self.connection = connection
        self.path = path
        self.lock = asyncio.Lock()
        self.schema_version = 0

    @classmethod
    async def open(cls, path: str | Path) -> Database:
        path = str(path)
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        connection = await aiosqlite.connect(path, isolation_level=None)
        connection.row_factory = aiosqlite.Row
        await connection.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        await connection.execute("PRAGMA journal_mode = WAL")
        # FULL: a commit survives power loss too, not just a killed process.
        await connection.execute("PRAGMA synchronous = FULL")
        await connection.execute("PRAGMA foreign_keys = ON")
        database = cls(connection, path)
        database.schema_version = await migrate(connection)
        return database

    async def close(self) -> None:
        await self.connection.close()

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self.lock:
            yield self.connection

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """BEGIN IMMEDIATE … COMMIT, rolled back on any exception."""
        async with self.lock:
            await self.connection.execute("BEGIN IMMEDIATE")
            try:
                yield self.connection
            except BaseException:
                await self.connection.rollback()
                raise
            await self.connection.commit()
