"""What the status line and the bands say: whose move it is, or how the game ended."""

from __future__ import annotations

from engine.numica.board import Colour
from engine.numica.position import QUIET_MOVES_FOR_DRAW
from engine.numica.state import GameState

QUIET_SHOWN_FROM = 50  # the count of moves without a capture is shown once a draw by it comes near

_DRAW_DETAIL = {
    "repetition": "the same position occurred three times",
    "quiet-moves": f"{QUIET_MOVES_FOR_DRAW} moves in a row without a capture",
    "agreement": "by agreement",
}


def band_status(state: GameState, colour: Colour) -> str:
    """The pill in a side's band: 'to move', 'wins', 'draw', 'arranging', or '' for none."""
    if state.outcome is not None:
        if state.winner is None:
            return "draw"
        return "wins" if state.winner is colour else ""
    if state.setting_up:
        return "arranging"
    return "to move" if state.to_act is colour else ""


def headline(state: GameState) -> tuple[str, str, Colour | None]:
    """(the status, a line of detail or '', the side whose colour marks it)."""
    outcome = state.outcome
    if outcome is None:
        if state.setting_up:
            return ("Both sides are arranging their back rows", "each in secret · then Red moves first", None)
        quiet = state.position.quiet
        detail = f"{quiet} of {QUIET_MOVES_FOR_DRAW} moves without a capture" if quiet >= QUIET_SHOWN_FROM else ""
        return (f"{state.to_act.title} to move", detail, state.to_act)
    winner = state.winner
    if winner is None:
        return ("Draw", _DRAW_DETAIL.get(outcome.reason, ""), None)
    loser = winner.opponent
    detail = {
        "captures": outcome.summary.partition(": ")[2],
        "no-moves": f"{loser.title} cannot move",
        "resignation": f"{loser.title} resigned",
        "timeout": f"{loser.title} ran out of time",
    }.get(outcome.reason, "")
    return (f"{winner.title} wins", detail, winner)
