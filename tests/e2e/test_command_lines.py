"""The command lines' rough edges, as a newcomer met them: every failure is one line and a
non-zero exit, help exits 0, and the engine and renderer take what their siblings take."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.discord_double import DiscordDouble
from tests.e2e.test_startup import clean_environment

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str, cwd: Path = ROOT, env: dict[str, str] | None = None, stdin: str | None = None,
        timeout: float = 90) -> subprocess.CompletedProcess[str]:  # fmt: skip
    return subprocess.run(
        [sys.executable, *args], cwd=cwd, env=env or clean_environment(), input=stdin, capture_output=True,
        text=True, timeout=timeout, stdin=None if stdin is not None else subprocess.DEVNULL,
    )  # fmt: skip


def test_bot_help_exits_zero_and_lists_the_commands() -> None:
    done = run("-m", "bot", "--help")
    assert done.returncode == 0
    assert "console" in done.stdout and "backup" in done.stdout and "migrate-db" in done.stdout


def test_engine_serve_help_describes_the_protocol() -> None:
    done = run("-m", "engine", "serve", "--help")
    assert done.returncode == 0
    assert '{"position": P, "actions": [A, ...]}' in done.stdout and '"think"' in done.stdout


def test_engine_apply_takes_start_as_render_does() -> None:
    done = run("-m", "engine", "--game", "nika", "apply", "start", "move j6 w")
    assert done.returncode == 0 and done.stdout.startswith("A:i6w,j4w,j5w")
    numica = run("-m", "engine", "--game", "numica", "start", "--seed", "3")
    assert numica.returncode == 0 and "red:" in numica.stdout and " red/0" in numica.stdout


def test_render_to_a_folder_that_does_not_exist_is_one_line(tmp_path: Path) -> None:
    done = run("-m", "render", "--game", "nika", "start", "-o", "/nonexistent/folder/x.png")
    assert done.returncode == 2
    assert done.stderr.startswith("error: cannot write /nonexistent/folder/x.png")
    assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1


def test_a_token_but_no_way_to_discord_is_one_line(tmp_path: Path) -> None:
    env = clean_environment(
        DISCORD_TOKEN="MTA4.a-token.not_real", DISCORD_API_BASE="http://127.0.0.1:9/api/v10",
        NIKA_DATABASE=str(tmp_path / "n.db"),
    )  # fmt: skip
    done = run("-m", "bot", cwd=tmp_path, env=env)
    assert done.returncode == 1
    errors = [line for line in done.stderr.splitlines() if line.strip()]
    assert errors and errors[-1].startswith("error: cannot reach Discord")
    assert "Traceback" not in done.stderr and "Traceback" not in done.stdout
    assert "PyNaCl" not in done.stdout + done.stderr and "davey" not in done.stdout + done.stderr


async def test_a_refused_token_is_said_plainly(tmp_path: Path) -> None:
    async with DiscordDouble(token="the-right-token") as double:
        env = clean_environment(DISCORD_TOKEN="a-wrong-token", DISCORD_API_BASE=double.base_url,
                                NIKA_DATABASE=str(tmp_path / "n.db"))  # fmt: skip
        import asyncio

        done = await asyncio.to_thread(run, "-m", "bot", cwd=tmp_path, env=env)
    assert done.returncode == 1
    assert "error: Discord refused the token" in done.stderr
    assert "Traceback" not in done.stderr + done.stdout


def test_engine_serve_think_answers_with_actions() -> None:
    request = json.dumps({"position": "start", "think": {"ms": 200, "level": "easy", "seed": 1}})
    done = run("-m", "engine", "--game", "nika", "serve", stdin=request + "\n")
    reply = json.loads(done.stdout)
    assert len(reply["actions"]) == 2  # Athens has two actions left
