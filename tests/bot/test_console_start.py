"""`python -m bot console` reaches its prompt without importing what no command has needed yet
(issue 24: its start-up time is what a player waits for; bench/console.py prints it). A real
console process, run with `-X importtime`: every module it imported is listed on its stderr as
the import ends. The list is read once the console has answered `help` at its prompt, so its
timer dispatcher has begun too (it looks for due events beside the prompt)."""

from __future__ import annotations

import os
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

import bot
from bot.commands.group import commands_for
from bot.console_words import example
from bot.i18n import speaking
from bot.texts import command as command_name
from bot.texts import option as option_name
from engine.i18n import choice_name
from engine.registry import installed_slugs

ROOT = Path(bot.__file__).resolve().parent.parent
PROMPT = b"@#1> "  # alice@#1> : "> " alone is in the greeting already (`/<game> help`)
# Heavy, and used only by some commands: drawing (Pillow, and the render of tables and boards),
# ratings (openskill), tournaments (networkx for Swiss pairings, and the tournament code), the
# Spanish catalogues' reader (Babel), and the Discord side (discord.py, aiohttp), PostgreSQL's.
NOT_BEFORE_THE_PROMPT = (
    "PIL", "openskill", "networkx", "babel", "discord", "aiohttp", "asyncpg",
    "bot.tournament", "bot.service.events", "bot.ratings.present", "render.tables",
)  # fmt: skip


def imported_before_the_prompt(folder: Path) -> set[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NIKA_", "DISCORD_", "BOARDGAME_"))}
    env |= {"BOARDGAME_DATABASE": str(folder / "c.db"), "BOARDGAME_BOARDS_DIR": str(folder / "boards")}
    with (folder / "imports.txt").open("w+b") as imports:
        process = subprocess.Popen([sys.executable, "-X", "importtime", "-m", "bot", "console"], cwd=ROOT, env=env,
                                   stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=imports)  # fmt: skip
        assert process.stdout is not None and process.stdin is not None
        try:
            seen = b""
            deadline = time.monotonic() + 90  # a hang guard, not a speed check
            for prompts in (1, 2):
                while seen.count(PROMPT) < prompts:
                    left = deadline - time.monotonic()
                    assert left > 0, seen.decode(errors="replace")
                    if select.select([process.stdout], [], [], left)[0]:
                        chunk = os.read(process.stdout.fileno(), 65536)
                        assert chunk, seen.decode(errors="replace")
                        seen += chunk
                if prompts == 1:
                    process.stdin.write(b"help\n")
                    process.stdin.flush()
            assert b"quit" in seen.split(PROMPT)[1]  # help answered
            imports.seek(0)
            listed = imports.read().decode(errors="replace")
            process.stdin.write(b"quit\n")
            process.stdin.close()
            assert process.wait(timeout=60) == 0
        finally:
            process.kill()
            process.wait()
            process.stdout.close()
    return set(re.findall(r"^import time:\s+\d+ \|\s+\d+ \|\s*(\S+)$", listed, re.MULTILINE))


def test_the_console_prompts_before_importing_what_no_command_needed_yet(tmp_path: Path) -> None:
    modules = imported_before_the_prompt(tmp_path)
    assert {"bot.console", "bot.service", "engine.nika.rules"} <= modules  # the list is read as meant
    heavy = sorted(m for m in modules if any(m == h or m.startswith(h + ".") for h in NOT_BEFORE_THE_PROMPT))
    assert heavy == [], heavy


@pytest.mark.parametrize("slug", installed_slugs())
def test_the_greetings_example_is_the_first_choice_of_the_games_new_command(slug: str) -> None:
    """The greeting reads its example from the rules alone, to be quick; the command it shows is
    the one the game's `new` offers first, in English and in Spanish."""
    new = commands_for(slug)["new"]
    seat = new.options[0]
    assert seat.choices
    for locale in ("en", "es"):
        with speaking(locale, slug):
            shown = f"/{slug} {command_name('new')} {option_name(seat.name)}:{choice_name(seat.choices[0].value)}"
            assert example([slug, *(s for s in installed_slugs() if s != slug)]) == shown
