"""The command lines as the README tells a newcomer to use them (issue 23, points 8, 20, 21):
the console piped into `head`, an unknown locale, `render start` against `engine start`, the
`serve` protocol's refusal, `backup`'s refusals, and the README's own examples."""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bot.console import Console
from bot.service import MatchService
from bot.storage import open_storage
from engine.__main__ import main as engine_main
from engine.registry import get_game, installed_slugs
from render.__main__ import main as render_main
from tests.e2e.test_startup import clean_environment

ROOT = Path(__file__).resolve().parents[2]
GAMES = tuple(installed_slugs())


def run(*args: str, cwd: Path, stdin: str | None = None, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args], cwd=cwd, env=clean_environment(**env), input=stdin, capture_output=True, text=True,
        timeout=120, stdin=None if stdin is not None else subprocess.DEVNULL,
    )  # fmt: skip


# --- 8: the console piped into head; a locale it does not speak ---------------------------
def test_the_console_piped_into_head_ends_quietly(tmp_path: Path) -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "bot", "console"], cwd=tmp_path, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, env=clean_environment(BOARDGAME_DATABASE=str(tmp_path / "n.db")),
    )  # fmt: skip
    assert process.stdin is not None and process.stdout is not None and process.stderr is not None
    process.stdin.write(b"help\n" * 400 + b"quit\n")  # far more output than a pipe holds
    process.stdin.close()
    first = process.stdout.readline()  # `head -1`: one line read, then the pipe is closed
    process.stdout.close()
    errors = process.stderr.read().decode()
    assert process.wait(timeout=60) == 0
    assert first  # a line came through before the reader went away
    assert "Traceback" not in errors and "BrokenPipe" not in errors, errors


def test_a_locale_the_console_does_not_speak_is_said(tmp_path: Path) -> None:
    done = run("-m", "bot", "console", "--locale", "fr", cwd=tmp_path, stdin="quit\n",
               BOARDGAME_DATABASE=str(tmp_path / "n.db"))  # fmt: skip
    assert done.returncode == 0
    assert "warning: the console does not speak 'fr'; it speaks en, es. Going on in 'en'." in done.stderr
    assert "Game console — the bot's commands" in done.stdout  # in English
    spanish = run("-m", "bot", "console", "--locale", "es-ES", cwd=tmp_path, stdin="quit\n",
                  BOARDGAME_DATABASE=str(tmp_path / "n.db"))  # fmt: skip
    assert spanish.returncode == 0 and "warning" not in spanish.stderr


