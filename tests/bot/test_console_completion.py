"""Tab in the console completes option values with what is legal now, exactly as Discord's
autocomplete offers them, from the same code (issue 23, point 2), for every hosted game.

`Console.completions(line)` is what Tab calls: given the line typed so far, the candidates for
its last word, each whole (`to:c4 `)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import discord
import pytest
from discord.gateway import DiscordWebSocket

from bot.client import BoardGameBot
from bot.commands.dispatch import commands_for
from bot.console import Console
from bot.service import MatchService
from engine.registry import get_game, installed_slugs
from tests.bot.discord_harness import TOKEN, Players, service_of, slash, suggest
from tests.discord_double import DiscordDouble

GAMES = tuple(installed_slugs())


@pytest.fixture
async def double(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[DiscordDouble]:
    """A channel for each hosted game (the conftest's double has two)."""
    async with DiscordDouble(token=TOKEN, channel_names=GAMES) as fake:
        monkeypatch.setattr(discord.http.Route, "BASE", fake.base_url)
        monkeypatch.setattr(DiscordWebSocket, "DEFAULT_GATEWAY", DiscordWebSocket.DEFAULT_GATEWAY)
        yield fake
        assert fake.internal_errors == []
        assert fake.unknown_requests == []


@pytest.fixture
async def quick(tmp_path: Path) -> AsyncIterator[MatchService]:
    service = await MatchService.open(str(tmp_path / "console.db"))
    yield service
    await service.close()


def two_seats(game: str) -> tuple[str, str]:
    """The two seats of the game's two-player table (a whole team each, where sides are teams)."""
    rules = get_game(game)
    sides = rules.sides(min(rules.player_counts))
    return sides[0].slug, sides[1].slug


def values(candidates: list[str]) -> list[str]:
    """`to:c4 ` → `c4`."""
    return [c.partition(":")[2].rstrip(" ") for c in candidates]


async def test_tab_offers_what_discord_autocomplete_offers_for_every_game(
    double: DiscordDouble, bot: BoardGameBot, players: Players, tmp_path: Path
) -> None:
    service = service_of(bot)
    alice, bob = players.alice, players.bob
    compared = 0
    for game in GAMES:
        channel = double.channel_named(game)
        rules = get_game(game)
        first, second = two_seats(game)
        await slash(double, alice, "new", {rules.seat_word: first}, channel=channel, group=game)
        await slash(double, bob, "join", {rules.seat_word: second}, channel=channel, group=game)
        started = await slash(double, alice, "start", channel=channel, group=game)
        assert not started.ephemeral, started.content

        console = Console(service, tmp_path / "boards", out=lambda _: None)
        console.channel = channel.id
        console._know("alice", alice.id)
        console._know("bob", bob.id)
        console.user = "alice"
        assert await console.completions(f"/{game} join computer:") == [
            f"computer:{c.value} " for c in commands_for(game)["join"].option("computer").choices  # type: ignore[union-attr]
        ]
        state = await service.state_of(channel.id)
        for user, name in ((alice, "alice"), (bob, "bob")):  # secret setups, chosen from what Tab offers
            if any(state.seats.get(s) == user.id for s in state.setup_pending()):
                console.user = name
                offered = values(await console.completions(f"/{game} setup choice:"))
                assert offered == await suggest(double, user, "setup", {"choice": ""}, "choice", channel, game)
                await slash(double, user, "setup", {"choice": offered[0]}, channel=channel, group=game)
                state = await service.state_of(channel.id)

        acting = alice if state.acting_user() == alice.id else bob
        console.user = "alice" if acting is alice else "bob"
        for spec in commands_for(game).values():
            suggested = [o for o in spec.options if o.autocomplete]
            if not suggested or (not spec.path and spec.name != "play"):
                continue  # a command with nothing to choose (pass), or no action at all
            first = suggested[0].name
            discord_offers = await suggest(double, acting, spec.name, {first: ""}, first, channel, game)
            tab_offers = values(await console.completions(f"/{game} {spec.name} {first}:"))
            assert tab_offers == discord_offers, (game, spec.name)
            compared += 1
            if discord_offers and len(suggested) > 1:  # the next option follows the value chosen
                second = suggested[1].name
                filled = {first: discord_offers[0], second: ""}
                discord_next = await suggest(double, acting, spec.name, filled, second, channel, game)
                line = f"/{game} {spec.name} {first}:{discord_offers[0]} {second}:"
                assert values(await console.completions(line)) == discord_next, (game, spec.name)
                assert discord_next, (game, spec.name)  # a piece offered has somewhere to go
        # Whoever is not to act is offered nothing, on Discord and at the console alike.
        console.user = "bob" if acting is alice else "alice"
        assert await console.completions(f"/{game} play action:") == []
    assert compared >= 2 * len(GAMES)


async def tab_through(console: Console, line: str) -> str:
    """Press Tab after each required option name, taking the first value offered."""
    game, name = line.split()[0].lstrip("/"), line.split()[1]
    spec = commands_for(game)[name]
    for option in spec.options:
        if not option.required:
            continue
        offered = await console.completions(f"{line} {option.name}:")
        assert offered, (line, option.name)
        line = f"{line} {offered[0].rstrip()}"
    return line


@pytest.mark.parametrize("game", GAMES)
async def test_tab_alone_opens_seats_sets_up_and_plays_a_legal_action(quick: MatchService, tmp_path: Path,
                                                                      game: str) -> None:  # fmt: skip
    """A newcomer who only presses Tab: the values it fills in are accepted at every step."""
    lines: list[str] = []
    console = Console(quick, tmp_path / "boards", out=lines.append)
    await console.load_names()
    word = get_game(game).seat_word
    first, second = two_seats(game)
    assert {first, second} <= set(values(await console.completions(f"/{game} new {word}:")))
    assert await console.handle(f"/{game} new {word}:{first}")
    assert await console.handle("as @bob")
    await console.handle(f"/{game} join {word}:{second}")
    await console.handle(f"/{game} start")
    state = await quick.state_of(1)
    assert state.rules.to_act(state.game) is not None or state.in_setup(), lines[-3:]
    for name in ("alice", "bob"):
        if any(state.seats.get(s) == console.ids[name] for s in state.setup_pending()):
            await console.handle(f"as @{name}")
            await console.handle(await tab_through(console, f"/{game} setup"))
            assert not lines[-1].startswith("✗"), lines[-1]
    state = await quick.state_of(1)
    await console.handle(f"as @{console.names[state.acting_user() or 0]}")
    before = state.version
    for spec in commands_for(game).values():
        first = next((o for o in spec.options if o.autocomplete), None)
        if first is None or not (spec.path or spec.name == "play"):
            continue
        if await console.completions(f"/{game} {spec.name} {first.name}:"):
            await console.handle(await tab_through(console, f"/{game} {spec.name}"))
            assert not lines[-1].startswith("✗"), lines[-4:]
            break
    assert (await quick.state_of(1)).version == before + 1


async def test_tab_completes_console_words_members_switches_and_choices(quick: MatchService, tmp_path: Path) -> None:
    console = Console(quick, tmp_path / "boards", out=lambda _: None)
    await console.load_names()
    await console.handle("as @Zoë")
    words = ["as ", "channel ", "manage ", "wait ", "help", "quit"]
    assert await console.completions("") == [*words, *(f"/{g} " for g in GAMES), "/tournament "]
    assert await console.completions("as ") == ["@alice ", "@Zoë "]
    assert await console.completions("as @z") == ["@Zoë "]
    assert await console.completions("manage ") == ["on", "off"]
    game = GAMES[0]
    assert await console.completions(f"/{game} new thread:") == ["thread:on ", "thread:off "]
    assert await console.completions(f"/{game} stats user:@a") == ["user:@alice "]
    deadline = await console.completions(f"/{game} new deadline:")
    assert deadline == ["deadline:none ", "deadline:1 ", "deadline:2 ", "deadline:3 ", "deadline:7 "]
    assert await console.completions(f"/{game} new deadline:7") == ["deadline:7 "]
    # No match here: the options Discord autocompletes offer nothing, and nothing breaks.
    assert await console.completions(f"/{game} play action:") == []
    assert await console.completions(f"/{game} nosuchcommand x:") == []
    assert await console.completions("/nosuchgame ") == []


async def test_tab_completes_tournament_commands_options_and_choices(quick: MatchService, tmp_path: Path) -> None:
    """`/tournament` in the console: its commands, their options, the choices (games, formats),
    and `match:` the open matches of the channel, where an event's games share it."""
    console = Console(quick, tmp_path / "boards", out=lambda _: None)
    await console.load_names()
    assert "/tournament " in await console.completions("/t")
    assert await console.completions("/tournament st") == ["start ", "standings "]
    assert "format:" in await console.completions("/tournament new f")
    assert await console.completions("/tournament new format:s") == ["format:swiss "]
    assert sorted(await console.completions("/tournament join game:")) == sorted(f"game:{g} " for g in GAMES)
    assert await console.completions("/tournament frobnicate ") == []
    assert await console.completions("/tournament board nosuch:") == []
    assert await console.completions("/tournament board match:") == []  # no match here yet
    for line in ("as @alice", "/tournament new game:numica format:round-robin", "as @bob",
                 "/tournament join game:numica", "as @carol", "/tournament join game:numica", "as @dave",
                 "/tournament join game:numica", "as @alice", "/tournament start game:numica"):  # fmt: skip
        assert await console.handle(line)
    offered = await console.completions("/tournament board game:numica match:")
    assert len(offered) == 2 and all(o.startswith("match:") for o in offered)
    assert await console.handle(f"/tournament board game:numica {offered[0].strip()}")


def test_tab_in_a_real_terminal_completes_a_value(tmp_path: Path) -> None:
    """Through readline on the console's reading thread, with the candidates from its event loop."""
    import os

    from tests.bot.test_console_newcomer import _console_process, _drain, _read_until

    process, fd = _console_process(tmp_path)
    try:
        _read_until(fd, b"alice@#1> ")
        os.write(fd, f"/{GAMES[0]} join computer:ha\t".encode())
        _read_until(fd, b"computer:hard ")  # readline wrote the rest of the value
        os.write(fd, b"\x15quit\r")  # Ctrl-U clears the line
        assert process.wait(timeout=20) == 0
        assert b"Traceback" not in _drain(fd, process)
    finally:
        process.kill()
        os.close(fd)
