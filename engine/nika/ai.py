"""Nika's evaluation and move ordering for the shared search (engine/search.py).

Nika is a race: one piece of either city on its own victory area wins for the team. The
evaluation therefore values, for each city,

- its lead runner steeply by how far it still has to go, and the last few steps most;
  distance is the path around the central area and around the pieces standing at the
  search's root (a wall of enemies facing the runner is a long way round), see `routes`;
- its other pieces a little by their progress, and every piece on the board;
- a piece an adjacent enemy could rout (one it does not face) as partly lost: mostly if the
  attacker's city acts first, less if its own city can still step away or turn;
- an adjacent enemy it could rout as a small plus;
- when an enemy runner nears its goal, our piece nearest that enemy's victory area: a runner
  is stopped by routing it on the doorstep, never by chasing it.

Everything is from a team's point of view: its two cities against the other two. Scores are
in points: one step of the lead runner is worth 12, a piece 40 (plus its progress).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Hashable, Sequence
from itertools import compress

from engine.nika.actions import Action, Advance, Move, Rally, Rotate
from engine.nika.board import (
    ENTERABLE,
    GRID_SIZE,
    IN_PLAY,
    NEIGHBOUR,
    OFF_GRID,
    VICTORY_AREA,
    City,
    Square,
    Team,
)
from engine.nika.position import PIECES_PER_CITY
from engine.nika.state import GameState

WIN = 100_000.0
UNREACHABLE = 40


def _distances(city: City) -> tuple[int, ...]:
    """Steps from every square to the city's victory area over squares its team may enter."""
    dist = [UNREACHABLE] * GRID_SIZE
    queue: deque[Square] = deque()
    for sq in VICTORY_AREA[city]:
        dist[sq] = 0
        queue.append(sq)
    enterable = ENTERABLE[city.team]
    while queue:
        sq = queue.popleft()
        for direction in range(4):
            nxt = NEIGHBOUR[direction][sq]
            if nxt != OFF_GRID and enterable[nxt] and dist[nxt] == UNREACHABLE:
                dist[nxt] = dist[sq] + 1
                queue.append(nxt)
    return tuple(dist)


DISTANCE: tuple[tuple[int, ...], ...] = tuple(_distances(city) for city in City)
# (direction, neighbour) pairs of every in-play square, skipping squares off the grid.
_AROUND: tuple[tuple[tuple[int, Square], ...], ...] = tuple(
    tuple((d, NEIGHBOUR[d][sq]) for d in range(4) if NEIGHBOUR[d][sq] != OFF_GRID and IN_PLAY[NEIGHBOUR[d][sq]])
    for sq in range(GRID_SIZE)
)

PIECE = 40.0
STEP = 12.0
# The lead runner: a step is worth STEP, and the last few steps much more (_SPRINT[d] at d
# steps from the goal), since a runner that close forces the other team to answer it at once.
_SPRINT = (0.0, 260.0, 150.0, 90.0, 50.0, 25.0, 10.0)
_LEAD: tuple[float, ...] = tuple(
    STEP * (UNREACHABLE - d) + (_SPRINT[d] if d < len(_SPRINT) else 0.0) for d in range(UNREACHABLE + 1)
)
_FOLLOWER: tuple[float, ...] = tuple(3.0 * (UNREACHABLE - d) for d in range(UNREACHABLE + 1))
# Share of a piece's worth counted as lost when an adjacent enemy could rout it: an attacker
# whose city acts before the piece's city and its ally likely will; otherwise the piece can
# still step away or turn to face it. ATTACKING: share of an enemy's worth we could rout.
THREATENED_FIRST = 0.75
THREATENED_LATER = 0.3
ATTACKING = 0.12
COHESION = 1.5  # per same-facing neighbour of the same city: phalanxes push
# Guarding: a runner that reaches its goal's doorstep wins on its next turn unless a piece
# standing near routs it first, and nothing can catch a runner from behind. So when an enemy
# runner comes near (_THREAT by its distance), a piece of ours close to that enemy's victory
# area is worth _GUARD by how close it stands (it can never stand on it).
_THREAT = (0.0, 1.0, 1.0, 0.8, 0.6, 0.4, 0.2)
_GUARD = (0.0, 60.0, 45.0, 30.0, 18.0, 8.0)
DRAW_MARGIN = 200.0  # clearly worse: a few pieces down, or a lead runner a dozen steps behind
_TEAMS: dict[str, Team] = {team.slug: team for team in Team}


