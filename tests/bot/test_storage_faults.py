"""Faults of the disk and the database file: each ends with a clear message, private to the
player when it happens in play, one line for the operator at start-up, and nothing that was
acknowledged is lost.

What is real and what is simulated:
- full disk: real. RLIMIT_FSIZE (with SIGXFSZ ignored) makes the kernel refuse to grow the
  files, as a full disk does (SQLite reports it as an I/O error rather than SQLITE_FULL);
- read-only at start-up: real file permissions, with the process run without the
  capabilities that let root ignore them; read-only during play: simulated with `PRAGMA query_only`, which
  gives SQLite's own "attempt to write a readonly database" error (remounting needs root);
- a lock held by another process: real (a second process holds BEGIN EXCLUSIVE);
- a newer schema, damaged pages, bad paths: real files.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import resource
import shutil
import signal
import sqlite3
import tempfile
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from bot.commands.dispatch import Invoker, dispatch
from bot.errors import ServiceError
from bot.service import MatchService
from bot.storage import StorageOpenError, StorageUnavailable, open_storage
from bot.storage.migrations import LATEST_VERSION
from bot.storage.sqlite import BUSY_TIMEOUT_MS, SAVE_FAILED, SQLiteStorage
from engine.errors import IllegalAction
from tests.bot.hostile_storage import (
    ALICE,
    BOB,
    GUILD,
    bot_process,
    build_matches,
    damage_bytes,
    damage_page,
    lock_held_elsewhere,
    logged_moves,
    quick_service,
    stored,
    undecodable_schema,
    unprivileged_prefix,
)

GAME = "tictactoe"


def who(user: int, channel: int = 1) -> Invoker:
    return Invoker(GUILD, channel, user, rate_limited=False)


async def a_match(path: str) -> MatchService:
    """A started tic-tac-toe match in channel 1 with one move acknowledged."""
    service = await quick_service(path)
    await service.new_match(GUILD, 1, ALICE, "x", game=GAME)
    await service.join(1, BOB, "o")
    await service.start(1, ALICE)
    await dispatch(service, who(ALICE), GAME, "play", {"action": "a1"})
    return service


def faults(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.getMessage().startswith("storage fault")]


async def reads_still_work(service: MatchService) -> None:
    board = await dispatch(service, who(BOB), GAME, "board", {})
    history = await dispatch(service, who(BOB), GAME, "history", {})
    assert board.image is not None and "X marked a1" in history.text


# --- during play ------------------------------------------------------------------------
@contextlib.contextmanager
def disk_full() -> Iterator[None]:
    """No file of this process may grow any more: what a full disk looks like to SQLite."""
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    previous = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # EFBIG instead of a killed process
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
        signal.signal(signal.SIGXFSZ, previous)


async def test_a_full_disk_refuses_the_move_privately_keeps_reads_and_loses_nothing(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = str(tmp_path / "full.db")
    service = await a_match(path)
    try:
        with disk_full():
            with pytest.raises(StorageUnavailable) as refused:
                await dispatch(service, who(BOB), GAME, "play", {"action": "b1"})
            await reads_still_work(service)
        assert str(refused.value) == SAVE_FAILED  # "… nothing was changed, try again shortly"
        [line] = faults(caplog)
        assert line.fault == "disk-full-or-io" and line.writing is True and line.database == path  # type: ignore[attr-defined]
        # Room again: the same move goes through, as the message promised.
        await dispatch(service, who(BOB), GAME, "play", {"action": "b1"})
    finally:
        await service.close()
    assert logged_moves(path) == [(1, "a1"), (1, "b1")]


async def test_a_database_turned_read_only_refuses_saves_but_still_reads(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = str(tmp_path / "ro.db")
    service = await a_match(path)
    try:
        assert isinstance(service.storage, SQLiteStorage)
        # Simulated (see the module's docstring): SQLite's own read-only refusal on every write.
        await service.storage._writer.execute("PRAGMA query_only = ON")
        for command, options in (("play", {"action": "b1"}), ("draw", {"choice": "offer"}), ("settings", {"dm": "on"})):
            with pytest.raises(StorageUnavailable, match="cannot save right now; nothing was changed"):
                await dispatch(service, who(BOB), GAME, command, options)
        await reads_still_work(service)
        assert {r.fault for r in faults(caplog)} == {"read-only"}  # type: ignore[attr-defined]
        await service.storage._writer.execute("PRAGMA query_only = OFF")
    finally:
        await service.close()
    assert logged_moves(path) == [(1, "a1")]


async def test_a_lock_held_by_another_process_is_refused_within_discords_window(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = str(tmp_path / "locked.db")
    service = await a_match(path)
    assert isinstance(service.storage, SQLiteStorage)
    service.storage.write_wait = 3.0  # the bot waits WRITE_WAIT_SECONDS; a shorter window here
    try:
        with lock_held_elsewhere(path):
            started = time.monotonic()
            await reads_still_work(service)  # WAL: readers never wait for the writer's lock
            assert time.monotonic() - started < 1.0
            started = time.monotonic()
            with pytest.raises(StorageUnavailable, match="cannot save right now"):
                await dispatch(service, who(BOB), GAME, "play", {"action": "b1"})
            waited = time.monotonic() - started
        # The cog defers after 1.5 s, so any wait fits Discord's 3 s; the refusal itself comes
        # when the write's window ends (tried again each BUSY_TIMEOUT_MS meanwhile), not later.
        assert 3.0 - 0.2 <= waited < 3.0 + BUSY_TIMEOUT_MS / 1000
        assert [r.fault for r in faults(caplog)] == ["locked"]  # type: ignore[attr-defined]
        await dispatch(service, who(BOB), GAME, "play", {"action": "b1"})
    finally:
        await service.close()
    assert logged_moves(path) == [(1, "a1"), (1, "b1")]


async def test_damage_found_while_playing_is_a_polite_refusal(tmp_path: Path) -> None:
    """Pages damaged after the start-up check: reads say so politely, never a raw error."""
    base = tmp_path / "base.db"
    await build_matches(str(base), 12)
    rng = random.Random(5)
    outcomes = set()
    # One damaged page after each start, until a read meets one (where it lands depends on how
    # many tables the schema has); every read must be served or refused politely. A fresh copy
    # and service each time: an open connection's page cache hides damage to pages it has read.
    for trial in range(40):
        if "StorageUnavailable" in outcomes:
            break
        path = tmp_path / f"late-{trial}.db"
        shutil.copy(base, path)
        service = await quick_service(str(path))
        try:
            damage_page(path, rng)
            for channel in range(1, 13):
                try:
                    await dispatch(service, who(ALICE, channel), GAME, "history", {})
                    outcomes.add("served")
                except ServiceError as error:
                    outcomes.add(type(error).__name__)
        finally:
            await service.close()
    assert "StorageUnavailable" in outcomes


# --- at start-up --------------------------------------------------------------------------
async def test_a_database_from_a_newer_release_is_refused_naming_both_versions(tmp_path: Path) -> None:
    path = str(tmp_path / "newer.db")
    storage = await SQLiteStorage.open(path)
    async with storage.transaction() as db:
        await db.execute("INSERT INTO schema_migrations VALUES (?, 0)", LATEST_VERSION + 3)
    await storage.close()
    with pytest.raises(StorageOpenError) as refused:
        await open_storage(path)
    message = str(refused.value)
    assert f"schema version {LATEST_VERSION + 3}" in message and f"knows up to {LATEST_VERSION}" in message
    assert "\n" not in message
    assert stored(path)  # the file is left as it was, still readable by the newer release


async def test_the_whole_page_damage_of_forty_seeded_trials_is_refused_at_start(tmp_path: Path) -> None:
    base = tmp_path / "base.db"
    await build_matches(str(base), 30)
    for seed in range(40):
        trial = tmp_path / f"damaged-{seed}.db"
        shutil.copy(base, trial)
        page = damage_page(trial, random.Random(seed))
        with pytest.raises(StorageOpenError) as refused:
            await open_storage(str(trial))
        message = str(refused.value)
        assert "is damaged" in message and "restore it from a backup" in message, (seed, page, message)
        assert "\n" not in message


async def test_small_seeded_damage_is_refused_or_served_intact_never_a_raw_storage_error(tmp_path: Path) -> None:
    """A few bytes changed anywhere: the start-up check refuses the file, or what is served is
    what was stored, or a read is refused politely. Damage inside a well-formed value (a
    timestamp, a stored position) passes SQLite's checks; a stored value that no longer parses
    is hardening request 2 (see the test after this one)."""
    base = tmp_path / "base.db"
    await build_matches(str(base), 30)
    original = stored(str(base))
    outcomes: dict[str, int] = {}
    for seed in range(60):
        trial = tmp_path / f"rot-{seed}.db"
        shutil.copy(base, trial)
        damage_bytes(trial, random.Random(seed))
        try:
            service = await quick_service(str(trial))
        except StorageOpenError as error:
            assert "is damaged" in str(error), str(error)
            outcome = "refused at start"
        else:
            try:
                for channel in range(1, 31):
                    await dispatch(service, who(ALICE, channel), GAME, "history", {})
                outcome = "served intact" if stored(str(trial)) == original else "served, a value altered"
            except ServiceError:
                outcome = "refused a read"
            except IllegalAction:
                outcome = "a stored value no longer parses"
            finally:
                await service.close()
        outcomes[outcome] = outcomes.get(outcome, 0) + 1
    # About one trial in ten lands on a page SQLite's check reads closely (where depends on the
    # schema: the tournaments' tables of issue 21 and issue 20's rematches and forecasts took a share).
    assert outcomes["refused at start"] >= 4 and outcomes["served intact"] >= 30, outcomes
    assert outcomes.get("served, a value altered", 0) + outcomes.get("a stored value no longer parses", 0) <= 4


async def test_a_match_whose_stored_values_no_longer_parse_is_refused_politely(tmp_path: Path) -> None:
    path = str(tmp_path / "rows.db")
    await build_matches(path, 4)
    connection = sqlite3.connect(path)
    connection.execute("UPDATE matches SET start_position = '.\x17\x7f.go./xo. x' WHERE channel_id = 2")
    connection.execute("UPDATE matches SET position = 'garbage' WHERE channel_id = 3")
    connection.commit()
    connection.close()
    service = await quick_service(path)
    try:
        with pytest.raises(ServiceError, match="damaged"):
            await dispatch(service, who(ALICE, 2), GAME, "board", {})
        with pytest.raises(ServiceError, match="damaged"):  # the replay no longer gives the stored position
            await dispatch(service, who(ALICE, 3), GAME, "history", {})
        await dispatch(service, who(BOB, 3), GAME, "mygames", {})  # lists the others, never crashes
    finally:
        await service.close()


async def test_a_damaged_schema_whose_error_does_not_decode_is_refused_and_closed(tmp_path: Path) -> None:
    path = tmp_path / "undecodable.db"
    undecodable_schema(path)
    before = set(connection_threads())
    with pytest.raises(StorageOpenError, match="is damaged"):
        await open_storage(str(path))
    for _ in range(100):  # a closed connection's thread ends a moment after close()
        if set(connection_threads()) <= before:
            break
        await asyncio.sleep(0.01)
    assert set(connection_threads()) <= before  # none left to keep the process alive after the error


def connection_threads() -> list[threading.Thread]:
    """aiosqlite's worker threads (not daemons: one left running keeps a process from exiting)."""
    return [
        thread
        for thread in threading.enumerate()
        if getattr(getattr(thread, "_target", None), "__name__", "") == "_connection_worker_thread"
    ]


