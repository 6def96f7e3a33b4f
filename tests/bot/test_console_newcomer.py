"""What a first-time player tripped over in the console, each fixed and held here."""

from __future__ import annotations

import fcntl
import os
import pty
import select
import subprocess
import sys
import termios
import time
from pathlib import Path

from bot.console import Console
from bot.service import MatchService

ROOT = Path(__file__).resolve().parents[2]


async def session(service: MatchService, folder: Path, lines: list[str]) -> list[str]:
    out: list[str] = []
    console = Console(service, folder / "boards", out=out.append)
    await console.load_names()
    for line in lines:
        assert await console.handle(line)
    return out


FOUR = [
    "/nika new city:athens-messene",
    "as @bob",
    "/nika join city:sparta-thebes",
    "as @alice",
    "/nika start",
]


async def test_unknown_and_repeated_options_are_refused_with_the_real_ones(service, tmp_path) -> None:
    out = await session(service, tmp_path, [*FOUR, "/nika move piece:j6 direction:w extra:1",
                                            "/nika move piece:j6 piece:j5 direction:w"])  # fmt: skip
    assert "✗ /nika move has no option 'extra'; its options: piece, direction" in out
    assert "✗ The option piece is given twice" in out or "✗ the option piece is given twice" in out
    assert (await service.state_of(1)).played.__len__() == 0


async def test_a_missing_option_is_named(service, tmp_path) -> None:
    out = await session(service, tmp_path, ["/nika new city:athens", "as @bob", "/nika join"])
    cities = "athens, sparta, messene, thebes, athens-messene, sparta-thebes"
    assert f"✗ /nika join needs the city option, one of: {cities}" in out


async def test_a_missing_option_says_what_to_write(service, tmp_path) -> None:
    out = await session(service, tmp_path, ["/nika new", "/numica new", "/pikemen new", "/nika move"])
    cities = "athens, sparta, messene, thebes, athens-messene, sparta-thebes"
    assert f"✗ /nika new needs the city option, one of: {cities}" in out
    assert "✗ /numica new needs the side option, one of: red, blue, random" in out
    assert "✗ /pikemen new needs the seat option, one of: red, yellow, green, blue" in out
    # Without choices, what Discord shows under the option says what to write.
    assert "✗ /nika move needs the piece option: Square of your piece, e.g. j6" in out


async def test_a_record_file_starts_a_casual_match(service, tmp_path) -> None:
    out = await session(service, tmp_path, [*FOUR, "/nika move piece:j6 direction:w", "/nika replay format:record"])
    [written] = [line for line in out if "written to" in line and ".json" in line]
    path = written.split("written to ")[1].rstrip("]")
    assert len(Path(path).read_text()) > 0
    out = await session(service, tmp_path, ["channel 2", f"/nika new city:athens record:{path}"])
    assert any("casual, unrated" in line for line in out)
    assert (await service.state_of(2)).game.notation() == (await service.state_of(1)).game.notation()
    missing = await session(service, tmp_path, ["channel 3", "/nika new city:athens record:/no/such/file.json"])
    assert any("there is no file '/no/such/file.json'" in line for line in missing)


async def test_what_the_bot_says_to_type_works_here(service, tmp_path) -> None:
    out = await session(service, tmp_path, [*FOUR, "/nika draw choice:offer"])
    offer = next(line for line in out if "offers a draw" in line)
    assert "/nika draw choice:accept or choice:decline" in offer
    out = await session(service, tmp_path, ["as @bob", "/nika draw choice:accept", "/nika stats user:@alice"])
    assert any("Draw by agreement" in line and "Not rated: it ended before each side" in line for line in out)
    assert any("@alice has not finished a rated Nika match on this server yet." in line for line in out), out


async def test_names_are_remembered_across_restarts(db_path, tmp_path) -> None:
    first = await MatchService.open(db_path)
    await session(first, tmp_path, FOUR)
    await first.close()
    second = await MatchService.open(db_path)
    try:
        out = await session(second, tmp_path, ["/nika board"])
        assert "@alice" in "\n".join(out) and "@bob" in "\n".join(out)
        assert "<@" not in "\n".join(out)
    finally:
        await second.close()


