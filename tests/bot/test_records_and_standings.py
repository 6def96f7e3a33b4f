"""Replays, exported records that start new matches, and OpenSkill standings per guild."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.errors import NotAllowed
from bot.ratings import rated_results, recompute
from bot.ratings.system import Rating
from bot.service import MatchService
from engine import get_game
from engine.record import GameRecord
from tests.bot.conftest import ALICE, BOB, CAROL, DAVE, GUILD, seat


async def test_replay_posts_an_animation_of_the_match(service: MatchService) -> None:
    await seat(service, 1, {ALICE: "athens-messene", BOB: "sparta-thebes"})
    with pytest.raises(NotAllowed, match="no actions"):
        await service.replay(1)
    for user, action in [(ALICE, "move j6 w"), (ALICE, "advance k4,k5"), (BOB, "move d7 s")]:
        await service.act(1, user, action)
    whole = await service.replay(1)
    assert whole.file is not None and whole.file.filename.endswith(".gif")
    gif = Image.open(io.BytesIO(whole.file.data))
    assert gif.n_frames == 4  # the start and one frame per action
    last = await service.replay(1, last=2)
    assert Image.open(io.BytesIO(last.file.data)).n_frames == 3  # type: ignore[union-attr]
    assert "the last 2 actions" in last.text


async def test_an_exported_record_starts_a_casual_match_at_the_final_board(service: MatchService) -> None:
    await seat(service, 2, {ALICE: "athens-messene", BOB: "sparta-thebes"})
    for user, action in [(ALICE, "move j6 w"), (ALICE, "advance k4,k5"), (BOB, "move d7 s")]:
        await service.act(2, user, action)
    exported = (await service.export(2)).file
    assert exported is not None
    final = (await service.state_of(2)).game.notation()
    assert GameRecord.from_json(exported.data.decode()).final_state().notation() == final

    reply = await service.new_match(GUILD, 3, CAROL, "athens", start=exported.data.decode(), game="nika")
    assert "casual, unrated" in reply.text
    for user, seats in [(DAVE, "sparta-thebes"), (ALICE, "messene")]:
        await service.join(3, user, seats)
    await service.start(3, CAROL)
    copy = await service.state_of(3)
    assert copy.game.notation() == final and copy.acting_user() == DAVE  # Sparta had one action left
    # A position works too.
    await service.new_match(GUILD, 4, CAROL, "athens", start=final, game="nika")
    assert (await service.state_of(4)).game.notation() == final


def test_a_team_win_rates_both_partners_and_a_player_holding_a_whole_side_once() -> None:
    stored = [(1, "athens-messene", 4, {"athens": 1, "messene": 2, "sparta": 3, "thebes": 3})]
    table = recompute(rated_results(get_game("nika"), stored))
    start = Rating().mu
    assert table[1].rating.mu == table[2].rating.mu > start > table[3].rating.mu
    assert (table[1].wins, table[2].wins, table[3].losses, table[3].matches) == (1, 1, 1, 1)


async def both_teams_play_a_turn(service: MatchService, channel: int) -> None:
    """Each team passes through one turn of two actions: played enough for its ending to count
    (bot/rating_gate.py)."""
    for _ in range(4):
        state = await service.state_of(channel)
        await service.act(channel, state.acting_user(), "pass")


async def test_ratings_after_a_few_finished_matches(service: MatchService) -> None:
    # Alice+Bob beat Carol+Dave twice, then draw; an unrated (casual) match does not count.
    await seat(service, 10, {ALICE: "athens", BOB: "messene", CAROL: "sparta", DAVE: "thebes"})
    await both_teams_play_a_turn(service, 10)
    await service.resign(10, CAROL, confirmed=True)
    await seat(service, 11, {CAROL: "athens-messene", ALICE: "sparta", BOB: "thebes"})
    await both_teams_play_a_turn(service, 11)
    await service.declare(11, ALICE, "sparta-thebes")
    await service.concede(11, CAROL, confirmed=True)
    await seat(service, 12, {ALICE: "athens-messene", DAVE: "sparta-thebes"})
    await both_teams_play_a_turn(service, 12)
    await service.draw(12, ALICE, "offer")
    await service.draw(12, DAVE, "accept")
    await seat(service, 13, {DAVE: "athens-messene", ALICE: "sparta-thebes"}, start="A:k12n S:d7s M:l10e T:r9n A2")
    await service.act(13, DAVE, "move k12 n")  # a casual win for Dave

    table = {s.user_id: s for s in await service.standings(GUILD, "nika")}
    assert (table[ALICE].wins, table[ALICE].losses, table[ALICE].draws) == (2, 0, 1)
    assert (table[CAROL].wins, table[CAROL].losses, table[CAROL].draws) == (0, 2, 0)
    assert (table[DAVE].wins, table[DAVE].losses, table[DAVE].draws) == (0, 1, 1)
    # Alice drew with weaker Dave, so she ends just below Bob, who only won.
    start = Rating().mu
    assert table[BOB].rating.mu > table[ALICE].rating.mu > start > table[DAVE].rating.mu > table[CAROL].rating.mu
    board = await service.leaderboard(GUILD, None, "nika")
    # The board ranks by the conservative value: Alice played one match more, so the system is
    # surer of her and her value stands above Bob's although his estimate is higher.
    places = [board.text.index(f"<@{user}>") for user in (ALICE, BOB, DAVE, CAROL)]
    assert places == sorted(places)
    stats = await service.stats(GUILD, ALICE, "nika", name="Alice")
    assert "2 won, 0 lost, 1 drawn" in stats.text and "?**" in stats.text  # provisional: fewer than 10
    # `stats user:` adds the rating history as a small chart.
    assert stats.image is not None
    chart = Image.open(io.BytesIO(stats.image.data))
    assert chart.format == "PNG" and chart.size == (640, 300)
    assert "Alice" in stats.image.description
    assert (await service.standings(GUILD + 1, "nika")) == []


async def test_a_replay_too_large_for_one_upload_shows_fewer_actions(
    service: MatchService, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bot.service import reading

    await seat(service, 20, {ALICE: "athens-messene", BOB: "sparta-thebes"})
    for user, action in [(ALICE, "move j6 w"), (ALICE, "advance k4,k5"), (BOB, "move d7 s"), (BOB, "pass")]:
        await service.act(20, user, action)
    whole = await service.replay(20)
    assert whole.file is not None
    monkeypatch.setattr(reading, "REPLAY_BYTES_MAX", len(whole.file.data) - 1)
    smaller = await service.replay(20)
    assert smaller.file is not None and len(smaller.file.data) < len(whole.file.data)
    assert "as many as fit in one upload" in smaller.text
