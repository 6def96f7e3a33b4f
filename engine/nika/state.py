"""The game state: a position plus the history that draws depend on, and the outcome."""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from enum import Enum

from engine.archive import Archive
from engine.errors import GameOver, IllegalAction, NotationError
from engine.history import History, pack, unpack
from engine.nika.actions import Action, Pass, parse_action
from engine.nika.board import VICTORY_AREA, City, Team
from engine.nika.events import Drawn, Event, Won
from engine.nika.position import ACTIONS_PER_TURN, Position
from engine.nika.rules import legal_actions, play

ALL_PASS_TURNS_FOR_DRAW = 4
SNAPSHOT_FORMAT = 2
ARCHIVE_FORMAT = 3  # a snapshot of an archiving line: format 2 and the archive
REPETITIONS_FOR_DRAW = 3


class Reason(Enum):
    VICTORY = "victory"  # a piece reached its own victory area
    PASSES = "passes"  # four consecutive city turns of two passes
    REPETITION = "repetition"  # the same position for the third time
    AGREEMENT = "agreement"  # every player agreed to a draw
    CONCESSION = "concession"  # the opponents conceded a "Nika" declaration
    RESIGNATION = "resignation"
    YIELDED = "yielded"  # a player declared Nika for the opponents: their own team conceded


@dataclass(frozen=True, slots=True)
class Outcome:
    winner: Team | None
    reason: Reason

    @property
    def result(self) -> str:
        """'athens-messene', 'sparta-thebes' or 'draw'."""
        return self.winner.slug if self.winner is not None else "draw"

    def describe(self) -> str:
        if self.winner is None:
            return {
                Reason.PASSES: "Draw: four city turns in a row passed both actions",
                Reason.REPETITION: "Draw: the same position occurred three times",
                Reason.AGREEMENT: "Draw by agreement",
            }.get(self.reason, "Draw")
        how = {
            Reason.VICTORY: "reached the victory area",
            Reason.CONCESSION: "declared Nika and the opponents conceded",
            Reason.RESIGNATION: "won by resignation",
            Reason.YIELDED: f"won: {self.winner.opponent.title} conceded",
        }[self.reason]
        return f"{self.winner.title} {how}"


