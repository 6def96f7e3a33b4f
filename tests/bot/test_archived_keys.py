"""A very long Nika match keeps only its recent repetition keys in memory; the older ones are
stored per ply (engine/archive.py). Repetition draws are decided exactly as with every key in
memory: a true repetition across the archive is found, a false positive of the filter never
draws, an undo across the archive boundary and a restart change nothing. (The archive here is
tiny and its filter crowded, so every path is taken within a few dozen actions.)"""

from __future__ import annotations

import random

import pytest

from bot.match import snapshot
from bot.service import MatchService
from bot.service.book import MatchBook
from engine.archive import Archive, ArchiveLookup
from engine.history import History
from engine.nika.state import GameState, Reason
from tests.bot.conftest import ALICE, BOB, seat

CHANNEL = 71


@pytest.fixture(autouse=True)
def small_archive(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(History, "SETTLE", 2)
    monkeypatch.setattr(History, "KEEP", 4)
    monkeypatch.setattr(Archive, "BITS", 64)  # nearly every key "may" be archived: each is looked up
    monkeypatch.setattr(snapshot, "SNAPSHOT_EVERY", 10)
    monkeypatch.setattr(snapshot, "TAIL", 4)


@pytest.fixture
def lookups(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The keys the service looked up in its store."""
    asked: list[int] = []
    answer = MatchBook.answer

    async def counting(self: MatchBook, match_id: int, need: ArchiveLookup, pending: object = ()) -> None:
        asked.append(need.key)
        await answer(self, match_id, need, pending)  # type: ignore[arg-type]

    monkeypatch.setattr(MatchBook, "answer", counting)
    return asked


def shuttle(state: GameState) -> list[str]:
    """Two actions of the city to act that leave every piece as it was (a turn of two turns)."""
    state = GameState.from_notation(state.notation())  # trying actions on the match's own would branch it
    layout = state.notation().split()[:-1]
    for first in state.legal_actions():
        after, _ = state.apply(first)
        for second in after.legal_actions():
            if second.notation() != "pass" and after.apply(second)[0].notation().split()[:-1] == layout:
                return [first.notation(), second.notation()]
    raise AssertionError("no shuttle")


def reference(actions: list[str]) -> GameState:
    """The same actions on a state that keeps every key in memory."""
    state = GameState.start()
    for text in actions:
        state, _ = state.parse_and_apply(text)
    return state


async def seen(service: MatchService) -> int:
    """How often the current position occurred, asking the store as the service does."""
    row, state = await service.book.load(CHANNEL)
    while True:
        try:
            return state.game.times_seen()
        except ArchiveLookup as need:
            await service.book.answer(row.id, need)


async def act(service: MatchService, text: str, played: list[str]) -> None:
    state = await service.state_of(CHANNEL)
    await service.act(CHANNEL, state.acting_user() or 0, text)
    played.append(text)


async def test_random_play_with_false_positives_everywhere_matches_the_in_memory_reference(
    db_path: str, lookups: list[int]
) -> None:
    rng = random.Random(5)
    played: list[str] = []
    service = await MatchService.open(db_path)
    try:
        await seat(service, CHANNEL, {ALICE: "athens-messene", BOB: "sparta-thebes"})
        for _ in range(60):
            state = await service.state_of(CHANNEL)
            if state.rules.outcome(state.game) is not None:
                break
            legal = [a.notation() for a in state.rules.legal_actions(state.game) if a.notation() != "pass"]
            await act(service, rng.choice(legal), played)
        state = await service.state_of(CHANNEL)
        game = state.game
        assert game.history.root().archived >= 16  # the older keys are out of memory
        assert len(lookups) >= 10  # the crowded filter said "maybe" and the store said how often
        expected = reference(played)
        assert game.outcome == expected.outcome and await seen(service) == expected.times_seen()
    finally:
        await service.close()


async def test_a_start_position_seen_a_third_time_across_the_archive_draws_exactly_when_in_memory_does(
    db_path: str, lookups: list[int]
) -> None:
    played: list[str] = []
    service = await MatchService.open(db_path)
    try:
        await seat(service, CHANNEL, {ALICE: "athens-messene", BOB: "sparta-thebes"})
        for _ in range(4):  # a round: every city turns a piece and back: the start position again
            state = await service.state_of(CHANNEL)
            for text in shuttle(state.game):
                await act(service, text, played)
        state = await service.state_of(CHANNEL)
        assert await seen(service) == 2 and state.game.outcome is None
        assert state.game.history.root().archived >= 4  # the start position's first time is archived
    finally:
        await service.close()
    service = await MatchService.open(db_path)  # a restart: rebuilt from a snapshot and the log
    try:
        state = await service.state_of(CHANNEL)
        assert await seen(service) == 2
        # An undo across the archive boundary (the action archived older keys), and the same again.
        first, second = shuttle(state.game)
        user = state.acting_user() or 0
        await act(service, first, played)
        moved = await service.state_of(CHANNEL)
        assert moved.game.history.root().archived > state.game.history.root().archived
        await service.undo(CHANNEL, user)
        played.pop()
        assert await seen(service) == 2
        await act(service, first, played)
        await act(service, second, played)
        for _ in range(2):
            state = await service.state_of(CHANNEL)
            for text in shuttle(state.game):
                await act(service, text, played)
        state = await service.state_of(CHANNEL)
        expected = reference(played)
        assert expected.outcome is None and state.game.outcome is None
        state = await service.state_of(CHANNEL)
        for text in shuttle(state.game):
            await act(service, text, played)
        state = await service.state_of(CHANNEL)
        expected = reference(played)
        assert expected.outcome is not None and expected.outcome.reason is Reason.REPETITION
        assert state.game.outcome == expected.outcome and len(played) == 16
        assert state.rules.outcome(state.game) is not None
        assert lookups  # the draw needed the stored count
    finally:
        await service.close()
