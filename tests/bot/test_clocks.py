"""Clocks with a time bank, final warnings, vacations and pause by agreement (issue 20), on both
storage backends, fired by the real timer dispatcher under a hand-moved clock."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.clock import ManualClock
from bot.dispatcher import TimerDispatcher
from bot.errors import NotAllowed, ServiceError
from bot.replies import Notice
from bot.service import MatchService
from bot.time_bank import DAY, HOUR, Bank, SeatClock, format_left, settle, starting
from tests.bot.conftest import ALICE, BOB, CAROL, DAVE, GUILD, TimedService


class Harness(TimedService):
    async def clocks(self, channel: int) -> str:
        state = await self.raw.state_of(channel)
        row = await self.raw.book.load(channel)
        return await self.raw.clock_text(row[0].id) if state else ""

    async def pass_turn(self, channel: int, user: int) -> None:
        """Nika: two passes end a turn."""
        await self.service.act(channel, user, "pass")
        await self.service.act(channel, user, "pass")


@pytest.fixture
async def harness(db_path: str) -> AsyncIterator[Harness]:
    clock = ManualClock()
    service = await MatchService.open(db_path, clock=clock)
    harness = Harness(service, clock)
    harness.dispatcher.start()
    yield harness
    await harness.dispatcher.stop()
    await service.close()


async def nika(h: Harness, channel: int, *, deadline: int = 1, bank: int | None = None) -> None:
    await h.service.new_match(GUILD, channel, ALICE, "athens-messene", game="nika", deadline_days=deadline,
                              bank_days=bank)  # fmt: skip
    await h.service.join(channel, BOB, "sparta-thebes")
    await h.service.start(channel, ALICE)


def timeouts(notices: list[Notice]) -> list[Notice]:
    return [n for n in notices if "ran out" in n.reply.text or "deadline passed" in n.reply.text]


def warnings(notices: list[Notice]) -> list[Notice]:
    return [n for n in notices if "final warning" in n.reply.text]


# --- the bank's arithmetic ------------------------------------------------------------------


@settings(max_examples=60, deadline=None, derandomize=True)
@given(
    deadline=st.sampled_from([1, 2, 3, 7]),
    extra=st.integers(0, 23),
    spent=st.lists(st.floats(0, 1.2), min_size=1, max_size=40),
)
def test_a_clock_gains_a_turn_per_turn_and_never_holds_more_than_the_bank(
    deadline: int, extra: int, spent: list[float]
) -> None:
    bank = Bank.of(deadline, min(30, deadline + extra))
    assert bank is not None
    clocks = starting(["red", "blue"], bank)
    now = 0.0
    expected = bank.turn
    for index, fraction in enumerate(spent):
        seat, other = ("red", "blue") if index % 2 == 0 else ("blue", "red")
        clocks = settle(clocks, bank, now, owed=[seat], running=[seat])
        left = clocks[seat].left(now)
        used = min(left, fraction * left)
        now += used
        clocks = settle(clocks, bank, now, owed=[other], running=[other])
        gained = clocks[seat].left(now)
        assert gained <= bank.most + 1e-6
        assert gained == pytest.approx(min(bank.most, left - used + bank.turn))
        if seat == "red":
            expected = min(bank.most, expected - used + bank.turn)
            assert gained == pytest.approx(expected)
        assert clocks[seat].runs_out_at is None and clocks[other].running


def test_times_read_as_players_read_them() -> None:
    assert format_left(2 * DAY + 5 * HOUR + 59 * 60) == "2d 5h"
    assert format_left(6 * DAY) == "6d"
    assert format_left(7 * HOUR) == "7h"
    assert format_left(40 * 60 + 5) == "40m"
    assert Bank.of(1, None) == Bank(DAY, DAY) and Bank.of(None, 5) is None
    assert Bank(DAY, DAY).warning_before == 6 * HOUR and Bank(2 * DAY, 9 * DAY).warning_before == 12 * HOUR
    standing = SeatClock("red", 3 * HOUR)
    assert standing.left(10**9) == 3 * HOUR  # a standing clock does not run


# --- clocks in play ---------------------------------------------------------------------------


async def test_quick_turns_fill_the_bank_and_a_timeout_comes_once_it_is_spent(harness: Harness) -> None:
    h = harness
    with pytest.raises(ServiceError, match="time bank holds 2 to 30 days"):
        await h.service.new_match(GUILD, 1, ALICE, "athens-messene", game="nika", deadline_days=2, bank_days=1)
    with pytest.raises(ServiceError, match="needs a turn deadline"):
        await h.service.new_match(GUILD, 1, ALICE, "athens-messene", game="nika", bank_days=3)
    await h.service.new_match(GUILD, 1, ALICE, "red", game="pikemen", players=2, deadline_days=1, bank_days=3)
    await h.service.join(1, BOB, "blue")
    await h.service.start(1, ALICE)
    assert await h.clocks(1) == "⏱ Red 1d · Blue 1d"
    await h.after(1)
    await play_turn(h, 1)
    assert await h.clocks(1) == "⏱ Red 1d 23h · Blue 1d"
    for _ in range(9):  # quick turns: both banks fill up to 3 days, never more
        await h.after(1)
        await play_turn(h, 1)
        line = await h.clocks(1)
        assert "3d 1h" not in line and "4d" not in line
    board = (await h.raw.board(1)).text
    assert "⏱ Red 3d · Blue 3d" in board  # red to act, with its whole bank
    assert timeouts(await h.after(70)) == []  # a plain 1-day deadline would have passed long ago
    [expired] = timeouts(await h.after(2))
    assert "Red's clock ran out (its time bank was spent)" in expired.reply.text
    assert "Red ran out of time: Blue wins" in expired.reply.text  # what a timeout does in Pikemen
    assert "⏱" not in expired.reply.text  # a finished match has no clocks


async def test_a_restart_in_the_middle_of_a_turn_keeps_every_clock(db_path: str) -> None:
    clock = ManualClock()
    first = Harness(await MatchService.open(db_path, clock=clock), clock)
    await nika(first, 2, deadline=2, bank=4)
    await clock.advance(3 * HOUR)
    await first.pass_turn(2, ALICE)
    await clock.advance(20 * HOUR)  # Sparta's turn, 20 hours in
    await first.raw.close()  # the bot is down for 10 hours
    await clock.advance(10 * HOUR)
    second = Harness(await MatchService.open(db_path, clock=clock), clock)
    second.dispatcher.start()
    try:
        assert await second.clocks(2) == "⏱ Athens 3d 21h · Sparta 18h · Messene 2d · Thebes 2d"
        assert timeouts(await second.after(17.5)) == []
        [expired] = timeouts(await second.after(0.5))
        assert "Sparta's clock ran out" in expired.reply.text
    finally:
        await second.dispatcher.stop()
        await second.raw.close()


async def test_the_final_warning_comes_once_a_turn(harness: Harness) -> None:
    h = harness
    await nika(h, 3, deadline=2)
    assert warnings(await h.after(35.5)) == []
    [warning] = warnings(await h.after(1))
    assert warning.reply.mentions == (ALICE,) and warning.dm_user_ids == ()
    assert "final warning: Athens has 11h left" in warning.reply.text
    assert warnings(await h.after(11)) == []  # once a turn, not again before the end
    await h.pass_turn(3, ALICE)
    await h.service.settings(GUILD, 3, BOB, dm_reminders=True)
    [warning] = warnings(await h.after(36))
    assert warning.reply.mentions == (BOB,) and warning.dm_user_ids == (BOB,)  # by DM, as chosen
    assert warnings(await h.after(11.9)) == []


async def test_a_short_clock_warns_a_quarter_of_a_turn_before(harness: Harness) -> None:
    h = harness
    await nika(h, 4, deadline=1)
    assert warnings(await h.after(17.9)) == []
    [warning] = warnings(await h.after(0.2))
    assert "Athens has 5h left" in warning.reply.text


# --- vacations ----------------------------------------------------------------------------


async def pikemen_four(h: Harness, channel: int) -> None:
    await h.service.new_match(GUILD, channel, ALICE, "red", game="pikemen", players=4, deadline_days=1)
    for user, seat in ((BOB, "yellow"), (CAROL, "green"), (DAVE, "blue")):
        await h.service.join(channel, user, seat)
    await h.service.start(channel, ALICE)


async def play_turn(h: Harness, channel: int) -> None:
    state = await h.raw.state_of(channel)
    seat, user = state.to_act, state.acting_user()
    assert user is not None
    while state.to_act == seat and not state.is_over:
        await h.service.act(channel, user, (await h.raw.legal_actions(channel, user))[0])
        state = await h.raw.state_of(channel)


async def test_a_vacation_stops_one_seat_in_a_four_player_match_while_the_others_play_on(harness: Harness) -> None:
    h = harness
    await pikemen_four(h, 5)
    reply = await h.raw.vacation(GUILD, CAROL, 3)
    assert "on vacation in this server until 2027-01-18 08:00 UTC" in reply.text
    assert "Vacation left this year: 11d of 14 days" in reply.text
    [told] = [n for n in await h.after(0) if n.channel_id == 5]
    assert told.reply.text.startswith(f"🏖 <@{CAROL}> is on vacation until 2027-01-18 08:00 UTC")
    await h.after(5)
    await play_turn(h, 5)  # red
    await h.after(5)
    await play_turn(h, 5)  # yellow: green (on vacation) is to act
    line = await h.clocks(5)
    assert "Green 1d (on vacation until 2027-01-18 08:00 UTC)" in line
    assert "Red 1d" in line and "Yellow 1d" in line
    later = await h.after(60)  # green's clock stands: no warning, no reminder, no timeout
    assert timeouts(later) == [] and warnings(later) == [] and not [n for n in later if "⏰" in n.reply.text]
    assert (await h.raw.state_of(5)).to_act == "green"
    back = await h.after(12)  # the vacation ends: green's clock runs again, from a whole day
    assert timeouts(back) == []
    assert [n for n in back if n.reply.text.startswith(f"🏖 <@{CAROL}> is back from vacation")]
    assert "Green 1d ·" in await h.clocks(5) or "Green 23h" in await h.clocks(5)
    [expired] = timeouts(await h.after(24))
    assert "Green's turn ran out" in expired.reply.text


async def test_a_vacation_covers_matches_of_two_games_and_ends_early(harness: Harness) -> None:
    h = harness
    await nika(h, 6, deadline=1)
    await h.service.new_match(GUILD, 7, BOB, "red", game="pikemen", players=2, deadline_days=2)
    await h.service.join(7, ALICE, "blue")
    await h.service.start(7, BOB)
    await h.after(1)
    await play_turn(h, 7)  # blue (alice) to act there too
    await h.raw.vacation(GUILD, ALICE, 5)
    assert "Athens 23h (on vacation until" in await h.clocks(6)
    assert "Blue 2d (on vacation until" in await h.clocks(7)
    assert timeouts(await h.after(24 * 4)) == []
    ended = await h.raw.vacation(GUILD, ALICE, 0)  # back early: the unused days are kept
    assert "Your vacation has ended" in ended.text
    assert "Vacation left this year: 10d of 14 days" in ended.text  # 4 days used, counted to the hour
    assert "on vacation" not in await h.clocks(6)
    [expired] = timeouts(await h.after(23))
    assert expired.channel_id == 6


async def test_vacation_limits(harness: Harness) -> None:
    h = harness
    await nika(h, 8, deadline=1)
    with pytest.raises(NotAllowed, match="more vacation than you have left"):
        await h.raw.vacation(GUILD, BOB, 15)
    with pytest.raises(NotAllowed, match="Manage Channels"):
        await h.raw.vacation_allowance(GUILD, 60)
    await h.raw.vacation_allowance(GUILD, 60, can_manage=True)
    await h.raw.vacation(GUILD, BOB, 20)
    with pytest.raises(NotAllowed, match="at most 30 days at a stretch"):
        await h.raw.vacation(GUILD, BOB, 11)
    await h.after(1.5)
    assert "Vacation left this year: 30d of 60 days" in (await h.raw.vacation(GUILD, BOB, 10)).text
    ended = await h.raw.vacation(GUILD, BOB, 0)
    assert "Vacation left this year: 59d 22h of 60 days" in ended.text  # 1.5 h counted as 2
    with pytest.raises(NotAllowed, match="not on vacation"):
        await h.raw.vacation(GUILD, BOB, 0)
    await h.after(12.5)  # athens: 10 h left of its turn
    with pytest.raises(NotAllowed, match="less than 12 hours left"):
        await h.raw.vacation(GUILD, ALICE, 3)
    assert "on vacation" not in await h.clocks(8)


# --- pause by agreement ---------------------------------------------------------------------


async def test_a_pause_needs_everyone_and_resume_restarts_the_clocks_where_they_stood(harness: Harness) -> None:
    h = harness
    await nika(h, 9, deadline=1)
    await h.after(4)
    with pytest.raises(NotAllowed, match="nobody has offered"):
        await h.raw.pause(9, BOB, "accept")
    offered = await h.raw.pause(9, ALICE, "offer")
    assert "offers to pause" in offered.text and offered.mentions == (BOB,)
    declined = await h.raw.pause(9, BOB, "decline")
    assert "declined the pause" in declined.text
    await h.raw.pause(9, ALICE, "offer")
    agreed = await h.raw.pause(9, BOB, "accept")
    assert "Everyone agreed" in agreed.text
    assert await h.clocks(9) == "⏱ Athens 20h · Sparta 1d · Messene 1d · Thebes 1d (paused by agreement)"
    with pytest.raises(NotAllowed, match="paused by agreement"):
        await h.service.act(9, ALICE, "pass")
    quiet = await h.after(24 * 5)
    assert quiet == []  # no reminder, warning or timeout while paused
    resumed = await h.raw.resume(9, BOB)
    assert "resumed the match" in resumed.text and "⏱ Athens 20h · Sparta 1d ·" in resumed.text
    with pytest.raises(NotAllowed, match="not paused"):
        await h.raw.resume(9, ALICE)
    assert timeouts(await h.after(19.9)) == []
    [expired] = timeouts(await h.after(0.1))
    assert "Athens' turn ran out" in expired.reply.text


async def test_an_undone_turn_takes_back_what_its_end_added(harness: Harness) -> None:
    h = harness
    await h.service.new_match(GUILD, 10, ALICE, "red", game="pikemen", players=2, deadline_days=1, bank_days=3)
    await h.service.join(10, BOB, "blue")
    await h.service.start(10, ALICE)
    await h.after(1)
    await play_turn(h, 10)
    assert await h.clocks(10) == "⏱ Red 1d 23h · Blue 1d"
    await h.after(2)
    undone = await h.service.undo(10, ALICE)  # red's turn again: no bank gained by moving and taking it back
    assert "⏱ Red 23h · Blue 1d" in undone.text
    assert await h.clocks(10) == "⏱ Red 23h · Blue 1d"  # blue's two hours were not blue's turn's end either


async def test_secret_setups_run_on_both_clocks_and_only_the_late_one_gets_a_random_row(harness: Harness) -> None:
    h = harness
    await h.service.new_match(GUILD, 11, ALICE, "red", game="numica", options={"setup": "choose"}, deadline_days=1,
                              bank_days=2)  # fmt: skip
    await h.service.join(11, BOB, "blue")
    await h.service.start(11, ALICE)
    assert await h.clocks(11) == "⏱ Red 1d · Blue 1d"
    await h.after(2)
    await h.raw.setup(11, ALICE, "sosoosos")
    assert await h.clocks(11) == "⏱ Red 1d 22h · Blue 22h"  # red's setup done: it gains a turn's time
    [warning] = warnings(await h.after(16))
    assert warning.reply.mentions == (BOB,)
    [expired] = timeouts(await h.after(6))
    assert "Blue got a random setup" in expired.reply.text
    state = await h.raw.state_of(11)
    assert not state.in_setup() and "Red got" not in expired.reply.text and "Red and Blue" not in expired.reply.text


async def test_the_console_waits_and_fires_what_falls_due_in_order(db_path: str, tmp_path: object) -> None:
    from pathlib import Path

    from bot.console import Console, parse_duration

    assert parse_duration("20h") == 20 * HOUR and parse_duration("1d12h") == 36 * HOUR
    assert parse_duration("90m") == 5400 and parse_duration("soon") is None and parse_duration("500d") is None
    clock = ManualClock()
    service = await MatchService.open(db_path, clock=clock)
    lines: list[str] = []
    console = Console(service, Path(str(tmp_path)) / "boards", out=lines.append)
    console.clock, console.dispatcher = clock, TimerDispatcher(service, console.announce)
    console.dispatcher.start()
    try:
        for line in ("/nika new city:athens-messene deadline:2", "as @bob", "/nika join city:sparta-thebes",
                     "/nika start", "wait soon"):  # fmt: skip
            assert await console.handle(line)
        assert "wait takes a duration" in lines[-1]
        seen = len(lines)
        assert await console.handle("wait 3d")
        fired = "\n".join(lines[seen:])
        order = [fired.index(word) for word in ("⏰", "final warning", "turn ran out", "It is now")]
        assert order == sorted(order)  # the reminder, the warning, the timeout, in the order they fell due
        assert "[#1]" in fired and clock.now() == pytest.approx(1_800_000_000 + 3 * 86400, abs=1)
    finally:
        await console.dispatcher.stop()
        await service.close()
