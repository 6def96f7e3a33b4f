"""Helpers for the storage-fault tests: databases with matches in them, what they hold,
seeded damage, a lock held by another process, and `python -m bot` run as a separate
process (optionally as an unprivileged user, since root ignores file permissions)."""

from __future__ import annotations

import contextlib
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from bot.service import MatchService
from bot.storage import open_storage
from tests.bot.hostile_surface import stub_renderer

ROOT = Path(__file__).resolve().parents[2]
GUILD, ALICE, BOB = 1000, 11, 22
PAGE = 4096
MOVES = ["a1", "b1", "a2", "b2"]
START_TIMEOUT = 30.0  # a process that has not exited by then is hung


async def quick_service(path: str, **options: object) -> MatchService:
    """A service on a file, drawing no pixels (the faults are in the storage)."""
    return MatchService(await open_storage(path), renderer=stub_renderer, **options)  # type: ignore[arg-type]


async def build_matches(path: str, count: int) -> list[tuple[int, str]]:
    """`count` tic-tac-toe matches in channels 1…count, each a few moves in; returns every
    acknowledged (channel, move)."""
    service = await quick_service(path, lobbies_per_member=count)
    acknowledged = []
    try:
        for channel in range(1, count + 1):
            await service.new_match(GUILD, channel, ALICE, "x", game="tictactoe", seed=channel)
            await service.join(channel, BOB, "o")
            await service.posted(await service.start(channel, ALICE), None)  # as a front end reports
            for number, square in enumerate(MOVES[: channel % 5]):
                await service.posted(await service.act(channel, ALICE if number % 2 == 0 else BOB, square), None)
                acknowledged.append((channel, square))
    finally:
        await service.close()
    return acknowledged


def stored(path: str) -> tuple[list[tuple[object, ...]], ...]:
    """Every match, seat and log row, read with plain sqlite3 (no bot code in the way)."""
    connection = sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=ro", uri=True)
    try:
        return tuple(
            connection.execute(query).fetchall()
            for query in (
                "SELECT * FROM matches ORDER BY id",
                "SELECT * FROM seats ORDER BY match_id, seat",
                "SELECT * FROM log ORDER BY match_id, seq",
            )
        )
    finally:
        connection.close()


def logged_moves(path: str) -> list[tuple[int, str]]:
    """(channel, action) of every logged action, in order."""
    connection = sqlite3.connect(path)
    try:
        rows = connection.execute(
            "SELECT m.channel_id, l.action FROM log l JOIN matches m ON m.id = l.match_id "
            "WHERE l.kind = 'action' ORDER BY m.channel_id, l.seq"
        ).fetchall()
    finally:
        connection.close()
    return [(int(channel), str(action)) for channel, action in rows]


def damage_page(path: Path, rng: random.Random) -> int:
    """Overwrite one whole page with random bytes (a torn or misdirected write); returns it."""
    data = bytearray(path.read_bytes())
    page = rng.randrange(len(data) // PAGE)
    data[page * PAGE : (page + 1) * PAGE] = rng.randbytes(PAGE)
    path.write_bytes(bytes(data))
    return page


def damage_bytes(path: Path, rng: random.Random) -> int:
    """Overwrite a few bytes somewhere in the file (bit rot); returns the offset."""
    data = bytearray(path.read_bytes())
    size = rng.choice([1, 4, 16, 64])
    offset = rng.randrange(len(data) - size)
    data[offset : offset + size] = rng.randbytes(size)
    path.write_bytes(bytes(data))
    return offset


_HOLDER = """
import sqlite3, sys
connection = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=10)
connection.execute("BEGIN EXCLUSIVE")
print("locked", flush=True)
sys.stdin.read()
connection.execute("ROLLBACK")
"""


@contextlib.contextmanager
def lock_held_elsewhere(path: str) -> Iterator[None]:
    """Another process holds BEGIN EXCLUSIVE on the database until the block ends."""
    holder = subprocess.Popen(
        [sys.executable, "-c", _HOLDER, path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert holder.stdout is not None and holder.stdin is not None
    try:
        assert holder.stdout.readline().strip() == "locked"
        yield
    finally:
        holder.stdin.close()
        holder.wait(timeout=10)


# The capabilities that let root ignore file permissions. Without them root is held to the
# owner's bits of its own files like anyone else, and still reads the project and virtualenv
# wherever they are (a CI checkout under a private temporary folder, which `nobody` could
# not even enter).
_PERMISSION_CAPS = "-dac_override,-dac_read_search,-fowner"


def unprivileged_prefix() -> list[str] | None:
    """argv prefix under which file permissions hold even when we are root; [] when we are
    not root; None when root cannot drop those capabilities here."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        return None
    return [setpriv, "--bounding-set", _PERMISSION_CAPS, "--inh-caps", _PERMISSION_CAPS, "--"]


@dataclass
class Exit:
    code: int | None  # None: still running at the deadline, killed
    stdout: str
    stderr: str
    seconds: float

    @property
    def error_lines(self) -> list[str]:
        return [line for line in self.stderr.splitlines() if line.strip()]


def bot_process(args: Sequence[str], database: str, *, prefix: Sequence[str] = (), token: str | None = None,
                stdin: str = "", cwd: Path | None = None) -> Exit:  # fmt: skip
    """Run `python -m bot …` with NIKA_DATABASE set; kill it if it has not exited in time."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NIKA_", "DISCORD_"))}
    env |= {"NIKA_DATABASE": database, "PYTHONPATH": str(ROOT), "NIKA_BOARDS_DIR": str(Path(database).parent)}
    if token is not None:
        # A port nothing listens on: if the bot tried Discord before its database, it would say so.
        env |= {"DISCORD_TOKEN": token, "DISCORD_API_BASE": "http://127.0.0.1:9/api/v10"}
    started = time.monotonic()
    process = subprocess.Popen(
        [*prefix, sys.executable, "-m", "bot", *args], cwd=cwd or Path(database).parent, env=env, text=True,
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    try:
        stdout, stderr = process.communicate(stdin, timeout=START_TIMEOUT)
        code: int | None = process.returncode
    except subprocess.TimeoutExpired:
        process.kill()
        stdout, stderr = process.communicate()
        code = None
    return Exit(code, stdout, stderr, time.monotonic() - started)


def undecodable_schema(path: Path) -> None:
    """A database whose schema names an index in bytes that are not UTF-8: SQLite's error
    message then fails to decode (UnicodeDecodeError, not a sqlite3 error), which once left
    the connection open and the process hanging after the error."""
    connection = sqlite3.connect(path)
    connection.execute("CREATE TABLE zzzzzz (x)")
    connection.execute("CREATE INDEX zzzzzz_i ON zzzzzz (x)")
    connection.commit()
    connection.close()
    path.write_bytes(path.read_bytes().replace(b"zzzzzz_i", b"\xbc\xbczzzz_i", 1))  # the name, not its SQL
