"""Nika's board picture: the ring, the areas, hoplites with their facings, labelled trays of
routed pieces, a key, highlights of what happened (the last action here; every action since
the viewer's last turn, numbered, through the artist), and the status plaque."""

from __future__ import annotations

from collections.abc import Sequence

from engine.nika.board import City
from engine.nika.events import Event
from engine.nika.state import GameState
from render.api import RenderedBoard
from render.encode import png_bytes
from render.nika.board import compose
from render.nika.description import alt_text
from render.nika.palette import palette


def render_board(state: GameState, events: Sequence[Event] = (), *, perspective: City | None = None) -> RenderedBoard:
    """The board after the action that produced `events` (highlighted), as PNG with alt text.

    `perspective` turns the board so that city's forward direction points up;
    None keeps north up.
    """
    picture = compose(state, events, perspective, palette=palette())
    return RenderedBoard(png_bytes(picture), alt_text(state, events))


__all__ = ["RenderedBoard", "alt_text", "render_board"]
