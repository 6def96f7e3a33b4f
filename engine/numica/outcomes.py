"""How a game can end, as the shared `Outcome`: the winner or a draw, a reason, and a summary.

The summary is a Message, stored in the state and rendered whenever it is read, so a
finished game reads in each viewer's language.
"""

from __future__ import annotations

from engine.api import Outcome
from engine.i18n import M, Message
from engine.numica.board import COLOURS, Colour, Shape
from engine.numica.events import Ended
from engine.numica.position import QUIET_MOVES_FOR_DRAW, Position


def captures_tally(square: int, round_: int) -> Message:
    """The winning condition met, as the rules word it: '3 square pieces captured'."""
    if square >= 3:
        return M("{count} square pieces captured", count=square)
    if round_ >= 3:
        return M("{count} round pieces captured", count=round_)
    return M("{square} square and {round} round pieces captured", square=square, round=round_)


def won_by_captures(position: Position, winner: Colour) -> Outcome | None:
    """`winner` has won if it captured 2 square and 2 round pieces, or 3 of one shape."""
    loser = winner.opponent
    square, round_ = position.captured(loser, Shape.SQUARE), position.captured(loser, Shape.ROUND)
    if not ((square >= 2 and round_ >= 2) or square >= 3 or round_ >= 3):
        return None
    tally = captures_tally(square, round_)
    return _win(winner, "captures", M("{side} wins: {tally}", side=winner.term, tally=tally))


def cannot_move(loser: Colour) -> Outcome:
    return _win(
        loser.opponent,
        "no-moves",
        M("{loser} cannot move: {winner} wins", loser=loser.term, winner=loser.opponent.term),
    )


def resigned(loser: Colour) -> Outcome:
    return _win(
        loser.opponent,
        "resignation",
        M("{loser} resigned: {winner} wins", loser=loser.term, winner=loser.opponent.term),
    )


def timed_out(loser: Colour) -> Outcome:
    return _win(
        loser.opponent,
        "timeout",
        M("{loser} ran out of time: {winner} wins", loser=loser.term, winner=loser.opponent.term),
    )


def drawn(reason: str) -> Outcome:
    summary = {
        "repetition": M("Draw: the same position occurred three times"),
        "quiet-moves": M("Draw: {count} moves in a row without a capture", count=QUIET_MOVES_FOR_DRAW),
        "agreement": M("Draw by agreement"),
    }[reason]
    return _outcome(frozenset(), frozenset(c.slug for c in COLOURS), reason, summary)


def _win(winner: Colour, reason: str, summary: Message) -> Outcome:
    return _outcome(frozenset({winner.slug}), frozenset(), reason, summary)


def _outcome(winners: frozenset[str], drawn: frozenset[str], reason: str, summary: Message) -> Outcome:
    return Outcome(winners, drawn, reason, summary)


def winner_of(outcome: Outcome) -> Colour | None:
    return next((c for c in COLOURS if c.slug in outcome.winners), None)


def ended(outcome: Outcome) -> Ended:
    return Ended(winner_of(outcome), outcome.reason, outcome.summary)
