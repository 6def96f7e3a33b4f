"""How a game ends, in the order the checks are made, and the outcome's words.

After every move: a seat in the game at the target wins; else one seat left wins; else
a stalled game (nobody can still reach the target, the third repetition, 100 turns
without a capture) goes to the highest score among the seats still in, and a tie is a
draw between the tied seats. Summaries are Messages, rendered in the reader's language.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum

from engine.api import Outcome
from engine.i18n import M, Message, P, Summary
from engine.pikemen.position import Position
from engine.pikemen.words import listed, seat_term

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
            summary = M("{seat} reaches {points} points and wins", seat=seat_term(position.seats[seat]),
                        points=position.scores[seat])  # fmt: skip
            return _outcome(position, Reason.TARGET, summary, winners=[position.seats[seat]])
    if len(in_play) == 1:
        return last_player(position, Reason.LAST_PLAYER)
    if nobody_can_reach(position):
        return on_points(position, Reason.UNREACHABLE,
                         M("no one can reach {target} points any more", target=position.target))  # fmt: skip
    if repeated:
        return on_points(position, Reason.REPETITION, M("the same position occurred three times"))
    if position.quiet >= QUIET_TURNS:
        return on_points(position, Reason.QUIET_TURNS, M("{turns} turns without a capture", turns=QUIET_TURNS))
    return None


def last_player(position: Position, reason: Reason, leaver: str | None = None) -> Outcome:
    """The one seat still in the game wins. With two players, resigning or running out of
    time is simply a loss, and the words say so."""
    (seat,) = position.seats_in_play()
    winner = seat_term(position.seats[seat])
    if reason is Reason.RESIGNATION and leaver:
        summary = M("{leaver} resigned: {winner} wins", leaver=seat_term(leaver), winner=winner)
    elif reason is Reason.TIMEOUT and leaver:
        summary = M("{leaver} ran out of time: {winner} wins", leaver=seat_term(leaver), winner=winner)
    else:
        summary = M("{winner} is the last player left in the game and wins", winner=winner)
    return _outcome(position, reason, summary, winners=[position.seats[seat]])


def on_points(position: Position, reason: Reason, why: Message) -> Outcome:
    """A stalled game: the highest score among the seats still in wins; a tie draws between them."""
    in_play = position.seats_in_play()
    best = max(position.scores[seat] for seat in in_play)
    top = [position.seats[seat] for seat in in_play if position.scores[seat] == best]
    if len(top) == 1:
        summary = P("{seat} wins with {count} point: {why}", "{seat} wins with {count} points: {why}", count=best,
                    seat=seat_term(top[0]), why=why)  # fmt: skip
        return _outcome(position, reason, summary, winners=top)
    summary = P("Draw between {seats} on {count} point: {why}", "Draw between {seats} on {count} points: {why}",
                count=best, seats=listed(top), why=why)  # fmt: skip
    return _outcome(position, reason, summary, drawn=top)


def agreement(position: Position) -> Outcome:
    in_play = [position.seats[seat] for seat in position.seats_in_play()]
    if len(in_play) < len(position.seats):
        summary = M("Draw by agreement between {seats}", seats=listed(in_play))
    else:
        summary = M("Draw by agreement")
    return _outcome(position, Reason.AGREEMENT, summary, drawn=in_play)


def _outcome(
    position: Position, reason: Reason, summary: Message, *, winners: Iterable[str] = (), drawn: Iterable[str] = ()
) -> Outcome:
    # Kept as a Message, the stored outcome reads in each viewer's language.
    return Outcome(frozenset(winners), frozenset(drawn), reason.value, Summary.of(summary), scores_of(position))
