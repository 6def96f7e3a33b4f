"""The alt text: the picture for a screen reader, within Discord's 1024 characters.

In reading order: the game and the status (who acts, or the result), every seat's score,
what the last move did, then every piece by seat and size, as its square and where it
points ("a6 s") or "up" for upright. If that is ever too long, sizes shrink to letters.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.pikemen.describe import describe_events
from engine.pikemen.geometry import square_name
from engine.pikemen.pieces import Size, seat_title
from engine.pikemen.position import Position
from engine.pikemen.state import GameState

LIMIT = 1024


def alt_text(state: GameState, events: Sequence[Any] = ()) -> str:
    position = state.position
    players = len(position.seats)
    head = [f"Pikemen board, {players} players, first to {position.target} points."]
    if state.outcome is None:
        head.append(f"{seat_title(position.seat_slug)} to act.")
    else:
        head.append(f"Game over: {state.outcome.summary}.")
    head.append(f"Scores: {_scores(position)}.")
    if events:
        head.append(f"Last move: {describe_events(events)}.")
    for long in (True, False):
        text = " ".join([*head, *(_pieces(position, seat, long) for seat in range(players))])
        if len(text) <= LIMIT:
            return text
    return text[: LIMIT - 1].rstrip() + "…"


def _scores(position: Position) -> str:
    parts = []
    for seat, slug in enumerate(position.seats):
        note = ""
        if position.out[seat]:
            note = " (out of the game)"
        elif position.counts[seat] == 0:
            note = " (no pieces left)"
        parts.append(f"{seat_title(slug)} {position.scores[seat]}{note}")
    return ", ".join(parts)


def _pieces(position: Position, seat: int, long: bool) -> str:
    title = seat_title(position.seats[seat])
    if position.out[seat]:
        return f"{title}: out."
    groups = []
    for size in (Size.L, Size.M, Size.S):
        names = [
            f"{square_name(sq)} {'up' if piece.orientation.is_upright else piece.orientation.letter}"
            for sq, piece in position.pieces(seat)
            if piece.size is size
        ]
        if names:
            groups.append(f"{size.word if long else size.letter} {', '.join(names)}")
    return f"{title}: {'; '.join(groups)}." if groups else f"{title}: no pieces."
