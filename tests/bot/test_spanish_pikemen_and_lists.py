"""Issue 23, points 12, 13 and 19 as a player meets them: Pikemen's Spanish compass letters,
`mygames` in Spanish, and a target of any number from 12 up to the points on the board."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.commands.dispatch import Invoker, autocomplete
from bot.console import Console
from bot.i18n import speaking
from bot.service import MatchService


async def session(service: MatchService, folder: Path, lines: list[str], locale: str = "es") -> list[str]:
    out: list[str] = []
    console = Console(service, folder / "boards", out=out.append, locale=locale)
    await console.load_names()
    for line in lines:
        assert await console.handle(line)
    return out


TWO = [
    "/pikemen nueva color:rojo jugadores:2", "as @bob", "/pikemen unirse color:azul", "as @alice", "/pikemen empezar",
]  # fmt: skip


@pytest.mark.parametrize(
    ("line", "played"),
    [
        ("/pikemen girar pieza:c6 orientación:o", "c6 w"),  # oeste
        ("/pikemen girar pieza:c6 orientación:no", "c6 nw"),  # noroeste
        ("/pikemen girar pieza:c6 orientación:so", "c6 sw"),  # suroeste
        ("/pikemen jugar acción:c6 no", "c6 nw"),
        ("/pikemen jugar acción:c6 noroeste", "c6 nw"),
    ],
)
async def test_pikemen_takes_the_spanish_compass_letters(
    service: MatchService, tmp_path: Path, line: str, played: str
) -> None:
    out = await session(service, tmp_path, [*TWO, line])
    assert not out[-1].startswith("✗"), out[-1]
    state = await service.state_of(1)
    assert [p.action for p in state.played] == [played]


async def test_a_wrong_orientation_names_the_spanish_letters(service: MatchService, tmp_path: Path) -> None:
    out = await session(service, tmp_path, [*TWO, "/pikemen jugar acción:c6 oso"])
    assert out[-1].startswith("✗ 'oso' no es una orientación: usa n, ne, e, se, s, so, o, no")


async def test_mygames_says_canal_in_spanish(service: MatchService, tmp_path: Path) -> None:
    out = await session(service, tmp_path, ["canal 3", *TWO, "/pikemen mis-partidas"])
    assert out[-1] == "**Te toca en:**\ncanal 3 — Pikemen: Turno de Rojo"
    english = await session(service, tmp_path, ["channel 3", "/pikemen mygames"], locale="en")
    assert english[-1] == "**Your turn in:**\nchannel 3 — Pikemen: Red to act"


@pytest.mark.parametrize(
    ("line", "reply"),
    [
        ("/pikemen nueva color:rojo objetivo:30", "(para 2 jugadores; objetivo 30)"),
        ("/pikemen nueva color:rojo jugadores:3 objetivo:48", "(para 3 jugadores; objetivo 48)"),
        ("/pikemen nueva color:rojo jugadores:4 objetivo:54", "(para 4 jugadores; objetivo 54)"),
        ("/pikemen nueva color:rojo objetivo:31",
         "✗ con 2 jugadores, el objetivo es como mucho 30 puntos (todos los del tablero salvo los tuyos)"),
        ("/pikemen nueva color:rojo objetivo:11", "✗ objetivo es un número entero de 12 a 54, p. ej. 12, 15, 20"),
    ],
)  # fmt: skip
async def test_any_target_up_to_the_points_on_the_board(
    service: MatchService, tmp_path: Path, line: str, reply: str
) -> None:
    out = await session(service, tmp_path, [line])
    assert reply in out[-1], out[-1]
    if not reply.startswith("✗"):
        assert (await service.state_of(1)).options["target"] == line.rsplit(":", 1)[1]
    else:
        assert await service.match_in(1) is None


async def test_the_target_offers_12_15_and_20_as_discord_autocomplete(service: MatchService) -> None:
    who = Invoker(1, 1, 5, locale="es")
    with speaking("es", "pikemen"):
        offered = await autocomplete(service, who, "pikemen", "new", "target", {"target": ""})
        assert [(s.value, s.label) for s in offered] == [("12", "12 puntos"), ("15", "15 puntos"), ("20", "20 puntos")]
        assert [s.value for s in await autocomplete(service, who, "pikemen", "new", "target", {"target": "2"})] == [
            "20", "12"
        ]  # fmt: skip
