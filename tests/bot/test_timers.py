"""Reminders and turn deadlines, fired by one dispatcher under a hand-moved clock."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.clock import ManualClock
from bot.dispatcher import TimerDispatcher
from bot.errors import NotAllowed, ServiceError
from bot.replies import Notice
from bot.service import MatchService
from bot.storage import matches as queries
from engine.api import EndingKind
from tests.bot.conftest import ALICE, BOB, GUILD, TimedService, seat

HOUR = 3600.0


Harness = TimedService


@pytest.fixture
async def harness(db_path: str) -> AsyncIterator[Harness]:
    clock = ManualClock()
    service = await MatchService.open(db_path, clock=clock)
    harness = Harness(service, clock)
    harness.dispatcher.start()
    yield harness
    await harness.dispatcher.stop()
    await service.close()


async def test_a_reminder_comes_after_the_interval_without_a_move(harness: Harness) -> None:
    await seat(harness.service, 1, {ALICE: "athens-messene", BOB: "sparta-thebes"})
    assert await harness.after(23.5) == []
    [notice] = await harness.after(1)
    assert notice.channel_id == 1 and notice.reply.mentions == (ALICE,)
    assert "Athens is waiting for you: 2 actions left" in notice.reply.text
    assert "Reminder 1 of 3" in notice.reply.text
    assert notice.dm_user_ids == ()


async def test_at_most_one_reminder_per_interval_and_three_per_turn(harness: Harness) -> None:
    await seat(harness.service, 2, {ALICE: "athens-messene", BOB: "sparta-thebes"})
    assert len(await harness.after(100)) == 1  # four intervals passed at once: still one
    assert len(await harness.after(12)) == 0
    assert len(await harness.after(12)) == 1
    assert len(await harness.after(24)) == 1
    assert await harness.after(24 * 5) == []  # three this turn, no more
    await harness.service.act(2, ALICE, "pass")
    assert await harness.after(48) == []  # a move in the same turn does not reset the count
    await harness.service.act(2, ALICE, "pass")
    [notice] = await harness.after(24)
    assert notice.reply.mentions == (BOB,) and "Sparta is waiting" in notice.reply.text


async def test_a_move_postpones_the_reminder(harness: Harness) -> None:
    await seat(harness.service, 3, {ALICE: "athens-messene", BOB: "sparta-thebes"})
    await harness.after(20)
    await harness.service.act(3, ALICE, "move j6 w")
    assert await harness.after(20) == []
    [notice] = await harness.after(4)
    assert "1 action left" in notice.reply.text


async def test_reminders_by_direct_message_are_opt_in(harness: Harness) -> None:
    await seat(harness.service, 4, {ALICE: "athens-messene", BOB: "sparta-thebes"})
    reply = await harness.service.settings(GUILD, 4, ALICE, dm_reminders=True)
    assert "direct message" in reply.text
    [notice] = await harness.after(24)
    assert notice.dm_user_ids == (ALICE,)
    await harness.service.act(4, ALICE, "pass")
    await harness.service.act(4, ALICE, "pass")
    [notice] = await harness.after(24)
    assert notice.reply.mentions == (BOB,) and notice.dm_user_ids == ()


async def test_reminder_interval_per_match_and_per_server(harness: Harness) -> None:
    service = harness.service
    with pytest.raises(NotAllowed, match="Manage Channels"):
        await service.settings(GUILD, 5, ALICE, reminder_hours=6, server_default=True)
    await service.settings(GUILD, 5, ALICE, reminder_hours=6, server_default=True, can_manage=True)
    await seat(service, 5, {ALICE: "athens-messene", BOB: "sparta-thebes"})
    assert len(await harness.after(6)) == 1
    await service.settings(GUILD, 5, BOB, reminder_hours=48)
    assert await harness.after(47) == []
    assert len(await harness.after(1)) == 1
    with pytest.raises(ServiceError, match="every 1 to 168 hours"):
        await service.settings(GUILD, 5, BOB, reminder_hours=0.5)
    shown = await service.settings(GUILD, 5, BOB)
    assert "reminders after 48 h" in shown.text and "no turn deadline" in shown.text


async def test_an_expired_turn_is_passed_and_announced(harness: Harness) -> None:
    service = harness.service
    await service.new_match(GUILD, 6, ALICE, "athens-messene", deadline_days=1, game="nika")
    await service.join(6, BOB, "sparta-thebes")
    await service.start(6, ALICE)
    await service.act(6, ALICE, "move j6 w")
    with pytest.raises(NotAllowed, match="chosen before the match starts"):
        await service.settings(GUILD, 6, ALICE, deadline_days=7)
    notices = await harness.after(24)
    expired = [n for n in notices if "turn ran out" in n.reply.text]
    assert len(expired) == 1
    text = expired[0].reply.text
    assert "Athens' turn ran out (the 1-day deadline). Athens passed." in text
    assert "Sparta to act" in text and expired[0].reply.mentions == (BOB,)
    assert expired[0].reply.image is not None
    state = await service.state_of(6)
    assert [p.action for p in state.played] == ["move j6 w", None]
    assert state.played[-1].ending is EndingKind.TIMEOUT and state.played[-1].user_id is None
    later = await harness.after(24)
    assert next(n for n in later if "turn ran out" in n.reply.text).reply.mentions == (ALICE,)


async def test_due_timers_fire_once_after_a_restart(db_path: str) -> None:
    clock = ManualClock()
    first = await MatchService.open(db_path, clock=clock)
    await first.new_match(GUILD, 7, ALICE, "athens-messene", deadline_days=2, game="nika")
    await first.join(7, BOB, "sparta-thebes")
    await first.posted(await first.start(7, ALICE), None)
    await first.close()  # the bot is down…
    await clock.advance(50 * HOUR)  # …while the reminder and the deadline fall due

    for expected in (2, 0):  # the first restart fires both, the second nothing
        service = await MatchService.open(db_path, clock=clock)
        harness = Harness(service, clock)
        harness.dispatcher.start()
        await harness.dispatcher.settled()
        await harness.dispatcher.stop()
        fired = [n for n in harness.notices if n.channel_id == 7]
        assert len(fired) == expected
        if expected:
            assert "⏰" in fired[0].reply.text and "turn ran out" in fired[1].reply.text
        async with service.db.reading() as db:
            row = await queries.open_match_in(db, 7)
            assert row is not None and row.to_act == "sparta"
        await service.close()


async def test_finished_and_aborted_matches_keep_no_timers(harness: Harness) -> None:
    await seat(harness.service, 8, {ALICE: "athens-messene", BOB: "sparta-thebes"})
    await harness.service.resign(8, BOB, confirmed=True)
    assert await harness.service.next_timer() is None
    await seat(harness.service, 9, {ALICE: "athens-messene", BOB: "sparta-thebes"})
    assert await harness.service.next_timer() is not None
    await harness.service.abort(9, ALICE, can_manage=True, confirmed=True)  # a started match: moderators only
    assert await harness.service.next_timer() is None
    assert await harness.after(24 * 10) == []


async def test_a_failing_announcement_does_not_stop_later_timers(db_path: str) -> None:
    clock = ManualClock()
    service = await MatchService.open(db_path, clock=clock)
    delivered: list[Notice] = []

    async def flaky(notice: Notice, nonce: str) -> None:
        if not delivered and notice.channel_id == 10:
            delivered.append(notice)
            raise RuntimeError("Discord is down")
        delivered.append(notice)

    dispatcher = TimerDispatcher(service, flaky)
    dispatcher.start()
    try:
        await seat(service, 10, {ALICE: "athens-messene", BOB: "sparta-thebes"})
        await clock.advance(HOUR)
        await seat(service, 11, {ALICE: "athens-messene", BOB: "sparta-thebes"})
        await clock.advance(24 * HOUR)
        await dispatcher.settled()
        assert [n.channel_id for n in delivered] == [10, 11]  # the first failed, the second still came
    finally:
        await dispatcher.stop()
        await service.close()


async def test_a_refused_settings_change_writes_nothing(harness: Harness) -> None:
    service = harness.service
    with pytest.raises(NotAllowed, match="Manage Channels"):
        await service.settings(GUILD, 12, ALICE, reminder_hours=6, server_default=True, dm_reminders=True)
    assert "Direct-message reminders for you: off" in (await service.settings(GUILD, 12, ALICE)).text
