"""A database written by the first release (tests/fixtures/release1.db, made by
tests/fixtures/make_release1_db.py with that release's code) upgrades in place when this
release opens it, and every lobby, match, pending offer, declaration, timer, setting and
finished match continues where it was."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from bot.clock import ManualClock
from bot.dispatcher import TimerDispatcher
from bot.replies import Notice
from bot.service import MatchService
from bot.storage import matches as queries
from bot.storage import timers
from bot.storage.migrations import LATEST_VERSION

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "release1.db"
GUILD = 1000
ALICE, BOB, CAROL, DAVE, EVE = 11, 22, 33, 44, 55
HOUR = 3600.0


@pytest.fixture
async def upgraded(tmp_path: Path):
    path = tmp_path / "release1.db"
    shutil.copy(FIXTURE, path)
    clock = ManualClock(1_800_000_000.0)
    service = await MatchService.open(str(path), clock=clock)
    yield service, clock
    await service.close()


async def test_the_schema_is_migrated_in_place(upgraded) -> None:
    service, _ = upgraded
    assert service.storage.schema_version == LATEST_VERSION
    async with service.storage.reading() as db:
        assert await queries.count_matches(db) == 8
        row = await queries.match_by_id(db, 2)
        assert row is not None and (row.game, row.players, row.options, row.status) == ("nika", 4, {}, "active")
        assert [s.seat for s in await queries.seats_of(db, 2)] == ["athens", "messene", "sparta", "thebes"]


async def test_the_lobby_continues_and_starts(upgraded) -> None:
    service, _ = upgraded
    state = await service.state_of(1)
    assert state.seats == {"athens": ALICE, "messene": ALICE, "sparta": BOB}
    await service.join(1, BOB, "thebes")
    started = await service.start(1, ALICE)
    assert "The match begins!" in started.text and started.mentions == (ALICE,)
    async with service.storage.reading() as db:
        row = await queries.match_by_id(db, 1)
        assert row is not None and row.deadline_days == 2  # chosen in the first release
        assert {t.kind.value for t in await timers.of_match(db, 1)} == {"reminder", "deadline", "warning"}


async def test_a_running_match_continues_with_its_undo_and_board(upgraded) -> None:
    service, _ = upgraded
    state = await service.state_of(2)
    assert [p.action for p in state.played] == ["advance j4,j5,j6", "move k5 n", "move d7 s"]
    assert state.game.to_act.title == "Sparta" and state.board_version == 3
    undone = await service.undo(2, BOB)  # Sparta's first action of its turn may still be taken back
    assert "took back the last action (Sparta moved d7 to d6)" in undone.text
    await service.act(2, BOB, "pass")
    await service.act(2, BOB, "pass")
    assert (await service.state_of(2)).game.to_act.title == "Messene"


async def test_a_pending_draw_offer_is_still_open(upgraded) -> None:
    service, _ = upgraded
    offer = (await service.state_of(3)).draw_offer
    assert offer is not None and offer.by == ALICE and offer.accepted == {ALICE, BOB}
    await service.draw(3, CAROL, "accept")
    final = await service.draw(3, DAVE, "accept")
    assert "Draw by agreement" in final.text


async def test_a_pending_declaration_is_still_open(upgraded) -> None:
    service, _ = upgraded
    declaration = (await service.state_of(4)).declaration
    assert declaration is not None and declaration.side == "athens-messene" and declaration.conceded == {BOB}
    final = await service.concede(4, DAVE, confirmed=True)
    assert "Athens–Messene declared Nika and the opponents conceded" in final.text


async def test_finished_matches_keep_their_results_and_ratings(upgraded) -> None:
    service, _ = upgraded
    assert (await service.state_of(5)).game.outcome.result == "sparta-thebes"
    assert (await service.state_of(6)).game.outcome.result == "draw"
    table = {s.user_id: s for s in await service.standings(GUILD, "nika")}
    assert (table[BOB].wins, table[ALICE].losses, table[CAROL].draws, table[DAVE].draws) == (1, 1, 1, 1)
    with pytest.raises(Exception, match="no match"):
        await service.undo(7, EVE)  # the aborted match stays aborted


async def test_timers_and_settings_continue(upgraded) -> None:
    service, clock = upgraded
    notices: list[Notice] = []

    async def announce(notice: Notice, nonce: str) -> None:
        notices.append(notice)

    shown = await service.settings(GUILD, 8, BOB)
    assert "Server default: reminders after 12 h" in shown.text and "reminders after 6 h" in shown.text
    assert "a 1-day turn deadline" in shown.text
    dispatcher = TimerDispatcher(service, announce)
    dispatcher.start()
    try:
        await clock.advance(6 * HOUR)
        await dispatcher.settled()
        assert [n.channel_id for n in notices] == [8] and "⏰" in notices[0].reply.text
        await clock.advance(18 * HOUR)
        await dispatcher.settled()
        expired = [n for n in notices if "turn ran out" in n.reply.text]
        assert [n.channel_id for n in expired] == [8]
        assert (await service.state_of(8)).game.to_act.title == "Sparta"
    finally:
        await dispatcher.stop()
    dm = await service.settings(GUILD, 1, DAVE)
    assert "Direct-message reminders for you: on" in dm.text


async def test_buttons_under_a_first_release_board_still_play(double, tmp_path: Path) -> None:
    """The board release 1 posted for match 2 (Sparta to act) carries its panel; after the
    upgrade a press on its Pass button plays, as a press did before."""
    from tests.bot.discord_harness import TIMEOUT, running

    alice = double.add_user("alice", user_id=ALICE)
    bob = double.add_user("bob", user_id=BOB)
    del alice
    path = tmp_path / "release1.db"
    shutil.copy(FIXTURE, path)
    import sqlite3

    raw = sqlite3.connect(path)
    with raw:  # the first release's match 2, moved to the double's server and channel
        raw.execute(
            "UPDATE matches SET guild_id = ?, channel_id = ? WHERE id = 2", (double.guild.id, double.channel.id)
        )
    raw.close()
    panel = [
        {"type": 1, "components": [
            {"type": 2, "style": 1, "label": kind.capitalize(), "custom_id": f"nika:p:2:3:{kind}"}
            for kind in ("move", "rotate", "advance", "rally", "pass")
        ]},
    ]  # fmt: skip
    old = double.create_message(
        double.channel, {"content": "Sparta to act", "components": panel}, [], author=double.bot_user, source="rest"
    )
    async with running(double, str(path)) as bot:
        payload = double.component(bob, None, old.id, "nika:p:2:3:pass")
        record = await double.wait_for_interaction_response(await double.send_interaction(payload), timeout=TIMEOUT)
        posted = await double.wait_for_message(
            lambda m: m.interaction_id == record.id and not m.ephemeral and bool(m.files), timeout=TIMEOUT
        )
        assert "Sparta passed" in posted.content
        assert bot.service is not None
        assert [p.action for p in (await bot.service.state_of(double.channel.id)).played][-1] == "pass"
