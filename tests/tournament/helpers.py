"""Building events and playing them through, for the tournament tests."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from bot.tournament import (
    Bye,
    Entrant,
    Event,
    EventState,
    Finished,
    Plan,
    Result,
    Round,
    Table,
    Waiting,
    advance,
    apply,
)

Decide = Callable[[Table], Result]


def entrants(count: int) -> tuple[Entrant, ...]:
    """Entrants 1..count, rated so that entrant 1 is the top seed."""
    return tuple(Entrant(i, rating=2000 - 10 * i) for i in range(1, count + 1))


def first_wins(table: Table) -> Result:
    return Result.win(0, len(table.sides))


def better_seed_wins(table: Table) -> Result:
    """The side holding the lowest entrant id (the best seed) wins."""
    best = min(range(len(table.sides)), key=lambda i: min(table.sides[i]))
    return Result.win(best, len(table.sides))


def play(event: Event, decide: Decide, *, withdraw: dict[int, int] | None = None,
         limit: int = 400) -> tuple[EventState, Finished]:  # fmt: skip
    """Play the event to its end: each step's plan is applied, then every pending table decided
    by `decide`. `withdraw` maps an entrant to the round after whose pairing they leave."""
    state = EventState(event)
    withdraw = dict(withdraw or {})
    for _ in range(limit):
        step = advance(state)
        if isinstance(step, Finished):
            return state, step
        if isinstance(step, Waiting):
            state = state.with_results({t: decide(t) for t in state.pending()})
            continue
        assert isinstance(step, Plan)
        state = apply(state, step)
        for entrant, after in list(withdraw.items()):
            if after == step.round and entrant not in state.withdrawn:
                state = state.with_withdrawal(entrant)
                # Leaving resigns the running game: the others at the table win it.
                for table in state.pending():
                    if entrant in table.entrants:
                        side = table.side_of(entrant)
                        ranks = tuple(2 if i == side else 1 for i in range(len(table.sides)))
                        state = state.with_results({table: Result(ranks)})
    raise AssertionError("the event did not finish")


Game = tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]  # sides, ranks
HandRound = tuple[list[Game], list[tuple[int, Fraction]]]  # games, byes (entrant, points)


def built(event: Event, rounds: list[HandRound], withdrawn: dict[int, int] | None = None) -> EventState:
    """A state from hand-written rounds: each a list of (sides, ranks) and a list of byes."""
    made: list[Round] = []
    results: dict[Table, Result] = {}
    for number, (games, byes) in enumerate(rounds, start=1):
        tables = []
        for board, (sides, ranks) in enumerate(games, start=1):
            table = Table(number, board, sides)
            tables.append(table)
            results[table] = Result(ranks)
        made.append(Round(number, tuple(tables), tuple(Bye(e, p) for e, p in byes)))
    return EventState(event, tuple(made), results, withdrawn or {})
