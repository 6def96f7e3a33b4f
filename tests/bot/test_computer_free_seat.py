"""`/<game> join computer:easy` with no seat named seats the computer in the free seat, the first
free one in seat order when several are (issue 23, point 1); a member must still name theirs."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.console import Console
from bot.service import MatchService


async def session(service: MatchService, folder: Path, lines: list[str], locale: str = "en") -> list[str]:
    out: list[str] = []
    console = Console(service, folder / "boards", out=out.append, locale=locale)
    await console.load_names()
    for line in lines:
        assert await console.handle(line)
    return out


@pytest.mark.parametrize(
    ("opening", "computer"),
    [
        ("/numica new side:red", {"blue"}),
        ("/numica new side:blue", {"red"}),
        ("/tictactoe new seat:x", {"o"}),
        # A member holding a whole team: the computer takes the other team, both its cities.
        ("/nika new city:athens-messene", {"sparta", "thebes"}),
        # One city each: the first free city in seat order.
        ("/nika new city:athens", {"sparta"}),
        ("/pikemen new seat:red players:4", {"yellow"}),
        ("/pikemen new seat:yellow players:3", {"red"}),
    ],
)
async def test_join_computer_without_a_seat_takes_the_first_free_one(
    service: MatchService, tmp_path: Path, opening: str, computer: set[str]
) -> None:
    game = opening.split()[0]
    out = await session(service, tmp_path, [opening, f"{game} join computer:easy"])
    assert not out[-1].startswith("✗"), out
    state = await service.state_of(1)
    assert state.computers == {seat: "easy" for seat in computer}


async def test_the_computer_fills_the_table_seat_by_seat_then_is_refused(service: MatchService, tmp_path: Path) -> None:
    lines = ["/pikemen new seat:green players:4", *["/pikemen join computer:normal"] * 4, "/pikemen start"]
    out = await session(service, tmp_path, lines)
    assert out[4] == "✗ every seat is taken"
    state = await service.state_of(1)
    assert state.computers == {"red": "normal", "yellow": "normal", "blue": "normal"}
    assert "The match begins!" in out[5]


async def test_a_named_seat_still_decides_and_a_member_must_name_theirs(service: MatchService, tmp_path: Path) -> None:
    out = await session(service, tmp_path, [
        "/pikemen new seat:red players:4", "/pikemen join seat:blue computer:hard", "as @bob", "/pikemen join",
    ])  # fmt: skip
    assert (await service.state_of(1)).computers == {"blue": "hard"}
    assert out[-1] == "✗ /pikemen join needs the seat option, one of: red, yellow, green, blue"


async def test_only_the_creator_seats_the_computer_without_a_seat_too(service: MatchService, tmp_path: Path) -> None:
    out = await session(service, tmp_path, ["/numica new side:red", "as @bob", "/numica join computer:easy"])
    assert out[-1] == "✗ only the match's creator can seat the computer"
    assert (await service.state_of(1)).computers == {}


async def test_in_spanish_too(service: MatchService, tmp_path: Path) -> None:
    out = await session(service, tmp_path, ["/nika nueva ciudad:tebas", "/nika unirse máquina:fácil"], locale="es")
    assert out[-1].startswith("Atenas: máquina (fácil).")
    assert (await service.state_of(1)).computers == {"athens": "easy"}