def _newer(path: Path) -> None:
    connection = sqlite3.connect(path)
    connection.execute("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at REAL)")
    connection.execute("INSERT INTO schema_migrations VALUES (?, 0)", (LATEST_VERSION + 1,))
    connection.commit()
    connection.close()


@pytest.fixture
def shared_folder() -> Iterator[Path]:
    """A folder of its own for the start-up cases, removable after they made parts read-only."""
    folder = Path(tempfile.mkdtemp(prefix="storage-faults-"))
    folder.chmod(0o755)
    yield folder
    for inside in folder.rglob("*"):  # read-only folders made by the test: writable again to remove
        if inside.is_dir():
            inside.chmod(0o755)
    shutil.rmtree(folder, ignore_errors=True)


def test_every_start_up_failure_exits_at_once_with_one_line(shared_folder: Path) -> None:
    """`python -m bot` and `python -m bot console` on a bad database: exit 1 within seconds
    (no connection left open to keep the process alive), one line naming the file and what
    to do, no traceback. Run in parallel: each is a fresh Python process."""
    folder = shared_folder
    garbage = folder / "garbage.db"
    garbage.write_bytes(random.Random(1).randbytes(20_000))
    newer = folder / "newer.db"
    _newer(newer)
    damaged = folder / "damaged.db"
    asyncio.run(build_matches(str(damaged), 12))
    damage_page(damaged, random.Random(3))
    undecodable = folder / "undecodable.db"
    undecodable_schema(undecodable)
    a_file = folder / "plain-file"
    a_file.write_text("not a folder")
    a_folder = folder / "a-folder.db"
    a_folder.mkdir()
    cases = [
        (["console"], str(garbage), "is damaged (file is not a database)"),
        ([], str(garbage), "is damaged (file is not a database)"),
        (["console"], str(newer), f"newer release (schema version {LATEST_VERSION + 1}; this release knows up to"),
        ([], str(newer), f"newer release (schema version {LATEST_VERSION + 1}"),
        (["console"], str(damaged), "is damaged"),
        ([], str(undecodable), "is damaged ('utf-8' codec can't decode"),
        (["console"], str(a_file / "nika.db"), f"{a_file} is a file, not a folder"),
        ([], str(a_folder), f"the database path {a_folder} is a folder, not a file"),
        (["console"], "mysql://bot:secret@db.example/nika", "names a mysql:// URL, which the bot cannot use"),
        (["backup", str(folder / "copy.db")], str(garbage), "is damaged"),
    ]
    prefix = unprivileged_prefix()
    if prefix is not None:
        readonly = folder / "readonly"
        readonly.mkdir()
        asyncio.run(build_matches(str(readonly / "nika.db"), 2))
        for item in readonly.iterdir():
            item.chmod(0o444)
        readonly.chmod(0o555)  # a read-only mount: neither the file nor its folder can be written
        cases += [
            (["console"], str(readonly / "nika.db"), "cannot be written"),
            ([], str(readonly / "nika.db"), "cannot be written"),
        ]

    def run(case: tuple[list[str], str, str]) -> tuple[tuple[list[str], str, str], object]:
        args, database, _ = case
        unprivileged = "readonly" in database
        return case, bot_process(args, database, token=None if args else "a-token", cwd=folder,
                                 prefix=prefix if unprivileged and prefix else ())  # fmt: skip

    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(run, cases))
    for (args, database, expected), result in results:
        assert result.code == 1, (args, database, result)  # type: ignore[attr-defined]
        assert result.seconds < 15, (args, database, result.seconds)  # type: ignore[attr-defined]
        [line] = result.error_lines  # type: ignore[attr-defined]
        assert line.startswith("error: ") and expected in line, (args, line)
        assert "Traceback" not in result.stderr + result.stdout  # type: ignore[attr-defined]
        assert "secret" not in line
        assert "reach Discord" not in line  # the database is checked before Discord is dialled


