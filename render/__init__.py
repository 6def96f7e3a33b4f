"""The board picture posted after every action, its description, and game replays.

    render_board(state, events, perspective=…) -> RenderedBoard(png, alt_text)
    render_replay(record, last=…) -> GIF bytes (REPLAY_EXTENSION)
    alt_text(state, events) -> str (at most 1024 characters)

Pure and synchronous: the same input always gives the same bytes. The first
call per process draws and caches the empty board and the sprites (a fraction
of a second); after that a board costs a few milliseconds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.nika.board import City
from engine.nika.events import Event
from engine.nika.state import GameState
from render.board import compose
from render.description import alt_text
from render.encode import png_bytes
from render.replay import REPLAY_EXTENSION, REPLAY_MIME_TYPE, render_replay

BOARD_FILENAME = "nika-board.png"
REPLAY_FILENAME = f"nika-replay.{REPLAY_EXTENSION}"


@dataclass(frozen=True, slots=True)
class RenderedBoard:
    png: bytes
    alt_text: str


def render_board(state: GameState, events: Sequence[Event] = (), *, perspective: City | None = None) -> RenderedBoard:
    """The board after the action that produced `events` (highlighted), as PNG with alt text.

    `perspective` turns the board so that city's forward direction points up;
    None keeps north up.
    """
    return RenderedBoard(png_bytes(compose(state, events, perspective)), alt_text(state, events))


def warm_up(perspectives: Sequence[City | None] = (None,)) -> None:
    """Draw and cache everything a first board needs (about a second), e.g. at bot start-up,
    so that no player waits for it. Optional: rendering works the same without it."""
    for perspective in perspectives:
        render_board(GameState.start(), perspective=perspective)


__all__ = [
    "BOARD_FILENAME",
    "REPLAY_EXTENSION",
    "REPLAY_FILENAME",
    "REPLAY_MIME_TYPE",
    "RenderedBoard",
    "alt_text",
    "render_board",
    "render_replay",
    "warm_up",
]
