"""Rating farming: a member with a second account cannot feed one account rating. A match that
ends off the board before each side made two moves is not rated, and two members play at most
three rated matches of a game a day on a server (docs/ratings.md)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.clock import ManualClock
from bot.rating_gate import DAILY_PAIR_CAP, MIN_ACTIONS
from bot.ratings import rated_results, recompute
from bot.service import MatchService
from bot.storage import matches as queries
from bot.storage import open_storage
from engine.registry import get_game
from tests.bot.conftest import FrontEnd
from tests.bot.hostile_surface import stub_renderer

GUILD, MAIN, ALT, CAROL = 1000, 11, 12, 33
GAME = "tictactoe"
DAY = 86_400.0


@pytest.fixture
async def service(db_path: str) -> AsyncIterator[FrontEnd]:
    raw = MatchService(await open_storage(db_path), renderer=stub_renderer, clock=ManualClock(),
                       lobbies_per_member=100)  # fmt: skip
    yield FrontEnd(raw)
    await raw.close()


async def started(service: FrontEnd, channel: int, x: int = MAIN, o: int = ALT) -> str:
    await service.new_match(GUILD, channel, x, "x", game=GAME)
    await service.join(channel, o, "o")
    return str((await service.start(channel, x)).text)


async def row_of(service: FrontEnd, channel: int) -> queries.MatchRow:
    async with service.storage.reading() as db:
        row = await queries.latest_match_in(db, channel)
        assert row is not None
        return row


async def test_a_hundred_wins_by_instant_resignation_gain_no_rating(service: FrontEnd) -> None:
    """The issue's farm: a second account resigns a hundred times in a row; not one counts."""
    for channel in range(1, 101):
        await started(service, channel)
        ended = await service.resign(channel, ALT, confirmed=True)
        assert f"Not rated: it ended before each side had made {MIN_ACTIONS} moves." in ended.text
        row = await row_of(service, channel)
        assert (row.status, row.rated, row.unrated_reason) == ("finished", False, "ended early")
    assert await service.standings(GUILD, GAME) == []  # no rated result at all
    said = await service.stats(GUILD, MAIN, GAME)
    assert "has not finished a rated Tic-tac-toe match" in said.text


async def played_then_resigned(service: FrontEnd, channel: int) -> None:
    """Both sides make two moves, then the second account resigns: a real game, as far as the
    host can tell."""
    for user, square in ((MAIN, "a1"), (ALT, "b1"), (MAIN, "c3"), (ALT, "b3")):
        await service.act(channel, user, square)
    await service.resign(channel, ALT, confirmed=True)


async def test_two_members_play_at_most_three_rated_matches_of_a_game_a_day(service: FrontEnd) -> None:
    starts = []
    for channel in range(1, 11):
        starts.append(await started(service, channel))
        await played_then_resigned(service, channel)
    rated = [(await row_of(service, c)).rated for c in range(1, 11)]
    assert rated == [True] * DAILY_PAIR_CAP + [False] * (10 - DAILY_PAIR_CAP)
    assert all("Not rated" not in text for text in starts[:DAILY_PAIR_CAP])
    assert all("already played 3 rated matches of this game today" in text for text in starts[DAILY_PAIR_CAP:])
    assert (await row_of(service, 10)).unrated_reason == "daily pair cap"
    [main, alt] = await service.standings(GUILD, GAME)
    assert (main.user_id, main.wins, alt.losses) == (MAIN, DAILY_PAIR_CAP, DAILY_PAIR_CAP)
    three = recompute(rated_results(get_game(GAME), [(i, "x", 2, {"x": MAIN, "o": ALT}) for i in range(3)]))
    assert main.rating == three[MAIN].rating  # three wins' worth, not ten (nor a hundred)
    # Another opponent is another pair; and a day later the pair may play rated again.
    await started(service, 20, o=CAROL)
    assert (await row_of(service, 20)).rated
    await service.raw.clock.advance(DAY)
    await started(service, 21)
    assert (await row_of(service, 21)).rated


async def test_endings_on_the_board_and_after_real_play_stay_rated(service: FrontEnd) -> None:
    await started(service, 1)
    for user, square in ((MAIN, "a1"), (ALT, "b1"), (MAIN, "a2"), (ALT, "b2"), (MAIN, "a3")):  # a quick win
        ended = await service.act(1, user, square)
    assert "Not rated" not in ended.text and (await row_of(service, 1)).rated
    await started(service, 2)
    await service.draw(2, MAIN, "offer")
    agreed = await service.draw(2, ALT, "accept")  # a draw agreed before anyone moved
    assert "Not rated" in agreed.text and not (await row_of(service, 2)).rated
    await started(service, 3)
    await played_then_resigned(service, 3)
    assert (await row_of(service, 3)).rated
