"""How a game can end, as the shared `Outcome`: the winner or a draw, a reason, and a summary."""

from __future__ import annotations

from engine.api import Outcome
from engine.numica.board import COLOURS, Colour, Shape
from engine.numica.events import Ended
from engine.numica.position import QUIET_MOVES_FOR_DRAW, Position


def won_by_captures(position: Position, winner: Colour) -> Outcome | None:
    """`winner` has won if it captured 2 square and 2 round pieces, or 3 of one shape."""
    loser = winner.opponent
    square, round_ = position.captured(loser, Shape.SQUARE), position.captured(loser, Shape.ROUND)
    if not ((square >= 2 and round_ >= 2) or square >= 3 or round_ >= 3):
        return None
    # Name the condition met, as the rules word it.
    if square >= 3:
        tally = f"{square} square"
    elif round_ >= 3:
        tally = f"{round_} round"
    else:
        tally = f"{square} square and {round_} round"
    return _win(winner, "captures", f"{winner.title} wins: {tally} pieces captured")


def cannot_move(loser: Colour) -> Outcome:
    return _win(loser.opponent, "no-moves", f"{loser.title} cannot move: {loser.opponent.title} wins")


def resigned(loser: Colour) -> Outcome:
    return _win(loser.opponent, "resignation", f"{loser.title} resigned: {loser.opponent.title} wins")


def timed_out(loser: Colour) -> Outcome:
    return _win(loser.opponent, "timeout", f"{loser.title} ran out of time: {loser.opponent.title} wins")


def drawn(reason: str) -> Outcome:
    summary = {
        "repetition": "Draw: the same position occurred three times",
        "quiet-moves": f"Draw: {QUIET_MOVES_FOR_DRAW} moves in a row without a capture",
        "agreement": "Draw by agreement",
    }[reason]
    return Outcome(frozenset(), frozenset(c.slug for c in COLOURS), reason, summary)


def _win(winner: Colour, reason: str, summary: str) -> Outcome:
    return Outcome(frozenset({winner.slug}), frozenset(), reason, summary)


def winner_of(outcome: Outcome) -> Colour | None:
    return next((c for c in COLOURS if c.slug in outcome.winners), None)


def ended(outcome: Outcome) -> Ended:
    return Ended(winner_of(outcome), outcome.reason, outcome.summary)
