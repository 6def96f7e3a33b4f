"""`python -m bot` runs the Discord bot; `python -m bot console` the local console;
`python -m bot backup <path>` copies the live SQLite database safely.
Without a token, it explains how to connect and starts the console instead.

Every start-up failure prints one line saying what is wrong and exits non-zero at once:
a supervisor sees a dead process, never a hung one."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import signal
import sys

from bot.config import Settings
from bot.logs import setup_logging
from engine.plugins import PluginError
from engine.registry import get_game

NO_TOKEN = """\
No Discord token is configured, so the bot cannot connect to Discord.
To connect it: copy .env.example to .env and set DISCORD_TOKEN (from the Discord
developer portal → your application → Bot), or export DISCORD_TOKEN in the environment.
Meanwhile you can play locally: `python -m bot console`."""
NOT_A_TERMINAL = """\
This input is not a terminal, so the console was not opened. To play locally, run
`python -m bot console` in a terminal (with the virtualenv active)."""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bot",
        description="The board-game host for Discord. With no command: run the bot (the local console "
        "when no DISCORD_TOKEN is set). Settings come from the environment or .env (see .env.example).",
    )
    commands = parser.add_subparsers(dest="command")
    console = commands.add_parser("console", help="play locally in this terminal, with the bot's commands")
    console.add_argument("--locale", default="en", help="the language of the console (en or es)")
    backup = commands.add_parser("backup", help="copy the SQLite database (safe while the bot runs)")
    backup.add_argument("path", help="where to write the copy: a new file in an existing folder")
    backup.add_argument("--overwrite", action="store_true", help="replace an earlier copy at that path")
    migrate = commands.add_parser("migrate-db", help="copy a SQLite database into an empty PostgreSQL database")
    migrate.add_argument("--from", dest="source", required=True, help="the SQLite file")
    migrate.add_argument("--to", dest="target", required=True, help="a postgresql:// URL")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(sys.argv[1:] if argv is None else argv)
    try:
        settings = Settings.load()
        hosted = settings.hosted()
        if args.command != "console":  # the console loads them while its first line is typed
            for slug in hosted:
                get_game(slug)  # every hosted game's package loads, or the start stops here
    except (ValueError, PluginError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if not hosted:
        print("error: no game is installed: install the project (pip install -e .) or a game package", file=sys.stderr)
        return 2
    setup_logging(settings.log_level, secrets=(settings.token,) if settings.token else ())
    from bot.storage import StorageOpenError

    try:
        if args.command == "console":
            return _console(settings, args.locale, hosted)
        if args.command == "backup":
            return asyncio.run(_backup(settings, args.path, overwrite=args.overwrite))
        if args.command == "migrate-db":
            from bot.migrate_db import main as migrate_main

            return migrate_main(["--from", args.source, "--to", args.target])
        if not settings.token:
            print(NO_TOKEN, file=sys.stderr)
            if not sys.stdin.isatty():
                # Piped or scripted (the quick start's line in CI, say): nobody could type in a
                # console, so say how to open one and end well.
                print(NOT_A_TERMINAL, file=sys.stderr)
                return 0
            print("Starting the local console.\n", file=sys.stderr)
            return _console(settings, "en", hosted)
        if settings.api_base:
            logging.getLogger(__name__).warning("using a non-Discord API base", extra={"api_base": settings.api_base})
        asyncio.run(_check_storage(settings))
        try:
            return asyncio.run(run_bot(settings))
        finally:
            from bot.workers import stop_resource_tracker

            stop_resource_tracker()
    except StorageOpenError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (`python -m bot console | head`): stop quietly. Python would
        # complain again when it flushes stdout at exit, so stdout points nowhere from here.
        with contextlib.suppress(OSError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        return 0


def _console(settings: Settings, locale: str, games: tuple[str, ...]) -> int:
    """The console opens its storage first (a bad database is one line and exit 1, with nothing
    started), and leaves no process behind: its worker pools are closed on the way out, and
    multiprocessing's resource tracker stopped after them."""
    from bot.console_start import run_console
    from bot.workers import stop_resource_tracker
    from render.words import LANGUAGES, language_of

    wanted = locale.replace("_", "-").split("-")[0].lower()
    if wanted not in LANGUAGES:
        print(f"warning: the console does not speak {locale!r}; it speaks {', '.join(LANGUAGES)}. "
              f"Going on in {language_of(locale)!r}.", file=sys.stderr)  # fmt: skip
        locale = language_of(locale)
    try:
        asyncio.run(run_console(settings.database, settings.boards_dir, locale=locale, games=games))
    except PluginError as error:  # a game package that does not load: found after the greeting
        print(f"error: {error}", file=sys.stderr)
        return 2
    finally:
        stop_resource_tracker()
    return 0


async def _check_storage(settings: Settings) -> None:
    """Open the database once before anything else starts (computer workers, the gateway):
    a bad path, a damaged or newer file, or a read-only one is reported in one line, and the
    process exits at once, with nothing left running to keep it alive."""
    from bot.storage import open_storage

    storage = await open_storage(settings.database)
    await storage.close()


async def _backup(settings: Settings, path: str, *, overwrite: bool = False) -> int:
    from pathlib import Path

    from bot.storage import open_storage
    from bot.storage.sqlite import SQLiteStorage

    # A typo in the folder must not scatter copies where nobody looks, and last week's copy
    # must not be replaced by accident: both are refused, saying what to do instead.
    target = Path(path).expanduser()
    if target.is_dir():
        print(f"error: {path} is a folder: name the file to write, like {target / 'backup.db'}", file=sys.stderr)
        return 2
    if not target.parent.is_dir():
        print(f"error: the folder {target.parent} does not exist: create it first (mkdir -p {target.parent})",
              file=sys.stderr)  # fmt: skip
        return 2
    if target.exists() and not overwrite:
        print(f"error: {path} exists already: name a new file, or add --overwrite to replace it", file=sys.stderr)
        return 2
    storage = await open_storage(settings.database)
    try:
        if not isinstance(storage, SQLiteStorage):
            print("error: backup copies a SQLite database; back PostgreSQL up with pg_dump", file=sys.stderr)
            return 2
        await storage.backup(path)
    finally:
        await storage.close()
    print(f"Copied {settings.database} to {path}. To restore: stop the bot, put the copy in its place, start it.")
    return 0


async def run_bot(settings: Settings) -> int:
    """Run until the connection ends or a stop signal arrives.

    Hosts stop a worker with SIGTERM (then SIGKILL). discord.py's `Client.run` only
    handles Ctrl-C, so without this a SIGTERM would kill the process on the spot, with
    the gateway session and the database left open.
    """
    import aiohttp
    import discord

    from bot.client import make_bot

    assert settings.token is not None
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError):  # no signal handlers on Windows' loop
            loop.add_signal_handler(signum, stop.set)
    bot = make_bot(settings)
    try:
        async with bot:
            runner = asyncio.create_task(bot.start(settings.token))
            stopper = asyncio.create_task(stop.wait())
            await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
            stopper.cancel()
            await bot.close()
            await runner  # re-raises a failed login or a fatal gateway error
    except discord.LoginFailure:
        print("error: Discord refused the token: check DISCORD_TOKEN (reset it in the developer portal if needed)",
              file=sys.stderr)  # fmt: skip
        return 1
    except (aiohttp.ClientConnectionError, OSError) as error:
        print(f"error: cannot reach Discord: {error}", file=sys.stderr)
        return 1
    except discord.PrivilegedIntentsRequired:
        print("error: Discord refused the connection's intents", file=sys.stderr)
        return 1
    logging.getLogger(__name__).info("stopped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
