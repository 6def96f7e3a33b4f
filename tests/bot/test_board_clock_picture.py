"""The board picture shows the clocks as they stand when it is drawn (issue 20): a board asked for
hours after the last move shows the time left then, not at the move (no drawn board is kept and
reused), a pause and a vacation are drawn too, and a match without clocks is drawn exactly as a
board without them. Real PNG bytes from the real renderer, on both storage backends."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator

import pytest
from PIL import Image, ImageChops

from bot.clock import ManualClock
from bot.service import MatchService
from bot.service.play import recent_actions
from bot.time_bank import DAY, HOUR
from render import render_state
from render.seat_times import Clocks, SeatTime
from tests.bot.conftest import ALICE, BOB, GUILD, FrontEnd

CHANNEL = 4201


@pytest.fixture
async def served(db_path: str) -> AsyncIterator[tuple[FrontEnd, ManualClock]]:
    clock = ManualClock()
    service = await MatchService.open(db_path, clock=clock)
    yield FrontEnd(service), clock
    await service.close()


def decoded(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


async def pikemen(service: FrontEnd, *, deadline: int | None) -> None:
    await service.new_match(GUILD, CHANNEL, ALICE, "red", game="pikemen", players=2, deadline_days=deadline)
    await service.join(CHANNEL, BOB, "blue")
    await service.start(CHANNEL, ALICE)


async def drawn_directly(service: FrontEnd, clocks: Clocks | None) -> bytes:
    state = await service.raw.state_of(CHANNEL)
    return render_state("pikemen", state.game, recent_actions(state), clocks=clocks).png


async def test_a_board_asked_later_shows_the_clock_as_it_is_then(served: tuple[FrontEnd, ManualClock]) -> None:
    service, clock = served
    await pikemen(service, deadline=3)
    first = await service.board(CHANNEL)
    await clock.advance(20 * HOUR)
    later = await service.board(CHANNEL)
    assert "Red 3d · Blue 3d" in first.text and "Red 2d 4h · Blue 3d" in later.text
    assert first.image is not None and later.image is not None
    assert "Red 2d 4h" in later.image.description
    before, after = decoded(first.image.data), decoded(later.image.data)
    bare = decoded(await drawn_directly(service, None))
    assert before.size == after.size and before.width == bare.width and before.height > bare.height
    board = (0, 0, bare.width, bare.height)
    assert ImageChops.difference(after.crop(board), bare).getbbox() is None  # the board itself untouched
    strip = (0, bare.height, after.width, after.height)
    assert ImageChops.difference(before.crop(strip), after.crop(strip)).getbbox() is not None
    # The later board is exactly the one drawn with the clocks as they stand 20 hours on.
    now = (SeatTime("red", "Red", 3 * DAY - 20 * HOUR, running=True), SeatTime("blue", "Blue", 3 * DAY))
    assert later.image.data == await drawn_directly(service, Clocks(now))
    then = (SeatTime("red", "Red", 3 * DAY, running=True), SeatTime("blue", "Blue", 3 * DAY))
    assert first.image.data == await drawn_directly(service, Clocks(then))


async def test_the_picture_says_a_pause_and_a_vacation(served: tuple[FrontEnd, ManualClock]) -> None:
    service, clock = served
    await pikemen(service, deadline=3)
    await clock.advance(2 * HOUR)
    await service.raw.vacation(GUILD, BOB, 3)
    away = await service.board(CHANNEL)
    assert "on vacation until" in away.text and away.image is not None
    blue_away = SeatTime("blue", "Blue", 3 * DAY, away_until=clock.now() + 3 * DAY)
    red = SeatTime("red", "Red", 3 * DAY - 2 * HOUR, running=True)
    assert away.image.data == await drawn_directly(service, Clocks((red, blue_away)))
    await service.raw.vacation(GUILD, BOB, 0)
    await service.raw.pause(CHANNEL, ALICE, "offer")
    await service.raw.pause(CHANNEL, BOB, "accept")
    paused = await service.board(CHANNEL)
    assert "paused by agreement" in paused.text and paused.image is not None
    stood = (SeatTime("red", "Red", 3 * DAY - 2 * HOUR), SeatTime("blue", "Blue", 3 * DAY))
    assert paused.image.data == await drawn_directly(service, Clocks(stood, paused=True))


async def test_a_match_without_clocks_is_drawn_as_a_board_alone(served: tuple[FrontEnd, ManualClock]) -> None:
    service, _ = served
    await pikemen(service, deadline=None)
    shown = await service.board(CHANNEL)
    assert shown.image is not None and "⏱" not in shown.text
    assert shown.image.data == await drawn_directly(service, None)
