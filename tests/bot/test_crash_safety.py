"""SIGKILL at any moment: every acknowledged action is stored exactly once."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
from pathlib import Path

from bot.match import Entry, EntryKind, MatchState, replay
from bot.storage import matches as queries
from bot.storage import open_storage
from engine.registry import get_game

ROOT = Path(__file__).resolve().parents[2]


def run_until_killed(db_path: str, seed: int, acks_before_kill: int) -> list[tuple[int, int, str]]:
    """Start the player, read `acks_before_kill` acknowledgements, SIGKILL it, and return
    every acknowledgement it printed (including any still in the pipe)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.bot.crash_player", db_path, str(seed)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    lines = []
    try:
        for _ in range(acks_before_kill):
            # A player that died prints nothing more: fail instead of waiting forever.
            ready, _, _ = select.select([process.stdout], [], [], 60)
            assert ready, "the player stopped acknowledging actions"
            line = process.stdout.readline()
            assert line, f"the player exited early with code {process.poll()}"
            lines.append(line)
    finally:
        os.kill(process.pid, signal.SIGKILL)
    lines += process.stdout.readlines()
    process.wait()
    acks = []
    for line in lines:
        _, channel, version, action = line.strip().split(" ", 3)
        acks.append((int(channel), int(version), action))
    return acks


async def test_sigkill_loses_and_doubles_nothing(db_path: str) -> None:
    acknowledged: list[tuple[int, int, str]] = []
    for seed, acks in [(1, 3), (2, 11), (3, 26)]:
        acknowledged += run_until_killed(db_path, seed, acks)
    assert len(acknowledged) >= 40

    db = await open_storage(db_path)
    try:
        async with db.reading() as conn:
            logs = {}
            for channel in sorted({c for c, _, _ in acknowledged}):
                row = await queries.latest_match_in(conn, channel)
                assert row is not None
                logs[channel] = (row, await queries.log_of(conn, row.id), await queries.seats_of(conn, row.id))
    finally:
        await db.close()

    for channel, version, action in acknowledged:
        _, log, _ = logs[channel]
        matching = [r for r in log if r.seq == version]
        assert len(matching) == 1 and matching[0].action == action
    for row, log, seats in logs.values():
        assert [r.seq for r in log] == list(range(1, len(log) + 1))
        assert row.version == len(log) + 2  # join and start also claimed versions
        begun = MatchState.begin(get_game(row.game), {s.seat: s.user_id for s in seats}, row.start_position)
        state = replay(begun, [Entry(EntryKind(r.kind), r.user_id, r.seat, r.action) for r in log])
        assert state.game.notation() == row.position
