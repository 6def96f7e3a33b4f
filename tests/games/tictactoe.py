"""Tic-tac-toe behind the shared game interface: the host's proof that it knows no game.

Nothing outside `tests/` mentions it. Seats `x` and `o`; actions are squares `a1`–`c3`;
a position is three rows, top first, and the seat to act: `x.o/.x./... o`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.api import Choice, Ending, EndingKind, Game, OptionSpec, Outcome, Seat, Step
from engine.errors import GameOver, IllegalAction, NotationError

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
SEATS = (Seat("x", "X", "x"), Seat("o", "O", "o"))


def square_name(index: int) -> str:
    return "abc"[index % 3] + str(3 - index // 3)


@dataclass(frozen=True, slots=True)
class Mark:
    square: int

    def notation(self) -> str:
        return square_name(self.square)


@dataclass(frozen=True, slots=True)
class Marked:
    seat: str
    square: int

    def to_dict(self) -> dict[str, Any]:
        return {"event": "marked", "seat": self.seat, "square": square_name(self.square)}


@dataclass(frozen=True, slots=True)
class Ended:
    summary: str

    def to_dict(self) -> dict[str, Any]:
        return {"event": "ended", "summary": self.summary}


@dataclass(frozen=True, slots=True)
class Board:
    cells: str  # nine of 'x', 'o', '.'
    to_act: str
    outcome: Outcome | None = None


class TicTacToe(Game[Board]):
    slug = "tictactoe"
    title = "Tic-tac-toe"
    player_counts = (2,)
    options = (OptionSpec("first", "Who marks first", (Choice("x", "X"), Choice("o", "O")), "x"),)

    def seats(self, players: int) -> tuple[Seat, ...]:
        if players != 2:
            raise ValueError("tic-tac-toe is for two")
        return SEATS

    def new(self, players: int, options: Mapping[str, str], seed: int) -> Board:
        self.seats(players)
        return Board("." * 9, self.option_defaults(options)["first"])

    def load(self, position: str) -> Board:
        rows, _, seat = position.strip().lower().partition(" ")
        cells = rows.replace("/", "")
        if len(cells) != 9 or set(cells) - set("xo.") or seat not in ("x", "o"):
            raise NotationError("a position is three rows of x, o or . and the seat to act, like x.o/.x./... o")
        return _settled(Board(cells, seat))

    def notation(self, state: Board) -> str:
        c = state.cells
        return f"{c[0:3]}/{c[3:6]}/{c[6:9]} {state.to_act}"

    def state_seats(self, state: Board) -> tuple[str, ...]:
        return ("x", "o")

    def to_act(self, state: Board) -> str | None:
        return None if state.outcome else state.to_act

    def outcome(self, state: Board) -> Outcome | None:
        return state.outcome

    def legal_actions(self, state: Board) -> Sequence[Mark]:
        return [] if state.outcome else [Mark(i) for i, c in enumerate(state.cells) if c == "."]

    def apply(self, state: Board, action: Any) -> tuple[Board, Sequence[Any]]:
        if state.outcome:
            raise GameOver(f"the game is over: {state.outcome.summary}")
        if not isinstance(action, Mark) or not 0 <= action.square < 9:
            raise IllegalAction("mark one of the nine squares")
        if state.cells[action.square] != ".":
            raise IllegalAction(f"{square_name(action.square)} is taken")
        cells = state.cells[: action.square] + state.to_act + state.cells[action.square + 1 :]
        after = _settled(Board(cells, "o" if state.to_act == "x" else "x"))
        events: list[Any] = [Marked(state.to_act, action.square)]
        if after.outcome:
            events.append(Ended(after.outcome.summary))
        return after, events

    def parse_action(self, text: str) -> Mark:
        word = text.strip().lower()
        if len(word) == 2 and word[0] in "abc" and word[1] in "123":
            return Mark("abc".index(word[0]) + 3 * (3 - int(word[1])))
        raise NotationError(f"{text.strip()[:20]!r} is not a square: a1 to c3")

    def end(self, state: Board, ending: Ending) -> tuple[Board, Sequence[Any]]:
        if state.outcome:
            raise GameOver("the game is over")
        if ending.kind is EndingKind.AGREEMENT:
            outcome = Outcome(frozenset(), frozenset("xo"), "agreement", "Drawn by agreement")
        elif ending.kind in (EndingKind.RESIGNATION, EndingKind.TIMEOUT) and ending.seat in ("x", "o"):
            other = "o" if ending.seat == "x" else "x"
            how = "resigned" if ending.kind is EndingKind.RESIGNATION else "ran out of time"
            outcome = Outcome(frozenset(other), frozenset(), ending.kind.value, f"{ending.seat.upper()} {how}")
        else:
            raise IllegalAction("tic-tac-toe has no claims")
        return Board(state.cells, state.to_act, outcome), [Ended(outcome.summary)]

    def describe(self, events: Sequence[Any]) -> str:
        words = [f"{e.seat.upper()} marked {square_name(e.square)}" for e in events if isinstance(e, Marked)]
        words += [e.summary for e in events if isinstance(e, Ended)]
        return " — ".join(words)

    def action_path(self, action: Any) -> tuple[Step, ...]:
        name = square_name(action.square)
        return (Step(name, name),)


def _settled(board: Board) -> Board:
    for a, b, c in LINES:
        if board.cells[a] != "." and board.cells[a] == board.cells[b] == board.cells[c]:
            seat = board.cells[a]
            return Board(
                board.cells, board.to_act, Outcome(frozenset(seat), frozenset(), "line", f"{seat.upper()} wins")
            )
    if "." not in board.cells:
        return Board(board.cells, board.to_act, Outcome(frozenset(), frozenset("xo"), "full", "A full board: drawn"))
    return board


GAME = TicTacToe()
