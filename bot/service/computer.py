"""Computer seats: their moves, setup choices and answers to proposals, searched in worker
processes so the event loop (and every human's action) never waits on a search.

A worker gets the game's slug and the position in notation, nothing else, and answers
in notation: what crosses the process boundary is small and plain. Every proposal is
then validated by the match log like a member's action (`MatchState.with_entry`).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
from typing import TYPE_CHECKING

from bot.match import MatchState
from engine.registry import get_game

if TYPE_CHECKING:  # multiprocessing is imported with the first search, not by every process that may need one
    from concurrent.futures import ProcessPoolExecutor

# Choices nobody may learn before they are revealed (a secret setup) come from the operating
# system's randomness: nothing a player can see (the seed in a game record, the position, the
# time) lets anyone reproduce them. Public moves stay seeded, so a position gets the same answer.
HIDDEN_CHOICES = random.SystemRandom()


def _start_worker() -> None:
    """In a fresh worker: yield the CPU to the bot's own process (a member's action must not
    wait on a search). The worker finds the games as the bot does, by their entry points."""
    with contextlib.suppress(OSError):
        os.nice(10)


def _think(slug: str, position: str, level: str, budget_ms: float, seed: int) -> list[str]:
    from engine.search import think

    game = get_game(slug)
    state = game.load(position)
    return [action.notation() for action in think(game, state, level=level, budget_ms=budget_ms, seed=seed)]


def _accepts_draw(slug: str, position: str, seat: str) -> bool:
    from engine.search import accepts_draw

    game = get_game(slug)
    return accepts_draw(game, game.load(position), seat)


def _concedes(slug: str, position: str, seat: str, side: str) -> bool:
    from engine.search import concedes_claim

    game = get_game(slug)
    return concedes_claim(game, game.load(position), seat, side)


class ComputerPlayers:
    def __init__(self, workers: int = 1, budgets: dict[str, float] | None = None) -> None:
        self.workers = workers
        # Made at the first search: until then no process (nor multiprocessing's resource tracker)
        # runs, so a console or a bot nobody plays the computer against starts without them.
        self._executor: ProcessPoolExecutor | None = None
        self._closed = False
        from engine.search import BUDGET_MS

        # Milliseconds a level thinks per action (its search effort is counted in nodes, so a
        # given position always gets the same answer; tests may ask for less).
        self.budgets = dict(BUDGET_MS, **(budgets or {}))

    @property
    def _pool(self) -> ProcessPoolExecutor:
        if self._closed:  # a search asked for on the way out would start a worker nobody stops
            raise RuntimeError("the computer players are closed")
        if self._executor is None:
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor

            # spawn, not fork: the bot's process has threads (storage, rendering) a fork would copy mid-lock.
            context = multiprocessing.get_context("spawn")
            self._executor = ProcessPoolExecutor(self.workers, mp_context=context, initializer=_start_worker)
        return self._executor

    async def close(self) -> None:
        """Stop the workers, waiting for a search under way (at most its time budget)."""
        self._closed = True
        if self._executor is not None:
            await asyncio.to_thread(self._executor.shutdown, wait=True, cancel_futures=True)

    async def move(self, state: MatchState, seat: str) -> list[str]:
        """The computer's actions for the rest of its turn, or its setup choice (one item)."""
        rules = state.rules
        if state.to_act is None:
            # A hidden choice: drawn from the system's randomness, never from the match's seed,
            # which anyone may read in the game record before the reveal.
            choices = list(rules.setup_choices(state.game, seat))
            return [HIDDEN_CHOICES.choice(choices).value] if choices else []
        seed = state.seed * 1_000_003 + state.version  # the same match position always gets the same answer
        level = state.computers.get(seat, "normal")
        budget = self.budgets[level] * rules.actions_left(state.game)  # the whole rest of the turn
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            self._pool, _think, rules.slug, rules.notation(state.game), level, budget, seed
        )

    async def accepts_draw(self, state: MatchState, seat: str) -> bool:
        loop = asyncio.get_running_loop()
        rules = state.rules
        return await loop.run_in_executor(self._pool, _accepts_draw, rules.slug, rules.notation(state.game), seat)

    async def concedes(self, state: MatchState, seat: str, side: str) -> bool:
        loop = asyncio.get_running_loop()
        rules = state.rules
        return await loop.run_in_executor(self._pool, _concedes, rules.slug, rules.notation(state.game), seat, side)