async def test_help_speaks_of_the_console_and_mygames_has_no_discord_markup(service, tmp_path) -> None:
    out = await session(service, tmp_path, [*FOUR, "/nika help", "/nika mygames", "help"])
    text = "\n".join(out)
    assert "press the buttons" not in text and "start typing and pick" not in text
    assert "`as @name`" in text and "`quit`" in text
    mine = next(line for line in out if "Your turn in" in line)
    assert "<#" not in mine and "discord.com" not in mine and "channel 1" in mine


async def test_no_board_file_is_overwritten(service, tmp_path) -> None:
    script = [*FOUR, "/nika move piece:j6 direction:w", "/nika replay", "/nika replay", "as @bob",
              "/nika resign", "/nika resign"]  # fmt: skip
    out = await session(service, tmp_path, script)
    written = [line.split("written to ")[1].rstrip("]") for line in out if "written to" in line]
    assert len(written) == len(set(written)) >= 5
    assert all(Path(path).exists() for path in written)


async def test_only_the_creator_or_a_moderator_aborts(service, tmp_path) -> None:
    out = await session(service, tmp_path, [*FOUR, "as @eve", "/nika abort", "manage on", "/nika abort", "/nika abort"])
    assert any("only someone with Manage Channels can abort a started match" in line for line in out)
    # A moderator is asked too (issue 23): the same command again confirms.
    assert any("Send the same command again within a minute to confirm" in line for line in out)
    assert any("aborted the match" in line for line in out)


async def test_no_line_ends_the_console(service, tmp_path) -> None:
    hostile = [
        "/nika history page:²", "/nika replay last:inf", "/nika stats user:⁹", "/nika new city:x deadline:³",
        "/nika play action:" + "x" * 7000, "/nika", "/", "as", "channel x", "channel 99999999999999999999",
    ]  # fmt: skip
    out = await session(service, tmp_path, hostile)
    assert all(not line.startswith("Traceback") for line in out)
    # Every hostile line is refused in words (`/nika` alone shows the help, `as` keeps the player).
    assert sum(line.startswith("✗") for line in out) >= len(hostile) - 2


def _console_process(tmp_path: Path) -> tuple[subprocess.Popen[bytes], int]:
    main, child = pty.openpty()
    env = dict(os.environ, NIKA_DATABASE=str(tmp_path / "c.db"), NIKA_BOARDS_DIR=str(tmp_path / "boards"))

    def controlling_terminal() -> None:
        # A session of its own with the pty as its terminal, so Ctrl-C becomes SIGINT as in a shell.
        os.setsid()
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)

    process = subprocess.Popen(
        [sys.executable, "-m", "bot", "console"], stdin=child, stdout=child, stderr=child, cwd=ROOT, env=env,
        preexec_fn=controlling_terminal,
    )  # fmt: skip
    os.close(child)
    return process, main


def _read_until(fd: int, marker: bytes, timeout: float = 60.0) -> bytes:
    seen = b""
    deadline = time.monotonic() + timeout
    while marker not in seen:
        left = deadline - time.monotonic()
        assert left > 0, seen.decode(errors="replace")
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
    return seen


def _drain(fd: int, process: subprocess.Popen[bytes]) -> bytes:
    rest = b""
    while True:
        ready, _, _ = select.select([fd], [], [], 1.0)
        if not ready and process.poll() is not None:
            return rest
        if ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                return rest
            if not chunk:
                return rest
            rest += chunk


def test_ctrl_c_at_the_prompt_leaves_at_once_and_cleanly(tmp_path) -> None:
    process, fd = _console_process(tmp_path)
    try:
        _read_until(fd, b"alice@#1> ")
        os.write(fd, b"\x03")  # Ctrl-C, as the terminal sends it
        assert process.wait(timeout=20) in (0, 130)
        rest = _drain(fd, process)
        assert b"Traceback" not in rest and b"CancelledError" not in rest and b"KeyboardInterrupt" not in rest
    finally:
        process.kill()
        os.close(fd)


def test_ctrl_d_ends_the_line_before_leaving(tmp_path) -> None:
    process, fd = _console_process(tmp_path)
    try:
        _read_until(fd, b"alice@#1> ")
        os.write(fd, b"\x04")  # Ctrl-D at an empty prompt
        assert process.wait(timeout=20) == 0
        rest = _drain(fd, process)
        assert rest.startswith(b"\r\n") or rest.startswith(b"\n")
        assert b"Traceback" not in rest
    finally:
        process.kill()
        os.close(fd)
