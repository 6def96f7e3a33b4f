"""One entry point for every format: what to create now, given everything so far.

The integration calls `advance` after every result (and at the start). It returns a `Plan`
(new tables and byes to create, games scored without play), `Waiting` (games still being
played), or `Finished` with the winners. It is a pure function of the stored state: calling
it twice on the same state gives the same answer, so whichever process stores the plan first
wins and the other finds nothing left to do (see docs/tournaments.md, "Integration plan").
"""

from __future__ import annotations

from bot.tournament import knockout, pods, round_robin, swiss
from bot.tournament.model import Event, EventState, Finished, Format, Plan, PodShape, Step, Waiting
from bot.tournament.standings import winners


def advance(state: EventState) -> Step:
    step: Plan | Waiting | None
    if state.event.format is Format.ROUND_ROBIN:
        step = round_robin.next_round(state)
    elif state.event.format is Format.SWISS:
        step = swiss.next_round(state)
    elif state.event.format is Format.KNOCKOUT:
        step = knockout.next_round(state)
    else:
        step = pods.next_round(state)
    return Finished(winners(state)) if step is None else step


def apply(state: EventState, plan: Plan) -> EventState:
    """The state once `plan` is stored: its tables added to the round, forfeits scored."""
    existing = next((r for r in state.rounds if r.number == plan.round), None)
    after = state.with_round(plan.round_value(existing))
    return after.with_results(dict(plan.forfeits)) if plan.forfeits else after


def minimum_entrants(event: Event) -> int:
    """The fewest entrants with which the event can start."""
    if event.format is Format.PODS:
        pod = event.pod or PodShape((1, 1))
        return min(sum(shape) for shape in pod.shapes)
    return 2


def suggested_swiss_rounds(entrants: int) -> int:
    """Enough rounds for a single winner to emerge from a field of this size: ⌈log₂ n⌉, at
    least three, and never more than everyone can play without rematches."""
    rounds = max(3, (max(entrants, 2) - 1).bit_length())
    return min(rounds, max(entrants - 1, 1))
