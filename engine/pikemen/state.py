"""The game state: a position, the history the repetition rule counts, and the outcome."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from engine.api import Outcome
from engine.errors import GameOver, NotationError
from engine.history import History, pack, unpack
from engine.i18n import M
from engine.pikemen.actions import Action
from engine.pikemen.endings import REPETITIONS, Reason, agreement, board_outcome, last_player
from engine.pikemen.events import Ended, Event, Left
from engine.pikemen.pieces import SEAT_OF
from engine.pikemen.position import Position, next_seat
from engine.pikemen.rules import legal_actions, play
from engine.pikemen.words import listed, seat_term

SNAPSHOT_FORMAT = 2


@dataclass(frozen=True, slots=True)
class GameState:
    """Immutable; `apply` returns a new state. A loaded position has no history: it counts
    as its own first occurrence.

    `history` holds the repetition keys since the last move that took pieces off the board (a
    capture, or a departure with pieces): pieces never come back, so no earlier position can
    recur. As 100 turns without a capture end the game, that is at most about a hundred keys
    however long the match (docs/pikemen.md, "What a long match keeps").
    """

    position: Position
    outcome: Outcome | None = None
    history: History = field(default_factory=lambda: History(()), compare=False, repr=False)
    length: int = field(default=0, compare=False, repr=False)

    @classmethod
    def from_position(cls, position: Position) -> GameState:
        if not position.seats_in_play():
            raise NotationError(M("at least one seat must still be in the game"))
        reached = [i for i in position.seats_in_play() if position.scores[i] >= position.target]
        if len(reached) > 1:
            seats = listed([position.seats[i] for i in reached])
            if len(reached) == 2:
                raise NotationError(
                    M("{seats} cannot both have reached the target: the game ends when the first one does", seats=seats)
                )
            raise NotationError(
                M("{seats} cannot all have reached the target: the game ends when the first one does", seats=seats)
            )
        outcome = board_outcome(position)
        if outcome is None and not position.can_move(position.to_act):
            who = seat_term(position.seat_slug)
            if position.out[position.to_act]:
                raise NotationError(
                    M("{seat} is out of the game: the seat to act must be in the game and have pieces", seat=who)
                )
            raise NotationError(
                M("{seat} has no pieces and is skipped: the seat to act must be in the game and have pieces", seat=who)
            )
        return cls(position, outcome, History([hash(position.key)]), 1)

    @classmethod
    def from_notation(cls, text: str) -> GameState:
        return cls.from_position(Position.from_notation(text))

    def snapshot(self) -> str | None:
        """The position with its history, for `restore` (see `Game.snapshot`); None once over."""
        if self.outcome is not None:
            return None
        settled, recent = self.history.split(self.length)  # see History: settled ones sorted
        return json.dumps({"format": SNAPSHOT_FORMAT, "position": self.notation(), "settled": pack(settled),
                           "history": pack(recent)}, separators=(",", ":"))  # fmt: skip

    @classmethod
    def restore(cls, text: str) -> GameState:
        try:
            data = json.loads(text)
            if data["format"] not in (1, SNAPSHOT_FORMAT):  # format 1 had every key in order of play
                raise ValueError("another format")
            state = cls.from_notation(data["position"])
            keys = unpack(data["history"])
            settled = unpack(data["settled"]) if data["format"] > 1 else None
        except (ValueError, KeyError, TypeError) as error:
            raise NotationError(f"this is not a snapshot of a Pikemen game: {error}") from None
        # The keys are hashes of integers: another Python could hash them otherwise.
        if state.outcome is not None or not keys or keys[-1] != hash(state.position.key):
            raise NotationError("this snapshot's history does not match its position")
        length = len(keys) + (len(settled) if settled is not None else 0)
        return cls(state.position, None, History.of(keys, settled), length)

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    def notation(self) -> str:
        return self.position.notation()

    def times_seen(self) -> int:
        """How many times the current position has occurred (the loaded one counts once)."""
        return self.history.count(hash(self.position.key), self.length)

    def legal_actions(self) -> list[Action]:
        return [] if self.outcome is not None else legal_actions(self.position)

    def apply(self, action: Action) -> tuple[GameState, list[Event]]:
        """The state after the seat to act plays `action`; IllegalAction otherwise."""
        self._check_going()
        position, events = play(self.position, action)
        key = hash(position.key)
        history, length = self._extended(position, key)
        outcome = board_outcome(position, repeated=history.count(key, length) >= REPETITIONS)
        if outcome is not None:
            events.append(_ended(outcome, position))
        return GameState(position, outcome, history, length), events

    def depart(self, seat: str, how: Reason) -> tuple[GameState, list[Event]]:
        """`seat` resigns or runs out of time: it is out, its pieces leave the board and
        nobody scores them. The game goes on unless that leaves one seat, or nobody able to
        reach the target."""
        self._check_going()
        position = self.position
        index = position.seats.index(seat)
        if position.out[index]:
            return self, [Left(seat, how.value, 0, already_out=True)]
        board = tuple(0 if code and SEAT_OF[code] == index else code for code in position.board)
        out = tuple(gone or i == index for i, gone in enumerate(position.out))
        counts = tuple(0 if i == index else c for i, c in enumerate(position.counts))
        material = tuple(0 if i == index else m for i, m in enumerate(position.material))
        to_act = next_seat(out, counts, index) if position.to_act == index else position.to_act
        after = Position(position.seats, board, position.scores, out, to_act, position.target, position.quiet,
                         counts, material)  # fmt: skip
        events: list[Event] = [Left(seat, how.value, position.counts[index])]
        if len(after.seats_in_play()) == 1:
            # With two players, leaving is losing; with more, the last one standing wins.
            outcome: Outcome | None = last_player(after, how if len(after.seats) == 2 else Reason.LAST_PLAYER, seat)
        else:
            outcome = board_outcome(after)
        if outcome is not None:
            events.append(_ended(outcome, after))
        history, length = self._extended(after, hash(after.key))
        return GameState(after, outcome, history, length), events

    def _extended(self, after: Position, key: int) -> tuple[History, int]:
        """The history after moving to `after`: started afresh when pieces left the board."""
        if sum(after.counts) < sum(self.position.counts):
            return History([key]), 1
        return self.history.extended(self.length, key), self.length + 1

    def agree(self) -> tuple[GameState, list[Event]]:
        """A draw agreed by every seat still in the game."""
        self._check_going()
        outcome = agreement(self.position)
        return GameState(self.position, outcome, self.history, self.length), [_ended(outcome, self.position)]

    def _check_going(self) -> None:
        if self.outcome is not None:
            raise GameOver(M("the game is over: {summary}", summary=self.outcome.summary))


def _ended(outcome: Outcome, position: Position) -> Ended:
    order = position.seats
    return Ended(
        outcome.reason,
        tuple(s for s in order if s in outcome.winners),
        tuple(s for s in order if s in outcome.drawn),
        outcome.summary,
    )
