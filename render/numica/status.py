"""What the status line and the bands say: whose move it is, or how the game ended."""

from __future__ import annotations

from engine.i18n import M, Message
from engine.numica.board import Colour
from engine.numica.outcomes import captures_tally
from engine.numica.position import QUIET_MOVES_FOR_DRAW
from engine.numica.state import GameState

QUIET_SHOWN_FROM = 50  # the count of moves without a capture is shown once a draw by it comes near

_DRAW_DETAIL = {
    "repetition": M("the same position occurred three times"),
    "quiet-moves": M("{count} moves in a row without a capture", count=QUIET_MOVES_FOR_DRAW),
    "agreement": M("by agreement"),
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
    """(the status, a line of detail or '', the side whose colour marks it), in the active language."""
    text, detail, accent = _headline(state)
    return str(text), str(detail or ""), accent


def _headline(state: GameState) -> tuple[Message, Message | None, Colour | None]:
    outcome = state.outcome
    if outcome is None:
        if state.setting_up:
            return (M("Both sides are arranging their back rows"), M("each in secret · then Red moves first"), None)
        quiet = state.position.quiet
        count = M("{count} of {most} moves without a capture", count=quiet, most=QUIET_MOVES_FOR_DRAW)
        return (M("{side} to move", side=state.to_act.term), count if quiet >= QUIET_SHOWN_FROM else None, state.to_act)
    winner = state.winner
    if winner is None:
        return (M("Draw"), _DRAW_DETAIL.get(outcome.reason), None)
    loser = winner.opponent
    detail = {
        "captures": captures_tally(*state.captures(winner)),
        "no-moves": M("{side} cannot move", side=loser.term),
        "resignation": M("{side} resigned", side=loser.term),
        "timeout": M("{side} ran out of time", side=loser.term),
    }.get(outcome.reason)
    return (M("{side} wins", side=winner.term), detail, winner)
