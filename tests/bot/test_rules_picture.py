"""`/<game> rules` shows its example as a rules picture, not as a live board: titled as one, in
the reader's language, and in a file not named like a board."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.commands.dispatch import Invoker, dispatch
from bot.i18n import speaking
from bot.service import MatchService
from tests.bot.conftest import ALICE, GUILD


@pytest.mark.parametrize("game", ["nika", "numica", "pikemen"])
@pytest.mark.parametrize(("locale", "title"), [("en", "Rules: an example. "), ("es", "Reglas: un ejemplo. ")])
async def test_the_rules_picture_is_titled_and_named_as_one(
    service: MatchService, game: str, locale: str, title: str
) -> None:
    with speaking(locale):  # as the cog does, from the member's Discord language
        reply = await dispatch(service, Invoker(GUILD, 90, ALICE, locale=locale), game, "rules", {})
    assert reply.image is not None
    assert reply.image.filename == f"{game}-rules-example.png"
    assert reply.image.description.startswith(title)
    said = reply.image.description
    assert not any(turn in said for turn in (" to act", " to move", "Turno de", "Mueve ", "Le toca"))
    with Image.open(io.BytesIO(reply.image.data)) as picture:
        assert picture.format == "PNG" and picture.width >= 700
