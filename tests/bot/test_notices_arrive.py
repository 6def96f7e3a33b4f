"""Every notice arrives: what the bot stored, the channel hears about, once.

- Nonces are unique for the life of the database, on both backends, also after a restart and
  after a restore from a backup (the Discord double answers a repeated nonce with the earlier
  message and creates nothing, as Discord does, so a repeat would be a lost notice).
- Every committed action reaches the channel at least once, on every path: a front end that
  cannot post its reply (a dead process, a refused followup) leaves it to the outbox.
"""

from __future__ import annotations

import shutil
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from bot.clock import ManualClock
from bot.dispatcher import TimerDispatcher
from bot.replies import Notice, Reply
from bot.service import MatchService
from bot.service.notices import notice_json
from bot.storage import open_storage, outbox
from bot.storage.sqlite import SQLiteStorage
from tests.bot.hostile_surface import stub_renderer
from tests.postgres_server import PostgresServer

GUILD, CHANNEL = 1000, 77


class Delivered:
    """Notices the timer task posted: their nonces and texts, in order."""

    def __init__(self) -> None:
        self.nonces: list[str] = []
        self.texts: list[str] = []

    async def announce(self, notice: Notice, nonce: str) -> int:
        self.nonces.append(nonce)
        self.texts.append(notice.reply.text)
        return 5_000 + len(self.nonces)


async def post_notices(location: str, delivered: Delivered, first: int, count: int) -> None:
    """Store `count` notices, 20 at a time, each batch posted (and deleted) before the next."""
    clock = ManualClock()
    service = MatchService(await open_storage(location), renderer=stub_renderer, clock=clock)
    dispatcher = TimerDispatcher(service, delivered.announce)
    dispatcher.start()
    try:
        for batch in range(first, first + count, 20):
            async with service.storage.transaction() as db:
                for number in range(batch, min(batch + 20, first + count)):
                    text = notice_json(Notice(GUILD, CHANNEL, Reply(f"notice {number}")))
                    await outbox.add(db, None, GUILD, CHANNEL, text, clock.now())
            await dispatcher.settled()
    finally:
        await dispatcher.stop()
        await service.close()


Backup = Callable[[], Awaitable[Callable[[], str]]]


def backup_of(location: str, tmp_path: Path, request: pytest.FixtureRequest) -> Backup:
    """A way to back the database up now, giving a way to restore that copy later (the operator's
    steps: `python -m bot backup` and a file copy for SQLite; a copy of the database for PostgreSQL)."""
    if not location.startswith("postgresql://"):

        async def sqlite_backup() -> Callable[[], str]:
            storage = await SQLiteStorage.open(location)
            copy = tmp_path / "backup.db"
            try:
                await storage.backup(copy)
            finally:
                await storage.close()

            def restore() -> str:
                for suffix in ("-wal", "-shm"):
                    Path(location + suffix).unlink(missing_ok=True)
                shutil.copyfile(copy, location)
                return location

            return restore

        return sqlite_backup
    server: PostgresServer = request.getfixturevalue("postgres")
    name = location.rsplit("/", 1)[1]

    async def postgres_backup() -> Callable[[], str]:
        server.sql(f'CREATE DATABASE "{name}_copy" TEMPLATE "{name}"')  # nobody is connected: a snapshot
        return lambda: server.url_for(f"{name}_copy")

    return postgres_backup


async def test_nonces_never_repeat_across_restarts_and_a_restore_from_backup(
    db_path: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    delivered = Delivered()
    await post_notices(db_path, delivered, 0, 120)
    restore = await backup_of(db_path, tmp_path, request)()
    await post_notices(db_path, delivered, 120, 60)  # after the backup: ids the copy has not seen
    await post_notices(db_path, delivered, 180, 60)  # a restart
    restored = restore()  # the operator puts the backup back in place
    await post_notices(restored, delivered, 240, 60)
    assert delivered.texts == [f"notice {n}" for n in range(300)]  # each posted once, in order
    repeated = sorted({n for n in delivered.nonces if delivered.nonces.count(n) > 1})
    assert repeated == [], f"{len(repeated)} nonces repeat, e.g. {repeated[:5]}"
    assert all(len(nonce) <= 25 for nonce in delivered.nonces)  # Discord's limit
