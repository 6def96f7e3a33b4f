"""The throwaway PostgreSQL server that storage tests run against."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests import postgres_server as pgmod
from tests.postgres_server import PostgresServer, find_bin_dir, postgres_server


def _require_binaries() -> None:
    if find_bin_dir() is None:
        message = "PostgreSQL server binaries are missing (apt-get install postgresql)"
        # CI installs them (.ci/run), so there a missing server is a failure, not a skip.
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)


@pytest.fixture(scope="module")
def pg() -> Iterator[PostgresServer]:
    _require_binaries()
    with postgres_server() as server:
        yield server


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


async def test_asyncpg_connects_to_the_started_database(pg: PostgresServer) -> None:
    asyncpg = pytest.importorskip("asyncpg")
    assert pg.url == f"postgresql://postgres@127.0.0.1:{pg.port}/test"
    conn = await asyncpg.connect(pg.url)
    try:
        assert await conn.fetchval("SELECT current_database()") == "test"
        assert await conn.fetchval("SHOW listen_addresses") == "127.0.0.1"
        assert int(await conn.fetchval("SHOW server_version_num")) >= 120000
    finally:
        await conn.close()


async def test_fresh_databases_are_empty_and_independent(pg: PostgresServer) -> None:
    asyncpg = pytest.importorskip("asyncpg")
    first, second = pg.create_database(), pg.create_database()
    assert first != second
    one = await asyncpg.connect(first)
    two = await asyncpg.connect(second)
    try:
        await one.execute("CREATE TABLE matches (id bigint PRIMARY KEY)")
        await one.execute("INSERT INTO matches VALUES (1), (2)")
        assert await one.fetchval("SELECT count(*) FROM matches") == 2
        assert await two.fetchval("SELECT to_regclass('matches')") is None
        assert await two.fetchval("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'") == 0
    finally:
        await one.close()
        await two.close()


def test_only_127_0_0_1_is_trusted(pg: PostgresServer) -> None:
    rules = pg.sql("SELECT type, address, auth_method FROM pg_hba_file_rules")
    assert rules.splitlines() == ["host|127.0.0.1|trust"]
    socket_dir = Path(pg.sql("SHOW unix_socket_directories"))
    assert socket_dir.parent == pg.root
    assert stat.S_IMODE(socket_dir.stat().st_mode) == 0o700


def test_a_named_database_can_be_created_and_dropped(pg: PostgresServer) -> None:
    url = pg.create_database("named_one")
    assert url.endswith(f":{pg.port}/named_one")
    assert pg.sql("SELECT count(*) FROM pg_database WHERE datname = 'named_one'") == "1"
    pg.drop_database("named_one")
    assert pg.sql("SELECT count(*) FROM pg_database WHERE datname = 'named_one'") == "0"
    with pytest.raises(ValueError):
        pg.create_database('x"; DROP DATABASE test; --')


def test_the_server_is_gone_after_the_context_exits() -> None:
    _require_binaries()
    with postgres_server(database="lifecycle") as server:
        pid, root = server.pid, server.root
        assert pid is not None and _alive(pid)
        assert server.sql("SELECT 1", database="lifecycle") == "1"
    assert not _alive(pid)
    assert not root.exists()


def test_the_server_is_stopped_and_removed_even_when_the_body_fails() -> None:
    _require_binaries()
    with pytest.raises(RuntimeError, match="test body failed"), postgres_server() as server:
        pid, root = server.pid, server.root
        raise RuntimeError("test body failed")
    assert pid is not None and not _alive(pid)
    assert not root.exists()


def test_binaries_are_found_newest_version_first(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for version in ("9.6", "16", "15"):
        folder = tmp_path / version / "bin"
        folder.mkdir(parents=True)
        for tool in pgmod.TOOLS:
            (folder / tool).write_text("#!/bin/sh\n")
            (folder / tool).chmod(0o755)
    (tmp_path / "17" / "bin").mkdir(parents=True)  # a version without its server tools
    monkeypatch.setattr(pgmod, "DEBIAN_ROOT", tmp_path)
    monkeypatch.delenv("POSTGRES_BIN_DIR", raising=False)
    assert find_bin_dir() == tmp_path / "16" / "bin"
    monkeypatch.setenv("POSTGRES_BIN_DIR", str(tmp_path / "9.6" / "bin"))
    assert find_bin_dir() == tmp_path / "9.6" / "bin"
