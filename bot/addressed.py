"""Which match the running command addresses, where a channel holds several (an event's games
sharing its channel): a context variable for the command's task, set by whoever resolved it
(bot/service/addressing.py chooses; the command layer and the buttons set it) and read by
`MatchBook.load`. A module of its own, below both, so the command layer imports no service."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from bot.errors import ServiceError

__all__ = ["Addressed", "addressed_in", "addressing"]


@dataclass(frozen=True, slots=True)
class Addressed:
    """In `channel_id`, the command means `match_id`; or no match could be chosen (`refusal`)."""

    channel_id: int
    match_id: int | None = None
    refusal: ServiceError | None = None


_ADDRESSED: ContextVar[Addressed | None] = ContextVar("addressed_match", default=None)


@contextmanager
def addressing(addressed: Addressed | None) -> Iterator[None]:
    token = _ADDRESSED.set(addressed)
    try:
        yield
    finally:
        _ADDRESSED.reset(token)


def addressed_in(channel_id: int) -> Addressed | None:
    """What the running command addressed in this channel (None: the channel's one match)."""
    chosen = _ADDRESSED.get()
    return chosen if chosen is not None and chosen.channel_id == channel_id else None


