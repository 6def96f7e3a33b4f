"""Computer seats: the creator seats the computer at a level, a member may take a seat over
in the lobby, the computer plays its turns by itself through the persisted timers (searching
in a worker process), answers proposals, never proposes, and its matches are unrated."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest

from bot.clock import ManualClock
from bot.dispatcher import TimerDispatcher
from bot.errors import NotAllowed, ServiceError
from bot.replies import Notice
from bot.service import MatchService
from bot.service.computer import ComputerPlayers
from tests.bot.conftest import ALICE, BOB, GUILD, FrontEnd

NEAR_WIN = "A:j4w,k12n S:d7s,e8e M:l10e,l11e T:q7s,r9n A2"  # Athens wins with move k12 n


@pytest.fixture(scope="module")
def computers() -> Iterator[ComputerPlayers]:
    """One real pool of search processes for the module (starting processes takes a while)."""
    pool = ComputerPlayers(workers=1, budgets={"hard": 150.0, "normal": 60.0})
    yield pool
    pool._pool.shutdown(wait=True, cancel_futures=True)


class Table:
    def __init__(self, service: MatchService, clock: ManualClock) -> None:
        self.service = FrontEnd(service)  # every reply posted, as the bot's front ends do
        self.clock = clock
        self.notices: list[Notice] = []
        self.dispatcher = TimerDispatcher(service, self._announce)

    async def _announce(self, notice: Notice, nonce: str) -> None:
        self.notices.append(notice)

    async def after(self, seconds: float) -> list[Notice]:
        seen = len(self.notices)
        await self.clock.advance(seconds)
        await self.dispatcher.settled(timeout=60)
        return self.notices[seen:]


@pytest.fixture
async def table(db_path: str, computers: ComputerPlayers) -> AsyncIterator[Table]:
    clock = ManualClock()
    service = await MatchService.open(db_path, clock=clock, computers=computers)
    table = Table(service, clock)
    table.dispatcher.start()
    yield table
    await table.dispatcher.stop()
    await service.close()


async def test_the_creator_seats_the_computer_and_a_member_may_take_over(table: Table) -> None:
    service = table.service
    await service.new_match(GUILD, 1, ALICE, "athens-messene", game="nika")
    with pytest.raises(NotAllowed, match="only the match's creator"):
        await service.join(1, BOB, "thebes", computer="hard")
    seated = await service.join(1, ALICE, "sparta-thebes", computer="hard")
    assert "Thebes (Sparta–Thebes): computer (hard)" in seated.text
    with pytest.raises(ServiceError, match="easy, normal or hard"):
        await service.join(1, ALICE, "sparta", computer="genius")
    took = await service.join(1, BOB, "sparta")
    assert f"<@{BOB}> took over from the computer Sparta." in took.text
    state = await service.state_of(1)
    assert state.seats == {"athens": ALICE, "messene": ALICE, "sparta": BOB}
    assert state.computers == {"thebes": "hard"}


async def test_the_computer_plays_both_actions_of_its_turn_by_itself(table: Table) -> None:
    service = table.service
    await service.new_match(GUILD, 2, ALICE, "athens-messene", game="nika")
    await service.join(2, ALICE, "sparta-thebes", computer="normal")
    await service.start(2, ALICE)
    await service.act(2, ALICE, "pass")
    reply = await service.act(2, ALICE, "pass")
    assert "Sparta to act (2 actions left) — computer (normal)" in reply.text and reply.mentions == ()
    [notice] = await table.after(2)
    state = await service.state_of(2)
    assert [p.seat for p in state.played] == ["athens", "athens", "sparta", "sparta"]
    assert all(p.user_id is None for p in state.played[2:])
    assert notice.reply.image is not None and notice.reply.mentions == (ALICE,)  # Messene: Alice's turn again
    assert "Messene to act" in notice.reply.text
    assert await table.after(60) == []  # nothing more until Alice moves


async def test_a_restart_resumes_a_due_computer_turn_once(db_path: str, computers: ComputerPlayers) -> None:
    clock = ManualClock()
    first = FrontEnd(await MatchService.open(db_path, clock=clock))  # replies posted, as the front ends do
    await first.new_match(GUILD, 3, ALICE, "athens-messene", game="nika")
    await first.join(3, ALICE, "sparta-thebes", computer="easy")
    await first.start(3, ALICE)
    await first.act(3, ALICE, "pass")
    await first.act(3, ALICE, "pass")
    await first.close()  # the bot stops before the computer's turn fires
    await clock.advance(3600)
    for expected in (2, 0):
        service = await MatchService.open(db_path, clock=clock, computers=computers)
        table = Table(service, clock)
        table.dispatcher.start()
        await table.dispatcher.settled(timeout=60)
        await table.dispatcher.stop()
        state = await service.state_of(3)
        assert len([p for p in state.played if p.seat == "sparta"]) == 2
        assert len(table.notices) == expected // 2
        await service.close()


async def test_computer_matches_are_unrated_and_the_computer_answers_draws(table: Table) -> None:
    service = table.service
    await service.new_match(GUILD, 4, ALICE, "athens-messene", start=None, game="nika")
    await service.join(4, ALICE, "sparta-thebes", computer="easy")
    await service.start(4, ALICE)
    offered = await service.draw(4, ALICE, "offer")
    # At the start nobody is clearly worse: the computer declines, at once.
    assert "declined the draw" in offered.text and (await service.state_of(4)).draw_offer is None
    await service.resign(4, ALICE, confirmed=True)
    assert await service.standings(GUILD, "nika") == []  # a game against the computer is not rated


async def test_the_computer_concedes_a_nika_only_when_the_loss_is_certain(table: Table) -> None:
    service = table.service
    await service.new_match(GUILD, 5, ALICE, "athens-messene", start=NEAR_WIN, game="nika")
    await service.join(5, ALICE, "sparta-thebes", computer="hard")
    await service.start(5, ALICE)
    final = await service.declare(5, ALICE, "athens-messene")
    assert "computer (Sparta)" in final.text or "the computer" in final.text
    assert (await service.state_of(5)).is_over  # Athens wins next action whatever Sparta–Thebes do
    await service.new_match(GUILD, 6, ALICE, "athens-messene", game="nika")
    await service.join(6, ALICE, "sparta-thebes", computer="hard")
    await service.start(6, ALICE)
    challenged = await service.declare(6, ALICE, "athens-messene")
    assert "challenges" in challenged.text and not (await service.state_of(6)).is_over


async def test_a_numica_computer_arranges_its_row_in_secret_then_plays(table: Table) -> None:
    service = table.service
    await service.new_match(GUILD, 7, ALICE, "red", game="numica", options={"setup": "choose"}, seed=7)
    await service.join(7, ALICE, "blue", computer="hard")
    started = await service.start(7, ALICE)
    assert f"Waiting for Red (<@{ALICE}>) and Blue (computer, hard) to set up" in started.text
    await table.after(2)
    state = await service.state_of(7)
    assert set(state.setup) == {"blue"} and state.setup_pending() == ("red",)  # kept secret until Red's is in
    await service.setup(7, ALICE, "sosoosos")
    state = await service.state_of(7)
    assert state.to_act == "red" and not state.setup
    await service.act(7, ALICE, state.rules.legal_actions(state.game)[0].notation())
    notices = await table.after(2)
    state = await service.state_of(7)
    assert [p.seat for p in state.played] == ["red", "blue"] and state.played[1].user_id is None
    assert state.to_act == "red" and notices[-1].reply.mentions == (ALICE,) and notices[-1].reply.image is not None


async def test_three_pikemen_computers_play_round_to_the_one_human(table: Table) -> None:
    service = table.service
    await service.new_match(GUILD, 8, ALICE, "red", game="pikemen", players=4)
    for seat, level in (("yellow", "easy"), ("green", "normal"), ("blue", "hard")):
        await service.join(8, ALICE, seat, computer=level)
    await service.start(8, ALICE)
    state = await service.state_of(8)
    await service.act(8, ALICE, state.rules.legal_actions(state.game)[0].notation())
    notices = [notice for _ in range(3) for notice in await table.after(2)]  # one computer turn at a time
    state = await service.state_of(8)
    assert [p.seat for p in state.played] == ["red", "yellow", "green", "blue"]
    assert all(p.user_id is None for p in state.played[1:])
    assert state.to_act == "red" and notices[-1].reply.mentions == (ALICE,)
    assert len(notices) == 3 and all(n.reply.image is not None for n in notices)  # each turn its own board
    assert await table.after(60) == []
