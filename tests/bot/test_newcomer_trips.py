"""What a newcomer still tripped over (issue 23, points 3–8), for every hosted game: a moderator's
abort asks first, console refusals give console advice, refusals name the real problem, a
member who resigned is told they left, and the console's own oddities."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.commands.dispatch import Invoker, commands_for, dispatch
from bot.console import Console
from bot.errors import ConfirmFirst, NotInMatch
from bot.service import MatchService
from engine.registry import get_game, installed_slugs

GAMES = tuple(installed_slugs())
GUILD, ALICE, BOB, CAROL, MOD = 1, 11, 22, 33, 99


@pytest.fixture
async def quick(tmp_path: Path) -> AsyncIterator[MatchService]:
    """Console behaviour: one backend is enough (the storage tests run both)."""
    service = await MatchService.open(str(tmp_path / "console.db"))
    yield service
    await service.close()


def two_sides(game: str) -> tuple[str, str]:
    rules = get_game(game)
    sides = rules.sides(min(rules.player_counts))
    return sides[0].slug, sides[1].slug


async def console_with(service: MatchService, folder: Path) -> tuple[Console, list[str]]:
    lines: list[str] = []
    console = Console(service, folder / "boards", out=lines.append)
    await console.load_names()
    return console, lines


async def started_in_console(console: Console, game: str, channel: int) -> None:
    first, second = two_sides(game)
    word = get_game(game).seat_word
    for line in (f"channel {channel}", "as @alice", f"/{game} new {word}:{first}", "as @bob",
                 f"/{game} join {word}:{second}", f"/{game} start"):  # fmt: skip
        assert await console.handle(line)


# --- 3: every irreversible step asks first, moderators included --------------------------
@pytest.mark.parametrize("game", GAMES)
async def test_a_moderator_aborting_a_started_match_is_asked_then_confirms(service: MatchService, game: str) -> None:
    first, second = two_sides(game)
    await service.new_match(GUILD, 5, ALICE, first, game=game)
    await service.join(5, BOB, second)
    await service.start(5, ALICE)
    moderator = Invoker(GUILD, 5, MOD, can_manage=True)
    with pytest.raises(ConfirmFirst, match="Aborting ends this match for every player, unrated") as asked:
        await dispatch(service, moderator, game, "abort", {})
    assert asked.value.kind == "abort" and "Press Confirm" in str(asked.value)
    found = await service.match_in(5)
    assert found is not None and found[0].status == "active"  # nothing changed
    aborted = await dispatch(service, moderator, game, "abort", {})  # the same command again: confirmed
    assert "aborted the match. It is not rated." in aborted.text
    found = await service.match_in(5)
    assert found is not None and found[0].status == "aborted" and not found[0].rated
    # The Confirm button's path: confirmed at once.
    await service.new_match(GUILD, 6, ALICE, first, game=game)
    await service.join(6, BOB, second)
    await service.start(6, ALICE)
    assert "aborted" in (await service.abort(6, MOD, can_manage=True, confirmed=True)).text


def test_the_confirm_button_knows_abort() -> None:
    from bot.cogs.panel import CONFIRMS, ConfirmButton

    button = ConfirmButton(GAMES[0], 3, 7, "abort")
    assert button.item.custom_id == f"{GAMES[0]}:c:3:7:abort" and button.item.label == "Yes, abort"
    assert ConfirmButton.__discord_ui_compiled_template__.fullmatch(f"{GAMES[0]}:c:3:7:abort")  # type: ignore[attr-defined]
    assert "abort" in CONFIRMS


# --- 4: console refusals say what works in the console ----------------------------------
async def test_console_refusals_give_console_advice_for_every_game(quick: MatchService, tmp_path: Path) -> None:
    console, lines = await console_with(quick, tmp_path)
    for channel, game in enumerate(GAMES, start=1):
        await started_in_console(console, game, channel)
        assert await console.handle(f"/{game} new {get_game(game).seat_word}:{two_sides(game)[0]}")
        busy = lines[-1]
        assert busy.startswith("✗ this channel already has a match") and "`channel N`" in busy
        assert "thread" not in busy
        assert await console.handle("manage on") and await console.handle(f"/{game} abort")
        asked = lines[-1]
        assert asked.startswith("? Aborting ends this match") and "Press Confirm" not in asked
        assert asked.endswith("Send the same command again within a minute to confirm.")
        assert await console.handle(f"/{game} abort") and "aborted the match" in lines[-1]
        assert await console.handle("manage off")


# --- 5: refusals name the real problem ----------------------------------------------------
async def test_refusals_name_the_real_problem(quick: MatchService, tmp_path: Path) -> None:
    console, lines = await console_with(quick, tmp_path)
    for game in GAMES:
        for spec in commands_for(game).values():
            required = [o for o in spec.options if o.required and not o.choices]
            if spec.path and required:
                option = required[-1]
                assert await console.handle(f"/{game} {spec.name} {option.name}:")
                assert lines[-1].startswith(f"✗ {option.name}: is empty"), lines[-1]
    readme = tmp_path / "README.md"
    readme.write_text("# A project\n\nNot a record at all.\n")
    word = get_game(GAMES[0]).seat_word
    side = two_sides(GAMES[0])[0]
    assert await console.handle(f"/{GAMES[0]} new {word}:{side} record:{readme}")
    assert lines[-1].startswith("✗ 'README.md' is not a game record"), lines[-1]
    assert await console.handle(f"/{GAMES[0]} new {word}:{side} record:/tmp")
    assert lines[-1] == "✗ '/tmp' is a folder: name a game record file in it"
    assert await console.handle(f"/{GAMES[0]} new {word}:{side} record:")
    assert lines[-1].startswith("✗ record: is empty"), lines[-1]
    assert await quick.match_in(1) is None  # nothing was opened


# --- 6: a member who resigned is told they left -----------------------------------------
async def test_a_member_who_resigned_is_told_they_left(service: MatchService) -> None:
    tested = 0
    for game in GAMES:
        rules = get_game(game)
        players = max(rules.player_counts)
        sides = rules.sides(players)
        if len(sides) < 3:
            continue  # resigning ends a two-sided match
        channel = 10 + tested
        users = [ALICE, BOB, CAROL, 44][: len(sides)]
        await service.new_match(GUILD, channel, users[0], sides[0].slug, game=game, players=players)
        for user, side in zip(users[1:], sides[1:], strict=True):
            await service.join(channel, user, side.slug)
        await service.start(channel, users[0])
        state = await service.state_of(channel)
        waiting = next(u for u in users if u != state.acting_user())
        await service.resign(channel, waiting, confirmed=True)
        state = await service.state_of(channel)
        assert not state.is_over
        action = rules.legal_actions(state.game)[0].notation()
        with pytest.raises(NotInMatch, match=r"you have left this match \(.* is out of the game\)"):
            await service.act(channel, waiting, action)
        found = await service.match_in(channel)
        assert found is not None
        with pytest.raises(NotInMatch, match="you have left this match"):  # the buttons under the board
            await service.panel_actions(channel, found[0].id, state.board_version, waiting)
        tested += 1
    assert tested >= 1


# --- 8: console oddities ------------------------------------------------------------------
async def test_console_oddities(quick: MatchService, tmp_path: Path) -> None:
    console, lines = await console_with(quick, tmp_path)
    assert await console.handle("channel 1234567890123456789")  # a real Discord channel id
    assert lines[-1] == "now in channel #1234567890123456789" and console.channel == 1234567890123456789
    assert await console.handle("channel 99999999999999999999")
    assert lines[-1].startswith("✗ channel takes a channel's number")
    assert console.channel == 1234567890123456789
    assert await console.handle("manage")  # alone: says which it is, switches nothing
    assert lines[-1] == "Manage Channels is off for @alice (manage on|off switches it)" and not console.can_manage
    assert await console.handle("manage on") and console.can_manage
    assert await console.handle("manage")
    assert lines[-1].startswith("Manage Channels is on for @alice") and console.can_manage
    assert await console.handle("manage maybe")
    assert lines[-1] == "✗ manage takes on or off, like manage on" and console.can_manage
    assert await console.handle("as @Zoë") and await console.handle("as @zoë") and await console.handle("as @ZOË")
    assert lines[-1] == "now acting as @Zoë" and console.user == "Zoë"
    assert await console.handle("as @Zoe\u0308")  # the same name, its letter written as e + a combining mark
    assert console.user == "Zoë"
    assert await console.completions("as @z") == ["@Zoë "]
