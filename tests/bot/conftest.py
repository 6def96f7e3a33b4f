from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.service import MatchService

GUILD = 1000
ALICE, BOB, CAROL, DAVE, EVE = 11, 22, 33, 44, 55


@pytest.fixture
def db_path(tmp_path: Path) -> str:
    return str(tmp_path / "nika.db")


@pytest.fixture
async def service(db_path: str) -> AsyncIterator[MatchService]:
    service = await MatchService.open(db_path)
    yield service
    await service.close()


async def seat(service: MatchService, channel: int, seating: dict[int, str], *, start: str | None = None) -> None:
    """Open a lobby in `channel` with the first user, seat the rest, and start."""
    users = list(seating)
    await service.new_match(GUILD, channel, users[0], seating[users[0]], start=start)
    for user in users[1:]:
        await service.join(GUILD, channel, user, seating[user])
    await service.start(GUILD, channel, users[0])
