from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import discord
import pytest
from discord.gateway import DiscordWebSocket

from bot.client import BoardGameBot
from bot.clock import ManualClock
from bot.dispatcher import TimerDispatcher
from bot.replies import Notice
from bot.service import MatchService
from tests.bot.discord_harness import TOKEN, Players, running
from tests.discord_double import DiscordDouble, Perm
from tests.postgres_server import PostgresServer, postgres_server

GUILD = 1000
ALICE, BOB, CAROL, DAVE, EVE = 11, 22, 33, 44, 55


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    """One throwaway PostgreSQL server for the session; each test gets a database of its own."""
    with postgres_server() as server:
        yield server


@pytest.fixture(params=["sqlite", "postgresql"])
def db_path(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where a service stores matches: every storage and service test runs on both backends."""
    if request.param == "sqlite":
        return str(tmp_path / "nika.db")
    server: PostgresServer = request.getfixturevalue("postgres")
    return server.create_database()


@pytest.fixture
def sqlite_path(tmp_path: Path) -> str:
    """For the tests of SQLite's own schema and files."""
    return str(tmp_path / "nika.db")


@pytest.fixture
async def service(db_path: str) -> AsyncIterator[MatchService]:
    service = await MatchService.open(db_path)
    yield service
    await service.close()


async def seat(service: MatchService, channel: int, seating: dict[int, str], *, start: str | None = None,
               game: str = "nika") -> None:  # fmt: skip
    """Open a lobby of `game` in `channel` with the first user, seat the rest, and start (its
    first board posted, as a front end would: its outbox backup is dropped)."""
    users = list(seating)
    await service.new_match(GUILD, channel, users[0], seating[users[0]], start=start, game=game)
    for user in users[1:]:
        await service.join(channel, user, seating[user])
    await service.posted(await service.start(channel, users[0]), None)


# The service's calls whose reply a front end posts for everyone (and then reports as posted).
POSTED_REPLIES = frozenset({
    "new_match", "join", "leave", "start", "abort", "act", "undo", "setup", "resign", "draw", "declare", "concede",
    "challenge", "answer",
})  # fmt: skip


class FrontEnd:
    """A MatchService driven as the bot's front ends drive it: every reply it returns is posted
    (here: nowhere) and reported with `posted`, so its outbox backup is dropped, as after a real
    post. Everything else passes through; `raw` is the service itself."""

    def __init__(self, service: MatchService) -> None:
        self.raw = service

    def __getattr__(self, name: str) -> Any:
        value = getattr(self.raw, name)
        if name not in POSTED_REPLIES:
            return value

        async def posting(*args: Any, **kwargs: Any) -> Any:
            reply = await value(*args, **kwargs)
            await self.raw.posted(reply, None)
            if reply.announce is not None:
                await self.raw.posted(reply.announce, None)
            return reply

        return posting


class TimedService:
    """The service on a hand-moved clock, with the dispatcher that fires its timers; `service`
    posts every reply as the front ends do, `raw` is the service itself."""

    def __init__(self, service: MatchService, clock: ManualClock) -> None:
        self.raw = service
        self.service = FrontEnd(service)
        self.clock = clock
        self.notices: list[Notice] = []
        self.dispatcher = TimerDispatcher(service, self._announce)

    async def _announce(self, notice: Notice, nonce: str) -> None:
        self.notices.append(notice)

    async def after(self, hours: float) -> list[Notice]:
        """Move the clock on and return what the dispatcher announced meanwhile."""
        seen = len(self.notices)
        await self.clock.advance(hours * 3600.0)
        await self.dispatcher.settled()
        return self.notices[seen:]


@pytest.fixture
async def double(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[DiscordDouble]:
    async with DiscordDouble(token=TOKEN, channel_names=("general", "second")) as fake:
        # __main__ sets Route.BASE from DISCORD_API_BASE; in process the test does it.
        monkeypatch.setattr(discord.http.Route, "BASE", fake.base_url)
        # setup_hook adopts the double's gateway URL; restore discord.py's afterwards.
        monkeypatch.setattr(DiscordWebSocket, "DEFAULT_GATEWAY", DiscordWebSocket.DEFAULT_GATEWAY)
        yield fake
        assert fake.internal_errors == []
        assert fake.unknown_requests == []


@pytest.fixture
def players(double: DiscordDouble) -> Players:
    return Players(
        alice=double.add_user("alice"),
        bob=double.add_user("bob"),
        carol=double.add_user("carol"),
        dave=double.add_user("dave"),
        eve=double.add_user("eve"),
        mod=double.add_user("mod", permissions=Perm.MANAGE_CHANNELS),
    )


@pytest.fixture
async def bot(
    double: DiscordDouble, players: Players, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> AsyncIterator[BoardGameBot]:
    async with running(double, str(tmp_path / "nika.db")) as client:
        yield client
    # discord.py logs, rather than raises, what goes wrong inside commands.
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert errors == []
