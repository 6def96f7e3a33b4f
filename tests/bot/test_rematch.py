"""Rematches: every member accepts (computers at once), the seats rotate, the first match's
rating carries over, and the Rematch button under a result works through the Discord double."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.errors import NotAllowed, NotInMatch
from bot.service import MatchService
from bot.storage import rematches
from tests.bot.conftest import ALICE, BOB, CAROL, DAVE, EVE, FrontEnd, seat
from tests.bot.discord_harness import TIMEOUT, Players, decode_png, running, service_of, slash
from tests.bot.test_across_days import press
from tests.discord_double import DiscordDouble

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
        # The clocks come along: the same deadline and time bank.
        await raw.new_match(1000, 602, ALICE, "red", game="pikemen", deadline_days=1, bank_days=5)
        await raw.join(602, BOB, "blue")
        await service.start(602, ALICE)
        await service.resign(602, ALICE, confirmed=True)
        await service.rematch(602, ALICE)
        await service.rematch(602, BOB)
        banked, _ = await raw.book.load(602)
        assert banked.status == "active" and (banked.deadline_days, banked.bank_days) == (1, 5)
    finally:
        await raw.close()


async def test_the_rematch_button_survives_a_restart_and_forecasts_stay_private_on_discord(
    double: DiscordDouble, players: Players, tmp_path: Path
) -> None:
    p = players
    database = str(tmp_path / "nika.db")
    async with running(double, database) as bot:
        await slash(double, p.alice, "new", {"seat": "red"}, group="pikemen")
        await slash(double, p.bob, "join", {"seat": "blue"}, group="pikemen")
        await slash(double, p.alice, "start", group="pikemen")
        state = await service_of(bot).state_of(double.channel.id)
        first = next(a.notation() for a in state.rules.legal_actions(state.game))
        await slash(double, p.alice, "play", {"action": first}, group="pikemen")
        # A forecast through /pikemen forecast lines: answered privately, never posted for others.
        state = await service_of(bot).state_of(double.channel.id)
        theirs = next(a for a in state.rules.legal_actions(state.game))
        after, _ = state.rules.apply(state.game, theirs)
        mine = next(a.notation() for a in state.rules.legal_actions(after))
        stored = await slash(double, p.alice, "forecast", {"lines": f"{theirs.notation()} > {mine}"}, group="pikemen")
        assert stored.ephemeral and "only you see it" in stored.content
        public = [m.content for m in double.channel_messages(double.channel) if not m.ephemeral]
        assert not any(mine in text and "forecast answers" in text for text in public)
        answered = await slash(double, p.bob, "play", {"action": theirs.notation()}, group="pikemen")
        assert not answered.ephemeral and "forecast answers" in answered.content
        await slash(double, p.alice, "resign", group="pikemen")
        result = await slash(double, p.alice, "resign", group="pikemen")  # asked twice within a minute: confirmed
        row, _ = await service_of(bot).book.load(double.channel.id, open_only=False)
        assert row.status == "finished"
        button = f"pikemen:r:{row.id}"
        assert button in result.message.custom_ids()
        waiting = await slash(double, p.bob, "rematch", group="pikemen")  # /pikemen rematch: as the button does
        assert "wants a rematch" in waiting.content and button in waiting.message.custom_ids()
        assert "press Rematch, or /pikemen rematch." in waiting.content  # the form Pikemen's group has
    async with running(double, database) as bot:  # the button outlives the bot's restart
        pressed = await press(double, p.alice, result.message, button)
        post = await double.wait_for_message(
            lambda m: m.interaction_id == pressed.id and not m.ephemeral and bool(m.files), timeout=TIMEOUT
        )
        assert post.content.startswith("Rematch!")
        decode_png(post.files[0])
        _, state = await service_of(bot).book.load(double.channel.id)
        assert dict(state.seats) == {"blue": p.alice.id, "red": p.bob.id}


async def test_a_rematch_of_a_thread_match_opens_a_new_thread(
    double: DiscordDouble, players: Players, tmp_path: Path
) -> None:
    p = players
    async with running(double, str(tmp_path / "nika.db")) as bot:
        await slash(double, p.alice, "new", {"seat": "red", "thread": True}, group="pikemen")
        [thread] = [c for c in double.channels.values() if c.parent_id == double.channel.id]
        await slash(double, p.bob, "join", {"seat": "blue"}, channel=thread, group="pikemen")
        await slash(double, p.alice, "start", channel=thread, group="pikemen")
        await slash(double, p.bob, "resign", channel=thread, group="pikemen")
        await slash(double, p.bob, "resign", channel=thread, group="pikemen")
        await slash(double, p.bob, "start", channel=thread, group="pikemen")
        said = await slash(double, p.alice, "start", channel=thread, group="pikemen")
        threads = [c for c in double.channels.values() if c.parent_id == double.channel.id]
        assert len(threads) == 2
        new = threads[1]
        assert f"<#{new.id}>" in said.content
        [board] = [m for m in double.channel_messages(new) if m.files]
        assert board.content.startswith("Rematch!")
        decode_png(board.files[0])
        row, state = await service_of(bot).book.load(new.id)
        assert row.parent_channel_id == double.channel.id
        assert dict(state.seats) == {"red": p.bob.id, "blue": p.alice.id}
