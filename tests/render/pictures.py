"""Helpers for looking at rendered boards: decode, read pixels, build states from notation."""

from __future__ import annotations

import io

from PIL import Image

from engine.nika.actions import parse_action
from engine.nika.board import City, Square, parse_square_name
from engine.nika.events import Event
from engine.nika.state import GameState
from render import render_state
from render.nika import colours as C
from render.nika import render_board
from render.nika.layout import SCREEN_STEP, layout_for
from render.nika.sprites import TOKEN_BACKSET

RGB = tuple[int, int, int]


def sq(name: str) -> Square:
    found = parse_square_name(name)
    assert found is not None, name
    return found


def play(notation: str, *actions: str) -> tuple[GameState, list[Event]]:
    """The state after `actions` from a position, with the events of the last one."""
    state = GameState.start() if notation == "start" else GameState.from_notation(notation)
    events: list[Event] = []
    for action in actions:
        state, events = state.apply(parse_action(action))
    return state, events


def play_all(notation: str, *actions: str) -> tuple[GameState, list[list[Event]]]:
    """The state after `actions`, with every action's events, oldest first: what the host
    passes as the recent actions when a player comes back."""
    state = GameState.start() if notation == "start" else GameState.from_notation(notation)
    recent: list[list[Event]] = []
    for action in actions:
        state, events = state.apply(parse_action(action))
        recent.append(events)
    return state, recent


def decode(png: bytes) -> Image.Image:
    with Image.open(io.BytesIO(png)) as image:
        return image.convert("RGB")


def board_image(state: GameState, events: list[Event] | tuple[()] = (), perspective: City | None = None) -> Image.Image:
    return decode(render_board(state, events, perspective=perspective).png)


def recent_image(state: GameState, recent: list[list[Event]], perspective: City | None = None) -> Image.Image:
    """The board as the host gets it, with several recent actions."""
    seat = perspective.name.lower() if perspective is not None else None
    return decode(render_state("nika", state, recent, perspective=seat).png)


def pixel(image: Image.Image, point: tuple[float, float]) -> RGB:
    value = image.getpixel((round(point[0]), round(point[1])))
    assert isinstance(value, tuple)
    return (value[0], value[1], value[2])


def close(a: RGB, b: RGB, tolerance: int = 12) -> bool:
    return max(abs(x - y) for x, y in zip(a, b, strict=True)) <= tolerance


def facing_probes(square: Square, screen_direction: int, perspective: City | None) -> dict[str, tuple[float, float]]:
    """Points on a token's shield: on its spearhead near the tip (bronze), and behind and beside
    the spearhead, clear of the city's sign (the city colour)."""
    x, y = layout_for(perspective).center(square)
    dx, dy = SCREEN_STEP[screen_direction]
    cx, cy = x - dx * TOKEN_BACKSET, y - dy * TOKEN_BACKSET  # the disc sits back from the centre

    def at(ahead: float, across: float) -> tuple[float, float]:  # across: to the token's right
        return (cx + ahead * dx - across * dy, cy + ahead * dy + across * dx)

    # Behind: in the notch between the barbs; beside: past the barbs' tips (the sign lies behind both).
    return {"front": at(14, 3.5), "back": at(-3.5, 0), "left": at(-2.5, -17.5), "right": at(-2.5, 17.5)}


def shows_facing(
    image: Image.Image, city: City, square: Square, screen_direction: int, perspective: City | None
) -> bool:
    probes = facing_probes(square, screen_direction, perspective)
    return close(pixel(image, probes["front"]), C.BRONZE) and all(
        close(pixel(image, probes[side]), C.CITY[city]) for side in ("back", "left", "right")
    )
