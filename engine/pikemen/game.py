"""Pikemen behind the engine's shared `Game` interface (engine/api.py)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.api import Choice, Ending, EndingKind, Game, MatchOption, Outcome, Seat, Step, UndoScope
from engine.errors import IllegalAction, NotationError
from engine.i18n import Catalog, M, active, using
from engine.pikemen.actions import Action, Reorient, parse_action
from engine.pikemen.describe import describe_events
from engine.pikemen.endings import Reason
from engine.pikemen.events import Event
from engine.pikemen.geometry import SQUARES, Orientation, square_name
from engine.pikemen.pieces import TABLES, seat_title
from engine.pikemen.position import TARGETS, Position
from engine.pikemen.rules import canonical
from engine.pikemen.setup import most_points, start_board
from engine.pikemen.state import GameState
from engine.pikemen.words import seat_term

# The option's words are data: the catalogue translates them where commands are built.
TARGET = MatchOption(
    "target", "Points needed to win", tuple(Choice(str(t), f"{t} points") for t in TARGETS), str(TARGETS[0]),
    numbers=(TARGETS[0], max(most_points(n) for n in TABLES)),
)


@dataclass(frozen=True, slots=True)
class _MenuSteps:
    """Every step a menu offers, labelled in one language. Menus ask for the path of every
    legal action at every step, so the steps are built once per language, indexed by square
    and orientation."""

    squares: tuple[Step, ...]
    captures: tuple[Step, ...]  # a charge's target square that it captures on
    orientations: tuple[Step, ...]
    turn: Step
    keep: Step


_MENU_STEPS: dict[str, _MenuSteps] = {}  # per language


def _menu_steps(catalog: Catalog) -> _MenuSteps:
    found = _MENU_STEPS.get(catalog.locale)
    if found is None:
        found = _MENU_STEPS.setdefault(catalog.locale, _labelled(catalog))
    return found


def _labelled(catalog: Catalog) -> _MenuSteps:
    with using(catalog):
        names = [square_name(sq) for sq in SQUARES]
        return _MenuSteps(
            tuple(Step(name, name) for name in names),
            tuple(Step(name, str(M("{square} ✕ captures", square=name))) for name in names),
            tuple(Step(o.letter, f"{o.arrow} {o.word}", int(o)) for o in Orientation),
            Step("turn", str(M("turn in place")), -1),
            Step("keep", str(M("keep pointing that way")), -1),
        )


class PikemenGame(Game[GameState, Action, Event]):
    slug = "pikemen"
    title = "Pikemen"
    player_counts = (2, 3, 4)
    options = (TARGET,)
    actions_per_turn = 1
    undo_scope = UndoScope.UNTIL_NEXT_ACTION
    claim = None
    seat_word = "seat"

    def seats(self, players: int) -> tuple[Seat, ...]:
        if players not in TABLES:
            raise ValueError(M("Pikemen is for 2, 3 or 4 players, not {players}", players=players))
        return tuple(Seat(slug, seat_title(slug), slug) for slug in TABLES[players])

    def check_options(self, players: int, options: Mapping[str, str]) -> None:
        most = most_points(players)
        if int(options.get("target", TARGETS[0])) > most:
            raise NotationError(M(
                "with {players} players the target is at most {most} points (every point but your own)",
                players=players, most=most,
            ))  # fmt: skip

    def new(self, players: int, options: Mapping[str, str], seed: int) -> GameState:
        """The start position; there is no chance in Pikemen, so `seed` changes nothing."""
        self.seats(players)
        chosen = self.option_defaults(options)
        self.check_options(players, chosen)
        target = int(chosen["target"])
        seats = TABLES[players]
        position = Position.build(seats, start_board(players), (0,) * players, (False,) * players, 0, target)
        return GameState.from_position(position)

    def load(self, position: str) -> GameState:
        return GameState.from_notation(position)

    def notation(self, state: GameState) -> str:
        return state.notation()

    def snapshot(self, state: GameState) -> str | None:
        return state.snapshot()

    def held_key_bytes(self, state: GameState) -> int:
        assert state.history is not None
        return state.history.held_bytes()

    def restore(self, text: str) -> GameState:
        return GameState.restore(text)

    def state_seats(self, state: GameState) -> tuple[str, ...]:
        return state.position.seats

    def seats_in_play(self, state: GameState) -> tuple[str, ...]:
        position = state.position
        return tuple(position.seats[i] for i in position.seats_in_play())

    def to_act(self, state: GameState) -> str | None:
        return None if state.outcome is not None else state.position.seat_slug

    def outcome(self, state: GameState) -> Outcome | None:
        return state.outcome

    def score(self, state: GameState) -> tuple[tuple[str, int], ...]:
        return tuple(zip(state.position.seats, state.position.scores, strict=True))

    def legal_actions(self, state: GameState) -> Sequence[Action]:
        return state.legal_actions()

    def apply(self, state: GameState, action: Action) -> tuple[GameState, Sequence[Event]]:
        return state.apply(action)

    def parse_action(self, text: str) -> Action:
        return parse_action(text)

    def canonical(self, state: GameState, action: Action) -> Action:
        return canonical(state.position, action)

    def end(self, state: GameState, ending: Ending) -> tuple[GameState, Sequence[Event]]:
        if ending.kind is EndingKind.CONCESSION:
            raise IllegalAction(M("Pikemen has no claims to concede: resign, or offer a draw"))
        if ending.kind is EndingKind.AGREEMENT:
            return state.agree()
        seat = (ending.seat or "").lower()
        if seat not in state.position.seats:
            seats = ", ".join(state.position.seats)
            raise IllegalAction(
                M("{seat} is not a seat in this game: the seats are {seats}", seat=repr(ending.seat), seats=seats)
            )
        if ending.kind is EndingKind.TIMEOUT:
            if state.outcome is None and seat != state.position.seat_slug:
                raise IllegalAction(
                    M("it is {seat:poss} turn: only the seat to act can run out of time",
                      seat=seat_term(state.position.seat_slug))
                )  # fmt: skip
            return state.depart(seat, Reason.TIMEOUT)
        return state.depart(seat, Reason.RESIGNATION)

    def describe(self, events: Sequence[Event]) -> str:
        return str(describe_events(events))

    def action_path(self, action: Action) -> tuple[Step, ...]:
        """Labelled in the language of the player who opens the menu (the active catalogue)."""
        steps = _menu_steps(active())
        if isinstance(action, Reorient):
            return (steps.squares[action.square], steps.turn, steps.orientations[action.orientation])
        target = steps.captures[action.to] if action.capture else steps.squares[action.to]
        last = steps.keep if action.orientation is None else steps.orientations[action.orientation]
        return (steps.squares[action.frm], target, last)


GAME = PikemenGame()
