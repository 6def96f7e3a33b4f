"""Plays random legal actions forever, printing `ack <channel> <version> <action>` after
each one the service acknowledged. The crash-safety test kills it with SIGKILL."""

from __future__ import annotations

import asyncio
import contextlib
import random
import sys

from bot.errors import NoMatch, ServiceError
from bot.service import MatchService

GUILD, ALICE, BOB = 1000, 11, 22


async def open_match(service: MatchService, channel: int) -> None:
    """Create and start a match; tolerant of a lobby left half-made by an earlier kill."""
    with contextlib.suppress(ServiceError):
        await service.new_match(GUILD, channel, ALICE, "athens-messene", game="nika")
    with contextlib.suppress(ServiceError):
        await service.join(channel, BOB, "sparta-thebes")
    with contextlib.suppress(ServiceError):
        await service.start(channel, ALICE)


async def play(path: str, seed: int) -> None:
    rng = random.Random(seed)
    service = await MatchService.open(path)
    channel = 1
    while True:
        try:
            state = await service.state_of(channel)
        except NoMatch:
            await open_match(service, channel)
            continue
        if state.game.is_over:
            channel += 1
            continue
        user = state.acting_user()
        actions = await service.legal_actions(channel, user) if user is not None else []
        if not actions:  # still a lobby
            await open_match(service, channel)
            continue
        action = rng.choice(actions).notation()
        await service.act(channel, user, action)  # type: ignore[arg-type]
        seq = (await service.state_of(channel)).version
        print(f"ack {channel} {seq} {action}", flush=True)


if __name__ == "__main__":
    asyncio.run(play(sys.argv[1], int(sys.argv[2])))
