"""`python -m bot` runs the Discord bot; `python -m bot console` the local console.
Without a token, it explains how to connect and starts the console instead."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sys

from bot.config import Settings
from bot.logs import setup_logging

NO_TOKEN = """\
No Discord token is configured, so the bot cannot connect to Discord.
To connect it: copy .env.example to .env and set DISCORD_TOKEN (from the Discord
developer portal → your application → Bot), or export DISCORD_TOKEN in the environment.
Meanwhile you can play locally: `python -m bot console`."""


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    settings = Settings.load()
    setup_logging(settings.log_level, secrets=(settings.token,) if settings.token else ())
    if args[:1] == ["console"]:
        from bot.console import run_console

        asyncio.run(run_console(settings.database, settings.boards_dir))
        return 0
    if args:
        print("usage: python -m bot [console]", file=sys.stderr)
        return 2
    if not settings.token:
        print(NO_TOKEN, file=sys.stderr)
        if not sys.stdin.isatty():
            return 2
        from bot.console import run_console

        print("Starting the local console.\n", file=sys.stderr)
        asyncio.run(run_console(settings.database, settings.boards_dir))
        return 0

    if settings.api_base:
        logging.getLogger(__name__).warning("using a non-Discord API base", extra={"api_base": settings.api_base})
    asyncio.run(run_bot(settings))
    return 0


async def run_bot(settings: Settings) -> None:
    """Run until the connection ends or a stop signal arrives.

    Hosts stop a worker with SIGTERM (then SIGKILL). discord.py's `Client.run` only
    handles Ctrl-C, so without this a SIGTERM would kill the process on the spot, with
    the gateway session and the database left open.
    """
    from bot.client import NikaBot

    assert settings.token is not None
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError):  # no signal handlers on Windows' loop
            loop.add_signal_handler(signum, stop.set)
    bot = NikaBot(settings)
    async with bot:
        runner = asyncio.create_task(bot.start(settings.token))
        stopper = asyncio.create_task(stop.wait())
        await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
        stopper.cancel()
        await bot.close()
        await runner  # re-raises a failed login or a fatal gateway error
    logging.getLogger(__name__).info("stopped")


if __name__ == "__main__":
    sys.exit(main())
