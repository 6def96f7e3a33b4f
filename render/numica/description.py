"""The alt text: the picture described for a screen reader (Discord allows 1024 characters),
in the active language.

Read in this order: the status, the last move, each side's pieces (square, shape, the
tile under it, whether it has moved) and captures, then the tiles rank by rank. If that
is too long, the pieces switch to a terser form and the tiles are dropped; only as a
last resort is the end cut.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.i18n import M, Message, P
from engine.numica.board import COLOURS, TILE_WORDS, Colour, square_name, tile_text
from engine.numica.describe import describe_move
from engine.numica.events import Event
from engine.numica.position import Piece
from engine.numica.state import GameState
from render.numica.status import headline

LIMIT = 1024


def alt_text(state: GameState, events: Sequence[Event] = (), *, live: bool = True) -> str:
    """Not `live` (a rules example): whose move it is goes unsaid."""
    status = _status(state) if live or state.outcome else ""
    head = [str(M("Numica board. {status}", status=status)).rstrip()]
    move = describe_move(events)
    if move is not None:
        head.append(str(M("Last move: {move}.", move=move)))
    tiles = str(
        M(
            "Tiles, rank 8 down to rank 1, files a to h: {tiles}.",
            tiles=tile_text(state.position.tiles).replace("/", ", "),
        )
    )
    forms: list[tuple[Callable[[Piece, str], Message], bool]] = [(_long, True), (_short, True), (_short, False)]
    for describe, with_tiles in forms:
        guide = (
            [str(M("Each piece: its square, shape and the tile under it."))]
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


def _status(state: GameState) -> str | Message:
    text, detail, _ = headline(state)
    if state.outcome is not None:
        if detail:
            return M("Game over: {result}, {detail}.", result=text, detail=detail)
        return M("Game over: {result}.", result=text)
    if state.setting_up:
        return M(
            "Both sides are arranging their back rows, each in secret; then Red moves first. "
            "Red fills rank 1 and Blue rank 8."
        )
    return f"{text}. {detail[:1].upper()}{detail[1:]}." if detail else f"{text}."


def _long(piece: Piece, symbol: str) -> Message:
    at, shape, tile = square_name(piece.square), piece.shape.term, TILE_WORDS[symbol]
    if piece.moved:
        return M("{at} {shape} on {tile}", at=at, shape=shape, tile=tile)
    return M("{at} {shape} on {tile}, not moved yet", at=at, shape=shape, tile=tile)


def _short(piece: Piece, symbol: str) -> Message:
    at, shape = square_name(piece.square), piece.shape.term
    if piece.moved:
        return M("{at} {shape} {tile}", at=at, shape=shape, tile=symbol)
    return M("{at} {shape} {tile} new", at=at, shape=shape, tile=symbol)


def _sides(state: GameState, describe: Callable[[Piece, str], Message]) -> list[str]:
    if state.setting_up:
        return []
    tiles = state.position.tiles
    lines = []
    for colour in COLOURS:
        pieces = [str(describe(p, tiles[p.square])) for p in state.position.pieces(colour)]
        listed = "; ".join(pieces) if pieces else M("no pieces")
        line = P("{side} ({count} piece): {listed}.", "{side} ({count} pieces): {listed}.", count=len(pieces),
                 side=colour.term, listed=listed)  # fmt: skip
        lines.append(str(line))
        lines.append(_captured(colour, *state.captures(colour)))
    if describe is _short:
        lines.append(str(M("(new: not moved yet.)")))
    return lines


def _captured(colour: Colour, square: int, round_: int) -> str:
    return str(M("{side} has captured {square} square, {round} round.", side=colour.term, square=square, round=round_))
