"""Run the double standalone for poking at a bot by hand.

    python -m tests.discord_double [--port 8765]

Prints the env vars to give the bot, then logs every HTTP request until Ctrl-C.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib

from .server import DiscordDouble


async def _main(port: int) -> None:
    double = DiscordDouble(port=port)
    await double.start()
    for key, value in double.env().items():
        print(f"export {key}={value}", flush=True)
    printed = 0
    try:
        while True:
            rec = await double.wait_for_request(lambda _: True, timeout=3600, start=printed)
            print(f"{rec.method} {rec.route} -> {rec.status}", flush=True)
            printed = rec.seq + 1
    finally:
        await double.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args()
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(_main(args.port))


if __name__ == "__main__":
    main()