def team_of(side: str) -> Team:
    team = _TEAMS.get(side)
    return Team.from_slug(side) if team is None else team


def key(state: GameState) -> Hashable:
    """What the search's transposition table keys on: pieces, city to act, actions left."""
    return state.position


Routes = tuple[tuple[int, ...], ...]  # per city: steps from each square to its victory area
DETOUR = 2  # extra steps counted for passing a square a piece stands on: rout, push or go round


def routes(state: GameState) -> Routes:
    """Each city's distances to its victory area around the pieces standing now.

    Reading these rather than the empty-board DISTANCE steers runners to open paths instead
    of a wall of enemies facing them. A search computes them once at its root: nearby pieces
    move during the search, but the map is about the long way ahead.
    """
    cells = state.position.cells
    return tuple(_route(cells, city) for city in City)


def _route(cells: tuple[int, ...], city: City) -> tuple[int, ...]:
    dist = [UNREACHABLE] * GRID_SIZE
    buckets: list[list[Square]] = [[] for _ in range(UNREACHABLE)]
    for sq in VICTORY_AREA[city]:
        dist[sq] = 0
        buckets[0].append(sq)
    enterable = ENTERABLE[city.team]
    for reached, bucket in enumerate(buckets):
        for sq in bucket:
            if dist[sq] != reached:
                continue  # reached more cheaply since
            further = reached + (1 + DETOUR if cells[sq] else 1)  # the cost of stepping onto sq
            if further >= UNREACHABLE:
                continue
            for direction in range(4):
                nxt = NEIGHBOUR[direction][sq]
                if nxt != OFF_GRID and enterable[nxt] and further < dist[nxt]:
                    dist[nxt] = further
                    buckets[further].append(nxt)
    return tuple(dist)


def focus(root: GameState) -> Callable[[GameState, str], float]:
    """The evaluation a search rooted at `root` uses: `evaluate` with the root's routes."""
    paths = routes(root)
    return lambda state, side: _evaluate(state, side, paths)


def evaluate(state: GameState, side: str) -> float:
    """How good the state is for `side` (a team slug), in points; wins are ±WIN, draws 0."""
    return _evaluate(state, side, routes(state) if state.outcome is None else ())


def _evaluate(state: GameState, side: str, paths: Routes) -> float:
    team = team_of(side)
    if state.outcome is not None:
        winner = state.outcome.winner
        return 0.0 if winner is None else WIN if winner == team else -WIN
    return _score(state.position.cells, int(team), int(state.position.to_act), paths)


def actions_to_win(state: GameState, side: str) -> int:
    """At least this many actions of `side` before it can win: an action moves a piece one square."""
    cells = state.position.cells
    team = int(team_of(side))
    return min(
        (DISTANCE[_CITY[cells[sq]]][sq] for sq in compress(_INDICES, cells) if _CITY[cells[sq]] & 1 == team),
        default=UNREACHABLE,
    )


# Per cell value (0 empty, else 1 + city * 4 + facing): the city.
_CITY: tuple[int, ...] = tuple(max(cell - 1, 0) >> 2 for cell in range(17))
# _RELATION[cell][direction][other]: what a neighbour `other` in `direction` means to `cell`.
_NOTHING, _COHESION, _EXPOSED, _ATTACK, _BOTH = 0, 1, 2, 3, 4


def _relation(cell: int, direction: int, other: int) -> int:
    if not cell or not other:
        return _NOTHING
    if _CITY[cell] & 1 == _CITY[other] & 1:
        return _COHESION if other == cell else _NOTHING
    # An enemy routs us by moving in unless we face it; we rout it unless it faces us.
    exposed = (cell - 1) & 3 != direction
    attack = (other - 1) & 3 != direction ^ 2
    return _BOTH if exposed and attack else _EXPOSED if exposed else _ATTACK if attack else _NOTHING


_RELATION: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(_relation(cell, d, other) for other in range(17)) for d in range(4)) for cell in range(17)
)
_INDICES = range(GRID_SIZE)
_ENEMIES: tuple[tuple[int, int], ...] = tuple(((city + 1) % 4, (city + 3) % 4) for city in range(4))


