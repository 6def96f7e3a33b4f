"""Long matches stay cheap: the service saves a match whole now and then, so a restart replays
only the log after the newest snapshot; what it rebuilds is exactly what the whole log gives;
memory keeps only the recent steps, and what members read of older ones (history, records,
replays) comes whole from the log; and its cache of live states is bounded in bytes. (Snapshots
every 10 versions here, not 100, to keep the matches short.)"""

from __future__ import annotations

import dataclasses
import json
import logging
import random
from typing import Any

import pytest

from bot.match import MatchState, played, replay, snapshot
from bot.service import MatchService, book
from bot.service.reading import HISTORY_PAGE_SIZE
from bot.storage import matches as queries
from engine.api import EndingKind
from engine.history import pack, unpack
from engine.record import GameRecord
from tests.bot.conftest import ALICE, BOB, CAROL, GUILD, seat

CHANNEL = 70


@pytest.fixture(autouse=True)
def frequent_snapshots(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(snapshot, "SNAPSHOT_EVERY", 10)
    monkeypatch.setattr(snapshot, "TAIL", 4)


async def play_moves(service: MatchService, count: int, rng: random.Random, channel: int = CHANNEL) -> None:
    for _ in range(count):
        state = await service.state_of(channel)
        legal = [a.notation() for a in state.rules.legal_actions(state.game) if a.notation() != "pass"]
        await service.act(channel, state.acting_user() or 0, rng.choice(legal))


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
    if row.archives_keys:  # as the service rebuilds it: its older repetition keys archived
        begun = dataclasses.replace(begun, game=state.rules.archiving(begun.game))
    return replay(begun, entries)


async def test_a_restart_rebuilds_a_long_match_from_its_snapshot_exactly_as_from_its_whole_log(db_path: str) -> None:
    rng = random.Random(4)
    service = await MatchService.open(db_path)
    try:
        await seat(service, CHANNEL, {ALICE: "athens-messene", BOB: "sparta-thebes"})
        await play_moves(service, 13, rng)
        await service.draw(CHANNEL, ALICE, "offer")  # a proposal pending across a snapshot point
        await play_moves(service, 14, rng)
        await service.draw(CHANNEL, BOB, "decline")
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
        await service.draw(CHANNEL, BOB, "offer")  # entry 1: then entry 20 is a turn's first action
        await play_moves(service, 19, rng)  # so the snapshot at 20 holds an undo point
        state = await service.state_of(CHANNEL)
        assert state.version == 20 and state.undo_point is not None
        await service.undo(CHANNEL, state.acting_user() or 0)
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
        first_page = (await service.history(CHANNEL, page=1)).text
    finally:
        await service.close()
    service = await MatchService.open(db_path)
    try:
        assert (await service.state_of(CHANNEL)).played[0].events is None
        assert (await service.history(CHANNEL, page=1)).text == first_page
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
        weights = {channel: book.weight_of(await service.state_of(channel)) for channel in (81, 82, 83)}
        assert weights[83] > weights[81] == weights[82]
        # Room for the heavy one and one light one.
        monkeypatch.setattr(book, "CACHE_BUDGET", weights[83] + weights[81])
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
        assert sum(book.weight_of(state) for _, state in cached.values()) <= book.CACHE_BUDGET
        assert service.book._cached_weight == sum(service.book._weights.values()) <= book.CACHE_BUDGET
    finally:
        await service.close()


# --- Matches longer than what memory keeps (docs/architecture.md, "Long matches") ----------------
# Memory keeps the last `played.KEPT` steps (26 here, just over what a board highlights): the
# older ones come from the log, and every history page, record and replay must be the same as
# from a match rebuilt from its whole log with every step in memory.


@pytest.fixture
def few_steps_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(played, "KEPT", 26)
    monkeypatch.setattr(snapshot, "STEPS_KEPT", 26)


async def act_or_undo(service: MatchService, channel: int, rng: random.Random, undo_every: int, count: int) -> None:
    """`count` actions, every `undo_every`-th of them taken back (where the game allows) and played otherwise."""
    for number in range(1, count + 1):
        state = await service.state_of(channel)
        legal = [a.notation() for a in state.rules.legal_actions(state.game) if a.notation() != "pass"]
        user = state.acting_user() or 0
        await service.act(channel, user, rng.choice(legal))
        if number % undo_every == 0 and (await service.state_of(channel)).undo_point is not None:
            await service.undo(channel, user)


async def everything_read(service: MatchService, channel: int) -> dict[str, Any]:
    """What members can read of a match's past: every history page, the record, the replay."""
    state = await service.state_of(channel)
    pages = -(-len(state.played) // HISTORY_PAGE_SIZE)
    return {
        "pages": [(await service.history(channel, page=p)).text for p in range(1, pages + 1)],
        "record": (await service.export(channel)).file.data,  # type: ignore[union-attr]
        "replay": (await service.replay(channel, last=40)).file.data,  # type: ignore[union-attr]
    }


async def with_every_step_in_memory(service: MatchService, channel: int, monkeypatch: pytest.MonkeyPatch) -> MatchState:
    """The match rebuilt from its whole log (no snapshot) with nothing dropped from memory."""
    monkeypatch.setattr(played, "KEPT", 100_000)
    row, _ = await service.book.load(channel, open_only=False)
    async with service.storage.transaction() as db:
        await db.execute("DELETE FROM snapshots WHERE match_id = ?", row.id)
    service.book.forget(row.id)
    state = await service.state_of(channel)
    assert state.played.complete
    return state


async def test_history_records_and_replays_of_a_match_longer_than_memory_keeps_are_whole(
    db_path: str, few_steps_kept: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(12)
    service = await MatchService.open(db_path)
    try:
        await seat(service, CHANNEL, {ALICE: "athens-messene", BOB: "sparta-thebes"})
        await act_or_undo(service, CHANNEL, rng, 7, 40)
        await service.draw(CHANNEL, ALICE, "offer")
        await service.draw(CHANNEL, BOB, "decline")
        await act_or_undo(service, CHANNEL, rng, 5, 45)
        state = await service.state_of(CHANNEL)
        assert not state.played.complete and len(state.played) - state.played.first_kept <= 2 * played.KEPT
        live = await everything_read(service, CHANNEL)
    finally:
        await service.close()
    service = await MatchService.open(db_path)  # after a restart: from a snapshot and the log after it
    try:
        restarted = await service.state_of(CHANNEL)
        assert not restarted.played.complete and len(restarted.played) == len(state.played)
        assert await everything_read(service, CHANNEL) == live
        row, _ = await service.book.load(CHANNEL)
        steps = await service.book.steps(row, restarted)
        whole = await with_every_step_in_memory(service, CHANNEL, monkeypatch)
        assert [p.step for p in steps] == [p.step for p in whole.played]
        assert await everything_read(service, CHANNEL) == live
        record = GameRecord.from_json(live["record"].decode())
        assert len(record.entries) == len(whole.played)
        assert whole.rules.notation(record.final_state()) == whole.rules.notation(whole.game)
        assert "`  1` Athens" in live["pages"][0]
    finally:
        await service.close()


async def test_a_seat_that_left_long_ago_stays_in_the_record_of_a_long_pikemen_match(
    db_path: str, few_steps_kept: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Endings decided off the board (a resignation in a three-player match) are kept in memory
    for ever, and placed among the steps the log gives, undos included."""
    rng = random.Random(3)
    service = await MatchService.open(db_path)
    try:
        await service.new_match(GUILD, CHANNEL, ALICE, "red", game="pikemen", players=3)
        await service.join(CHANNEL, BOB, "yellow")
        await service.join(CHANNEL, CAROL, "blue")
        await service.start(CHANNEL, ALICE)
        await act_or_undo(service, CHANNEL, rng, 4, 9)
        await service.resign(CHANNEL, CAROL, confirmed=True)
        for _ in range(60):  # play on, two seats left, until well past what memory keeps
            state = await service.state_of(CHANNEL)
            if state.is_over:
                break
            await act_or_undo(service, CHANNEL, rng, 3, 1)
        state = await service.state_of(CHANNEL)
        assert not state.played.complete and next(e.ending for e in state.played.endings) is EndingKind.RESIGNATION
        live = await everything_read(service, CHANNEL)
        whole = await with_every_step_in_memory(service, CHANNEL, monkeypatch)
        assert await everything_read(service, CHANNEL) == live
        assert next(p.ending for p in whole.played if p.action is None) is EndingKind.RESIGNATION
    finally:
        await service.close()


async def test_a_snapshot_of_the_previous_format_still_loads(db_path: str) -> None:
    """The previous release stored every step and the game twice (with an undo point); such a
    snapshot restores the same match, and the next one is written in the new format."""
    rng = random.Random(9)
    service = await MatchService.open(db_path)
    try:
        await seat(service, CHANNEL, {ALICE: "athens-messene", BOB: "sparta-thebes"})
        row, _ = await service.book.load(CHANNEL)
        async with service.storage.transaction() as db:  # a match of the previous release: keys in memory
            await db.execute("UPDATE matches SET archives_keys = ? WHERE id = ?", False, row.id)
        service.book.forget(row.id)
        await play_moves(service, 21, rng)  # version 21: a turn's first action, so an undo point
        state = await service.state_of(CHANNEL)
        assert state.undo_point is not None
        row, _ = await service.book.load(CHANNEL)
        async with service.storage.transaction() as db:
            await db.execute("DELETE FROM snapshots WHERE match_id = ?", row.id)
            await queries.save_snapshot(db, row.id, state.version, previous_format(state), keep=snapshot.KEPT)
        await play_moves(service, 5, rng)
        before = await service.state_of(CHANNEL)
    finally:
        await service.close()
    service = await MatchService.open(db_path)
    try:
        after = await service.state_of(CHANNEL)
        assert essentials(after) == essentials(before)
        await play_moves(service, 4, rng)  # past version 30: a snapshot in the new format
        row, _ = await service.book.load(CHANNEL)
        async with service.storage.reading() as db:
            formats = [json.loads(str(data))["format"] for (data,) in await db.fetchall(
                "SELECT data FROM snapshots WHERE match_id = ? ORDER BY version", row.id)]  # fmt: skip
        assert formats == [1, 2]
    finally:
        await service.close()


def previous_format(state: MatchState) -> str:
    """A snapshot as the previous release wrote it: format 1, every step, the game and its undo
    point each with its whole repetition history in order of play."""

    def game(nika: Any) -> str:
        keys = nika.history.prefix(nika.length)
        outcome = nika.outcome
        return json.dumps({"format": 1, "position": nika.notation(), "all_pass_turns": nika.all_pass_turns,
                           "turn_all_passes": nika.turn_all_passes, "outcome": outcome and [None, outcome.reason.value],
                           "history": pack(keys)})  # fmt: skip

    data = json.loads(snapshot.dump(state) or "")
    data |= {"format": 1, "state": game(state.game), "undo_point": game(state.undo_point),
             "played": [[p.seq, p.seat, p.user_id, p.action] for p in state.played]}  # fmt: skip
    for key in ("recent", "endings", "position"):
        del data[key]
    return json.dumps(data)


async def test_a_snapshot_that_disagrees_with_the_log_gives_way_to_the_log(
    db_path: str, few_steps_kept: None, caplog: pytest.LogCaptureFixture
) -> None:
    """Snapshots are derived data: one that miscounts the steps played (a release's bug) is found
    out when older steps are read from the log, and the log decides."""
    rng = random.Random(2)
    service = await MatchService.open(db_path)
    try:
        await seat(service, CHANNEL, {ALICE: "athens-messene", BOB: "sparta-thebes"})
        await play_moves(service, 45, rng)
        record = (await service.export(CHANNEL)).file.data  # type: ignore[union-attr]
        row, state = await service.book.load(CHANNEL)
        async with service.storage.reading() as db:
            version, data = await queries.snapshot_before_tail(db, row.id, snapshot.TAIL) or (0, "")
        wrong = json.loads(data) | {"played": json.loads(data)["played"] + 3}
        async with service.storage.transaction() as db:
            await db.execute("UPDATE snapshots SET data = ? WHERE match_id = ? AND version = ?", json.dumps(wrong),
                             row.id, version)  # fmt: skip
    finally:
        await service.close()
    service = await MatchService.open(db_path)
    try:
        assert len((await service.state_of(CHANNEL)).played) == len(state.played) + 3  # believed at first
        with caplog.at_level(logging.ERROR, logger="bot.service.book"):
            assert (await service.export(CHANNEL)).file.data == record  # type: ignore[union-attr]
        assert any("disagrees with its log" in r.getMessage() for r in caplog.records)
        assert len((await service.state_of(CHANNEL)).played) == len(state.played)  # and the cache corrected
    finally:
        await service.close()
