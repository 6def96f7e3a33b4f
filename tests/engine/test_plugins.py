"""Entry points are read straight from the installed packages' metadata (engine/plugins.py), for
a quicker start than importlib.metadata gives; what is found must be exactly what the standard
library finds, whatever the path holds."""

from __future__ import annotations

import importlib.metadata
import sys
from pathlib import Path

import pytest

from engine import plugins


def standard(group: str) -> dict[str, str]:
    return {point.name: point.value for point in importlib.metadata.entry_points(group=group)}


def read(group: str) -> dict[str, str]:
    return {point.name: point.value for point in plugins._declared(group)}


@pytest.mark.parametrize("group", plugins.GROUPS)
def test_the_installed_entry_points_are_the_standard_librarys(group: str) -> None:
    assert read(group) == standard(group) and read(group)


def install(folder: Path, package: str, text: str, name: str | None = None) -> None:
    info = folder / f"{package}-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name or package}\nVersion: 1.0\n\nabout\n")
    (info / "entry_points.txt").write_text(text)


def test_the_first_package_of_a_name_on_the_path_wins_and_sections_are_read_as_ini(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    declared = ("# a comment\n[console_scripts]\nchess = not_a_game:main\n\n"
                "[boardgame_host.games]\n  chess =  chess_pkg.game:GAME [extra]\n")  # fmt: skip
    install(tmp_path / "first", "chess_game", declared, name="chess-game")
    install(tmp_path / "second", "Chess.Game", "[boardgame_host.games]\nchess = elsewhere:GAME\n")
    install(tmp_path / "second", "go_game", "[boardgame_host.games]\ngo = go_pkg:GAME\n")
    monkeypatch.setattr(sys, "path", [str(tmp_path / "first"), str(tmp_path / "second"), *sys.path])
    expected = standard(plugins.GAMES)
    assert read(plugins.GAMES) == expected
    assert expected["chess"] == "chess_pkg.game:GAME [extra]" and expected["go"] == "go_pkg:GAME"
    chess = next(p for p in plugins._declared(plugins.GAMES) if p.name == "chess")
    assert (chess.module, chess.dist_name) == ("chess_pkg.game", "chess-game")


def test_a_zip_on_the_path_is_left_to_the_standard_library(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    archive = tmp_path / "packages.zip"
    archive.write_bytes(b"PK\x05\x06" + bytes(18))  # an empty zip archive
    monkeypatch.setattr(sys, "path", [*sys.path, str(archive)])
    points = plugins._declared(plugins.GAMES)
    assert {p.name: p.value for p in points} == standard(plugins.GAMES)
    assert all(p.info is None and p.dist_name for p in points)  # the standard library's answer


def test_an_entry_point_loads_what_it_names() -> None:
    point = plugins.EntryPoint("x", "engine.registry:get_game", plugins.GAMES)
    from engine.registry import get_game

    assert point.load() is get_game
    assert plugins.EntryPoint("x", "engine.registry", plugins.GAMES).load() is sys.modules["engine.registry"]