def _score(cells: tuple[int, ...], team: int, to_act: int, paths: Routes) -> float:
    lead = [UNREACHABLE] * 4
    second = [UNREACHABLE] * 4
    lead_sq = [OFF_GRID] * 4
    followers = [0.0] * 4
    on_board = [0] * 4
    extra = [0.0] * 4  # attacks and cohesion, per city
    threatened: list[tuple[int, Square, float]] = []
    guard = [UNREACHABLE] * 4  # per city: the nearest enemy piece to its victory area
    attack = ATTACKING * PIECE
    for sq in compress(_INDICES, cells):  # the occupied squares
        cell = cells[sq]
        city = _CITY[cell]
        on_board[city] += 1
        for enemy in _ENEMIES[city]:
            near = DISTANCE[enemy][sq]
            if near < guard[enemy]:
                guard[enemy] = near
        d = paths[city][sq]
        followers[city] += _FOLLOWER[d]
        if d < lead[city]:
            second[city] = lead[city]
            lead[city] = d
            lead_sq[city] = sq
        elif d < second[city]:
            second[city] = d
        relations = _RELATION[cell]
        exposed = False
        first = False  # an attacker's city acts before this piece's city and its ally
        for direction, nxt in _AROUND[sq]:
            kind = relations[direction][cells[nxt]]
            if not kind:
                continue
            if kind == _COHESION:
                extra[city] += COHESION
                continue
            if kind != _ATTACK and ENTERABLE[1 - (city & 1)][sq]:
                exposed = True
                # Turn order from the city to act: Athens, Sparta, Messene, Thebes, Athens, ...
                attacker = (_CITY[cells[nxt]] - to_act) % 4
                first = first or (attacker < (city - to_act) % 4 and attacker < (city + 2 - to_act) % 4)
            if kind != _EXPOSED and ENTERABLE[city & 1][nxt]:
                extra[city] += attack
        if exposed:
            threatened.append((city, sq, THREATENED_FIRST if first else THREATENED_LATER))
    totals = [0.0, 0.0]
    for city in range(4):
        # Routed pieces come back on the rally area, far from the goal: a little worth.
        routed = PIECES_PER_CITY - on_board[city]
        totals[city & 1] += (
            PIECE * on_board[city] + 0.25 * PIECE * routed + _LEAD[lead[city]]
            + followers[city] - _FOLLOWER[lead[city]] + extra[city]
        )  # fmt: skip
    for city, sq, share in threatened:
        if sq == lead_sq[city]:
            loss = _LEAD[lead[city]] - _LEAD[second[city]] + _FOLLOWER[second[city]]
        else:
            loss = _FOLLOWER[paths[city][sq]]
        totals[city & 1] -= share * (PIECE + loss)
    for city in range(4):
        if lead[city] < len(_THREAT) and guard[city] < len(_GUARD):
            totals[1 - (city & 1)] += _THREAT[lead[city]] * _GUARD[guard[city]]
    return totals[team] - totals[1 - team]


def order(state: GameState, actions: Sequence[Action]) -> list[Action]:
    """The actions, most promising first, from a cheap look at each (no action is played)."""
    position = state.position
    cells, actor = position.cells, position.to_act
    dist = DISTANCE[actor]
    # sorted() is stable: actions that look alike keep the order they came in.
    return sorted(actions, key=lambda action: -_guess(cells, actor, dist, action))


def _guess(cells: tuple[int, ...], actor: City, dist: tuple[int, ...], action: Action) -> float:
    if isinstance(action, Move):
        frm = action.square
        to = NEIGHBOUR[action.direction][frm]
        if dist[to] == 0:
            return 10_000.0
        return 10.0 * (dist[frm] - dist[to]) + (60.0 if cells[to] else 0.0)  # an occupied target: a rout
    if isinstance(action, Advance):
        squares = action.squares
        direction = (cells[squares[0]] - 1) & 3
        step = NEIGHBOUR[direction]
        ours = actor & 1
        score = 8.0 * (dist[squares[0]] - dist[step[squares[0]]]) + len(squares)
        for sq in squares:
            target = cells[step[sq]]
            if target and ((target - 1) >> 2) & 1 != ours:
                return score + 50.0  # it pushes or routs
        return score
    if isinstance(action, Rotate):
        sq = action.squares[0]
        ahead = NEIGHBOUR[action.facing][sq]
        if ahead == OFF_GRID:
            return -6.0
        target = cells[ahead]
        if target and ((target - 1) >> 2) & 1 != actor & 1:
            return 20.0  # turning to face an enemy
        return -5.0 + (dist[sq] - dist[ahead] if dist[ahead] < UNREACHABLE else -1)
    if isinstance(action, Rally):
        return 2.0
    return -50.0  # a pass
