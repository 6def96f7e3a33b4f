"""Pods: games of more than two sides, or of teams, with everyone regrouped each round.

The first round's tables are drawn by lot; from then on entrants are regrouped by the
standings: the leaders play together, then the next ones, and so on down, so each round
pits players of like score against each other, as Swiss does for two. Going down the
standings a table takes the best-placed player left, then, from the next few, those who have
met its players least often, so the same foursome does not meet round after round when a
swap of a place or two avoids it.

Uneven counts: the tables are the event's shape where possible and its fallback shapes
otherwise (a four-player free-for-all also seats three, and two as a last resort; teams of
two also play one against one, each player holding their side's seats). Among the ways to
seat everyone the fewest byes come first, then the fewest fallback tables, then the largest
smallest table (so nine players play three threes, not a four, a three and a two). Fallback
tables go to the bottom of the standings. Only when no shapes add up to the count does
someone sit out: the lowest placed among those with the fewest byes. A pods bye scores ½
point, the average a game scores per side, so sitting out neither helps nor hurts.

Within a table: teams are drawn fresh each round, pairing as partners those who have been
partners least, then balancing the sides by standing (first and fourth against second and
third); seats go to whoever has sat in them least (so moving first rotates); remaining
choices are drawn by lot from the event's seed.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction

from bot.tournament.model import Bye, EntrantId, EventState, Plan, PodShape, Table, Waiting
from bot.tournament.records import records
from bot.tournament.standings import standings

BYE_POINTS = Fraction(1, 2)


def layout(count: int, pod: PodShape) -> tuple[list[tuple[int, ...]], int]:
    """The tables (shapes, primary ones first) that seat the most of `count` entrants, and how
    many sit out."""
    shapes = pod.shapes
    sizes = [sum(s) for s in shapes]
    limit = sizes[0] + 1  # more fallback tables than this is never needed
    for seated in range(count, -1, -1):
        best: tuple[tuple[int, int], list[int]] | None = None
        for extra in itertools.product(range(limit), repeat=len(shapes) - 1):
            rest = seated - sum(n * size for n, size in zip(extra, sizes[1:], strict=True))
            if rest < 0 or rest % sizes[0]:
                continue
            counts = [rest // sizes[0], *extra]
            used = [size for n, size in zip(counts, sizes, strict=True) if n]
            cost = (sum(i * n for i, n in enumerate(counts)), -min(used, default=0))
            if best is None or cost < best[0]:
                best = (cost, counts)
        if best is not None:
            tables = [shape for shape, n in zip(shapes, best[1], strict=True) for _ in range(n)]
            return tables, count - seated
    return [], count


def next_round(state: EventState) -> Plan | Waiting | None:
    """The next round's tables once the current round is decided; None after the last."""
    current = len(state.rounds)
    if state.pending():
        return Waiting(current)
    pod = state.event.pod
    assert pod is not None
    number = current + 1
    active = {e.id for e in state.active(number)}
    if current >= (state.event.rounds or 0) or len(active) < min(sum(s) for s in pod.shapes):
        return None
    rng = random.Random(f"{state.event.seed}:{number}")
    if current == 0:
        ranked = [e.id for e in state.event.seeded]
        rng.shuffle(ranked)
    else:
        ranked = [s.entrant for s in standings(state) if s.entrant in active]
    found = records(state)
    shapes, sitting = layout(len(ranked), pod)
    fewest = min((len(found[e].byes) for e in ranked), default=0)
    byes: list[EntrantId] = []
    for level in range(fewest, fewest + len(state.rounds) + 1):
        for entrant in reversed(ranked):
            if len(byes) < sitting and len(found[entrant].byes) == level and entrant not in byes:
                byes.append(entrant)
    remaining = [e for e in ranked if e not in byes]
    meetings: Counter[frozenset[EntrantId]] = Counter()
    partners: Counter[frozenset[EntrantId]] = Counter()
    seats: Counter[tuple[EntrantId, int]] = Counter()
    for record in found.values():
        for game in record.games:
            for other in game.table.entrants:
                if other != record.entrant:
                    meetings[frozenset((record.entrant, other))] += 1
            for other in game.table.sides[game.side]:
                if other != record.entrant:
                    partners[frozenset((record.entrant, other))] += 1
            seats[(record.entrant, game.table.entrants.index(record.entrant))] += 1
    place = {e: i for i, e in enumerate(ranked)}
    tables: list[Table] = []
    for board, shape in enumerate(sorted(shapes, key=lambda s: -sum(s)), start=1):
        size = sum(shape)
        chosen = [remaining.pop(0)]
        while len(chosen) < size:
            window = remaining[:size]
            pick = min(window, key=lambda e: (sum(meetings[frozenset((e, c))] for c in chosen), place[e]))
            chosen.append(pick)
            remaining.remove(pick)
        table_rng = random.Random(f"{state.event.seed}:{number}:{board}")
        tables.append(Table(number, board, _seat(chosen, shape, partners, seats, place, table_rng)))
    return Plan(number, tuple(tables), tuple(Bye(e, BYE_POINTS) for e in byes))


def _seat(chosen: list[EntrantId], shape: tuple[int, ...], partners: Counter[frozenset[EntrantId]],
          seats: Counter[tuple[EntrantId, int]], place: dict[EntrantId, int], rng: random.Random,
          ) -> tuple[tuple[EntrantId, ...], ...]:  # fmt: skip
    """The table's sides in seat order: fewest repeated partners, then sides level by standing,
    then seats each has had least; the rest by lot."""
    orders = list(itertools.permutations(chosen))
    rng.shuffle(orders)
    bounds = list(itertools.accumulate(shape, initial=0))

    def cost(order: tuple[EntrantId, ...]) -> tuple[int, int, int]:
        sides = [order[a:b] for a, b in itertools.pairwise(bounds)]
        repeated = sum(partners[frozenset(pair)] for side in sides for pair in itertools.combinations(side, 2))
        strengths = [sum(place[e] for e in side) for side in sides if len(side) > 1]
        imbalance = max(strengths) - min(strengths) if strengths else 0
        return repeated, imbalance, sum(seats[(e, i)] for i, e in enumerate(order))

    best = min(orders, key=cost)
    return tuple(best[a:b] for a, b in itertools.pairwise(bounds))
