"""Limits that hold under races and faults: the lobby cap under concurrency, a database file
that disappears while the bot runs, and writes queued behind a lock held by another process."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from bot.errors import NotAllowed, ServiceError
from bot.replies import Reply
from bot.service import MatchService
from bot.storage import StorageUnavailable, open_storage
from bot.storage import matches as queries
from bot.storage.sqlite import WRITE_WAIT_SECONDS, SQLiteStorage
from tests.bot.hostile_storage import lock_held_elsewhere, logged_moves
from tests.bot.hostile_surface import stub_renderer

GUILD, ALICE, BOB = 1000, 11, 22
GAME = "tictactoe"


async def quick(location: str) -> MatchService:
    return MatchService(await open_storage(location), renderer=stub_renderer)


async def test_the_lobby_cap_holds_when_a_member_opens_thirty_lobbies_at_once(db_path: str) -> None:
    """Thirty /new from one member at the same moment, through two processes' worth of connections:
    three lobbies open (the cap), twenty-seven are refused, on both backends."""
    services = [await quick(db_path), await quick(db_path)]
    try:
        results = await asyncio.gather(
            *(services[channel % 2].new_match(GUILD, channel, ALICE, "x", game=GAME) for channel in range(1, 31)),
            return_exceptions=True,
        )
        async with services[0].storage.reading() as db:
            stored = await queries.open_lobbies_by(db, GUILD, ALICE)
    finally:
        for service in services:
            await service.close()
    opened = [r for r in results if isinstance(r, Reply)]
    refused = [r for r in results if isinstance(r, NotAllowed)]
    assert (len(opened), len(refused), stored) == (3, 27, 3), [type(r).__name__ for r in results]
    assert all("you already have 3 open lobbies on this server" in str(r) for r in refused)


# --- 11. writes queued behind a lock another process holds --------------------------------------
async def a_match_per_channel(path: str, channels: int) -> MatchService:
    """Started tic-tac-toe matches in channels 1…N (X to play)."""
    service = MatchService(await open_storage(path), renderer=stub_renderer, lobbies_per_member=channels)
    for channel in range(1, channels + 1):
        await service.new_match(GUILD, channel, ALICE, "x", game=GAME)
        await service.join(GUILD, channel, BOB, "o")
        await service.start(GUILD, channel, ALICE)
    return service


async def timed_move(service: MatchService, channel: int) -> tuple[float, BaseException | None]:
    began = time.monotonic()
    try:
        await service.act(GUILD, channel, ALICE, "a1")
    except ServiceError as error:
        return time.monotonic() - began, error
    return time.monotonic() - began, None


async def test_writes_queued_behind_a_held_lock_wait_their_turn_and_all_go_through(tmp_path: Path) -> None:
    """Another process holds the database's lock for 3 s while three moves come in: they queue,
    and once the lock is released each is saved in turn. (Before, each waited 2 s on its own:
    the first failed at 2 s, the next at 4 s, and so on, while the lock was still held.)"""
    path = str(tmp_path / "queued.db")
    service = await a_match_per_channel(path, 3)
    try:
        with lock_held_elsewhere(path):
            moves = [asyncio.ensure_future(timed_move(service, channel)) for channel in (1, 2, 3)]
            await asyncio.sleep(3.0)  # how long the other process holds the lock
        results = await asyncio.gather(*moves)
    finally:
        await service.close()
    assert [error for _, error in results] == [None, None, None]
    assert all(3.0 <= waited < WRITE_WAIT_SECONDS for waited, _ in results), results
    assert logged_moves(path) == [(1, "a1"), (2, "a1"), (3, "a1")]


async def test_writes_queued_past_the_window_are_all_refused_at_its_end_not_one_by_one(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = str(tmp_path / "held.db")
    service = await a_match_per_channel(path, 3)
    storage = service.storage
    assert isinstance(storage, SQLiteStorage)
    storage.write_wait = 3.0  # the tests' window; the bot's is WRITE_WAIT_SECONDS
    try:
        with lock_held_elsewhere(path):
            results = await asyncio.gather(*(timed_move(service, channel) for channel in (1, 2, 3)))
        assert all(isinstance(error, StorageUnavailable) for _, error in results)
        # Each refused when its own window ended: all together, about 3 s after they came.
        assert all(2.9 <= waited < 4.0 for waited, _ in results), [round(w, 2) for w, _ in results]
        assert [r.fault for r in caplog.records if r.getMessage().startswith("storage fault")] == ["locked"] * 3  # type: ignore[attr-defined]
        await service.act(GUILD, 1, ALICE, "a1")  # the lock is gone: the same move is saved
    finally:
        await service.close()
    assert logged_moves(path) == [(1, "a1")]
