"""Limits that hold under races and faults: the lobby cap under concurrency, a database file
that disappears while the bot runs, and writes queued behind a lock held by another process."""

from __future__ import annotations

import asyncio
import logging
import os
import shutil
import threading
import time
from pathlib import Path

import pytest

from bot.errors import NotAllowed, ServiceError
from bot.replies import Reply
from bot.service import MatchService
from bot.storage import StorageOpenError, StorageUnavailable, open_storage
from bot.storage import matches as queries
from bot.storage.sqlite import WRITE_WAIT_SECONDS, SQLiteStorage
from tests.bot.hostile_storage import lock_held_elsewhere, logged_moves
from tests.bot.hostile_surface import stub_renderer

GUILD, ALICE, BOB = 1000, 11, 22
TIMEOUT = 20.0
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
        await service.join(channel, BOB, "o")
        await service.start(channel, ALICE)
    return service


async def timed_move(service: MatchService, channel: int) -> tuple[float, BaseException | None]:
    began = time.monotonic()
    try:
        await service.act(channel, ALICE, "a1")
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
        await service.act(1, ALICE, "a1")  # the lock is gone: the same move is saved
    finally:
        await service.close()
    assert logged_moves(path) == [(1, "a1")]


# --- 5. a database file that disappears while the bot runs --------------------------------------
def gone_lines(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.getMessage().startswith("database file gone")]


@pytest.mark.parametrize("how", ["folder removed", "file deleted", "file replaced"])
async def test_a_database_that_disappears_is_noticed_before_anything_is_acknowledged(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, how: str
) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    path = str(folder / "nika.db")
    service = await a_match_per_channel(path, 2)
    try:
        await service.act(1, ALICE, "a1")  # acknowledged, and stored
        if how == "folder removed":
            shutil.rmtree(folder)
        elif how == "file deleted":
            for suffix in ("", "-wal", "-shm"):
                Path(path + suffix).unlink(missing_ok=True)
        else:  # another file moved into its place (a restore while the bot runs)
            other = await open_storage(str(tmp_path / "other.db"))
            await other.close()
            os.replace(tmp_path / "other.db", path)
        for _ in range(3):  # every further action is refused, politely, and so is every read
            with pytest.raises(StorageUnavailable, match="its database file is missing"):
                await service.act(2, ALICE, "a1")
        with pytest.raises(StorageUnavailable, match=r"cannot save right now: its database file is missing\. Nothing"):
            await service.seen_locale(ALICE, "es", GUILD, "es")  # a write that reads nothing first
        with pytest.raises(StorageUnavailable, match="cannot read its records right now"):
            await service.board(1, ALICE)
    finally:
        await service.close()
    assert len(gone_lines(caplog)) == 1  # said once in the log, not at every refusal
    if how == "file replaced":
        return
    # A restart does not begin an empty database where the data was.
    with pytest.raises(StorageOpenError) as refused:
        await open_storage(path)
    said = str(refused.value)
    assert "restore" in said and path in said
    assert not Path(path).exists()


async def test_a_new_database_is_made_only_at_a_first_start_and_says_so_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    path = str(tmp_path / "nika.db")
    for _ in range(2):
        storage = await open_storage(path)
        await storage.close()
    created = [r for r in caplog.records if r.getMessage().startswith("created a new, empty database")]
    assert len(created) == 1 and created[0].database == path  # type: ignore[attr-defined]
    with pytest.raises(StorageOpenError, match="does not exist"):  # a folder that is not there is not made
        await open_storage(str(tmp_path / "missing" / "nika.db"))
    assert not (tmp_path / "missing").exists()
    # Deleted while the bot ran: refused at start until the operator says to begin afresh.
    service = await a_match_per_channel(path, 1)
    try:
        Path(path).unlink()
        with pytest.raises(StorageUnavailable):
            await service.act(1, ALICE, "a1")
    finally:
        await service.close()
    for suffix in ("-wal", "-shm"):
        Path(path + suffix).unlink(missing_ok=True)
    with pytest.raises(StorageOpenError, match=r"disappeared while the bot ran .*delete .*nika\.db\.lost"):
        await open_storage(path)
    Path(path + ".lost").unlink()
    storage = await open_storage(path)  # the operator chose to begin afresh
    await storage.close()


# --- 8. heavy reads, one member's after another's ------------------------------------------------
async def test_heavy_reads_are_served_member_by_member_and_a_flood_is_told_to_wait(db_path: str) -> None:
    """One member asks for three replays, then two others for one each, while the worker is busy:
    the others' go right after the flooder's first, before its second and third; a fourth on the
    way from the flooder is refused politely."""
    service = await a_match_per_channel(db_path, 1)
    try:
        for user, square in ((ALICE, "a1"), (BOB, "b1"), (ALICE, "a2")):
            await service.act(1, user, square)
        flooder, others = 77, (88, 99)
        finished: list[int] = []
        busy = threading.Event()
        running = asyncio.ensure_future(service.heavy.run(5, busy.wait, small=True))  # someone's long job

        async def replay(user: int) -> None:
            await service.replay(1, user_id=user)
            finished.append(user)

        async def queued(user: int, count: int) -> None:
            while service.heavy.on_the_way(user) < count:  # its requests reach the queue (a few reads first)
                await asyncio.sleep(0)

        flood = [asyncio.ensure_future(replay(flooder)) for _ in range(3)]
        await asyncio.wait_for(queued(flooder, 3), TIMEOUT)
        with pytest.raises(ServiceError, match="you already have 3 replays or imports on the way"):
            await service.replay(1, user_id=flooder)
        rest = [asyncio.ensure_future(replay(user)) for user in others]
        for user in others:
            await asyncio.wait_for(queued(user, 1), TIMEOUT)
        busy.set()
        await asyncio.gather(running, *flood, *rest)
    finally:
        await service.close()
    # The flooder's first, then the others' (in whichever order they reached the queue), then the flooder's.
    assert finished[0] == flooder and set(finished[1:3]) == set(others) and finished[3:] == [flooder, flooder]
