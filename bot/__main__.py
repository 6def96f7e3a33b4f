"""`python -m bot` runs the Discord bot; `python -m bot console` the local console.
Without a token, it explains how to connect and starts the console instead."""

from __future__ import annotations

import asyncio
import logging
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

    import discord.http

    from bot.client import NikaBot

    if settings.api_base:
        discord.http.Route.BASE = settings.api_base
        logging.getLogger(__name__).warning("using a non-Discord API base", extra={"api_base": settings.api_base})
    NikaBot(settings).run(settings.token, log_handler=None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
