"""Swiss pairing by maximum-weight matching (networkx's `max_weight_matching`).

Every possible game of the round is an edge whose weight encodes what an arbiter weighs, in
strict priority (a higher criterion outweighs any sum of lower ones):

1. no second bye for anyone while someone else has had fewer;
2. no rematch while one can be avoided;
3. sides kept within one: nobody ends a round with two more games moving first than second
   (or the reverse);
4. scores as equal as possible: the sum of squared score differences across the boards is
   minimal, so players meet their own score group and the fewest float, by the least;
5. side preferences met: those who moved first last time (or more often) move second;
6. within a score group, the top half meets the bottom half in order (1 v ½n+1, 2 v ½n+2, …),
   as the Dutch system does; the bye goes to the lowest-ranked player of the lowest group.

An odd count adds a bye vertex; the bye scores one point and counts as no game for sides.
With maximum cardinality the matching pairs everyone, and the weights make it the
lexicographic optimum of the list above. The weights are Python integers, which networkx
handles exactly.

For large rounds the complete graph is slow (networkx's matching is pure Python, O(n³)), so
above `COMPLETE_UP_TO` entrants a sparse graph is tried first: each player's neighbours in
the standings and those around their ideal half-split partner. Its result is kept only if it
pairs everyone with no repeated bye, no rematch and no side imbalance, which are then optimal
as they cannot be bettered; otherwise the complete graph decides.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, TypeAlias

import networkx as nx

from bot.tournament.model import Bye, EntrantId, EventState, Plan, Table, Waiting
from bot.tournament.records import records

if TYPE_CHECKING:
    Graph: TypeAlias = nx.Graph[int]  # networkx's classes are generic only in their stubs
else:
    Graph = nx.Graph

BYE_POINTS = Fraction(1)
COMPLETE_UP_TO = 40
WINDOW = 5  # sparse graph: neighbours each way in the standings, and around the ideal partner
BYE = -1  # the bye's vertex


@dataclass(frozen=True, slots=True)
class Player:
    """What pairing needs to know of one entrant. `rank` orders players (0 best: by score, then
    seed); `sides` lists the side played in each game over the board (0 moved first)."""

    id: EntrantId
    rank: int
    score: Fraction
    met: frozenset[EntrantId] = frozenset()
    sides: tuple[int, ...] = ()
    byes: int = 0

    @property
    def balance(self) -> int:
        return sum(1 if s == 0 else -1 for s in self.sides)

    def preference(self) -> tuple[int | None, int]:
        """(the side wanted, strength): 2 when the balance requires it, 1 to alternate, 0 none."""
        if self.balance > 0:
            return 1, 2
        if self.balance < 0:
            return 0, 2
        if self.sides:
            return 1 - self.sides[-1], 1
        return None, 0


@dataclass(frozen=True, slots=True)
class Pairing:
    boards: tuple[tuple[EntrantId, EntrantId], ...]  # (first, second), best board first
    bye: EntrantId | None


def can_balance(a: Player, b: Player) -> bool:
    """Whether some choice of sides keeps both within one game of level (or brings them back)."""
    return any(_within(a, first) and _within(b, 1 - first) for first in (0, 1))


def _within(player: Player, side: int) -> bool:
    after = player.balance + (1 if side == 0 else -1)
    return abs(after) <= max(1, abs(player.balance) - 1)


def choose_sides(a: Player, b: Player, board: int, coin: int) -> tuple[EntrantId, EntrantId]:
    """(first, second) for players `a` and `b`: keep both in balance, then meet the stronger
    preference, then the higher-ranked player's; with no preference at all, alternate down the
    boards from a side drawn by lot."""
    high, low = (a, b) if a.rank < b.rank else (b, a)
    options = [side for side in (0, 1) if _within(high, side) and _within(low, 1 - side)] or [0, 1]
    (want_high, strength_high), (want_low, strength_low) = high.preference(), low.preference()
    if want_high is None and want_low is None:
        side = (coin + board) % 2
    elif want_high is None or (want_low is not None and strength_low > strength_high):
        side = 1 - want_low if want_low is not None else 0
    else:
        side = want_high
    if side not in options:
        side = options[0]
    return (high.id, low.id) if side == 0 else (low.id, high.id)


def _preference_value(a: Player, b: Player) -> int:
    """2 when both preferences can be met by the sides `choose_sides` picks, less for each unmet."""
    first, _ = choose_sides(a, b, 0, 0)
    value = 2
    for player in (a, b):
        wanted, strength = player.preference()
        side = 0 if player.id == first else 1
        if wanted is not None and side != wanted:
            value -= strength
    return max(value, 0)


def _half_points(value: Fraction) -> int:
    doubled = value * 2
    if doubled.denominator != 1:
        raise ValueError(f"Swiss scores are whole or half points, not {value}")
    return int(doubled)


class _Weights:
    """Edge weights: the priority levels above folded into one integer per edge."""

    LEVELS = 6

    def __init__(self, players: Sequence[Player]) -> None:
        self.players = players
        self.fewest_byes = min(p.byes for p in players)
        scores = [_half_points(p.score) for p in players]
        self.lowest = min(scores)
        self.spread = (max(scores) - self.lowest + 1) ** 2
        groups: dict[Fraction, list[Player]] = {}
        for player in sorted(players, key=lambda p: p.rank):
            groups.setdefault(player.score, []).append(player)
        self.position = {p.id: (i, len(group)) for group in groups.values() for i, p in enumerate(group)}
        self.largest = max(len(group) for group in groups.values())
        edges = (len(players) + 1) // 2 + 1
        ranges = [1, 1, 1, self.spread, 2, self.largest]
        self.bases = [1] * self.LEVELS
        for level in range(self.LEVELS - 2, -1, -1):
            self.bases[level] = self.bases[level + 1] * (edges * ranges[level + 1] + 1)

    def fold(self, levels: Iterable[int]) -> int:
        return sum(v * b for v, b in zip(levels, self.bases, strict=True))

    def game(self, a: Player, b: Player) -> int:
        return self.fold(self.game_levels(a, b))

    def game_levels(self, a: Player, b: Player) -> tuple[int, ...]:
        difference = _half_points(a.score) - _half_points(b.score)
        (pa, size), (pb, _) = self.position[a.id], self.position[b.id]
        split = self.largest - abs(abs(pa - pb) - size // 2) if a.score == b.score else 0
        return (
            1,
            0 if b.id in a.met else 1,
            1 if can_balance(a, b) else 0,
            self.spread - difference**2,
            _preference_value(a, b),
            max(split, 0),
        )

    def bye(self, player: Player) -> int:
        return self.fold(self.bye_levels(player))

    def bye_levels(self, player: Player) -> tuple[int, ...]:
        above = _half_points(player.score) - self.lowest + 1  # the bye sits half a point below the lowest
        position, _ = self.position[player.id]
        return (1 if player.byes == self.fewest_byes else 0, 1, 1, self.spread - above**2, 2, position)


def pair(players: Sequence[Player], *, lot: int = 0, complete: bool | None = None) -> Pairing:
    """The boards of one round (and its bye, for an odd count). `lot` draws the sides of
    players without any preference; `complete` forces (or forbids) the complete graph."""
    if len(players) < 2:
        return Pairing((), players[0].id if players else None)
    weights = _Weights(players)
    by_id = {p.id: p for p in players}
    use_complete = len(players) <= COMPLETE_UP_TO if complete is None else complete
    matching = None
    if not use_complete:
        matching = _match(_sparse_graph(players, weights))
        if not _clean(matching, by_id, weights, len(players)):
            matching = None
    if matching is None:
        matching = _match(_complete_graph(players, weights))
    return _boards(matching, by_id, lot)


def _match(graph: Graph) -> set[tuple[int, int]]:
    return set(nx.max_weight_matching(graph, maxcardinality=True))


def _complete_graph(players: Sequence[Player], weights: _Weights) -> Graph:
    graph: Graph = nx.Graph()
    for i, a in enumerate(players):
        for b in players[i + 1 :]:
            graph.add_edge(a.id, b.id, weight=weights.game(a, b))
        if len(players) % 2:
            graph.add_edge(a.id, BYE, weight=weights.bye(a))
    return graph


def _sparse_graph(players: Sequence[Player], weights: _Weights) -> Graph:
    """Candidate games for a large round. Sides can only stay level when a player who moved
    first more often meets one who moved second more often, or someone level; listing those
    three kinds in standings order and joining each to a band of the others around the same
    place in their list always leaves a complete pairing to find (rematches aside). To that
    come each player's nearest good opponents down and up the standings and those around the
    ideal half-split partner (good: not met, sides can stay level), and the bye's candidates."""
    order = sorted(players, key=lambda p: p.rank)
    graph: Graph = nx.Graph()

    def add(a: Player, b: Player) -> None:
        if a.id != b.id and not graph.has_edge(a.id, b.id):
            graph.add_edge(a.id, b.id, weight=weights.game(a, b))

    def add_good(player: Player, candidates: Iterable[Player]) -> None:
        added = 0
        for other in candidates:
            if added == WINDOW:
                return
            if other.id != player.id and other.id not in player.met and can_balance(player, other):
                added += 1
                add(player, other)

    ahead = [p for p in order if p.balance > 0]
    behind = [p for p in order if p.balance < 0]
    level = [p for p in order if p.balance == 0]
    for mine, theirs in ((ahead, behind), (ahead, level), (behind, level), (level, level)):
        for k, player in enumerate(mine):
            start = k - len(behind) if mine is ahead and theirs is level else k
            start = k - len(ahead) if mine is behind and theirs is level else start
            for other in theirs[max(0, start - WINDOW) : max(0, start + WINDOW + 1)]:
                add(player, other)
    groups: dict[Fraction, list[Player]] = {}
    for player in order:
        groups.setdefault(player.score, []).append(player)
    for i, player in enumerate(order):
        add_good(player, order[i + 1 :])
        add_good(player, reversed(order[:i]))
    for group in groups.values():
        half = len(group) // 2
        for i, player in enumerate(group[:half]):
            ideal = i + half
            outward = sorted(range(half, len(group)), key=lambda j: (abs(j - ideal), j))
            add_good(player, (group[j] for j in outward))
    if len(players) % 2:
        fresh = [p for p in reversed(order) if p.byes == weights.fewest_byes][: 2 * WINDOW]
        for player in fresh:
            graph.add_edge(player.id, BYE, weight=weights.bye(player))
    return graph


