"""The match service over a real SQLite file: lobbies, play, refusals, undo, endings."""

from __future__ import annotations

import asyncio
import io
import json
import random

import pytest
from PIL import Image

from bot.errors import (
    BoardChanged,
    ChannelBusy,
    IllegalMove,
    NoMatch,
    NotAllowed,
    NotInMatch,
    NotYourTurn,
    ServiceError,
)
from bot.service import MatchService
from bot.storage import matches as queries
from engine.api import EndingKind
from engine.nika import GameState
from engine.record import GameRecord
from tests.bot.conftest import ALICE, BOB, CAROL, DAVE, EVE, GUILD, seat

# Athens can win at once: k12 faces north with k13 (its victory area) empty.
NEAR_WIN = "A:j4w,k12n S:d7s,e8e M:l10e,l11e T:q7s,r9n A2"


def decode(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image


async def test_two_player_match_from_lobby_to_win(service: MatchService) -> None:
    reply = await service.new_match(GUILD, 1, ALICE, "athens-messene", game="nika")
    assert "took Athens and Messene" in reply.text
    with pytest.raises(NotAllowed, match="Sparta and Thebes still need a player"):
        await service.start(1, ALICE)
    await service.join(1, BOB, "sparta-thebes")
    started = await service.start(1, ALICE)
    assert started.mentions == (ALICE,)
    assert started.image is not None and decode(started.image.data).format == "PNG"

    first = await service.act(1, ALICE, "advance j4,j5,j6")
    assert first.text.startswith("Athens advanced j4,j5,j6")
    assert "1 action left" in first.text and first.mentions == (ALICE,)
    second = await service.act(1, ALICE, "Move K5 North")
    assert "Sparta to act (2 actions left)" in second.text and second.mentions == (BOB,)
    assert second.image is not None and second.image.description
    await service.act(1, BOB, "pass")
    await service.act(1, BOB, "pass")
    third = await service.act(1, ALICE, "pass")
    assert "Messene" in third.text
    assert (await service.state_of(1)).game.to_act.title == "Messene"
    await service.resign(1, BOB, confirmed=True)
    state = await service.state_of(1)
    assert state.game.outcome is not None and state.game.outcome.result == "athens-messene"
    # The channel is free again once the match is over.
    await service.new_match(GUILD, 1, CAROL, "athens", game="nika")


async def test_three_players_one_holding_a_team(service: MatchService) -> None:
    await seat(service, 2, {ALICE: "sparta-thebes", BOB: "athens", CAROL: "messene"}, start=NEAR_WIN)
    with pytest.raises(NotYourTurn, match="it is Athens' turn"):
        await service.act(2, CAROL, "pass")
    reply = await service.act(2, BOB, "move k12 n")
    assert "Athens–Messene" in reply.text and "reached the victory area" in reply.text
    assert set(reply.mentions) == {ALICE, BOB, CAROL}
    with pytest.raises(NoMatch):
        await service.act(2, CAROL, "pass")


async def test_four_players_take_turns_in_clockwise_order(service: MatchService) -> None:
    await seat(service, 3, {ALICE: "athens", BOB: "sparta", CAROL: "messene", DAVE: "thebes"})
    for user, next_user in [(ALICE, BOB), (BOB, CAROL), (CAROL, DAVE)]:
        assert (await service.state_of(3)).acting_user() == user
        await service.act(3, user, "pass")
        reply = await service.act(3, user, "pass")
        assert reply.mentions == (next_user,)
    await service.act(3, DAVE, "pass")
    # The fourth city turn in a row of two passes draws the game.
    final = await service.act(3, DAVE, "pass")
    assert "four city turns in a row" in final.text
    assert set(final.mentions) == {ALICE, BOB, CAROL, DAVE}


async def test_a_player_holds_cities_of_one_team_only(service: MatchService) -> None:
    await service.new_match(GUILD, 4, ALICE, "athens", game="nika")
    with pytest.raises(NotAllowed, match="one team only"):
        await service.join(4, ALICE, "sparta")
    with pytest.raises(NotAllowed, match="already taken"):
        await service.join(4, BOB, "athens-messene")
    await service.join(4, ALICE, "messene")
    await service.join(4, BOB, "sparta")
    await service.join(4, CAROL, "thebes")
    await service.leave(4, CAROL)
    with pytest.raises(NotAllowed, match="Thebes still needs a player"):
        await service.start(4, ALICE)


async def test_refusals_change_nothing(service: MatchService) -> None:
    await seat(service, 5, {ALICE: "athens-messene", BOB: "sparta-thebes"})
    before = await service.state_of(5)
    with pytest.raises(NotYourTurn):
        await service.act(5, BOB, "pass")
    with pytest.raises(NotInMatch):
        await service.act(5, EVE, "pass")
    with pytest.raises(ChannelBusy, match="already has a match"):
        await service.new_match(GUILD, 5, EVE, "athens", game="nika")
    await service.act(5, ALICE, "move k5 n")  # legal: k6 is free
    with pytest.raises(IllegalMove, match="k7 is in the central area"):
        await service.act(5, ALICE, "move k6 n")
    with pytest.raises(IllegalMove, match="not one of your pieces"):
        await service.act(5, ALICE, "move d7 e")
    with pytest.raises(IllegalMove, match="I can't read"):
        await service.act(5, ALICE, "fly j4 to the moon")
    with pytest.raises(NoMatch):
        await service.act(999, ALICE, "pass")
    after = await service.state_of(5)
    assert after.version == before.version + 1
    assert after.game.notation() != before.game.notation()


async def test_abort_needs_the_creator_or_manage_channels(service: MatchService) -> None:
    await seat(service, 6, {ALICE: "athens-messene", BOB: "sparta-thebes"})
    with pytest.raises(NotAllowed, match="Manage Channels"):
        await service.abort(6, BOB)
    await service.abort(6, EVE, can_manage=True, confirmed=True)  # the Confirm button (asked first: issue 23)
    with pytest.raises(NoMatch):
        await service.act(6, ALICE, "pass")


async def test_undo_takes_back_your_own_action_while_your_turn_lasts(service: MatchService) -> None:
    await seat(service, 7, {ALICE: "athens-messene", BOB: "sparta-thebes"})
    start = (await service.state_of(7)).game.notation()
    with pytest.raises(NotAllowed, match="no action to undo"):
        await service.undo(7, ALICE)
    await service.act(7, ALICE, "move j6 e")
    with pytest.raises(NotInMatch):
        await service.undo(7, EVE)
    with pytest.raises(NotAllowed, match="your own last action"):
        await service.undo(7, BOB)
    reply = await service.undo(7, ALICE)
    assert "took back the last action (Athens moved j6 to k6)" in reply.text
    state = await service.state_of(7)
    assert state.game.notation() == start and not state.played
    await service.act(7, ALICE, "pass")
    await service.act(7, ALICE, "pass")
    with pytest.raises(NotAllowed, match="turn is over"):
        await service.undo(7, ALICE)
    assert len((await service.state_of(7)).played) == 2


async def test_draw_needs_every_player(service: MatchService) -> None:
    await seat(service, 8, {ALICE: "athens", BOB: "sparta", CAROL: "messene", DAVE: "thebes"})
    offer = await service.draw(8, ALICE, "offer")
    assert set(offer.mentions) == {BOB, CAROL, DAVE}
    await service.draw(8, BOB, "accept")
    await service.draw(8, CAROL, "decline")
    assert (await service.state_of(8)).draw_offer is None
    await service.draw(8, DAVE, "offer")
    for user in (ALICE, BOB):
        await service.draw(8, user, "accept")
    with pytest.raises(NotAllowed, match="already agreed"):
        await service.draw(8, BOB, "accept")
    final = await service.draw(8, CAROL, "accept")
    assert "Draw by agreement" in final.text
    state = await service.state_of(8)
    assert state.game.outcome is not None and state.game.outcome.result == "draw"


async def test_nika_declaration_concede_and_challenge(service: MatchService) -> None:
    await seat(service, 9, {ALICE: "athens", BOB: "sparta", CAROL: "messene", DAVE: "thebes"})
    declared = await service.declare(9, ALICE, "athens-messene")
    assert set(declared.mentions) == {BOB, DAVE}
    with pytest.raises(NotAllowed, match="only Sparta–Thebes answer"):
        await service.concede(9, CAROL)
    await service.challenge(9, DAVE)
    assert (await service.state_of(9)).declaration is None
    await service.declare(9, CAROL, "athens-messene")
    await service.concede(9, BOB, confirmed=True)
    final = await service.concede(9, DAVE, confirmed=True)
    assert "declared Nika and the opponents conceded" in final.text
    record = GameRecord.from_json((await service.export(9)).file.data.decode())  # type: ignore[union-attr]
    assert record.entries[-1].ending is EndingKind.CONCESSION and record.entries[-1].side == "athens-messene"
    assert record.final_state().outcome.result == "athens-messene"  # type: ignore[union-attr]


async def test_history_pages_and_export_round_trip(service: MatchService) -> None:
    await seat(service, 10, {ALICE: "athens-messene", BOB: "sparta-thebes"})
    for user, action in [(ALICE, "move j6 e"), (ALICE, "rotate k4,k5 e"), (BOB, "move d7 s"), (BOB, "pass")]:
        await service.act(10, user, action)
    rng = random.Random(7)
    for _ in range(28):  # 32 actions in all: three pages of 15
        user = (await service.state_of(10)).acting_user()
        assert user is not None
        legal = await service.legal_actions(10, user)
        await service.act(10, user, rng.choice(legal[:-1]).notation())  # anything but pass
    history = await service.history(10, page=1)
    assert "page 1 of" in history.text and "Athens moved j6 to k6" in history.text
    last = await service.history(10, page=99)
    assert "page 3 of 3" in last.text and "` 32` Thebes" in last.text
    exported = await service.export(10)
    assert exported.file is not None
    record = GameRecord.from_json(exported.file.data.decode())
    assert record.final_state().notation() == (await service.state_of(10)).game.notation()
    assert json.loads(exported.file.data)["actions"][0] == {
        "seat": "athens",
        "action": "move j6 e",
        "player": str(ALICE),
    }
    copy = await service.new_match(GUILD, 11, CAROL, "athens", start=exported.file.data.decode(), game="nika")
    assert "casual, unrated" in copy.text


async def test_my_turns_lists_matches_where_the_user_acts(service: MatchService) -> None:
    await seat(service, 12, {ALICE: "athens-messene", BOB: "sparta-thebes"})
    await seat(service, 13, {BOB: "athens-messene", ALICE: "sparta-thebes"})
    turns = await service.my_turns(GUILD, ALICE)
    assert [t.channel_id for t in turns] == [12]
    assert (await service.my_turns(GUILD + 1, ALICE)) == []
    assert [t.channel_id for t in await service.my_turns(GUILD, BOB)] == [13]


async def test_racing_acts_apply_exactly_once(service: MatchService) -> None:
    await seat(service, 14, {ALICE: "athens-messene", BOB: "sparta-thebes"})
    version = (await service.board(14)).version

    async def attempt(action: str) -> str:
        try:
            await service.act(14, ALICE, action, expected_version=version)
        except BoardChanged as error:
            return str(error)
        return "applied"

    outcomes = await asyncio.gather(*(attempt(a) for a in ["pass", "move j6 e", "move l4 e"] * 10))
    assert outcomes.count("applied") == 1
    assert set(outcomes) == {"applied", "the board changed, look again"}
    state = await service.state_of(14)
    assert len(state.played) == 1


async def test_many_concurrent_acts_leave_a_consistent_log(service: MatchService, db_path: str) -> None:
    await seat(service, 15, {ALICE: "athens-messene", BOB: "sparta-thebes"})

    async def attempt() -> bool:
        try:
            await service.act(15, ALICE, "pass")
        except (BoardChanged, NotYourTurn):
            return False
        return True

    applied = sum(await asyncio.gather(*(attempt() for _ in range(40))))
    assert 1 <= applied <= 2
    async with service.db.reading() as db:
        row = await queries.open_match_in(db, 15)
        assert row is not None
        log = await queries.log_of(db, row.id)
    assert [row.seq for row in log] == list(range(1, applied + 1))
    fresh = await MatchService.open(db_path)
    try:
        assert (await fresh.state_of(15)).game.notation() == (await service.state_of(15)).game.notation()
    finally:
        await fresh.close()


async def test_a_new_service_on_the_same_file_continues_every_match(db_path: str) -> None:
    first = await MatchService.open(db_path)
    await seat(first, 16, {ALICE: "athens-messene", BOB: "sparta-thebes"})
    await seat(first, 17, {CAROL: "athens", DAVE: "sparta", EVE: "messene", BOB: "thebes"})
    await first.new_match(GUILD, 18, ALICE, "athens", game="nika")
    await first.act(16, ALICE, "move j6 e")
    await first.act(17, CAROL, "pass")
    positions = {c: (await first.state_of(c)).game.notation() for c in (16, 17)}
    await first.close()

    second = await MatchService.open(db_path)
    try:
        for channel, position in positions.items():
            assert (await second.state_of(channel)).game.notation() == position
        await second.act(16, ALICE, "pass")
        await second.act(17, CAROL, "pass")
        await second.join(18, BOB, "sparta-thebes")
        assert (await second.state_of(16)).game.to_act.title == "Sparta"
    finally:
        await second.close()


async def test_state_always_equals_the_replay_of_the_log(service: MatchService) -> None:
    await seat(service, 19, {ALICE: "athens-messene", BOB: "sparta-thebes"})
    for user, action in [(ALICE, "advance j4,j5,j6"), (ALICE, "move k5 n"), (BOB, "move d7 s")]:
        await service.act(19, user, action)
    await service.undo(19, BOB)
    state = await service.state_of(19)
    async with service.db.reading() as db:
        row = await queries.open_match_in(db, 19)
        assert row is not None
        log = await queries.log_of(db, row.id)
    assert [r.kind for r in log] == ["action", "action", "action", "undo"]
    game = GameState.from_notation(row.start_position)
    for entry in state.played:
        game, _ = game.parse_and_apply(entry.action)
    assert game.notation() == state.game.notation() == row.position == log[-1].position


async def test_a_match_cannot_start_from_a_finished_game(service: MatchService) -> None:
    with pytest.raises(ServiceError, match="already over"):
        await service.new_match(GUILD, 20, ALICE, "athens", start="A:k13n S:d7s M:l10e T:r9n S2", game="nika")
    with pytest.raises(ServiceError, match="can't start from that"):
        await service.new_match(GUILD, 20, ALICE, "athens", game="nika",
                                start='{"format": "nika-record", "version": 1}')  # fmt: skip
    with pytest.raises(NoMatch):
        await service.state_of(20)