def test_backup_makes_a_consistent_online_copy_that_restores(tmp_path: Path) -> None:
    live = tmp_path / "live.db"
    acknowledged = asyncio.run(build_matches(str(live), 6))
    copy = tmp_path / "backups" / "copy.db"
    copy.parent.mkdir()  # `backup` writes into an existing folder only (issue 23)

    async def while_running() -> None:
        service = await quick_service(str(live))
        try:
            await service.act(6, BOB, "c3")  # still in the WAL, not in the file
            loop = asyncio.get_running_loop()
            result = await loop.run_in_executor(None, lambda: bot_process(["backup", str(copy)], str(live)))
            assert result.code == 0, result
            assert "To restore: stop the bot, put the copy in its place" in result.stdout
        finally:
            await service.close()

    asyncio.run(while_running())
    assert stored(str(copy)) == stored(str(live))
    assert logged_moves(str(copy)) == [*acknowledged, (6, "c3")]
    assert not copy.with_name("copy.db.partial").exists()
    restored = tmp_path / "restored.db"
    shutil.copy(copy, restored)  # no -wal beside it: the copy is complete on its own
    asyncio.run(_opens(str(restored)))


async def _opens(path: str) -> None:
    storage = await open_storage(path)
    await storage.close()


async def test_backup_refuses_to_overwrite_the_live_database_or_another_file(tmp_path: Path) -> None:
    live = tmp_path / "live.db"
    storage = await SQLiteStorage.open(str(live))
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes")
    try:
        with pytest.raises(StorageOpenError, match="is the live database itself"):
            await storage.backup(live)
        with pytest.raises(StorageOpenError, match="exists and is not a database copy"):
            await storage.backup(notes)
    finally:
        await storage.close()
    assert notes.read_text() == "my notes"


