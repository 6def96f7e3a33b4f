"""Round robin: everyone meets everyone, once or (double) twice with sides swapped.

The schedule is the circle method with its canonical colouring: entrants take numbers by lot,
one number stays in the centre and the others turn around it. Each round the centre plays
the number at the turning point and the others pair across the circle; who moves first
alternates with the distance across. Every entrant's firsts and seconds then differ by at
most one after every round, nobody moves first (or second) three times running, and the
schedule has the fewest possible repeats (n − 2). With an odd count a dummy completes the
circle: whoever meets it sits the round out (a bye worth nothing, everyone gets one).

The second cycle of a double round robin plays the rounds of the first in reverse order with
sides swapped, which keeps the same balance across the join and ends exactly level.

A withdrawn entrant plays no more: each game the schedule still held for them is scored as a
forfeit win for the opponent (and, as it was never played, counts for no side balance),
so every remaining entrant ends with the same number of games. Their played results stand.
"""

from __future__ import annotations

import random
from fractions import Fraction

from bot.tournament.model import Bye, EntrantId, Event, EventState, Plan, Result, Table, Waiting

NO_POINTS = Fraction(0)


def numbered(event: Event) -> tuple[EntrantId, ...]:
    """The entrants in the order of their numbers, drawn by lot from the event's seed."""
    ids = [e.id for e in event.seeded]
    random.Random(event.seed).shuffle(ids)
    return tuple(ids)


Pair = tuple[EntrantId | None, EntrantId | None]


def schedule(entrants: tuple[EntrantId, ...], double: bool = False) -> list[list[Pair]]:
    """Every round as (first, second) pairs; None is the dummy of an odd count."""
    players: list[EntrantId | None] = list(entrants)
    if len(players) % 2:
        players.append(None)
    count = len(players)
    turning = count - 1  # numbers on the circle
    rounds: list[list[Pair]] = []
    for r in range(turning):
        centre = players[-1]
        pairs = [(players[r], centre) if r % 2 == 0 else (centre, players[r])]
        for k in range(1, count // 2):
            ahead, behind = players[(r + k) % turning], players[(r - k) % turning]
            pairs.append((ahead, behind) if k % 2 else (behind, ahead))
        rounds.append(pairs)
    if double:
        rounds += [[(b, a) for a, b in pairs] for pairs in reversed(rounds)]
    return rounds


def rounds_in(event: Event) -> int:
    count = len(event.entrants) + len(event.entrants) % 2
    return (count - 1) * (2 if event.double else 1)


def next_round(state: EventState) -> Plan | Waiting | None:
    """The next round once the current one is decided, with forfeits for withdrawn entrants;
    None when every round has been played."""
    current = len(state.rounds)
    if state.pending():
        return Waiting(current)
    if current >= rounds_in(state.event):
        return None
    number = current + 1
    pairs = schedule(numbered(state.event), state.event.double)[number - 1]
    active = {e.id for e in state.active(number)}
    tables: list[Table] = []
    byes: list[Bye] = []
    forfeits: list[tuple[Table, Result]] = []
    board = 0
    for first, second in sorted(pairs, key=lambda p: _board_order(state, p)):
        if first is None or second is None:
            sitting = first if second is None else second
            if sitting is not None and sitting in active:
                byes.append(Bye(sitting, NO_POINTS))
            continue
        board += 1
        table = Table(number, board, ((first,), (second,)))
        playing = (first in active, second in active)
        if all(playing):
            tables.append(table)
        elif any(playing):
            forfeits.append((table, Result.win(0 if playing[0] else 1, forfeit=True)))
        # neither is active: both withdrew, the game is simply not played
    return Plan(number, tuple(tables), tuple(byes), tuple(forfeits))


def _board_order(state: EventState, pair: Pair) -> tuple[int, int]:
    """Boards listed with the best seeds first; the dummy's pairing last."""
    seeds = {e.id: i for i, e in enumerate(state.event.seeded)}
    known = [seeds[p] for p in pair if p is not None]
    return (len(pair) - len(known), min(known, default=len(seeds)))
