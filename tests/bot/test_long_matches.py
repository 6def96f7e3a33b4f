"""Long matches stay cheap: the service saves a match whole now and then, so a restart replays
only the log after the newest snapshot; what it rebuilds is exactly what the whole log gives;
and its cache of live states is bounded in bytes. (Snapshots every 10 versions here, not 100,
to keep the matches short.)"""

from __future__ import annotations

import json
import logging
import random
from typing import Any

import pytest

from bot.match import MatchState, replay, snapshot
from bot.service import MatchService, book
from bot.storage import matches as queries
from engine.history import unpack
from tests.bot.conftest import ALICE, BOB, GUILD, seat

CHANNEL = 70


@pytest.fixture(autouse=True)
def frequent_snapshots(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(snapshot, "SNAPSHOT_EVERY", 10)
    monkeypatch.setattr(snapshot, "TAIL", 4)


async def play_moves(service: MatchService, count: int, rng: random.Random, channel: int = CHANNEL) -> None:
    for _ in range(count):
        state = await service.state_of(channel)
        legal = [a.notation() for a in state.rules.legal_actions(state.game) if a.notation() != "pass"]
        await service.act(GUILD, channel, state.acting_user() or 0, rng.choice(legal))


def essentials(state: MatchState) -> dict[str, Any]:
    """Everything a match's future depends on (events aside: they are not kept for old steps)."""
    rules = state.rules
    return {
        "position": rules.notation(state.game),
        "snapshot": game_essentials(rules.snapshot(state.game)),  # the repetition history too
        "version": state.version,
        "board_version": state.board_version,
        "played": [(p.seq, p.seat, p.user_id, p.action, p.ending, p.side) for p in state.played],
        "undo_point": None if state.undo_point is None else rules.notation(state.undo_point),
        "undone": state.undone,
        "proposal": state.proposal,
        "outcome": rules.outcome(state.game),
    }


def game_essentials(text: str | None) -> Any:
    """A game's snapshot, its packed repetition keys as what they count: which keys, how often,
    and the newest (a long line keeps the older ones sorted, not in order of play)."""
    if text is None:
        return None
    data = json.loads(text)
    if isinstance(data.get("history"), str):
        keys = unpack(data.pop("settled", "")) + unpack(data["history"])
        data["history"] = (sorted(keys), keys[-1])
    return data


async def snapshot_versions(service: MatchService, match_id: int) -> list[int]:
    async with service.storage.reading() as db:
        return [int(row[0]) for row in await db.fetchall(
            "SELECT version FROM snapshots WHERE match_id = ? ORDER BY version", match_id)]  # fmt: skip


async def whole_log_replay(service: MatchService, channel: int) -> MatchState:
    """The match rebuilt the slow way, from its first log entry."""
    row, state = await service.book.load(channel, open_only=False)
    async with service.storage.reading() as db:
        entries = [book._entry_of(e) for e in await queries.log_of(db, row.id)]
    begun = MatchState.begin(state.rules, state.seats, state.start, players=state.player_count,
                             options=state.options, seed=state.seed, computers=state.computers)  # fmt: skip
    return replay(begun, entries)


async def test_a_restart_rebuilds_a_long_match_from_its_snapshot_exactly_as_from_its_whole_log(db_path: str) -> None:
    rng = random.Random(4)
    service = await MatchService.open(db_path)
    try:
        await seat(service, CHANNEL, {ALICE: "athens-messene", BOB: "sparta-thebes"})
        await play_moves(service, 13, rng)
        await service.draw(GUILD, CHANNEL, ALICE, "offer")  # a proposal pending across a snapshot point
        await play_moves(service, 14, rng)
        await service.draw(GUILD, CHANNEL, BOB, "decline")
        await play_moves(service, 9, rng)
        before = await service.state_of(CHANNEL)
        match_id = (await service.book.load(CHANNEL))[0].id
        assert await snapshot_versions(service, match_id) == [20, 30]  # only the newest two are kept
    finally:
        await service.close()

    service = await MatchService.open(db_path)
    try:
        after = await service.state_of(CHANNEL)
        assert essentials(after) == essentials(before) == essentials(await whole_log_replay(service, CHANNEL))
        # It came from the snapshot at 30: older steps have no events in memory, the tail has.
        assert after.played[0].events is None and after.played[-1].events
        # And it plays on.
        await play_moves(service, 2, rng)
    finally:
        await service.close()


async def test_an_undo_just_after_a_snapshot_point_replays_after_a_restart(db_path: str) -> None:
    rng = random.Random(8)
    service = await MatchService.open(db_path)
    try:
        await seat(service, CHANNEL, {ALICE: "athens-messene", BOB: "sparta-thebes"})
        await service.draw(GUILD, CHANNEL, BOB, "offer")  # entry 1: then entry 20 is a turn's first action
        await play_moves(service, 19, rng)  # so the snapshot at 20 holds an undo point
        state = await service.state_of(CHANNEL)
        assert state.version == 20 and state.undo_point is not None
        await service.undo(GUILD, CHANNEL, state.acting_user() or 0)
        await play_moves(service, 5, rng)
        before = await service.state_of(CHANNEL)
    finally:
        await service.close()
    service = await MatchService.open(db_path)
    try:
        after = await service.state_of(CHANNEL)
        assert essentials(after) == essentials(before)
        assert after.played[-1].events and after.played[0].events is None
    finally:
        await service.close()


async def test_a_snapshot_that_does_not_restore_is_ignored_and_the_whole_log_replayed(
    db_path: str, caplog: pytest.LogCaptureFixture
) -> None:
    rng = random.Random(5)
    service = await MatchService.open(db_path)
    try:
        await seat(service, CHANNEL, {ALICE: "athens-messene", BOB: "sparta-thebes"})
        await play_moves(service, 25, rng)
        before = await service.state_of(CHANNEL)
        match_id = (await service.book.load(CHANNEL))[0].id
        async with service.storage.transaction() as db:  # as if written by an incompatible release
            await db.execute("UPDATE snapshots SET data = ? WHERE match_id = ?", '{"format": 99}', match_id)
    finally:
        await service.close()
    service = await MatchService.open(db_path)
    try:
        with caplog.at_level(logging.WARNING, logger="bot.service.book"):
            after = await service.state_of(CHANNEL)
        assert essentials(after) == essentials(before)
        assert after.played[0].events  # rebuilt from the first entry
        assert any("snapshot 20 not used" in record.getMessage() for record in caplog.records)
    finally:
        await service.close()


async def test_the_history_of_a_restored_match_still_describes_its_first_actions(db_path: str) -> None:
    rng = random.Random(6)
    service = await MatchService.open(db_path)
    try:
        await seat(service, CHANNEL, {ALICE: "athens-messene", BOB: "sparta-thebes"})
        await play_moves(service, 24, rng)
        first_page = (await service.history(GUILD, CHANNEL, page=1)).text
    finally:
        await service.close()
    service = await MatchService.open(db_path)
    try:
        assert (await service.state_of(CHANNEL)).played[0].events is None
        assert (await service.history(GUILD, CHANNEL, page=1)).text == first_page
        assert "`  1` Athens" in first_page
    finally:
        await service.close()


async def test_the_cache_of_live_matches_is_bounded_in_bytes_and_drops_the_least_recently_used(
    db_path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = await MatchService.open(db_path)
    try:
        ids = {}
        for channel in (81, 82, 83):
            await seat(service, channel, {ALICE: "athens-messene", BOB: "sparta-thebes"})
            ids[channel] = (await service.book.load(channel))[0].id
        await play_moves(service, 12, random.Random(2), channel=83)  # the heavier one
        # Room for the heavy one and one light one.
        monkeypatch.setattr(book, "CACHE_BUDGET", 2 * book.STATE_BYTES + 12 * (book.STEP_BYTES + book.KEY_BYTES))
        cached = service.book._states
        for channel in (81, 82):
            service.book.forget(ids[channel])
            await service.state_of(channel)
        service.book.forget(ids[83])
        assert list(cached) == [ids[81], ids[82]]
        await service.state_of(83)
        assert list(cached) == [ids[82], ids[83]]  # 81, used least recently, made room
        await service.state_of(81)
        assert list(cached) == [ids[83], ids[81]]
        assert sum(book._weight(state) for _, state in cached.values()) <= book.CACHE_BUDGET
    finally:
        await service.close()
