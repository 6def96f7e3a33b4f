"""Numica behind the engine's shared `Game` interface (engine/api.py)."""

from __future__ import annotations

import random
import sys
from collections.abc import Mapping, Sequence

from engine.api import Choice, Ending, EndingKind, Game, MatchOption, Outcome, Seat, Step, UndoScope
from engine.errors import IllegalAction
from engine.i18n import M
from engine.numica.actions import Move, parse_action
from engine.numica.board import COLOURS, Colour, not_a_side, square_name
from engine.numica.describe import describe_events
from engine.numica.events import Event
from engine.numica.outcomes import drawn, resigned, timed_out
from engine.numica.setup import ARRANGEMENTS, arrangement_label, back_row_tiles, deal, parse_arrangement
from engine.numica.state import ALREADY_SET_UP, GameState, game_over

SEATS = tuple(Seat(colour.slug, colour.title, colour.slug) for colour in COLOURS)
# Option words are data: the host's catalogue translates them where they are shown.
SETUP_OPTION = MatchOption(
    "setup",
    "How the back rows are arranged: each side chooses in secret, or both at random",
    (Choice("choose", "each side chooses"), Choice("random", "at random")),
    "choose",
)


def colour_of(seat: str) -> Colour:
    try:
        return Colour.from_slug(seat)
    except IllegalAction:
        raise IllegalAction(not_a_side(seat)) from None


class NumicaGame(Game[GameState, Move, Event]):
    slug = "numica"
    title = "Numica"
    player_counts = (2,)
    options = (SETUP_OPTION,)
    actions_per_turn = 1
    undo_scope = UndoScope.UNTIL_NEXT_ACTION
    claim = None
    seat_word = "side"
    has_setup = True  # each side arranges its back row before the first move

    def seats(self, players: int) -> tuple[Seat, ...]:
        if players != 2:
            raise ValueError(f"Numica is for 2 players, not {players}")
        return SEATS

    def new(self, players: int, options: Mapping[str, str], seed: int) -> GameState:
        """The tiles dealt from `seed`; with setup=random both back rows are drawn from it too,
        otherwise the state waits for both sides' choices (`apply_setup`)."""
        self.seats(players)
        chosen = self.option_defaults(options)
        rng = random.Random(seed)
        state = GameState.setup(deal(rng))
        if chosen["setup"] == "random":
            state, _ = state.arrange({colour: rng.choice(ARRANGEMENTS) for colour in COLOURS})
        return state

    def load(self, position: str) -> GameState:
        return GameState.from_notation(position)

    def notation(self, state: GameState) -> str:
        return state.notation()

    def snapshot(self, state: GameState) -> str | None:
        return state.snapshot()

    def held_key_bytes(self, state: GameState) -> int:
        return sys.getsizeof(state.history) + sum(sys.getsizeof(key) for key in state.history)

    def restore(self, text: str) -> GameState:
        return GameState.restore(text)

    def state_seats(self, state: GameState) -> tuple[str, ...]:
        return tuple(seat.slug for seat in SEATS)

    def to_act(self, state: GameState) -> str | None:
        return None if state.outcome is not None or state.setting_up else state.to_act.slug

    def outcome(self, state: GameState) -> Outcome | None:
        return state.outcome

    def legal_actions(self, state: GameState) -> Sequence[Move]:
        return state.legal_moves()

    def apply(self, state: GameState, action: Move) -> tuple[GameState, Sequence[Event]]:
        return state.apply(action)

    def parse_action(self, text: str) -> Move:
        return parse_action(text)

    def canonical(self, state: GameState, action: Move) -> Move:
        """The legal move with the right mark (`x` for a capture), or `action` itself if illegal."""
        if isinstance(action, Move):
            for move in state.legal_moves():
                if move == action:
                    return move
        return action  # not legal here: apply says why

    def end(self, state: GameState, ending: Ending) -> tuple[GameState, Sequence[Event]]:
        if state.outcome is not None:
            raise game_over(state.outcome)
        if ending.kind is EndingKind.CONCESSION:
            raise IllegalAction(M("Numica has no claims to concede: a side may resign, or both may agree a draw"))
        if ending.kind is EndingKind.AGREEMENT:
            return state.conclude(drawn("agreement"))
        colour = colour_of(ending.seat or "")
        if ending.kind is EndingKind.RESIGNATION:
            return state.conclude(resigned(colour))
        # Time runs for the side to move; while setting up, for either side still choosing.
        if not state.setting_up and colour != state.to_act:
            raise IllegalAction(
                M(
                    "it is {side:poss} turn: {other} cannot run out of time now",
                    side=state.to_act.term,
                    other=colour.term,
                )
            )
        return state.conclude(timed_out(colour))

    def describe(self, events: Sequence[Event]) -> str:
        return describe_events(events)

    def action_path(self, action: Move) -> tuple[Step, ...]:
        frm, to = square_name(action.frm), square_name(action.to)
        if action.capture:  # captures first: they are what a player looks for
            return (Step(frm, frm), Step(to, str(M("{square} ✕ captures", square=to)), -1))
        return (Step(frm, frm), Step(to, to))

    # --- setup: each side's back row, chosen in secret ----------------------------------
    def setup_pending(self, state: GameState) -> tuple[str, ...]:
        return tuple(c.slug for c in COLOURS) if state.setting_up and state.outcome is None else ()

    def setup_secret(self) -> bool:
        return True

    def setup_choices(self, state: GameState, seat: str) -> Sequence[Choice]:
        colour = colour_of(seat)
        if not state.setting_up:
            return ()
        tiles = back_row_tiles(state.position.tiles, colour)
        return tuple(Choice(row, arrangement_label(row, tiles)) for row in ARRANGEMENTS)

    def parse_setup(self, state: GameState, seat: str, text: str) -> str:
        colour_of(seat)
        if not state.setting_up:
            raise IllegalAction(ALREADY_SET_UP)
        return parse_arrangement(text)

    def apply_setup(self, state: GameState, choices: Mapping[str, str]) -> tuple[GameState, Sequence[Event]]:
        unknown = [seat for seat in choices if seat not in ("red", "blue")]
        if unknown:
            raise IllegalAction(not_a_side(unknown[0]))
        missing = [colour.term for colour in COLOURS if colour.slug not in choices]
        if missing:
            raise IllegalAction(
                M("{side} has not arranged its back row yet: both rows are placed at once", side=missing[0])
            )
        return state.arrange({colour: parse_arrangement(choices[colour.slug]) for colour in COLOURS})


GAME = NumicaGame()
