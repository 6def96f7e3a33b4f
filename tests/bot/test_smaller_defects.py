"""Smaller defects: long texts split to Discord's limits, values of the wrong type and forged
custom ids refused politely, and a claim during a draw offer refused at once."""

from __future__ import annotations

import pytest

from bot.commands.dispatch import Invoker, dispatch
from bot.errors import ConfirmFirst, NotAllowed
from bot.service import MatchService
from tests.bot.conftest import ALICE, BOB, GUILD, seat


# --- 12. a claim while a draw is on offer --------------------------------------------------------
async def test_a_claim_while_a_draw_is_on_offer_is_refused_at_once_not_after_confirming(
    service: MatchService,
) -> None:
    await seat(service, 1, {ALICE: "athens-messene", BOB: "sparta-thebes"})
    await service.draw(GUILD, 1, ALICE, "offer")
    before = await service.state_of(1)
    for side in ("athens-messene", "sparta-thebes"):  # for the other side (asks first), or one's own
        with pytest.raises(NotAllowed, match="already offered a draw: accept or decline it") as refused:
            await dispatch(service, Invoker(GUILD, 1, BOB), "nika", "declare", {"team": side})
        assert not isinstance(refused.value, ConfirmFirst)
    assert (await service.state_of(1)).version == before.version  # nothing was written
