"""Storage behind one interface: SQLite (the default, a file) or PostgreSQL (for several
processes), chosen by `open_storage` from the configured location. The queries in
`matches.py`, `timers.py`, `outbox.py` and `bot_state.py` are written once for both."""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Protocol

from bot.storage.connection import (
    ChannelHasMatch,
    Connection,
    StorageOpenError,
    StorageUnavailable,
    VersionConflict,
)
from bot.storage.matches import LogRow, MatchRow, MatchStatus, SeatRow

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


class Storage(Protocol):
    dialect: str
    location: str  # for messages and logs, without any password
    schema_version: int

    def reading(self, *, single: bool = False) -> AbstractAsyncContextManager[Connection]:
        """A read-only snapshot. `single`: the unit runs one statement (consistent by itself), so
        PostgreSQL needs no transaction around it."""
        ...

    def transaction(self, *, durable: bool = True) -> AbstractAsyncContextManager[Connection]:
        """A unit of work. `durable=False` for bookkeeping whose loss costs nothing but a repeat
        (a post noted as made): its commit does not wait for the disk."""
        ...

    async def close(self) -> None: ...


async def open_storage(location: str | Path) -> Storage:
    """SQLite for a file path (or ':memory:'); PostgreSQL for a postgresql:// URL.
    Any other URL scheme is refused, rather than taken for a file name."""
    text = str(location).strip()
    if text.lower().startswith(POSTGRES_SCHEMES):
        from bot.storage.postgres import PostgresStorage

        return await PostgresStorage.open(text)
    if "://" in text:
        scheme = text.split("://", 1)[0]
        raise StorageOpenError(
            f"NIKA_DATABASE names a {scheme}:// URL, which the bot cannot use: give a file path for SQLite "
            "or a postgresql:// URL"
        )
    from bot.storage.sqlite import SQLiteStorage

    return await SQLiteStorage.open(text)


__all__ = [
    "ChannelHasMatch",
    "Connection",
    "LogRow",
    "MatchRow",
    "MatchStatus",
    "SeatRow",
    "Storage",
    "StorageOpenError",
    "StorageUnavailable",
    "VersionConflict",
    "open_storage",
]
