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
    monkeypatch.setattr(History, "SETTLE", 3)  # odd: the archive grows on either action of a turn
    monkeypatch.setattr(History, "KEEP", 3)  # archived every third action (Nika undoes only a first)
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
        for _ in range(40):
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
        # An undo across the archive boundary: the first turn-opening action that archives older keys is
        # taken back (the undo point holds the line before it), then played again (its ply's key
        # stored again), and the line goes on.
        archived = None
        while archived is None:
            state = await service.state_of(CHANNEL)
            pair = shuttle(state.game)
            for index, text in enumerate(pair):
                before = await service.state_of(CHANNEL)
                user = before.acting_user() or 0
                await act(service, text, played)
                moved = await service.state_of(CHANNEL)
                grew = moved.game.history.root().archived > before.game.history.root().archived
                if grew and index == 0:  # a turn's first action: Nika undoes within the turn
                    archived = index
                    break
        await service.undo(CHANNEL, user)
        played.pop()
        undone = await service.state_of(CHANNEL)
        assert undone.game.notation() == before.game.notation() == reference(played).notation()
        assert undone.game.history.root().archived == before.game.history.root().archived
        for text in pair[archived:]:
            await act(service, text, played)
        while len(played) < 16:  # shuttles up to the end of the second round: the start a third time
            state = await service.state_of(CHANNEL)
            for text in shuttle(state.game):
                await act(service, text, played)
            state = await service.state_of(CHANNEL)
            expected = reference(played)
            assert state.game.outcome == expected.outcome
            assert (expected.outcome is None) == (len(played) < 16)
        assert expected.outcome is not None and expected.outcome.reason is Reason.REPETITION
        assert state.rules.outcome(state.game) is not None
        assert lookups  # the draw needed the stored count
    finally:
        await service.close()



def answered(state: GameState, text: str, stored: dict[int, int]) -> GameState:
    """`text` applied as the service applies it: lookups answered from `stored` (ply: key)."""
    while True:
        try:
            after, _ = state.parse_and_apply(text)
            break
        except ArchiveLookup as need:
            need.archive.learn(need.key, sum(1 for p, k in stored.items() if p < need.archive.size and k == need.key))
    ply, key = after.newest_key
    stored[ply] = key
    return after


def archived_line(rounds: int) -> tuple[GameState, list[str], dict[int, int]]:
    """An archiving line from the start: `rounds` rounds of shuttles (the start position again
    after each), its older keys archived (the fixture's tiny KEEP), and the keys a host stored."""
    state = GameState.start().archiving()
    stored = dict([state.newest_key])
    played: list[str] = []
    for _ in range(rounds):
        for _ in range(4):  # the four cities' turns
            for text in shuttle(state):
                state = answered(state, text, stored)
                played.append(text)
    return state, played, stored


def test_a_search_never_asks_the_host_and_sees_the_repetitions_in_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    from engine.registry import get_game
    from engine.search import position_value, think

    nika = get_game("nika")
    state, _, _ = archived_line(1)  # the start position twice: the first time archived
    state = nika.restore(nika.snapshot(state))  # as after a restart: no answer known yet
    assert state.history is not None and state.history.root().archived >= 4
    with pytest.raises(ArchiveLookup):  # the filter (crowded here) says "maybe": a ruling asks
        state.times_seen()
    for level in ("easy", "normal"):  # a search on the match's own state: no lookup escapes
        assert think(nika, state, level=level, budget_ms=20, seed=1)
    position_value(nika, state, "athens-messene", nodes=200)
    # A what-if off the detached state (a search's few plies: far fewer than KEEP) sees the
    # repetitions in memory: a round more brings back only positions seen once or twice, a
    # second round draws on the first position that comes a third time (its first time in
    # memory or in the what-if), although archived occurrences count as absent there.
    monkeypatch.setattr(History, "KEEP", 4096)
    what_if = nika.detached(state)
    for _ in range(4):
        for text in shuttle(what_if):
            what_if, _ = what_if.parse_and_apply(text)
    assert what_if.outcome is None
    plies = 0
    while what_if.outcome is None and plies < 8:
        for text in shuttle(what_if):
            what_if, _ = what_if.parse_and_apply(text)
            plies += 1
            if what_if.outcome is not None:
                break
    assert what_if.times_seen() == 3
    assert what_if.outcome is not None and what_if.outcome.reason is Reason.REPETITION


def test_a_search_counts_an_archived_position_the_host_has_answered() -> None:
    state, played, stored = archived_line(1)
    state = GameState.restore(state.snapshot())  # as after a restart: no answer known yet
    assert state.history is not None and state.history.root().archived >= 4
    with pytest.raises(ArchiveLookup):
        state.times_seen()
    assert state.detached().times_seen() == 1  # unknown: the archived first time counts as absent
    archive = state.history.root().archive
    assert archive is not None
    key = hash(state.position)
    archive.learn(key, sum(1 for p, k in stored.items() if p < archive.size and k == key))
    assert state.times_seen() == reference(played).times_seen() == 2
    assert state.detached().times_seen() == 2  # the detached copy keeps the host's answers


async def test_a_timeout_passing_a_whole_turn_stores_the_key_of_each_position(db_path: str) -> None:
    """A timeout passes the rest of the turn: two positions in one log entry, both stored, so a
    later count over the archive misses neither."""
    from bot.match import Entry, EntryKind

    played: list[str] = []
    service = await MatchService.open(db_path)
    try:
        await seat(service, CHANNEL, {ALICE: "athens-messene", BOB: "sparta-thebes"})
        state = await service.state_of(CHANNEL)
        for text in shuttle(state.game):
            await act(service, text, played)
        row, state = await service.book.load(CHANNEL)
        timeout = Entry(EntryKind.TIMEOUT, None, seat=state.to_act)
        new, _, logged = await service.book.validated(row, state, [timeout])
        await service.book.commit(row, state, new, logged)
        async with service.storage.reading() as db:
            stored = await db.fetchall("SELECT ply, key FROM repetition_keys WHERE match_id = ? ORDER BY ply", row.id)
    finally:
        await service.close()
    line = GameState.start()
    expected = [hash(line.position)]
    for text in [*played, "pass", "pass"]:
        line, _ = line.parse_and_apply(text)
        expected.append(hash(line.position))
    assert new.game.length == len(expected) == 5
    assert [(int(p), int(k)) for p, k in stored] == list(enumerate(expected))
