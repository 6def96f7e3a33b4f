"""Rematches: every member accepts (computers at once), the seats rotate, the first match's
rating carries over, and the Rematch button under a result works through the Discord double."""

from __future__ import annotations

import pytest

from bot.errors import NotAllowed, NotInMatch
from bot.service import MatchService
from bot.storage import rematches
from tests.bot.conftest import ALICE, BOB, CAROL, DAVE, EVE, FrontEnd, seat

pytestmark = pytest.mark.asyncio


async def test_nika_four_player_rematch_rotates_the_teams(db_path: str) -> None:
    raw = await MatchService.open(db_path)
    service = FrontEnd(raw)
    try:
        await seat(raw, 500, {ALICE: "athens", BOB: "sparta", CAROL: "messene", DAVE: "thebes"})
        before = await service.state_of(500)
        await service.resign(500, BOB, confirmed=True)
        finished, _ = await raw.book.load(500, open_only=False)
        assert finished.status == "finished"
        with pytest.raises(NotInMatch):
            await service.rematch(500, EVE)
        waiting = await service.rematch(500, ALICE)
        assert waiting.rematch and set(waiting.mentions) == {BOB, CAROL, DAVE}
        await service.rematch(500, BOB)
        await service.rematch(500, CAROL)
        started = await service.rematch(500, DAVE)
        assert "Rematch" in started.text and started.image is not None and started.channel_id is None
        row, after = await raw.book.load(500)
        assert row.status == "active" and row.id != finished.id
        # The first was a rated match made unrated only by ending early: the rematch is rated.
        assert finished.unrated_reason == "ended early" and row.rated
        # Athens–Messene and Sparta–Thebes swap sides, each team together.
        assert dict(after.seats) == {"sparta": ALICE, "athens": BOB, "thebes": CAROL, "messene": DAVE}
        assert before.side_of("athens") == before.side_of("messene")
        with pytest.raises(NotAllowed):  # the rematch of a finished match starts once
            await raw.rematches.accept(500, ALICE, match_id=finished.id)
    finally:
        await raw.close()


async def test_acceptances_lapse_after_a_day_and_computers_accept(db_path: str) -> None:
    from bot.clock import ManualClock

    clock = ManualClock()
    raw = await MatchService.open(db_path, clock=clock)
    service = FrontEnd(raw)
    try:
        await seat(raw, 600, {ALICE: "red", BOB: "blue"}, game="pikemen")
        await service.resign(600, ALICE, confirmed=True)
        await service.rematch(600, ALICE)
        await clock.advance(86_400.0 + 1)
        waiting = await service.rematch(600, BOB)  # Alice's acceptance lapsed
        assert waiting.mentions == (ALICE,)
        finished, _ = await raw.book.load(600, open_only=False)
        async with raw.storage.reading() as db:
            assert await rematches.accepted(db, finished.id, clock.now() - 86_400.0) == {BOB}
        await service.rematch(600, ALICE)
        _, after = await raw.book.load(600)
        assert dict(after.seats) == {"red": BOB, "blue": ALICE}
        # A match against the computer: the member alone decides, the computer's seat rotates too.
        await raw.new_match(1000, 601, ALICE, "red", game="pikemen")
        await raw.join(601, ALICE, "blue", computer="easy")
        await service.start(601, ALICE)
        await service.resign(601, ALICE, confirmed=True)
        await service.rematch(601, ALICE)
        _, computer = await raw.book.load(601)
        assert computer.seats.get("blue") == ALICE and computer.seats.get("red") is None
        assert dict(computer.computers) == {"red": "easy"}
    finally:
        await raw.close()
