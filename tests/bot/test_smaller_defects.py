"""Smaller defects: long texts split to Discord's limits, values of the wrong type and forged
custom ids refused politely, and a claim during a draw offer refused at once."""

from __future__ import annotations

from typing import Any

import pytest

from bot.client import BoardGameBot
from bot.cogs.posting import MESSAGE_LIMIT, pages
from bot.commands.dispatch import CommandOption, Invoker, OptionKind, commands_for, dispatch
from bot.errors import ConfirmFirst, NotAllowed, ServiceError
from bot.i18n import speaking
from bot.service import MatchService
from engine.registry import games
from render.words import LANGUAGES
from tests.bot.conftest import ALICE, BOB, GUILD, seat
from tests.bot.discord_harness import TIMEOUT, Players, service_of
from tests.discord_double import DiscordDouble


# --- 12. a claim while a draw is on offer --------------------------------------------------------
async def test_a_claim_while_a_draw_is_on_offer_is_refused_at_once_not_after_confirming(
    service: MatchService,
) -> None:
    await seat(service, 1, {ALICE: "athens-messene", BOB: "sparta-thebes"})
    await service.draw(1, ALICE, "offer")
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


def plausible(option: CommandOption) -> Any:
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
        await service.join(channel, BOB, second)
        await service.start(channel, ALICE)
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
    double: DiscordDouble, players: Players, bot: BoardGameBot, custom_id: str, kind: int
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


# --- 9. texts past Discord's limits are split, never cut ------------------------------------------
async def test_every_help_and_rules_text_of_every_game_in_every_language_fits_discords_limits(
    service: MatchService,
) -> None:
    checked = []
    for game in games():
        for language in LANGUAGES:
            for command in ("help", "rules"):
                with speaking(language):
                    reply = await dispatch(service, Invoker(GUILD, 1, ALICE, locale=language), game.slug, command, {})
                split = pages(reply.text)
                assert all(0 < len(page) <= MESSAGE_LIMIT for page in split), (game.slug, language, command)
                assert "\n".join(split) == reply.text  # nothing cut
                checked.append((game.slug, language, command, len(split)))
    assert len(checked) == len(games()) * len(LANGUAGES) * 2
    assert ("pikemen", "es", "help", 2) in checked  # the 2,244 characters the issue found


def test_pages_split_between_paragraphs_then_lines_then_words_and_never_inside_a_mention() -> None:
    paragraphs = "\n\n".join(f"paragraph {n} " + "word " * 150 for n in range(6))
    lines = "\n".join(f"<@{10**17 + n}> " + "x" * 90 for n in range(60))
    words = " ".join(f"<@{10**17 + n}>" for n in range(300))
    for text in (paragraphs, lines, words, "short"):
        split = pages(text)
        assert all(len(page) <= MESSAGE_LIMIT for page in split)
        joined = "\n".join(split) if text is not words else " ".join(split)
        assert joined == text
        assert all(page.count("<@") == page.count(">") for page in split)  # no mention split
    assert len(pages(paragraphs)) == 3 and pages("short") == ["short"]  # two paragraphs a page


async def test_spanish_pikemen_help_reaches_the_player_whole_in_two_messages(
    double: DiscordDouble, players: Players, bot: BoardGameBot
) -> None:
    payload = double.slash_command(players.alice, None, "pikemen", "help", locale="es-ES")
    interaction = await double.send_interaction(payload)
    await double.wait_for_interaction_response(interaction, timeout=TIMEOUT)
    await double.wait_for_followups(interaction, 1, timeout=TIMEOUT)
    shown = sorted((m for m in double.messages.values() if m.interaction_id == interaction), key=lambda m: m.id)
    assert [m.ephemeral for m in shown] == [True, True]
    with speaking("es"):
        whole = (await dispatch(service_of(bot), Invoker(GUILD, 1, ALICE, locale="es"), "pikemen", "help", {})).text
    assert len(whole) > MESSAGE_LIMIT and "\n".join(m.content for m in shown) == whole
