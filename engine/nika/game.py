"""Nika behind the engine's shared `Game` interface (engine/api.py)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.api import ClaimSpec, Ending, EndingKind, Game, Outcome, Seat, Side, Step, UndoScope
from engine.errors import GameOver, IllegalAction
from engine.i18n import Catalog, M, active, using
from engine.nika.actions import Action, Advance, Move, Pass, Rally, Rotate, parse_action, squares_text
from engine.nika.board import City, Direction, Team, square_name
from engine.nika.describe import describe_message
from engine.nika.events import Event
from engine.nika.record import FORMAT as RECORD_FORMAT
from engine.nika.record import upgraded
from engine.nika.state import GameState, Reason
from engine.nika.state import Outcome as NikaOutcome
from engine.nika.words import summary

# Titles stay English here (records, storage, the command surface); players read them as Terms.
SEATS = tuple(Seat(city.name.lower(), city.title, city.team.slug) for city in City)
SIDES = tuple(Side(team.slug, team.title, tuple(c.name.lower() for c in team.cities)) for team in Team)
_VERBS = {Move: "move", Rotate: "rotate", Advance: "advance", Rally: "rally", Pass: "pass"}
# What the board's buttons and menus call each action, and each direction (also the command's choices).
VERB_LABELS = {"move": M("Move"), "rotate": M("Rotate"), "advance": M("Advance"), "rally": M("Rally"),
               "pass": M("Pass")}  # fmt: skip
DIRECTION_LABELS = (M("north (n)"), M("east (e)"), M("south (s)"), M("west (w)"))


@dataclass(frozen=True, slots=True)
class _MenuSteps:
    """The labelled steps menus offer, in one language. Menus ask for the path of every legal
    action, so these are built once per language."""

    verbs: dict[str, Step]
    directions: tuple[Step, ...]


_MENU_STEPS: dict[str, _MenuSteps] = {}  # per language


def _menu_steps(catalog: Catalog) -> _MenuSteps:
    found = _MENU_STEPS.get(catalog.locale)
    if found is None:
        with using(catalog):
            steps = _MenuSteps(
                {verb: Step(verb, str(label)) for verb, label in VERB_LABELS.items()},
                tuple(Step(d.letter, str(DIRECTION_LABELS[d]), int(d)) for d in Direction),
            )
        found = _MENU_STEPS.setdefault(catalog.locale, steps)
    return found


def city_of(seat: str) -> City:
    try:
        return City[seat.upper()]
    except KeyError:
        raise IllegalAction(M("{seat} is not a city of Nika", seat=repr(seat))) from None


class NikaGame(Game[GameState, Action, Event]):
    slug = "nika"
    title = "Nika"
    player_counts = (2, 3, 4)
    actions_per_turn = 2
    # A city's second action ends its turn, and the next city may act on it: it stands.
    undo_scope = UndoScope.TURN
    claim = ClaimSpec(verb="declare", concede_verb="concede", challenge_verb="challenge", title="Nika", option="team")
    seat_word = "city"
    record_formats = (RECORD_FORMAT,)  # the first release's records

    def seats(self, players: int) -> tuple[Seat, ...]:
        if players not in self.player_counts:
            raise ValueError(M("Nika is for 2 to 4 players, not {players}", players=players))
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

    def snapshot(self, state: GameState) -> str:
        return state.snapshot()

    def held_key_bytes(self, state: GameState) -> int:
        assert state.history is not None
        return state.history.held_bytes()

    def restore(self, text: str) -> GameState:
        return GameState.restore(text)

    def archiving(self, state: GameState) -> GameState:
        return state.archiving()

    def newest_key(self, state: GameState) -> tuple[int, int] | None:
        assert state.history is not None
        return state.newest_key if state.history.root().archive is not None else None

    def new_keys(self, before: GameState, after: GameState) -> tuple[tuple[int, int], ...]:
        if self.newest_key(after) is None or after.length <= before.length:
            return ()
        keys = [before.newest_key] if before.length == 1 else []  # the start, stored with the first action
        if after.length == before.length + 1:
            return (*keys, after.newest_key)
        # Several plies in one step: only a timeout's passes do that. The positions between are
        # played again on a copy (a key the host misses would make a count wrong).
        state = before.detached()
        while state.length < after.length:
            state, _ = state.apply(Pass())
            keys.append(state.newest_key)
        if state.position != after.position:
            raise ValueError("a step of several plies that is not a turn passed")
        return tuple(keys)

    def share_answers(self, state: GameState, memo: dict[tuple[int, int], int]) -> None:
        assert state.history is not None
        archive = state.history.root().archive
        if archive is not None:
            archive.share(memo)

    def detached(self, state: GameState) -> GameState:
        return state.detached()

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
        if state.outcome is not None:  # said here, where the summary reads in the player's language
            raise GameOver(M("the game is over: {summary}", summary=summary(state.outcome)))
        return state.apply(action)

    def parse_action(self, text: str) -> Action:
        return parse_action(text)

    def end(self, state: GameState, ending: Ending) -> tuple[GameState, Sequence[Event]]:
        if state.outcome is not None and ending.kind is not EndingKind.TIMEOUT:
            raise GameOver(M("the game is over: {summary}", summary=summary(state.outcome)))
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
                raise IllegalAction(*error.args) from None
            # Declared by a player of the losing team (for the opponents): they conceded.
            declarer = city_of(ending.seat).team if ending.seat else team
            reason = Reason.CONCESSION if declarer == team else Reason.YIELDED
            return state.conclude(NikaOutcome(team, reason)), ()
        # Time ran out: the rest of the turn is passed, which may itself draw the game.
        if ending.seat != self.to_act(state):
            raise IllegalAction(M("it is not {seat}'s turn", seat=ending.seat))
        events: list[Event] = []
        city = state.to_act
        while not state.is_over and state.to_act == city:
            state, more = state.apply(Pass())
            events.extend(more)
        return state, events

    def upgrade_record(self, data: Mapping[str, Any]) -> dict[str, Any]:
        return upgraded(data)

    def describe(self, events: Sequence[Event]) -> str:
        return str(describe_message(events))

    def action_path(self, action: Action) -> tuple[Step, ...]:
        """Labelled in the language of the player who opens the menu (the active catalogue)."""
        steps = _menu_steps(active())
        first = steps.verbs[_VERBS[type(action)]]
        if isinstance(action, Move):
            return (first, Step(square_name(action.square), square_name(action.square)),
                    steps.directions[action.direction])  # fmt: skip
        if isinstance(action, Rotate | Advance):
            # Menus hold 25 choices: the largest formations, which matter most, come first.
            group = squares_text(action.squares)
            squares = Step(group, group, -len(action.squares))
            if isinstance(action, Advance):
                return (first, squares)
            return (first, squares, steps.directions[action.facing])
        if isinstance(action, Rally):
            return (first, Step(square_name(action.square), square_name(action.square)),
                    steps.directions[action.facing])  # fmt: skip
        return (first,)


def generic_outcome(outcome: NikaOutcome) -> Outcome:
    # The summary stays a Message: a finished game reads in each viewer's language.
    seats = frozenset(seat.slug for seat in SEATS)
    if outcome.winner is None:
        return Outcome(frozenset(), seats, outcome.reason.value, summary(outcome))
    winners = frozenset(city.name.lower() for city in outcome.winner.cities)
    return Outcome(winners, frozenset(), outcome.reason.value, summary(outcome))


GAME = NikaGame()
NIKA = GAME  # the name engine/__init__.py exported before the registry
