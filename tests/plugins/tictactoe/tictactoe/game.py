"""Tic-tac-toe behind the host's game interface (`engine.api.Game`).

Seats `x` and `o`; actions are squares `a1`–`c3`; a position is three rows, top first, and
the seat to act: `x.o/.x./... o`. Every sentence a player reads is a Message (`M`), so the
package's own catalogue (`locales/es.po`) can say it in Spanish.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.api import Choice, Ending, EndingKind, Game, MatchOption, Outcome, Seat, Step
from engine.errors import GameOver, IllegalAction, NotationError
from engine.i18n import M, Message, Summary, T

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
SEATS = (Seat("x", "X", "x"), Seat("o", "O", "o"))
FIRST = MatchOption("first", "Who marks first", (Choice("x", "X"), Choice("o", "O")), "x")


def square_name(index: int) -> str:
    return "abc"[index % 3] + str(3 - index // 3)


def seat_term(seat: str) -> Any:
    """A seat's title as players read it (a Term: the catalogue may letter it differently)."""
    return T(seat.upper())


@dataclass(frozen=True, slots=True)
class Mark:
    """The seat to act marks `square` (0 is a3, the top left; 8 is c1)."""

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
    summary: Message

    def to_dict(self) -> dict[str, Any]:
        return {"event": "ended", "summary": str(self.summary)}


Event = Marked | Ended


@dataclass(frozen=True, slots=True)
class Board:
    cells: str  # nine of 'x', 'o', '.', top row first
    to_act: str
    outcome: Outcome | None = None


class TicTacToe(Game[Board, Mark, Event]):
    slug = "tictactoe"
    title = "Tic-tac-toe"
    player_counts = (2,)
    options = (FIRST,)

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
            raise NotationError(M("a position is three rows of x, o or . and the seat to act, like x.o/.x./... o"))
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

    def apply(self, state: Board, action: Mark) -> tuple[Board, Sequence[Event]]:
        if state.outcome:
            raise GameOver(M("the game is over: {summary}", summary=state.outcome.summary))
        if not isinstance(action, Mark) or not 0 <= action.square < 9:
            raise IllegalAction(M("mark one of the nine squares"))
        if state.cells[action.square] != ".":
            raise IllegalAction(M("{square} is taken", square=square_name(action.square)))
        cells = state.cells[: action.square] + state.to_act + state.cells[action.square + 1 :]
        after = _settled(Board(cells, "o" if state.to_act == "x" else "x"))
        events: list[Event] = [Marked(state.to_act, action.square)]
        if after.outcome:
            events.append(_ended(after))
        return after, events

    def parse_action(self, text: str) -> Mark:
        word = text.strip().lower()
        if len(word) == 2 and word[0] in "abc" and word[1] in "123":
            return Mark("abc".index(word[0]) + 3 * (3 - int(word[1])))
        raise NotationError(M("{text} is not a square: a1 to c3", text=repr(text.strip()[:20])))

    def end(self, state: Board, ending: Ending) -> tuple[Board, Sequence[Event]]:
        if state.outcome:
            raise GameOver(M("the game is over: {summary}", summary=state.outcome.summary))
        if ending.kind is EndingKind.AGREEMENT:
            outcome = Outcome.draw(("x", "o"), "agreement", Summary.of(M("Drawn by agreement")))
        elif ending.kind in (EndingKind.RESIGNATION, EndingKind.TIMEOUT) and ending.seat in ("x", "o"):
            other = "o" if ending.seat == "x" else "x"
            if ending.kind is EndingKind.RESIGNATION:
                said = M("{seat} resigned", seat=seat_term(ending.seat))
            else:
                said = M("{seat} ran out of time", seat=seat_term(ending.seat))
            outcome = Outcome.win(other, ending.kind.value, Summary.of(said))
        else:
            raise IllegalAction(M("tic-tac-toe has no claims"))
        ended = Board(state.cells, state.to_act, outcome)
        return ended, [_ended(ended)]

    def describe(self, events: Sequence[Event]) -> str:
        words = [str(M("{seat} marked {square}", seat=seat_term(e.seat), square=square_name(e.square)))
                 for e in events if isinstance(e, Marked)]  # fmt: skip
        words += [str(e.summary) for e in events if isinstance(e, Ended)]
        return " — ".join(words)

    def action_path(self, action: Mark) -> tuple[Step, ...]:
        name = square_name(action.square)
        return (Step(name, name),)


def _ended(board: Board) -> Ended:
    assert board.outcome is not None
    summary = board.outcome.summary
    return Ended(summary if isinstance(summary, Message) else M(str(summary)))


def _settled(board: Board) -> Board:
    """The board with its outcome, if a line is full or the board is."""
    for a, b, c in LINES:
        if board.cells[a] != "." and board.cells[a] == board.cells[b] == board.cells[c]:
            seat = board.cells[a]
            # Outcome.win takes the seat's slug whole: never frozenset(seat), which would be its letters.
            won = Outcome.win(seat, "line", Summary.of(M("{seat} wins", seat=seat_term(seat))))
            return Board(board.cells, board.to_act, won)
    if "." not in board.cells:
        drawn = Outcome.draw(("x", "o"), "full", Summary.of(M("A full board: drawn")))
        return Board(board.cells, board.to_act, drawn)
    return board


GAME = TicTacToe()