@pytest.mark.parametrize(
    ("location", "expected"),
    [
        ("mysql://bot:secret@db.example/nika", "names a mysql:// URL"),
        ("sqlite:///var/lib/nika.db", "names a sqlite:// URL"),
        ("https://example.com/nika.db", "names a https:// URL"),
    ],
)
async def test_a_url_is_never_taken_for_a_file_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, location: str, expected: str
) -> None:
    monkeypatch.chdir(tmp_path)  # a wrongly accepted URL would create files here
    with pytest.raises(StorageOpenError, match=expected) as refused:
        await open_storage(location)
    assert "secret" not in str(refused.value)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("problem", ["parent is a file", "path is a folder", "folder is missing"])
async def test_a_bad_path_is_named_with_its_problem(tmp_path: Path, problem: str) -> None:
    plain = tmp_path / "plain"
    plain.write_text("x")
    path, expected = {
        "parent is a file": (plain / "sub" / "nika.db", f"{plain} is a file, not a folder"),
        "path is a folder": (tmp_path, f"the database path {tmp_path} is a folder, not a file"),
        "folder is missing": (tmp_path / "gone" / "nika.db", "does not exist. If the bot kept its database there"),
    }[problem]
    with pytest.raises(StorageOpenError) as refused:
        await open_storage(str(path))
    assert expected in str(refused.value) and str(path) in str(refused.value)
