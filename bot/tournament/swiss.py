"""Swiss pairing by maximum-weight matching (networkx's `max_weight_matching`).

Every possible game of the round is an edge whose weight encodes what an arbiter weighs, in
strict priority (a higher criterion outweighs any sum of lower ones):

1. no second bye for anyone while someone else has had fewer;
2. no rematch while one can be avoided;
3. FIDE's absolute side limits: nobody ends a round with more than two games moving first
   than second (or the reverse), nor moves first (or second) three times running;
4. scores as equal as possible: the sum of squared score differences across the boards is
   minimal, so players meet their own score group and the fewest float, by the least;
5. sides balanced within one: nobody two games ahead (or behind) moving first;
6. side preferences met: those who moved first last time (or more often) move second;
7. within a score group, the top half meets the bottom half in order (1 v ½n+1, 2 v ½n+2, …),
   as the Dutch system does; the bye goes to the lowest-ranked player of the lowest group.

Score groups come before balance within one, as the issue orders them and as FIDE does: when
every round-one winner moved first, winners still meet winners (one of them then moves first
twice), rather than meeting losers for the sake of sides. Balance within one holds whenever the
score groups leave a choice, which in practice is nearly always (see docs/tournaments.md).

An odd count adds a bye vertex; the bye scores one point and counts as no game for sides.
With maximum cardinality the matching pairs everyone, and the weights make it the
lexicographic optimum of the list above. The weights are Python integers, which networkx
handles exactly.

A small field with many rounds can pair itself into a corner, so for small fields each round
also looks one round ahead (see `_looking_ahead`).

For large rounds the complete graph is slow (networkx's matching is pure Python, O(n³)), so
above `COMPLETE_UP_TO` entrants a sparse graph is tried first: each player's neighbours in
the standings and those around their ideal half-split partner. Its result is kept only if it
pairs everyone with no repeated bye, no rematch and no side beyond the absolute limits, which
are then optimal as they cannot be bettered; otherwise the complete graph decides.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, TypeAlias

from bot.tournament.model import Bye, EntrantId, EventState, Plan, Table, Waiting
from bot.tournament.records import records

if TYPE_CHECKING:
    import networkx as nx

    Graph: TypeAlias = nx.Graph[int]  # networkx's classes are generic only in their stubs
else:
    Graph = object


def _new_graph() -> Graph:
    # networkx is imported when a Swiss round is first paired: importing it takes most of a second,
    # which every start of the bot (and of its console) would otherwise pay.
    import networkx

    graph: Graph = networkx.Graph()
    return graph

BYE_POINTS = Fraction(1)
COMPLETE_UP_TO = 40  # entrants; above, a sparse graph is tried first
WINDOW = 3  # sparse graph: good opponents each way in the standings, and around the ideal partner
LOOKAHEAD_TRIES = 8
BYE = -1  # the bye's vertex
LIMIT = 2  # FIDE's absolute limit on the difference between games moving first and second


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
    balance: int = field(init=False)  # games moving first minus games moving second
    wants: tuple[int | None, int] = field(init=False)

    def __post_init__(self) -> None:
        # Asked for every candidate game: worked out once (the dataclass is frozen).
        object.__setattr__(self, "balance", sum(1 if s == 0 else -1 for s in self.sides))
        object.__setattr__(self, "wants", self._preference())

    def preference(self) -> tuple[int | None, int]:
        """(the side wanted, strength): 3 when the absolute limits demand it, 2 when the balance
        does, 1 to alternate, 0 none (no game yet)."""
        return self.wants

    def _preference(self) -> tuple[int | None, int]:
        if abs(self.balance) >= LIMIT:
            return (1 if self.balance > 0 else 0), 3
        if self.sides[-2:] in ((0, 0), (1, 1)):
            return 1 - self.sides[-1], 3
        if self.balance:
            return (1 if self.balance > 0 else 0), 2
        if self.sides:
            return 1 - self.sides[-1], 1
        return None, 0


@dataclass(frozen=True, slots=True)
class Pairing:
    boards: tuple[tuple[EntrantId, EntrantId], ...]  # (first, second), best board first
    bye: EntrantId | None


def _within(player: Player, side: int) -> bool:
    """Whether playing `side` keeps the player within one of level (or brings them back toward it)."""
    after = player.balance + (1 if side == 0 else -1)
    return abs(after) <= max(1, abs(player.balance) - 1)


def _allowed(player: Player, side: int) -> bool:
    """Whether playing `side` keeps FIDE's absolute limits: within two, and not three in a row."""
    after = player.balance + (1 if side == 0 else -1)
    return abs(after) <= max(LIMIT, abs(player.balance) - 1) and player.sides[-2:] != (side, side)


