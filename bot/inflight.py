"""Interactions still being handled, so shutdown lets them finish (reply, record the
board message) before the gateway and the database close."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import discord

Owner = TypeVar("Owner")


class InFlight:
    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[Any]] = set()

    @contextmanager
    def track(self) -> Iterator[None]:
        task = asyncio.current_task()
        assert task is not None  # discord.py handles each interaction in its own task
        self._tasks.add(task)
        try:
            yield
        finally:
            self._tasks.discard(task)

    async def drain(self, timeout: float) -> None:
        """Wait (at most `timeout` seconds) for the interactions in progress to finish."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while self._tasks and (left := deadline - loop.time()) > 0:
            await asyncio.wait(set(self._tasks), timeout=left)


def in_flight_of(client: discord.Client) -> InFlight:
    found = getattr(client, "in_flight", None)
    return found if isinstance(found, InFlight) else InFlight()


def tracked(
    callback: Callable[[Owner, discord.Interaction], Awaitable[None]],
) -> Callable[[Owner, discord.Interaction], Awaitable[None]]:
    """Count a component callback as in flight for the bot's shutdown."""

    @functools.wraps(callback)
    async def wrapper(owner: Owner, interaction: discord.Interaction) -> None:
        with in_flight_of(interaction.client).track():
            await callback(owner, interaction)

    return wrapper
