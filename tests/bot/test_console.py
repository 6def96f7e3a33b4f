"""The local console drives the same commands and service as the bot."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from bot.console import Console, parse_command
from bot.errors import ServiceError
from bot.service import MatchService


def test_commands_parse_like_slash_commands() -> None:
    assert parse_command("/nika move piece:j6 direction:w") == ("nika", "move", [("piece", "j6"), ("direction", "w")])
    assert parse_command("/nika play action:advance j4, j5, j6") == ("nika", "play", [("action", "advance j4, j5, j6")])
    assert parse_command("/nika pass") == ("nika", "pass", [])
    with pytest.raises(ServiceError, match="start with a game: /nika"):
        parse_command("/chess move e4")
    with pytest.raises(ServiceError, match="name:value"):
        parse_command("/nika move j6 w")


async def test_a_console_session_plays_and_writes_boards(service: MatchService, tmp_path: Path) -> None:
    lines: list[str] = []
    console = Console(service, tmp_path / "boards", out=lines.append)
    script = [
        "/nika new city:athens-messene",
        "as @bob",
        "/nika join city:sparta-thebes",
        "/nika start",
        "/nika pass",  # bob is not Athens
        "as @alice",
        "/nika move piece:j6 direction:w",
        "/nika play action:advance k4,k5",
    ]
    for line in script:
        assert await console.handle(line)
    text = "\n".join(lines)
    assert "@alice opened a Nika match" in text
    assert "✗ it is Athens' turn (@alice plays it)" in text
    assert "Athens moved j6 to i6" in text
    assert "Sparta to act (2 actions left) — @bob" in text
    boards = sorted((tmp_path / "boards").glob("*.png"))
    assert len(boards) == 3  # the start, and one per action
    assert Image.open(boards[-1]).size[0] >= 1000
    assert not await console.handle("quit")