def can_balance(a: Player, b: Player) -> bool:
    """Whether some choice of sides keeps both within one of level."""
    return any(_within(a, first) and _within(b, 1 - first) for first in (0, 1))


def can_meet(a: Player, b: Player) -> bool:
    """Whether some choice of sides keeps both within the absolute limits."""
    return any(_allowed(a, first) and _allowed(b, 1 - first) for first in (0, 1))


def _side_cost(high: Player, low: Player, side: int) -> tuple[int, int, int, int]:
    """What giving `high` the side `side` (and `low` the other) costs: absolute limits broken,
    balance lost, preference strength unmet, and whether the higher-ranked player's own
    preference is unmet (FIDE gives it priority when all else is equal)."""
    absolute = (not _allowed(high, side)) + (not _allowed(low, 1 - side))
    level = (not _within(high, side)) + (not _within(low, 1 - side))
    (want_high, strength_high), (want_low, strength_low) = high.preference(), low.preference()
    unmet_high = want_high is not None and want_high != side
    unmet_low = want_low is not None and want_low != 1 - side
    return absolute, level, strength_high * unmet_high + strength_low * unmet_low, int(unmet_high)


def choose_sides(a: Player, b: Player, board: int, coin: int) -> tuple[EntrantId, EntrantId]:
    """(first, second) for players `a` and `b`: keep the absolute limits, then balance, then the
    stronger preference, then the higher-ranked player's; with no preference at all, alternate
    down the boards from a side drawn by lot."""
    high, low = (a, b) if a.rank < b.rank else (b, a)
    if high.preference()[0] is None and low.preference()[0] is None:
        side = (coin + board) % 2
    else:
        side = min((0, 1), key=lambda s: _side_cost(high, low, s))
    return (high.id, low.id) if side == 0 else (low.id, high.id)


def _preference_value(a: Player, b: Player) -> int:
    """3 when both preferences are met by the sides `choose_sides` picks, less by the strength
    of each unmet one."""
    high, low = (a, b) if a.rank < b.rank else (b, a)
    first, _ = choose_sides(a, b, 0, 0)
    return max(0, 3 - _side_cost(high, low, 0 if first == high.id else 1)[2])


def _half_points(value: Fraction) -> int:
    doubled = value * 2
    if doubled.denominator != 1:
        raise ValueError(f"Swiss scores are whole or half points, not {value}")
    return int(doubled)


class _Weights:
    """Edge weights: the priority levels above folded into one integer per edge."""

    LEVELS = 8

    def __init__(self, players: Sequence[Player], avoid: frozenset[frozenset[int]] = frozenset()) -> None:
        self.players = players
        self.avoid = avoid
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
        ranges = [1, 1, 1, 1, self.spread, 1, 3, self.largest]
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
            1 if can_meet(a, b) else 0,
            0 if frozenset((a.id, b.id)) in self.avoid else 1,
            self.spread - difference**2,
            1 if can_balance(a, b) else 0,
            _preference_value(a, b),
            max(split, 0),
        )

    def bye(self, player: Player) -> int:
        return self.fold(self.bye_levels(player))

    def bye_levels(self, player: Player) -> tuple[int, ...]:
        above = _half_points(player.score) - self.lowest + 1  # the bye sits half a point below the lowest
        position, _ = self.position[player.id]
        avoided = frozenset((player.id, BYE)) in self.avoid
        return (1 if player.byes == self.fewest_byes else 0, 1, 1, 0 if avoided else 1, self.spread - above**2, 1, 3,
                position)  # fmt: skip