# --- 20: render start and engine start; serve; backup --------------------------------------
@pytest.mark.parametrize("game", GAMES)
def test_render_start_draws_what_engine_start_prints(tmp_path: Path, game: str,
                                                     capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    assert engine_main(["--game", game, "start", "--seed", "3"]) == 0
    position = capsys.readouterr().out.strip()
    assert render_main(["--game", game, position, "-o", str(tmp_path / "from-engine.png")]) == 0
    drawn = capsys.readouterr().out
    assert render_main(["--game", game, "start", "--seed", "3", "-o", str(tmp_path / "start.png")]) == 0
    assert (tmp_path / "start.png").read_bytes() == (tmp_path / "from-engine.png").read_bytes()
    assert capsys.readouterr().out == drawn  # the same alt text


def test_render_and_engine_help_say_what_start_is(tmp_path: Path) -> None:
    render_help = run("-m", "render", "--help", cwd=tmp_path).stdout
    assert "python -m engine start" in " ".join(render_help.split())
    engine_help = run("-m", "engine", "--help", cwd=tmp_path).stdout
    assert "setup choices, if the game has any, at random from the seed" in " ".join(engine_help.split())


def test_serve_refusal_names_every_request_form(tmp_path: Path) -> None:
    done = run("-m", "engine", "--game", GAMES[0], "serve", cwd=tmp_path, stdin="{}\n")
    assert done.returncode == 0
    refusal = json.loads(done.stdout)["error"]
    for form in ('"actions"', '"legal"', '"think"'):
        assert form in refusal, refusal


def test_backup_refuses_a_missing_folder_and_an_existing_copy(tmp_path: Path) -> None:
    database = str(tmp_path / "live.db")
    env = {"BOARDGAME_DATABASE": database}
    asyncio.run(_create(database))

    missing = run("-m", "bot", "backup", str(tmp_path / "typo" / "copy.db"), cwd=tmp_path, **env)
    assert missing.returncode == 2
    assert missing.stderr.startswith(f"error: the folder {tmp_path / 'typo'} does not exist: create it first")
    assert not (tmp_path / "typo").exists()

    folder = run("-m", "bot", "backup", str(tmp_path), cwd=tmp_path, **env)
    assert folder.returncode == 2 and "is a folder: name the file to write" in folder.stderr

    copy = tmp_path / "copy.db"
    assert run("-m", "bot", "backup", str(copy), cwd=tmp_path, **env).returncode == 0
    first = copy.read_bytes()
    again = run("-m", "bot", "backup", str(copy), cwd=tmp_path, **env)
    assert again.returncode == 2
    assert again.stderr.startswith(f"error: {copy} exists already: name a new file, or add --overwrite")
    assert copy.read_bytes() == first
    replaced = run("-m", "bot", "backup", str(copy), "--overwrite", cwd=tmp_path, **env)
    assert replaced.returncode == 0 and "Copied" in replaced.stdout
    for result in (missing, folder, again):
        assert "Traceback" not in result.stderr and result.stderr.count("\n") == 1


async def _create(database: str) -> None:
    storage = await open_storage(database)
    await storage.close()


# --- 21: the README's truths ------------------------------------------------------------------
README = (ROOT / "README.md").read_text()


def test_the_readme_says_when_the_console_opens() -> None:
    text = " ".join(README.split())
    assert "when its input is a terminal, opens the **local console**" in text
    assert "it says to run `python -m bot console` in a terminal, and exits with status 0" in text


def test_the_readme_render_example_writes_into_the_ignored_boards_folder(tmp_path: Path) -> None:
    [example] = re.findall(r"`(python -m render [^`]*)`", README)
    done = run(*example.split()[1:], cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    written = [p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*.png")]
    assert written == ["boards/pikemen-start.png"] and f"`{written[0]}`" in README
    assert "boards/" in (ROOT / ".gitignore").read_text().split()


async def test_the_readme_game_commands_play_from_the_start(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each `/<game> <action command> …` the README shows is legal at the start as written;
    an example left open (`to:` and the squares the tile allows) is completed by Tab."""
    import bot.service.lobby

    monkeypatch.setattr(bot.service.lobby.secrets, "randbelow", lambda _: 0)  # one deal, every run
    examples = re.findall(r"`(/([a-z]+) [a-z]+ [^`]*)`", README)
    played = [(line, game) for line, game in examples if game in GAMES and get_game(game).title in README
              and line.split()[1] in {"move", "turn", "charge", "rotate", "advance"}]  # fmt: skip
    assert {game for _, game in played} >= {"nika", "numica", "pikemen"}
    service = await MatchService.open(str(tmp_path / "readme.db"))
    try:
        for channel, (line, game) in enumerate(played, start=1):
            lines: list[str] = []
            console = Console(service, tmp_path / "boards", out=lines.append)
            await console.load_names()
            rules = get_game(game)
            sides = rules.sides(min(rules.player_counts))
            for step in (f"channel {channel}", f"/{game} new {rules.seat_word}:{sides[0].slug}", "as @bob",
                         f"/{game} join {rules.seat_word}:{sides[1].slug}", f"/{game} start"):  # fmt: skip
                assert await console.handle(step)
            state = await service.state_of(channel)
            for name in ("alice", "bob"):
                if any(state.seats.get(s) == console.ids[name] for s in state.setup_pending()):
                    await console.handle(f"as @{name}")
                    [choice, *_] = await console.completions(f"/{game} setup choice:")
                    await console.handle(f"/{game} setup {choice}")
            state = await service.state_of(channel)
            await console.handle(f"as @{console.names[state.acting_user() or 0]}")
            if line.endswith(":"):  # left open in the README: Tab offers what c1's tile allows
                offered = await console.completions(line)
                legal = {a.notation() for a in rules.legal_actions(state.game)}
                assert offered and all(any(o.split(":")[1].strip() in n for n in legal) for o in offered)
                line = f"{line.rsplit(' ', 1)[0]} {offered[0].strip()}"
            assert await console.handle(line)
            assert not lines[-1].startswith("✗") and (await service.state_of(channel)).version == state.version + 1, (
                line, lines[-3:])  # fmt: skip
    finally:
        await service.close()
