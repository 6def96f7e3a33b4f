"""The host knows no single game: tic-tac-toe, a package of its own (tests/plugins/tictactoe,
found by its entry points), is played through the service and the console from `new` to a
win, a draw and a resignation, with nothing in bot/ naming it (tests/e2e/test_plugin_game.py
plays it on "Discord", with a computer seat, and in Spanish)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.console import Console
from bot.errors import IllegalMove, NotYourTurn
from bot.service import MatchService
from tests.bot.conftest import ALICE, BOB, GUILD

GAME = "tictactoe"


async def seat_two(service: MatchService, channel: int) -> None:
    await service.new_match(GUILD, channel, ALICE, "x", game=GAME)
    await service.join(channel, BOB, "o")
    await service.start(channel, ALICE)


async def test_a_game_to_a_win(service: MatchService) -> None:
    opened = await service.new_match(GUILD, 1, ALICE, "x", game=GAME)
    assert "opened a Tic-tac-toe match and took X" in opened.text
    await service.join(1, BOB, "o")
    started = await service.start(1, ALICE)
    assert started.mentions == (ALICE,) and started.image is not None
    with pytest.raises(NotYourTurn):
        await service.act(1, BOB, "a1")
    with pytest.raises(IllegalMove, match="not a square"):
        await service.act(1, ALICE, "z9")
    for user, square in [(ALICE, "a1"), (BOB, "b1"), (ALICE, "a2"), (BOB, "b2")]:
        reply = await service.act(1, user, square)
        assert reply.mentions == ((BOB,) if user == ALICE else (ALICE,))
    final = await service.act(1, ALICE, "a3")
    assert "X marked a3" in final.text and "X wins" in final.text
    assert set(final.mentions) == {ALICE, BOB}
    history = await service.history(1)
    assert "`  5` X marked a3 — X wins" in history.text
    table = {s.user_id: s for s in await service.standings(GUILD, GAME)}
    assert (table[ALICE].wins, table[BOB].losses) == (1, 1)


async def test_a_game_to_a_draw_and_one_to_a_resignation(service: MatchService) -> None:
    await seat_two(service, 2)
    moves = ["a1", "b1", "c1", "b2", "a2", "c2", "b3", "a3", "c3"]
    for number, square in enumerate(moves):
        reply = await service.act(2, ALICE if number % 2 == 0 else BOB, square)
    assert "A full board: drawn" in reply.text
    await seat_two(service, 3)
    await service.act(3, ALICE, "b2")
    resigned = await service.resign(3, BOB, confirmed=True)
    assert "O resigned" in resigned.text
    assert (await service.state_of(3)).game.outcome.winners == {"x"}
    draw = await seat_two(service, 4)
    del draw
    await service.draw(4, ALICE, "offer")
    agreed = await service.draw(4, BOB, "accept")
    assert "Drawn by agreement" in agreed.text


async def test_the_console_plays_any_registered_game(service: MatchService, tmp_path: Path) -> None:
    lines: list[str] = []
    console = Console(service, tmp_path / "boards", out=lines.append)
    await console.load_names()
    script = ["/tictactoe new seat:x", "as @bob", "/tictactoe join seat:o", "as @alice", "/tictactoe start"]
    script += ["/tictactoe play action:a1", "as @bob", "/tictactoe play action:b1", "as @alice"]
    script += ["/tictactoe play action:a2", "as @bob", "/tictactoe play action:b2", "as @alice"]
    script += ["/tictactoe play action:a3", "/tictactoe history"]
    for line in script:
        assert await console.handle(line)
    text = "\n".join(lines)
    assert "@alice opened a Tic-tac-toe match" in text and "X wins" in text
    assert "`  5` X marked a3 — X wins — @alice" in text
    assert len(list((tmp_path / "boards").glob("*.png"))) == 6  # the start and one per move