def pair(players: Sequence[Player], *, lot: int = 0, complete: bool | None = None, lookahead: bool = False) -> Pairing:
    """The boards of one round (and its bye, for an odd count). `lot` draws the sides of
    players without any preference; `complete` forces (or forbids) the complete graph;
    `lookahead` (another round follows) avoids a pairing after which the next round could not
    be paired without a rematch, where another pairing without rematch or imbalance exists."""
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
    if lookahead and len(players) <= COMPLETE_UP_TO:
        matching = _looking_ahead(players, matching, by_id)
    return _boards(matching, by_id, lot)


def _looking_ahead(players: Sequence[Player], best: set[tuple[int, int]], by_id: dict[EntrantId, Player]
                   ) -> set[tuple[int, int]]:  # fmt: skip
    """A small field with many rounds can pair itself into a corner (six players after three
    rounds may have only two triangles of games left, which no round can pair). When the best
    pairing leaves the next round no pairing without a rematch within the absolute side limits,
    the games it used are avoided (below no rematch and those limits, above everything else)
    until a pairing that leaves one is found; failing that, one that leaves a pairing at least
    without rematch; failing that, the best stands."""
    avoid: set[frozenset[int]] = set()
    matching = best
    fallback: set[tuple[int, int]] | None = None  # leaves a pairing without rematch, sides aside
    for _ in range(LOOKAHEAD_TRIES):
        if _next_round_pairable(players, matching, sides=True):
            return matching
        if fallback is None and _next_round_pairable(players, matching, sides=False):
            fallback = matching
        avoid |= {frozenset(edge) for edge in matching}
        matching = _match(_complete_graph(players, _Weights(players, frozenset(avoid))))
        if not _clean(matching, by_id, _Weights(players), len(players)):
            break
    return fallback or best


def _next_round_pairable(players: Sequence[Player], matching: set[tuple[int, int]], *, sides: bool) -> bool:
    """Whether, after `matching`, everyone could still be paired with someone not yet met (within
    the absolute side limits if `sides`), and an odd count give the bye to someone among the
    fewest byes."""
    played = {frozenset(edge) for edge in matching}
    byes = {p.id: p.byes + (1 if frozenset((p.id, BYE)) in played else 0) for p in players}
    fewest = min(byes.values())
    by_id = {p.id: p for p in players}
    after = {p.id: p for p in players}
    for u, v in matching:
        if BYE not in (u, v):
            first, second = choose_sides(by_id[u], by_id[v], 0, 0)
            for player, side in ((by_id[first], 0), (by_id[second], 1)):
                after[player.id] = Player(player.id, player.rank, player.score, player.met, (*player.sides, side),
                                          player.byes)  # fmt: skip
    graph: Graph = _new_graph()
    for i, a in enumerate(players):
        for b in players[i + 1 :]:
            fresh = b.id not in a.met and frozenset((a.id, b.id)) not in played
            if fresh and (not sides or can_meet(after[a.id], after[b.id])):
                graph.add_edge(a.id, b.id, weight=1)
        if len(players) % 2 and byes[a.id] == fewest:
            graph.add_edge(a.id, BYE, weight=1)
    return len(_match(graph)) == (len(players) + 1) // 2


def _match(graph: Graph) -> set[tuple[int, int]]:
    import networkx

    return set(networkx.max_weight_matching(graph, maxcardinality=True))


def _complete_graph(players: Sequence[Player], weights: _Weights) -> Graph:
    graph: Graph = _new_graph()
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
    graph: Graph = _new_graph()

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
        for other in order[i + 1 : i + 3]:  # the very next, whatever their sides: score groups come first
            if other.id not in player.met and can_meet(player, other):
                add(player, other)
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
        if b.id in a.met or not can_meet(a, b):
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
    pairing = pair(players, lot=random.Random(state.event.seed).randrange(2), lookahead=number < rounds)
    tables = tuple(Table(number, board, ((first,), (second,)))
                   for board, (first, second) in enumerate(pairing.boards, start=1))  # fmt: skip
    byes = (Bye(pairing.bye, BYE_POINTS),) if pairing.bye is not None else ()
    return Plan(number, tables, byes)
