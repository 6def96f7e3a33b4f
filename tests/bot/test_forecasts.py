"""Forecasts: stored privately, applied at once when the opponent's turn matches a line (also
across a restart, and two actions deep in Nika), discarded on a mismatch, cleared by an undo,
never shown to anyone else, and refused where there is no single opponent."""

from __future__ import annotations

from typing import Any

import pytest

from bot.errors import NotAllowed, ServiceError
from bot.match import MatchState
from bot.service import MatchService
from bot.storage import forecasts
from tests.bot.conftest import ALICE, BOB, CAROL, FrontEnd, seat

pytestmark = pytest.mark.asyncio


def _legal(state: Any, rules: Any, avoid: set[str] = frozenset()) -> str:  # type: ignore[assignment]
    return next(a.notation() for a in rules.legal_actions(state) if a.notation() not in avoid)


def _line(state: MatchState, turns: int, avoid: set[str] = frozenset()) -> tuple[list[list[str]], Any]:  # type: ignore[assignment]
    """`turns` whole turns from the match's position, each its actions' notation; and the game after."""
    rules, game = state.rules, state.game
    played: list[list[str]] = []
    for _ in range(turns):
        side = rules.to_act(game)
        turn: list[str] = []
        while rules.to_act(game) is not None and state.side_of(rules.to_act(game)) == state.side_of(side):
            text = _legal(game, rules, avoid)
            turn.append(text)
            game, _ = rules.apply(game, rules.parse_action(text))
        played.append(turn)
    return played, game


def _text(turns: list[list[str]]) -> str:
    return " > ".join(", ".join(turn) for turn in turns)


async def _stored(service: MatchService, channel: int) -> list[forecasts.ForecastRow]:
    row, _ = await service.book.load(channel, open_only=False)
    async with service.storage.reading() as db:
        return await forecasts.of_match(db, row.id)


async def test_a_matching_turn_is_answered_at_once_and_deeper_lines_go_on(db_path: str) -> None:
    raw = await MatchService.open(db_path)
    service = FrontEnd(raw)
    try:
        await seat(raw, 700, {ALICE: "red", BOB: "blue"}, game="pikemen")
        state = await service.state_of(700)
        await service.act(700, ALICE, _legal(state.game, state.rules))
        state = await service.state_of(700)
        turns, _ = _line(state, 4)
        stored = await service.forecast(700, ALICE, _text(turns))
        assert "only you see it" in stored.text and stored.mentions == ()
        reply = await service.act(700, BOB, turns[0][0])
        assert "forecast answers" in reply.text
        after = await service.state_of(700)
        assert after.played[-1].user_id == ALICE and after.played[-1].action == turns[1][0]
        assert after.acting_user() == BOB
        # The deeper part of the line waits for Bob's next move.
        reply = await service.act(700, BOB, turns[2][0])
        after = await service.state_of(700)
        assert after.played[-1].action == turns[3][0] and after.played[-1].user_id == ALICE
        assert await _stored(raw, 700) == []
    finally:
        await raw.close()


async def test_nika_two_players_two_actions_a_turn_and_a_restart(db_path: str) -> None:
    raw = await MatchService.open(db_path)
    try:
        await seat(raw, 710, {ALICE: "athens-messene", BOB: "sparta-thebes"})
        service = FrontEnd(raw)
        state = await service.state_of(710)
        first, _ = _line(state, 1)
        for text in first[0]:
            await service.act(710, ALICE, text)
        state = await service.state_of(710)
        turns, _ = _line(state, 2)
        assert len(turns[0]) == 2 and len(turns[1]) == 2
        with pytest.raises(ServiceError, match="2 actions"):  # half a turn is refused
            await service.forecast(710, ALICE, f"{turns[0][0]} > {turns[1][0]}")
        await service.forecast(710, ALICE, _text(turns))
    finally:
        await raw.close()
    raw = await MatchService.open(db_path)  # the forecast is in the database, not in memory
    service = FrontEnd(raw)
    try:
        first_half = await service.act(710, BOB, turns[0][0])
        assert "forecast answers" not in first_half.text  # half their turn: nothing yet
        reply = await service.act(710, BOB, turns[0][1])
        assert "forecast answers" in reply.text
        after = await service.state_of(710)
        assert [p.action for p in after.played[-2:]] == turns[1]
        assert after.acting_user() == BOB
    finally:
        await raw.close()


