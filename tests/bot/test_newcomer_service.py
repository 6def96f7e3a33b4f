"""What a first-time player tripped over in the service's words and rules, each held here."""

from __future__ import annotations

import pytest

from bot.errors import ConfirmFirst, NotAllowed, ServiceError
from bot.service import MatchService
from engine.api import EndingKind
from tests.bot.conftest import ALICE, BOB, CAROL, DAVE, GUILD, seat

FOUR = {ALICE: "athens", BOB: "sparta", CAROL: "messene", DAVE: "thebes"}


async def test_declaring_for_the_other_team_asks_first_and_says_who_conceded(service: MatchService) -> None:
    await seat(service, 1, {ALICE: "athens-messene", BOB: "sparta-thebes"})
    with pytest.raises(ConfirmFirst, match="concedes the match for Athens–Messene"):
        await service.declare(1, ALICE, "sparta-thebes")
    assert (await service.state_of(1)).declaration is None  # nothing happened yet
    final = await service.declare(1, ALICE, "sparta-thebes")  # the same command again: confirmed
    assert f"Athens–Messene conceded (<@{ALICE}> declared Nika for Sparta–Thebes)" in final.text
    assert "**Sparta–Thebes won: Athens–Messene conceded.**" in final.text
    assert "Sparta–Thebes declared Nika" not in final.text  # they never did
    record = (await service.state_of(1)).record()
    assert record.entries[-1].ending is EndingKind.CONCESSION and record.entries[-1].seat == "athens"
    assert record.entries[-1].player == str(ALICE)


async def test_declaring_for_your_own_team_needs_no_confirmation(service: MatchService) -> None:
    await seat(service, 2, FOUR)
    declared = await service.declare(2, ALICE, "athens-messene")
    assert "declares **Nika** for Athens–Messene" in declared.text


async def test_resigning_and_conceding_ask_first(service: MatchService) -> None:
    await seat(service, 3, FOUR)
    with pytest.raises(ConfirmFirst, match="Resigning ends the match as a loss for Sparta–Thebes"):
        await service.resign(3, BOB)
    assert not (await service.state_of(3)).is_over
    await service.declare(3, ALICE, "athens-messene")
    with pytest.raises(ConfirmFirst, match="Conceding gives the match to Athens–Messene"):
        await service.concede(3, BOB)
    await service.concede(3, BOB)  # repeated within a minute: confirmed
    assert (await service.state_of(3)).declaration.conceded == {BOB}  # type: ignore[union-attr]


async def test_undo_gives_the_action_back_and_says_why_a_second_one_cannot(service: MatchService) -> None:
    await seat(service, 4, FOUR)
    await service.act(4, ALICE, "pass")
    await service.act(4, ALICE, "pass")
    await service.act(4, BOB, "move d7 s")
    undone = await service.undo(4, BOB)
    assert undone.text == (
        f"↩ <@{BOB}> took back the last action (Sparta moved d7 to d6).\nSparta to act (2 actions left) — <@{BOB}>"
    )
    assert "next" not in undone.text and "you hold" not in undone.text
    with pytest.raises(NotAllowed, match="only one action can be taken back"):
        await service.undo(4, BOB)


async def test_a_player_of_both_cities_is_told_whose_turn_it_is(service: MatchService) -> None:
    await seat(service, 5, {ALICE: "athens-messene", BOB: "sparta-thebes"})
    for action in ("pass", "pass"):
        await service.act(5, ALICE, action)
    with pytest.raises(ServiceError) as refused:
        await service.act(5, BOB, "move p7 w")  # Thebes' piece on Sparta's turn
    assert str(refused.value) == "it is Sparta's turn; p7 is Thebes' piece"


async def test_the_words_read_right(service: MatchService) -> None:
    await service.new_match(GUILD, 6, ALICE, "athens-messene", game="nika")
    with pytest.raises(NotAllowed, match=r"^Sparta and Thebes still need a player"):
        await service.start(6, ALICE)
    await service.join(6, BOB, "sparta")
    with pytest.raises(NotAllowed, match=r"^Thebes still needs a player"):
        await service.start(6, ALICE)
    await service.join(6, BOB, "thebes")
    await service.start(6, ALICE)
    for _ in range(8):
        user = (await service.state_of(6)).acting_user()
        reply = await service.act(6, user, "pass")
    status = await service.status(6)
    assert status.text.startswith("Match #1 is over. Draw: four city turns in a row passed both actions.")
    changed = await service.settings(GUILD, 7, ALICE, reminder_hours=6, server_default=True, can_manage=True)
    assert changed.text == "Matches on this server now remind after 6 h unless they say otherwise."
    del reply


async def test_a_draw_offer_says_what_to_type(service: MatchService) -> None:
    await seat(service, 8, FOUR)
    offer = await service.draw(8, ALICE, "offer")
    assert "/nika draw choice:accept or choice:decline" in offer.text


async def test_a_seat_of_a_larger_table_picks_that_table(service: MatchService) -> None:
    opened = await service.new_match(GUILD, 9, ALICE, "yellow", game="pikemen")
    assert "for 3 players" in opened.text and "took Yellow" in opened.text
