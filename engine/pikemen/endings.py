"""How a game ends, in the order the checks are made, and the outcome's words.

After every move: a seat in the game at the target wins; else one seat left wins; else
a stalled game (nobody can still reach the target, the third repetition, 100 turns
without a capture) goes to the highest score among the seats still in, and a tie is a
draw between the tied seats.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum

from engine.api import Outcome
from engine.pikemen.pieces import seat_title
from engine.pikemen.position import Position

QUIET_TURNS = 100  # consecutive moves without a capture that end the game
REPETITIONS = 3  # occurrences of the same position that end the game


class Reason(Enum):
    TARGET = "target"
    LAST_PLAYER = "last-player"
    UNREACHABLE = "unreachable"
    REPETITION = "repetition"
    QUIET_TURNS = "quiet-turns"
    AGREEMENT = "agreement"
    RESIGNATION = "resignation"
    TIMEOUT = "timeout"


def titles(slugs: Sequence[str]) -> str:
    """'Red', 'Red and Blue', 'Red, Yellow and Blue'."""
    names = [seat_title(slug) for slug in slugs]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def scores_of(position: Position) -> tuple[tuple[str, int], ...]:
    return tuple(zip(position.seats, position.scores, strict=True))


def nobody_can_reach(position: Position) -> bool:
    """True when no seat in the game can still reach the target: one with pieces could at
    best add every point still on the board in the other seats' pieces; one without, nothing."""
    on_board = sum(position.material)
    for seat in position.seats_in_play():
        best = position.scores[seat] + (on_board - position.material[seat] if position.counts[seat] else 0)
        if best >= position.target:
            return False
    return True


def board_outcome(position: Position, *, repeated: bool = False) -> Outcome | None:
    """The ending the position itself shows, if any (`repeated`: it occurred the third time)."""
    in_play = position.seats_in_play()
    for seat in in_play:
        if position.scores[seat] >= position.target:
            title = seat_title(position.seats[seat])
            return _win(position, seat, Reason.TARGET, f"{title} reaches {position.scores[seat]} points and wins")
    if len(in_play) == 1:
        return last_player(position, Reason.LAST_PLAYER)
    if nobody_can_reach(position):
        return on_points(position, Reason.UNREACHABLE, f"no one can reach {position.target} points any more")
    if repeated:
        return on_points(position, Reason.REPETITION, "the same position occurred three times")
    if position.quiet >= QUIET_TURNS:
        return on_points(position, Reason.QUIET_TURNS, f"{QUIET_TURNS} turns without a capture")
    return None


def last_player(position: Position, reason: Reason, leaver: str | None = None) -> Outcome:
    """The one seat still in the game wins. With two players, resigning or running out of
    time is simply a loss, and the words say so."""
    (seat,) = position.seats_in_play()
    winner = seat_title(position.seats[seat])
    if reason is Reason.RESIGNATION and leaver:
        summary = f"{seat_title(leaver)} resigned: {winner} wins"
    elif reason is Reason.TIMEOUT and leaver:
        summary = f"{seat_title(leaver)} ran out of time: {winner} wins"
    else:
        summary = f"{winner} is the last player left in the game and wins"
    return _win(position, seat, reason, summary)


def on_points(position: Position, reason: Reason, why: str) -> Outcome:
    """A stalled game: the highest score among the seats still in wins; a tie draws between them."""
    in_play = position.seats_in_play()
    best = max(position.scores[seat] for seat in in_play)
    top = [position.seats[seat] for seat in in_play if position.scores[seat] == best]
    points = f"{best} point{'s' if best != 1 else ''}"
    if len(top) == 1:
        return Outcome(frozenset(top), frozenset(), reason.value, f"{seat_title(top[0])} wins with {points}: {why}",
                       scores_of(position))  # fmt: skip
    return Outcome(frozenset(), frozenset(top), reason.value, f"Draw between {titles(top)} on {points}: {why}",
                   scores_of(position))  # fmt: skip


def agreement(position: Position) -> Outcome:
    in_play = [position.seats[seat] for seat in position.seats_in_play()]
    summary = "Draw by agreement"
    if len(in_play) < len(position.seats):
        summary += f" between {titles(in_play)}"
    return Outcome(frozenset(), frozenset(in_play), Reason.AGREEMENT.value, summary, scores_of(position))


def _win(position: Position, seat: int, reason: Reason, summary: str) -> Outcome:
    return Outcome(frozenset({position.seats[seat]}), frozenset(), reason.value, summary, scores_of(position))
