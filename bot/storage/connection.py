"""What every storage backend gives the queries: one connection inside a unit of work.

Queries are written once, with `?` placeholders, against this small protocol; the
SQLite backend runs them as they are and the PostgreSQL backend numbers the
placeholders. Rows are plain sequences, read by position.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from bot.errors import ServiceError
from engine.i18n import M, Text

Row = Sequence[Any]


class Connection(Protocol):
    dialect: str  # "sqlite" or "postgresql": for the few statements that differ

    async def execute(self, sql: str, *args: object) -> int:
        """Run a statement; returns the number of rows it changed."""

    async def executemany(self, sql: str, rows: Sequence[Sequence[object]]) -> None: ...

    async def fetchall(self, sql: str, *args: object) -> list[Row]: ...

    async def fetchone(self, sql: str, *args: object) -> Row | None: ...

    async def insert(self, sql: str, *args: object) -> int:
        """Run an INSERT … RETURNING id and return the new row's id."""

    async def later(self, sql: str, *args: object) -> None:
        """A write whose result nobody reads (an INSERT, UPDATE or DELETE), sent with the next
        statement or at the commit. SQLite runs it at once; PostgreSQL sends the writes queued
        so far as one statement (each a data-modifying WITH), saving a round trip each. The
        effect is the same as running them in order: a write that touches a table an earlier
        queued one wrote (an UPDATE or DELETE of it, or a read of it in a subquery) first sends
        the queue, and any other statement does too (bot/storage/postgres.py, `Batch`)."""


SAVE_FAILED_MESSAGE = M("the bot cannot save right now; nothing was changed, try again shortly")
READ_FAILED_MESSAGE = M("the bot cannot read its records right now; try again shortly")


class StorageUnavailable(ServiceError):
    """The database refused a read or a write for a reason outside the bot's control (a full
    disk, a read-only file, a lock held elsewhere, a lost server). Nothing was changed; the
    message says so to the player, privately, like any refusal, in the player's language."""

    def __init__(self, message: Text | None = None, *, writing: bool) -> None:
        super().__init__(message if message is not None else SAVE_FAILED_MESSAGE if writing else READ_FAILED_MESSAGE)
        self.writing = writing


class StorageOpenError(Exception):
    """The database cannot be used at all; the message names it and says what to do."""


class ChannelHasMatch(Exception):
    """The unique index refused a second open match in one channel."""


class VersionConflict(Exception):
    """The match changed since it was read."""
