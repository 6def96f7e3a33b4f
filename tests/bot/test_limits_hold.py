"""Limits that hold under races and faults: the lobby cap under concurrency, a database file
that disappears while the bot runs, and writes queued behind a lock held by another process."""

from __future__ import annotations

import asyncio

from bot.errors import NotAllowed
from bot.replies import Reply
from bot.service import MatchService
from bot.storage import matches as queries
from bot.storage import open_storage
from tests.bot.hostile_surface import stub_renderer

GUILD, ALICE = 1000, 11
GAME = "tictactoe"


async def quick(location: str) -> MatchService:
    return MatchService(await open_storage(location), renderer=stub_renderer)


async def test_the_lobby_cap_holds_when_a_member_opens_thirty_lobbies_at_once(db_path: str) -> None:
    """Thirty /new from one member at the same moment, through two processes' worth of connections:
    three lobbies open (the cap), twenty-seven are refused, on both backends."""
    services = [await quick(db_path), await quick(db_path)]
    try:
        results = await asyncio.gather(
            *(services[channel % 2].new_match(GUILD, channel, ALICE, "x", game=GAME) for channel in range(1, 31)),
            return_exceptions=True,
        )
        async with services[0].storage.reading() as db:
            stored = await queries.open_lobbies_by(db, GUILD, ALICE)
    finally:
        for service in services:
            await service.close()
    opened = [r for r in results if isinstance(r, Reply)]
    refused = [r for r in results if isinstance(r, NotAllowed)]
    assert (len(opened), len(refused), stored) == (3, 27, 3), [type(r).__name__ for r in results]
    assert all("you already have 3 open lobbies on this server" in str(r) for r in refused)
