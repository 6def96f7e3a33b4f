"""Nika behind the engine's shared `Game` interface (engine/api.py)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.api import ClaimSpec, Ending, EndingKind, Game, Outcome, Seat, Side, Step, UndoScope
from engine.errors import IllegalAction
from engine.nika.actions import Action, Advance, Move, Pass, Rally, Rotate, parse_action, squares_text
from engine.nika.board import City, Direction, Team, square_name
from engine.nika.describe import describe_events
from engine.nika.events import Event
from engine.nika.state import GameState, Reason
from engine.nika.state import Outcome as NikaOutcome

SEATS = tuple(Seat(city.name.lower(), city.title, city.team.slug) for city in City)
SIDES = tuple(Side(team.slug, team.title, tuple(c.name.lower() for c in team.cities)) for team in Team)
_VERBS = {Move: "move", Rotate: "rotate", Advance: "advance", Rally: "rally", Pass: "pass"}


def _direction_step(direction: Direction) -> Step:
    return Step(direction.letter, f"{direction.word} ({direction.letter})", int(direction))


def city_of(seat: str) -> City:
    try:
        return City[seat.upper()]
    except KeyError:
        raise IllegalAction(f"{seat!r} is not a city of Nika") from None


class NikaGame(Game[GameState]):
    slug = "nika"
    title = "Nika"
    player_counts = (2, 3, 4)
    actions_per_turn = 2
    # A city's second action ends its turn, and the next city may act on it: it stands.
    undo_scope = UndoScope.TURN
    claim = ClaimSpec(verb="declare", concede_verb="concede", challenge_verb="challenge", title="Nika", option="team")
    seat_word = "city"

    def seats(self, players: int) -> tuple[Seat, ...]:
        if players not in self.player_counts:
            raise ValueError(f"Nika is for 2 to 4 players, not {players}")
        return SEATS  # four cities whatever the count: two or three players hold several

    def sides(self, players: int) -> tuple[Side, ...]:
        self.seats(players)
        return SIDES

    def new(self, players: int, options: Mapping[str, str], seed: int) -> GameState:
        self.seats(players)
        self.option_defaults(options)
        return GameState.start()

    def load(self, position: str) -> GameState:
        return GameState.from_notation(position)

    def notation(self, state: GameState) -> str:
        return state.notation()

    def state_seats(self, state: GameState) -> tuple[str, ...]:
        return tuple(seat.slug for seat in SEATS)

    def to_act(self, state: GameState) -> str | None:
        return None if state.outcome is not None else state.seat_to_act()

    def actions_left(self, state: GameState) -> int:
        return state.position.actions_left

    def outcome(self, state: GameState) -> Outcome | None:
        return generic_outcome(state.outcome) if state.outcome is not None else None

    def legal_actions(self, state: GameState) -> Sequence[Action]:
        return state.legal_actions()

    def apply(self, state: GameState, action: Action) -> tuple[GameState, Sequence[Event]]:
        return state.apply(action)

    def parse_action(self, text: str) -> Action:
        return parse_action(text)

    def end(self, state: GameState, ending: Ending) -> tuple[GameState, Sequence[Event]]:
        if ending.kind is EndingKind.RESIGNATION:
            # Resigning concedes the game for your team (the rulebook's "Nika" section).
            team = city_of(ending.seat or "").team
            return state.conclude(NikaOutcome(team.opponent, Reason.RESIGNATION)), ()
        if ending.kind is EndingKind.AGREEMENT:
            return state.conclude(NikaOutcome(None, Reason.AGREEMENT)), ()
        if ending.kind is EndingKind.CONCESSION:
            try:
                team = Team.from_slug(ending.side or "")
            except ValueError as error:
                raise IllegalAction(str(error)) from None
            # Declared by a player of the losing team (for the opponents): they conceded.
            declarer = city_of(ending.seat).team if ending.seat else team
            reason = Reason.CONCESSION if declarer == team else Reason.YIELDED
            return state.conclude(NikaOutcome(team, reason)), ()
        # Time ran out: the rest of the turn is passed, which may itself draw the game.
        if ending.seat != self.to_act(state):
            raise IllegalAction(f"it is not {ending.seat}'s turn")
        events: list[Event] = []
        city = state.to_act
        while not state.is_over and state.to_act == city:
            state, more = state.apply(Pass())
            events.extend(more)
        return state, events

    def describe(self, events: Sequence[Event]) -> str:
        return describe_events(events)

    def action_path(self, action: Action) -> tuple[Step, ...]:
        verb = _VERBS[type(action)]
        first = Step(verb, verb.capitalize())
        if isinstance(action, Move):
            return (first, Step(square_name(action.square), square_name(action.square)),
                    _direction_step(action.direction))  # fmt: skip
        if isinstance(action, Rotate | Advance):
            # Menus hold 25 choices: the largest formations, which matter most, come first.
            group = squares_text(action.squares)
            squares = Step(group, group, -len(action.squares))
            if isinstance(action, Advance):
                return (first, squares)
            return (first, squares, _direction_step(action.facing))
        if isinstance(action, Rally):
            return (first, Step(square_name(action.square), square_name(action.square)),
                    _direction_step(action.facing))  # fmt: skip
        return (first,)


def generic_outcome(outcome: NikaOutcome) -> Outcome:
    seats = frozenset(seat.slug for seat in SEATS)
    if outcome.winner is None:
        return Outcome(frozenset(), seats, outcome.reason.value, outcome.describe())
    winners = frozenset(city.name.lower() for city in outcome.winner.cities)
    return Outcome(winners, frozenset(), outcome.reason.value, outcome.describe())


GAME = NikaGame()
NIKA = GAME  # the name engine/__init__.py exported before the registry
