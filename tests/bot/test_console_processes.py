"""`python -m bot console` leaves nothing running when it exits: the computer players' worker,
the heavy-read worker and multiprocessing's resource tracker are all gone by then. A real
console process in a session (and process group) of its own; its group is read from /proc."""

from __future__ import annotations

import os
import random
import select
import subprocess
import sys
import time
from pathlib import Path

import bot
from bot.service.lobby import SMALL_IMPORT
from engine.record import GameRecord, RecordEntry
from engine.registry import get_game

ROOT = Path(bot.__file__).resolve().parent.parent
PROMPT = b"> "


def in_group(group: int) -> list[tuple[int, str, str]]:
    """(pid, state, command line) of every process in a process group."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            stat = Path(f"/proc/{name}/stat").read_text()
            command = Path(f"/proc/{name}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:  # gone meanwhile
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[2]) == group:
            found.append((int(name), fields[0], command.strip()))
    return found


def a_record(actions: int, seed: int = 5) -> str:
    """A Nika game record of `actions` random actions (no passes)."""
    game = get_game("nika")
    state = game.new(4, game.option_defaults({}), seed)
    start = game.notation(state)
    rng = random.Random(seed)
    entries = []
    for _ in range(actions):
        action = rng.choice([a for a in game.legal_actions(state) if a.notation() != "pass"])
        entries.append(RecordEntry(game.to_act(state) or "", action.notation()))
        state, _ = game.apply(state, action)
    return GameRecord("nika", start, entries, 4, {}, seed).to_json()


class Console:
    def __init__(self, folder: Path) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("NIKA_", "DISCORD_", "BOARDGAME_"))}
        env |= {"NIKA_DATABASE": str(folder / "c.db"), "NIKA_BOARDS_DIR": str(folder / "boards")}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "bot", "console"], cwd=folder, env=env, stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
        self.seen = b""

    def read_until(self, marker: bytes, timeout: float = 90.0) -> bytes:
        """What the console printed until `marker` (polled against a deadline)."""
        assert self.process.stdout is not None
        deadline = time.monotonic() + timeout
        while marker not in self.seen:
            left = deadline - time.monotonic()
            assert left > 0, self.seen.decode(errors="replace")[-2000:]
            ready, _, _ = select.select([self.process.stdout], [], [], left)
            if ready:
                chunk = os.read(self.process.stdout.fileno(), 65536)
                assert chunk, self.seen.decode(errors="replace")[-2000:]
                self.seen += chunk
        found, self.seen = self.seen.split(marker, 1)
        return found + marker

    def type(self, line: str) -> bytes:
        """Type a line at the prompt; what it printed up to the next prompt."""
        assert self.process.stdin is not None
        self.process.stdin.write(line.encode() + b"\n")
        self.process.stdin.flush()
        return self.read_until(PROMPT)


def test_no_process_outlives_the_console(tmp_path: Path) -> None:
    record = tmp_path / "long.json"
    record.write_text(a_record(500))
    assert len(record.read_text()) > SMALL_IMPORT
    console = Console(tmp_path)
    try:
        console.read_until(PROMPT)
        # The computer players' worker: a computer's turn after the member's two passes.
        console.type("/nika new city:athens-messene")
        console.type("/nika join city:sparta-thebes computer:easy")
        console.type("/nika start")
        console.type("/nika pass")
        console.type("/nika pass")
        console.read_until(b"Messene to act")  # the computer's move is posted when its worker answered
        # The heavy-read worker: a game record too long to replay in a thread.
        console.type("channel 2")
        assert b"casual, unrated" in console.type(f"/nika new city:athens record:{record}")
        group = console.process.pid  # a session of its own: its group has its id
        running = [p for p in in_group(group) if p[0] != console.process.pid]
        assert len(running) >= 3, running  # the two workers and the resource tracker, as the test intends
        assert console.process.stdin is not None
        console.process.stdin.write(b"quit\n")
        console.process.stdin.close()
        assert console.process.wait(timeout=60) == 0
        # Exited: every worker was stopped and waited for before that, so none is left at all.
        assert in_group(group) == []
    finally:
        console.process.kill()
        console.process.wait()
        if console.process.stdout is not None:
            console.process.stdout.close()
