"""The alt text: the picture described for a screen reader (Discord allows 1024 characters).

Read in this order: the status, the last move, each side's pieces (square, shape, the
tile under it, whether it has moved) and captures, then the tiles rank by rank. If that
is too long, the pieces switch to a terser form and the tiles are dropped; only as a
last resort is the end cut.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.numica.board import COLOURS, TILE_WORDS, Colour, square_name, tile_text
from engine.numica.describe import describe_events
from engine.numica.events import Event, Moved
from engine.numica.position import Piece
from engine.numica.state import GameState
from render.numica.status import headline

LIMIT = 1024


def alt_text(state: GameState, events: Sequence[Event] = ()) -> str:
    head = [f"Numica board. {_status(state)}"]
    if any(isinstance(e, Moved) for e in events):
        head.append(f"Last move: {describe_events(events).split(' — ')[0]}.")
    tiles = f"Tiles, rank 8 down to rank 1, files a to h: {tile_text(state.position.tiles).replace('/', ', ')}."
    forms: list[tuple[Callable[[Piece, str], str], bool]] = [(_long, True), (_short, True), (_short, False)]
    for describe, with_tiles in forms:
        guide = (
            ["Each piece: its square, shape and the tile under it."]
            if describe is _long and not state.setting_up
            else []
        )
        parts = [*head, *guide, *_sides(state, describe)]
        if with_tiles or state.setting_up:
            parts.append(tiles)
        text = " ".join(parts)
        if len(text) <= LIMIT:
            return text
    return text[: LIMIT - 1].rstrip() + "…"


def _status(state: GameState) -> str:
    text, detail, _ = headline(state)
    if state.outcome is not None:
        return f"Game over: {text}{f', {detail}' if detail else ''}."
    if state.setting_up:
        return f"{text}, each in secret; then Red moves first. Red fills rank 1 and Blue rank 8."
    return f"{text}.{f' {detail[:1].upper()}{detail[1:]}.' if detail else ''}"


def _long(piece: Piece, symbol: str) -> str:
    tile = TILE_WORDS[symbol]
    moved = "" if piece.moved else ", not moved yet"
    return f"{square_name(piece.square)} {piece.shape.word} on {tile}{moved}"


def _short(piece: Piece, symbol: str) -> str:
    return f"{square_name(piece.square)} {piece.shape.word} {symbol}{'' if piece.moved else ' new'}"


def _sides(state: GameState, describe: Callable[[Piece, str], str]) -> list[str]:
    if state.setting_up:
        return []
    tiles = state.position.tiles
    lines = []
    for colour in COLOURS:
        pieces = [describe(p, tiles[p.square]) for p in state.position.pieces(colour)]
        square, round_ = state.captures(colour)
        listed = "; ".join(pieces) if pieces else "no pieces"
        lines.append(f"{colour.title} ({_count(len(pieces))}): {listed}. {_captured(colour, square, round_)}")
    if describe is _short:
        lines.append("(new: not moved yet.)")
    return lines


def _count(n: int) -> str:
    return f"{n} piece{'s' if n != 1 else ''}"


def _captured(colour: Colour, square: int, round_: int) -> str:
    return f"{colour.title} has captured {square} square, {round_} round."
