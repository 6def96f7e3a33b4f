"""Smaller defects: long texts split to Discord's limits, values of the wrong type and forged
custom ids refused politely, and a claim during a draw offer refused at once."""

from __future__ import annotations

from typing import Any

import pytest

from bot.client import NikaBot
from bot.commands.dispatch import Invoker, OptionKind, OptionSpec, commands_for, dispatch
from bot.errors import ConfirmFirst, NotAllowed, ServiceError
from bot.service import MatchService
from tests.bot.conftest import ALICE, BOB, GUILD, seat
from tests.bot.discord_harness import TIMEOUT, Players
from tests.discord_double import DiscordDouble


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


# --- 10. values of the wrong type, forged custom ids ------------------------------------------------
WRONG: dict[OptionKind, list[Any]] = {
    OptionKind.TEXT: [10**30, 5, 1.5, [], {}, True, b"a1", ("a1",), object()],
    OptionKind.INTEGER: ["5", 1.5, [], {}, True, b"5", 10**30, object()],
    OptionKind.NUMBER: ["5", [], {}, True, b"5", float("nan"), object()],
    OptionKind.BOOLEAN: ["true", 1, 0, [], {}, b"1", object()],
    OptionKind.USER: ["11", 1.5, [], True, 2**70, object()],
    OptionKind.ATTACHMENT: [b"{}", 5, [], {}, object()],
}
STARTS = {"tictactoe": ("x", "o"), "nika": ("athens-messene", "sparta-thebes"), "numica": ("red", "blue"),
          "pikemen": ("red", "blue")}  # fmt: skip


def plausible(option: OptionSpec) -> Any:
    """A value of the option's own type, for the options around the wrong one."""
    if option.choices:
        return option.choices[0].value if option.kind is OptionKind.TEXT else int(option.choices[0].value)
    return {OptionKind.INTEGER: option.min_value or 1, OptionKind.NUMBER: 1.0, OptionKind.BOOLEAN: False,
            OptionKind.USER: ALICE}.get(option.kind, "a1")  # fmt: skip


async def test_values_of_the_wrong_type_are_refused_politely_for_every_option_of_every_command(
    service: MatchService,
) -> None:
    """What the issue found (`{"action": 10**30}`, `{"deadline": []}`) and every other option of
    every command of every game, each given values of every other type: a polite refusal, never
    an AttributeError or TypeError, and nothing written."""
    for channel, (game, (first, second)) in enumerate(STARTS.items(), start=1):
        await service.new_match(GUILD, channel, ALICE, first, game=game)
        await service.join(GUILD, channel, BOB, second)
        await service.start(GUILD, channel, ALICE)
    before = [(await service.state_of(c)).version for c in range(1, len(STARTS) + 1)]
    tried = 0
    for channel, game in enumerate(STARTS, start=1):
        who = Invoker(GUILD, channel, ALICE, rate_limited=False)
        for command in commands_for(game).values():
            for option in command.options:
                base = {o.name: plausible(o) for o in command.options if o.required and o is not option}
                for value in WRONG[option.kind]:
                    with pytest.raises(ServiceError) as refused:
                        await dispatch(service, who, game, command.name, {**base, option.name: value})
                    assert str(refused.value) and type(refused.value) is ServiceError, (command.name, option.name)
                    tried += 1
    assert tried > 700  # every option of every command of four games, several values each
    assert [(await service.state_of(c)).version for c in range(1, len(STARTS) + 1)] == before
    for options in ({"action": 10**30}, {"deadline": []}):  # the issue's own examples, word for word
        command = "play" if "action" in options else "new"
        with pytest.raises(ServiceError, match="must be text"):
            await dispatch(service, Invoker(GUILD, 9, ALICE), "nika", command, {"city": "athens-messene", **options})


FORGED = [
    ("pikemen:v:1", 3),  # Pikemen has no secret setup, so no setup menu
    ("tictactoe:u:1:1", 2),  # nor has tic-tac-toe a setup button
    ("chess:p:1:1:play", 2),  # a game this bot does not host
    ("chess:s:1:1:move", 3),
    ("chess:a:1:1:draw_accept", 2),
    ("chess:c:1:1:resign", 2),
    ("nika:p:99999999999999999999999:1:play", 2),  # past what the storage holds
    ("numica:a:1:99999999999999999999999:concede", 2),
]


@pytest.mark.parametrize(("custom_id", "kind"), FORGED, ids=[f for f, _ in FORGED])
async def test_a_forged_or_outdated_custom_id_gets_a_private_refusal(
    double: DiscordDouble, players: Players, bot: NikaBot, custom_id: str, kind: int
) -> None:
    """A message of the bot's carrying a button or menu the bot did not make (or no longer hosts):
    pressing it gets a private, polite refusal rather than Discord's "This interaction failed"."""
    component: dict[str, Any] = {"type": kind, "custom_id": custom_id}
    if kind == 2:
        component |= {"style": 1, "label": "Play"}
    else:
        component |= {"options": [{"label": "x", "value": "x"}]}
    old = double.create_message(double.channel, {"content": "an old board", "components": [
        {"type": 1, "components": [component]}]}, [], author=double.bot_user, source="channel")  # fmt: skip
    payload = double.component(players.alice, None, old.id, custom_id, values=["x"] if kind == 3 else None,
                               component_type=kind)  # fmt: skip
    record = await double.wait_for_interaction_response(await double.send_interaction(payload), timeout=TIMEOUT)
    [answer] = [m for m in double.messages.values() if m.interaction_id == record.id]
    assert answer.ephemeral
    assert answer.content.startswith("That button is not one this bot can use"), answer.content