@dataclass(frozen=True, slots=True)
class GameState:
    """Immutable; `apply` returns a new state. The position history is shared, never rewritten."""

    position: Position
    all_pass_turns: int = 0  # consecutive completed city turns of passes only
    turn_all_passes: bool = True  # every action so far in this turn was a pass
    outcome: Outcome | None = None
    history: History | None = field(default=None, compare=False, repr=False)
    length: int = field(default=1, compare=False, repr=False)  # positions of `history` this state has seen

    def __post_init__(self) -> None:
        if self.history is None:
            object.__setattr__(self, "history", History([hash(self.position)]))
            object.__setattr__(self, "length", 1)

    @classmethod
    def start(cls) -> GameState:
        return cls.from_position(Position.start())

    @classmethod
    def from_position(cls, position: Position) -> GameState:
        winner = position.winner()
        return cls(
            position,
            # Loaded mid-turn, the turn's first action is unknown, so it does not count as a pass.
            turn_all_passes=position.actions_left == ACTIONS_PER_TURN,
            outcome=Outcome(winner, Reason.VICTORY) if winner is not None else None,
        )

    @classmethod
    def from_notation(cls, text: str) -> GameState:
        return cls.from_position(Position.from_notation(text))

    def snapshot(self) -> str:
        """This state with its history, as text for `restore` (see `Game.snapshot`)."""
        assert self.history is not None
        outcome = self.outcome
        settled, recent = self.history.split(self.length)
        data = {
            "format": SNAPSHOT_FORMAT,
            "position": self.notation(),
            "all_pass_turns": self.all_pass_turns,
            "turn_all_passes": self.turn_all_passes,
            "outcome": None if outcome is None else [outcome.winner and outcome.winner.slug, outcome.reason.value],
            # The repetition keys: the settled ones sorted, then the recent ones (see History).
            "settled": pack(settled),
            "history": pack(recent),
        }
        archive = self.history.root().archive
        if archive is not None:  # the older keys are the host's; their filter is ours
            data |= {"format": ARCHIVE_FORMAT, "archived": archive.size, "filter": archive.pack()}
        return json.dumps(data, separators=(",", ":"))

    @classmethod
    def restore(cls, text: str) -> GameState:
        try:
            data = json.loads(text)
            # Format 1 had every key in order of play; format 2 had no archive.
            if data["format"] not in (1, SNAPSHOT_FORMAT, ARCHIVE_FORMAT):
                raise ValueError("another format")
            position = Position.from_notation(data["position"])
            keys = unpack(data["history"])
            settled = unpack(data["settled"]) if data["format"] > 1 else None
            archived = data["format"] == ARCHIVE_FORMAT
            archive = Archive.unpack(int(data["archived"]), data["filter"]) if archived else None
            ended = data["outcome"]
            outcome = None if ended is None else Outcome(ended[0] and Team.from_slug(ended[0]), Reason(ended[1]))
            all_pass_turns, turn_all_passes = int(data["all_pass_turns"]), bool(data["turn_all_passes"])
        except (ValueError, KeyError, TypeError, IndexError) as error:
            raise NotationError(f"this is not a snapshot of a Nika game: {error}") from None
        # The keys are hashes of positions' integers: another Python could hash them otherwise.
        if not keys or keys[-1] != hash(position):
            raise NotationError("this snapshot's history does not match its position")
        length = len(keys) + (len(settled) if settled is not None else 0) + (archive.size if archive else 0)
        history = History.of(keys, settled, archive)
        return cls(position, all_pass_turns, turn_all_passes, outcome, history, length)

    def archiving(self) -> GameState:
        """This state on a line whose older repetition keys go out of memory (engine/archive.py):
        the host then stores every ply's key (`newest_key`) and answers ArchiveLookup."""
        assert self.history is not None
        if self.history.root().archive is not None:
            return self
        if self.history.parent is not None or self.history.base + len(self.history.keys) != self.length:
            raise ValueError("only a line's newest state can start archiving")
        history = History.of(self.history.prefix(self.length), None, Archive())
        return replace(self, history=history)

    def detached(self) -> GameState:
        """This state for a search: archived keys it has no count for count as absent."""
        assert self.history is not None
        archive = self.history.root().archive
        if archive is None:
            return self
        return replace(self, history=History.of(self.history.prefix(self.length), None, archive.guessing()))

    @property
    def newest_key(self) -> tuple[int, int]:
        """(ply, repetition key) of this position: ply 0 is the line's first position."""
        return self.length - 1, hash(self.position)

    @property
    def to_act(self) -> City:
        return self.position.to_act

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @property
    def plies(self) -> int:
        """Positions of the game so far, from the loaded one to this one."""
        return self.length

    def times_seen(self, position: Position | None = None) -> int:
        """How many times `position` (default: the current one) has occurred so far."""
        assert self.history is not None
        return self.history.count(hash(self.position if position is None else position), self.length)

    def notation(self) -> str:
        return self.position.notation()

    def seat_to_act(self) -> str:
        return self.position.to_act.name.lower()

    def legal_actions(self) -> list[Action]:
        return [] if self.outcome else legal_actions(self.position)

    def parse_and_apply(self, text: str) -> tuple[GameState, list[Event]]:
        return self.apply(parse_action(text))

    def apply(self, action: Action) -> tuple[GameState, list[Event]]:
        """The state after the city to act plays `action`; raises IllegalAction otherwise."""
        if self.outcome is not None:
            raise GameOver(f"the game is over: {self.outcome.describe()}")
        position, events = play(self.position, action)
        assert self.history is not None
        key = hash(position)
        length = self.length + 1
        winner = position.winner()
        if winner is not None:
            history = self.history.extended(self.length, key)
            city, sq = _winning_piece(position, winner, self.position.to_act)
            events.append(Won(winner, city, sq))
            won = Outcome(winner, Reason.VICTORY)
            return GameState(position, self.all_pass_turns, False, won, history, length), events

        all_passes = self.turn_all_passes and isinstance(action, Pass)
        all_pass_turns = self.all_pass_turns
        if position.to_act != self.position.to_act:  # the turn ended with this action
            all_pass_turns = all_pass_turns + 1 if all_passes else 0
            all_passes = True
        outcome: Outcome | None = None
        if all_pass_turns >= ALL_PASS_TURNS_FOR_DRAW:
            outcome = Outcome(None, Reason.PASSES)
        # Counted before the line is extended: a count that must ask the host (ArchiveLookup)
        # leaves the line as it was, so the action applied again after the answer extends it
        # in place instead of branching off a segment the first attempt grew.
        elif self.history.count(key, self.length) + 1 >= REPETITIONS_FOR_DRAW:
            outcome = Outcome(None, Reason.REPETITION)
        history = self.history.extended(self.length, key)
        if outcome is not None:
            events.append(Drawn(outcome.reason.value))
        return GameState(position, all_pass_turns, all_passes, outcome, history, length), events

    def conclude(self, outcome: Outcome) -> GameState:
        """End the game for a reason from outside the board (agreement, concession, resignation)."""
        if self.outcome is not None:
            raise GameOver(f"the game is over: {self.outcome.describe()}")
        if outcome.reason in (Reason.VICTORY, Reason.PASSES, Reason.REPETITION):
            raise IllegalAction("only the board decides victories by reaching the victory area and rule draws")
        if (outcome.reason == Reason.AGREEMENT) != (outcome.winner is None):
            raise IllegalAction("a draw by agreement has no winner; a concession or resignation has one")
        return replace(self, outcome=outcome)


def _winning_piece(position: Position, winner: Team, actor: City) -> tuple[City, int]:
    """The piece standing on its own victory area; the actor's team first if both ever could."""
    for city in sorted(winner.cities, key=lambda c: c != actor):
        for sq in VICTORY_AREA[city]:
            piece = position.piece_at(sq)
            if piece is not None and piece.city == city:
                return city, sq
    raise AssertionError("a winner without a piece on its victory area")
