"""The game state: the setup step or a position in play, the positions repetition counts,
and the outcome; with what ends a game, checked in the order the rules give."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace

from engine.api import Outcome
from engine.errors import GameOver, IllegalAction, NotationError
from engine.i18n import M
from engine.numica.actions import Move
from engine.numica.board import COLOURS, Colour, Shape, parse_tiles
from engine.numica.events import Arranged, Event, Moved
from engine.numica.outcomes import cannot_move, drawn, ended, winner_of, won_by_captures
from engine.numica.position import QUIET_MOVES_FOR_DRAW, Position
from engine.numica.rules import has_legal_move, legal_moves, play
from engine.numica.setup import place

REPETITIONS_FOR_DRAW = 3
SQUARE_COUNT = 64
SNAPSHOT_FORMAT = 1
SETUP_WORD = "setup"  # the setup state's notation: the tiles, then this word
ALREADY_SET_UP = M("the back rows are already set up: the game is under way")


def game_over(outcome: Outcome) -> GameOver:
    return GameOver(M("the game is over: {summary}", summary=outcome.summary))


@dataclass(frozen=True, slots=True)
class GameState:
    """Immutable; `apply` returns a new state.

    `history` holds the repetition keys of the positions since the last capture or first
    move of a piece (nothing before such a move can recur), the current one last: at most
    101, as 100 moves without a capture end the game.
    """

    position: Position
    setting_up: bool = False  # both sides are still choosing their back rows
    outcome: Outcome | None = None
    history: tuple[bytes, ...] = ()

    @classmethod
    def setup(cls, tiles: str) -> GameState:
        return cls(Position.empty(tiles), setting_up=True)

    @classmethod
    def from_position(cls, position: Position) -> GameState:
        """A game from a position with no history: the position counts as its first occurrence.
        A position that is already decided loads as finished, judged in the order of play."""
        winners = [colour for colour in COLOURS if won_by_captures(position, colour)]
        if len(winners) == 2:
            raise NotationError(M("both sides have lost enough pieces to have lost: no game reaches that position"))
        outcome = won_by_captures(position, winners[0]) if winners else None
        if outcome is None and not has_legal_move(position):
            outcome = cannot_move(position.to_act)
        if outcome is None and position.quiet >= QUIET_MOVES_FOR_DRAW:
            outcome = drawn("quiet-moves")
        return cls(position, outcome=outcome, history=(position.key,))

    @classmethod
    def from_notation(cls, text: str) -> GameState:
        fields = text.split()
        if len(fields) == 2 and fields[1].lower() == SETUP_WORD:
            return cls.setup(parse_tiles(fields[0]))
        return cls.from_position(Position.from_notation(text))

    def snapshot(self) -> str | None:
        """The position with the keys repetition counts, for `restore` (see `Game.snapshot`);
        None while setting up or once over, when the notation or the log say all."""
        if self.setting_up or self.outcome is not None:
            return None
        return json.dumps({"format": SNAPSHOT_FORMAT, "position": self.notation(),
                           "history": [key.hex() for key in self.history]}, separators=(",", ":"))  # fmt: skip

    @classmethod
    def restore(cls, text: str) -> GameState:
        try:
            data = json.loads(text)
            if data["format"] != SNAPSHOT_FORMAT:
                raise ValueError("another format")
            state = cls.from_notation(data["position"])
            history = tuple(bytes.fromhex(key) for key in data["history"])
        except (ValueError, KeyError, TypeError) as error:
            raise NotationError(f"this is not a snapshot of a Numica game: {error}") from None
        if (
            state.setting_up
            or not history
            or history[-1] != state.position.key
            or len(history) > QUIET_MOVES_FOR_DRAW + 1
        ):
            raise NotationError("this snapshot's history does not match its position")
        return replace(state, history=history)

    def notation(self) -> str:
        if self.setting_up:
            return f"{self.position.notation().split(' ', 1)[0]} {SETUP_WORD}"
        return self.position.notation()

    @property
    def to_act(self) -> Colour:
        return self.position.to_act

    @property
    def winner(self) -> Colour | None:
        return winner_of(self.outcome) if self.outcome is not None else None

    def legal_moves(self) -> list[Move]:
        return [] if self.outcome is not None or self.setting_up else legal_moves(self.position)

    def arrange(self, rows: dict[Colour, str]) -> tuple[GameState, list[Event]]:
        """Both back rows at once (canonical `sosoosos` form): the state where play begins."""
        if self.outcome is not None:
            raise game_over(self.outcome)
        if not self.setting_up:
            raise IllegalAction(ALREADY_SET_UP)
        state = GameState.from_position(place(self.position.tiles, rows))
        return state, [Arranged(rows[Colour.RED], rows[Colour.BLUE])]

    def apply(self, move: Move) -> tuple[GameState, list[Event]]:
        """The state after the side to move plays `move`; then, in this order: the mover wins by
        captures; the side now to move loses if it cannot move; a draw by repetition or by 100
        moves without a capture."""
        if self.outcome is not None:
            raise game_over(self.outcome)
        if self.setting_up:
            raise IllegalAction(M("both sides are still arranging their back rows: play begins once both have chosen"))
        if not isinstance(move, Move) or not (0 <= move.frm < SQUARE_COUNT and 0 <= move.to < SQUARE_COUNT):
            raise IllegalAction(M("a Numica action is a move from one square to another, like c1-c4"))
        position, events = play(self.position, move)
        key = position.key
        moved = events[0]
        irreversible = len(events) > 1 or (isinstance(moved, Moved) and moved.first)
        history = (key,) if irreversible else (*self.history, key)
        outcome = won_by_captures(position, self.position.to_act) if len(events) > 1 else None
        if outcome is None and not has_legal_move(position):
            outcome = cannot_move(position.to_act)
        if outcome is None and history.count(key) >= REPETITIONS_FOR_DRAW:
            outcome = drawn("repetition")
        if outcome is None and position.quiet >= QUIET_MOVES_FOR_DRAW:
            outcome = drawn("quiet-moves")
        if outcome is not None:
            events.append(ended(outcome))
        return GameState(position, False, outcome, history), events

    def conclude(self, outcome: Outcome) -> tuple[GameState, list[Event]]:
        """End the game for a reason decided off the board (resignation, time, agreement)."""
        if self.outcome is not None:
            raise game_over(self.outcome)
        return replace(self, outcome=outcome), [ended(outcome)]

    def captures(self, colour: Colour) -> tuple[int, int]:
        """(square, round) enemy pieces `colour` has captured so far."""
        loser = colour.opponent
        return (self.position.captured(loser, Shape.SQUARE), self.position.captured(loser, Shape.ROUND))
