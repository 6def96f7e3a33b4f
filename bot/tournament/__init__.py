"""Tournaments for every game: formats, pairing, standings. Pure: no storage, no Discord.

    Event(format, entrants, seed, rounds=, double=, pod=)    what the organiser chose
    EventState(event, rounds, results, withdrawn)            everything so far (stored by the host)
    advance(state) -> Plan | Waiting | Finished              what to create now
    apply(state, plan) -> EventState                         the state once a plan is stored
    standings(state) -> [Standing]                           points, tie-breaks, places

Formats: `round_robin` (circle method), `swiss` (maximum-weight matching), `knockout`
(seeded bracket, drawn games replayed), `pods` (free-for-all or team tables regrouped by
standing). `present` turns standings into the picture's table and text. See
docs/tournaments.md for the rules each follows.
"""

from bot.tournament.event import advance, apply, minimum_entrants, suggested_swiss_rounds
from bot.tournament.model import (
    Bye,
    Entrant,
    EntrantId,
    Event,
    EventState,
    Finished,
    Format,
    Plan,
    PodShape,
    Result,
    Round,
    Step,
    Table,
    Waiting,
)
from bot.tournament.standings import TIE_BREAKS, Standing, TieBreak, standings, winners

__all__ = [
    "TIE_BREAKS",
    "Bye",
    "Entrant",
    "EntrantId",
    "Event",
    "EventState",
    "Finished",
    "Format",
    "Plan",
    "PodShape",
    "Result",
    "Round",
    "Standing",
    "Step",
    "Table",
    "TieBreak",
    "Waiting",
    "advance",
    "apply",
    "minimum_entrants",
    "standings",
    "suggested_swiss_rounds",
    "winners",
]