def _clean(matching: set[tuple[int, int]], by_id: dict[EntrantId, Player], weights: _Weights, count: int) -> bool:
    if len(matching) != (count + 1) // 2:
        return False
    for u, v in matching:
        if BYE in (u, v):
            continue
        a, b = by_id[u], by_id[v]
        if b.id in a.met or not can_balance(a, b):
            return False
    return True


def _boards(matching: set[tuple[int, int]], by_id: dict[EntrantId, Player], lot: int) -> Pairing:
    bye: EntrantId | None = None
    games: list[tuple[Player, Player]] = []
    for u, v in matching:
        if BYE in (u, v):
            bye = v if u == BYE else u
            continue
        a, b = by_id[u], by_id[v]
        games.append((a, b) if a.rank < b.rank else (b, a))
    # Best board first: the higher score on it, then the higher sum, then the better rank.
    games.sort(key=lambda g: (-max(g[0].score, g[1].score), -(g[0].score + g[1].score), g[0].rank))
    boards = tuple(choose_sides(a, b, board, lot) for board, (a, b) in enumerate(games))
    return Pairing(boards, bye)


def players_of(state: EventState, round_number: int) -> list[Player]:
    """The active entrants as pairing sees them before `round_number`."""
    found = records(state)
    active = state.active(round_number)
    seed_order = {e.id: i for i, e in enumerate(state.event.seeded)}
    ranked = sorted(active, key=lambda e: (-found[e.id].points, seed_order[e.id]))
    return [
        Player(e.id, rank, found[e.id].points, frozenset(found[e.id].met()), tuple(found[e.id].sides),
               len(found[e.id].byes))
        for rank, e in enumerate(ranked)
    ]  # fmt: skip


def next_round(state: EventState) -> Plan | Waiting | None:
    """The next round's pairing once the current round is decided; None after the last."""
    current = len(state.rounds)
    if state.pending():
        return Waiting(current)
    rounds = state.event.rounds or 0
    number = current + 1
    players = players_of(state, number)
    if current >= rounds or len(players) < 2:
        return None
    pairing = pair(players, lot=random.Random(state.event.seed).randrange(2))
    tables = tuple(Table(number, board, ((first,), (second,)))
                   for board, (first, second) in enumerate(pairing.boards, start=1))  # fmt: skip
    byes = (Bye(pairing.bye, BYE_POINTS),) if pairing.bye is not None else ()
    return Plan(number, tables, byes)