async def test_a_turn_matching_no_line_discards_and_nothing_leaks(db_path: str) -> None:
    raw = await MatchService.open(db_path)
    service = FrontEnd(raw)
    try:
        await seat(raw, 720, {ALICE: "red", BOB: "blue"}, game="pikemen")
        state = await service.state_of(720)
        opening = _legal(state.game, state.rules)
        await service.act(720, ALICE, opening)
        state = await service.state_of(720)
        turns, _ = _line(state, 2, avoid={opening})
        answer = turns[1][0]
        await service.forecast(720, ALICE, _text(turns))
        # Nothing anyone else reads shows the answer or that a forecast exists.
        seen = [
            (await service.board(720, BOB)).text, (await service.status(720)).text,
            (await service.history(720, user_id=BOB)).text, (await service.export(720)).text,
        ]  # fmt: skip
        for text in seen:
            assert answer not in text and "forecast answers" not in text and "forecast" not in text.lower()
        assert "You have no forecast" in (await service.forecast(720, BOB, None)).text
        mine = (await service.forecast(720, ALICE, None)).text
        assert answer in mine  # Alice alone sees hers
        assert await service.legal_actions(720, ALICE) == []  # autocomplete offers Alice nothing now
        other = next(a.notation() for a in state.rules.legal_actions(state.game) if a.notation() != turns[0][0])
        reply = await service.act(720, BOB, other)
        assert "forecast answers" not in reply.text
        assert await _stored(raw, 720) == []
        after = await service.state_of(720)
        assert after.acting_user() == ALICE  # Alice plays her own move now
    finally:
        await raw.close()


async def test_undo_clears_and_where_forecasts_do_not_apply(db_path: str) -> None:
    raw = await MatchService.open(db_path)
    service = FrontEnd(raw)
    try:
        await seat(raw, 730, {ALICE: "red", BOB: "blue"}, game="pikemen")
        state = await service.state_of(730)
        await service.act(730, ALICE, _legal(state.game, state.rules))
        state = await service.state_of(730)
        turns, _ = _line(state, 2)
        await service.forecast(730, ALICE, _text(turns))
        assert len(await _stored(raw, 730)) == 1
        await service.undo(730, ALICE)
        assert await _stored(raw, 730) == []
        with pytest.raises(NotAllowed):  # it is Alice's turn again: a forecast follows her move
            await service.forecast(730, ALICE, _text(turns))
        with pytest.raises(ServiceError, match="line 1"):
            await service.forecast(730, BOB, "zz9 > a1")
        # Three players: no single opponent.
        await raw.new_match(1000, 731, ALICE, "red", game="pikemen", players=3)
        await raw.join(731, BOB, "yellow")
        await raw.join(731, CAROL, "blue")
        await service.start(731, ALICE)
        with pytest.raises(NotAllowed, match="two-sided"):
            await service.forecast(731, ALICE, "a1 n > a2 n")
    finally:
        await raw.close()


async def test_numica_after_its_secret_setup_and_an_ending_clears(db_path: str) -> None:
    raw = await MatchService.open(db_path)
    service = FrontEnd(raw)
    try:
        await seat(raw, 740, {ALICE: "red", BOB: "blue"}, game="numica")
        state = await service.state_of(740)
        for user, side in ((ALICE, "red"), (BOB, "blue")):
            choice = next(iter(state.rules.setup_choices(state.game, side))).value
            with pytest.raises(NotAllowed):  # no forecast while the sides set up in secret
                await service.forecast(740, user, "a1-a2 > a1-a3")
            await service.setup(740, user, choice)
        state = await service.state_of(740)
        mover = state.acting_user()
        other = BOB if mover == ALICE else ALICE
        await service.act(740, mover, _legal(state.game, state.rules))
        state = await service.state_of(740)
        turns, _ = _line(state, 2)
        await service.forecast(740, mover, _text(turns))
        await service.act(740, other, turns[0][0])
        after = await service.state_of(740)
        assert after.played[-1].action == turns[1][0] and after.played[-1].user_id == mover
        # A forecast left when the match ends is cleared with it.
        state = after
        turns, _ = _line(state, 2)
        await service.forecast(740, mover, _text(turns))
        await service.resign(740, other, confirmed=True)
        assert await _stored(raw, 740) == []
    finally:
        await raw.close()


async def test_after_a_computer_turn_the_answer_is_a_notice(db_path: str) -> None:
    """The timer path: a turn played by the host (a computer's) is answered too, as a notice."""
    raw = await MatchService.open(db_path)
    service = FrontEnd(raw)
    try:
        await seat(raw, 750, {ALICE: "red", BOB: "blue"}, game="pikemen")
        state = await service.state_of(750)
        await service.act(750, ALICE, _legal(state.game, state.rules))
        state = await service.state_of(750)
        turns, _ = _line(state, 2)
        await service.forecast(750, ALICE, _text(turns))
        played = await raw.play.act(750, BOB, turns[0][0])  # the turn, without the front end's look at forecasts
        await raw.posted(played, None)
        assert played.match_id is not None
        assert await raw.forecasts.respond(played.match_id, as_notice=True) is not None
        [(_, notice)] = await raw.due_notices()
        assert "forecast answers" in notice.reply.text and notice.reply.image is not None
        after = await service.state_of(750)
        assert after.played[-1].action == turns[1][0]
    finally:
        await raw.close()
