"""Rate limits for expensive reads (board, replay, history, stats), per member and command:
a few at once, then one every few seconds (a token bucket). One member asking for the
board fifty times cannot slow the bot for everyone else; the local console is exempt.

A part of the service (it holds state across commands); the commands that are expensive
say so in their spec (`CommandSpec.cooldown`), and dispatch takes a use here."""

from __future__ import annotations

import time

from bot.errors import TooSoon
from engine.i18n import M, Term

COOLDOWN_SECONDS = 5.0
COOLDOWN_BURST = 3
TABLE_MAX = 10_000


class Cooldowns:
    def __init__(self, seconds: float = COOLDOWN_SECONDS, burst: int = COOLDOWN_BURST) -> None:
        self.seconds = seconds
        self.burst = burst
        self._buckets: dict[tuple[int, str, str], tuple[float, float]] = {}  # key -> (tokens, when)

    def take(self, user_id: int, game: str, command: str) -> None:
        """Spend one use, or raise TooSoon saying when the next one is possible."""
        now = time.monotonic()
        key = (user_id, game, command)
        tokens, when = self._buckets.get(key, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - when) / self.seconds)
        if tokens < 1.0:
            wait = max(1.0, (1.0 - tokens) * self.seconds)
            raise TooSoon(M("you can use /{game} {command} again in {seconds} s", game=game,
                            command=Term(command, "command"), seconds=f"{wait:.0f}"))  # fmt: skip
        if len(self._buckets) > TABLE_MAX:  # forget full buckets so the table stays small
            horizon = self.seconds * self.burst
            self._buckets = {k: v for k, v in self._buckets.items() if now - v[1] < horizon}
        self._buckets[key] = (tokens - 1.0, now)
