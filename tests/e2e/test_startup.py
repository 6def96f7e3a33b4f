"""Starting the bot: configuration from the environment and `.env`, what happens
without a token, and a token that never shows up in a repr or a log line."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import Settings
from bot.logs import JsonFormatter
from tests.discord_double import DiscordDouble

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "MTA4.secret-token.value_Xy9"


def clean_environment(**extra: str) -> dict[str, str]:
    """The caller's environment without any Discord/Nika settings, plus `extra`."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "NIKA_", "BOARDGAME_"))}
    env["PYTHONPATH"] = str(ROOT)  # `-m bot` from a working directory other than the repository
    env.update(extra)
    return env


# --- python -m bot without a token -----------------------------------------------------
def test_without_a_token_or_a_terminal_it_explains_how_to_connect_and_exits(tmp_path: Path) -> None:
    # tmp_path has no .env; stdin is not a terminal, so the console must not start either.
    done = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env=clean_environment(NIKA_DATABASE=str(tmp_path / "nika.db")),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )
    # The quick start's line ends well when piped (issue 23): it says how to open the console.
    assert done.returncode == 0
    assert "No Discord token is configured" in done.stderr
    assert "not a terminal, so the console was not opened" in done.stderr
    assert "`python -m bot console` in a terminal" in done.stderr
    assert "copy .env.example to .env and set DISCORD_TOKEN" in done.stderr
    assert "Starting the local console" not in done.stderr
    assert not (tmp_path / "nika.db").exists()  # nothing was opened


def test_an_unknown_argument_is_a_usage_error(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bot", "serve"],
        cwd=tmp_path,
        env=clean_environment(),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "usage: python -m bot" in done.stderr


# --- Settings ----------------------------------------------------------------------------
ENV_FILE = """\
# comments and blank lines are skipped

export DISCORD_TOKEN="from-the-file"
NIKA_DATABASE = './file.db'
NIKA_DEV_GUILD=1234567890
NIKA_LOG_LEVEL=debug
not a setting
"""


def test_settings_read_dot_env_and_the_environment_wins(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text(ENV_FILE, encoding="utf-8")

    from_file = Settings.load(environ={}, env_file=env_file)
    assert from_file.token == "from-the-file"
    assert from_file.database == "./file.db"
    assert from_file.dev_guild == 1234567890
    assert from_file.log_level == "DEBUG"
    assert from_file.api_base is None

    overridden = Settings.load(
        environ={"DISCORD_TOKEN": "from-the-environment", "NIKA_DATABASE": "/data/nika.db", "NIKA_DEV_GUILD": ""},
        env_file=env_file,
    )
    assert overridden.token == "from-the-environment"
    assert overridden.database == "/data/nika.db"
    assert overridden.dev_guild is None  # set but empty in the environment: no dev guild
    assert overridden.log_level == "DEBUG"  # not in the environment: the file's value stands


def test_settings_load_uses_dot_env_in_the_working_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / ".env").write_text("DISCORD_TOKEN=file-token\nNIKA_DATABASE=file.db\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    for key in [k for k in os.environ if k.startswith(("DISCORD_", "NIKA_", "BOARDGAME_"))]:
        monkeypatch.delenv(key)
    monkeypatch.setenv("NIKA_DATABASE", "env.db")
    settings = Settings.load()
    assert (settings.token, settings.database) == ("file-token", "env.db")


def test_settings_defaults_and_a_bad_dev_guild(tmp_path: Path) -> None:
    defaults = Settings.load(environ={}, env_file=tmp_path / "missing.env")
    assert defaults == Settings()
    assert (defaults.token, defaults.database, defaults.log_level) == (None, "./nika.db", "INFO")
    with pytest.raises(ValueError, match="NIKA_DEV_GUILD must be a guild id"):
        Settings.load(environ={"NIKA_DEV_GUILD": "my-server"}, env_file=tmp_path / "missing.env")


def test_the_token_is_not_in_the_settings_repr() -> None:
    settings = Settings(token=TOKEN, database="x.db", api_base="http://127.0.0.1:1/api/v10")
    assert TOKEN not in repr(settings) and TOKEN not in str(settings)
    assert "x.db" in repr(settings)  # the rest is still there to debug with


# --- JSON logs ---------------------------------------------------------------------------
def test_json_log_lines_redact_the_token() -> None:
    formatter = JsonFormatter(secrets=(TOKEN,))
    try:
        raise RuntimeError(f"login failed for {TOKEN}")
    except RuntimeError:
        exc_info = sys.exc_info()
    record = logging.LogRecord("discord.http", logging.ERROR, __file__, 1, "token %s rejected", (TOKEN,), exc_info)
    record.header = f"Bot {TOKEN}"  # as if passed in `extra`
    record.attempts = 3
    line = formatter.format(record)

    assert "\n" not in line  # one event, one line, even with a traceback
    assert TOKEN not in line
    entry = json.loads(line)
    assert entry["message"] == "token [redacted] rejected"
    assert entry["header"] == "Bot [redacted]"
    assert entry["attempts"] == 3
    assert entry["level"] == "error" and entry["logger"] == "discord.http"
    assert "login failed for [redacted]" in entry["exception"]


# --- the token in a real run's logs ------------------------------------------------------
async def test_debug_logs_of_a_real_run_never_contain_the_token(tmp_path: Path) -> None:
    """Even at DEBUG, where discord.py logs its HTTP traffic, the token stays out."""
    async with DiscordDouble(token=TOKEN) as double:
        env = clean_environment(
            DISCORD_TOKEN=TOKEN,
            DISCORD_API_BASE=double.base_url,
            NIKA_DATABASE=str(tmp_path / "nika.db"),
            NIKA_LOG_LEVEL="DEBUG",
        )
        stdout = tmp_path / "bot.stdout"
        with stdout.open("wb") as out:
            proc = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "bot",
                cwd=ROOT,
                env=env,
                stdin=asyncio.subprocess.DEVNULL,
                stdout=out,
                stderr=asyncio.subprocess.STDOUT,
            )
        try:
            await double.wait_ready(timeout=90)
            user = double.add_user("alice")
            interaction = await double.send_interaction(double.slash_command(user, None, "nika", "help"))
            record = await double.wait_for_interaction_response(interaction, timeout=20)
            assert record.response_type == 4
        finally:
            if proc.returncode is None:
                proc.terminate()
            # A hang guard: exit is slower on a busy machine.
            returncode = await asyncio.wait_for(proc.wait(), timeout=60)
        assert returncode == 0
        assert double.unknown_requests == []
    text = stdout.read_text()
    assert TOKEN not in text
    entries = [json.loads(line) for line in text.splitlines() if line.strip()]
    assert any(e["level"] == "debug" for e in entries)
    # aiosqlite's worker thread may log its last debug lines after this one.
    assert "stopped" in [e["message"] for e in entries]
