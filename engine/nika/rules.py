"""Legality and effects of actions on a position: runs, pushes and routs.

`play` applies an action to a position or raises IllegalAction with a reason a
player can act on; `legal_actions` enumerates every legal action once.
"""

from __future__ import annotations

from engine.errors import IllegalAction
from engine.nika.actions import Action, Advance, Move, Pass, Rally, Rotate, squares_text
from engine.nika.board import (
    ENTERABLE,
    FILES,
    GRID_SIZE,
    IN_PLAY,
    NEIGHBOUR,
    OFF_GRID,
    RALLY_AREA,
    City,
    Direction,
    Square,
    file_of,
    not_in_play_text,
    rank_of,
    region_name,
    sort_key,
    square_name,
)
from engine.nika.events import (
    Advanced,
    Event,
    Moved,
    Passed,
    Pushed,
    Rallied,
    Rotated,
    Routed,
)
from engine.nika.position import (
    ACTIONS_PER_TURN,
    EMPTY,
    PIECES_PER_CITY,
    Position,
    cell_city,
    cell_facing,
    encode,
)

_RALLY_SQUARES: dict[City, tuple[Square, ...]] = {
    city: tuple(sorted(area, key=sort_key)) for city, area in RALLY_AREA.items()
}
_DIRECTIONS: tuple[Direction, ...] = tuple(Direction)
_OTHER_FACINGS: tuple[tuple[Direction, ...], ...] = tuple(tuple(d for d in Direction if d != f) for f in Direction)
# _CELL_TEAM[cell] is the team index (0 or 1) of a non-empty cell: enemies differ in it.
_CELL_TEAM: tuple[int, ...] = tuple(0 if cell == EMPTY else ((cell - 1) >> 2) & 1 for cell in range(17))


def _owner_text(city: City, actor: City) -> str:
    if city == actor:
        return "your own piece"
    if city == actor.ally:
        return f"your ally {city.possessive} piece"
    return f"{city.possessive} piece"


def _own_piece(cells: tuple[int, ...], sq: Square, actor: City) -> Direction:
    cell = cells[sq]
    if cell == EMPTY:
        raise IllegalAction(f"{square_name(sq)} is not one of your pieces: it is empty")
    owner = cell_city(cell)
    if owner == actor.ally:
        # Whoever holds both cities of a team needs the turn named, not "your ally".
        raise IllegalAction(f"it is {actor.possessive} turn; {square_name(sq)} is {owner.possessive} piece")
    if owner != actor:
        raise IllegalAction(f"{square_name(sq)} is not one of your pieces: it is {_owner_text(owner, actor)}")
    return cell_facing(cell)


def _check_square(sq: object) -> Square:
    """Typed actions can be built by code, so guard against squares outside the board."""
    if not isinstance(sq, int) or not 0 <= sq < GRID_SIZE:
        raise IllegalAction(f"{sq!r} is not a square of the board")
    if not IN_PLAY[sq]:
        raise IllegalAction(not_in_play_text(sq))
    return sq


def _check_direction(direction: object) -> Direction:
    if not isinstance(direction, int) or not 0 <= direction < 4:
        raise IllegalAction(f"{direction!r} is not a direction: use n, e, s or w")
    return Direction(direction)


def _canonical_squares(squares: tuple[Square, ...]) -> tuple[Square, ...]:
    """The squares sorted by file then rank, refusing repeats: how notation names a group."""
    for sq in squares:
        _check_square(sq)
    ordered = tuple(sorted(set(squares), key=sort_key))
    if len(ordered) != len(squares):
        twice = next(sq for sq in ordered if squares.count(sq) > 1)
        raise IllegalAction(f"{square_name(twice)} is listed twice")
    return ordered


def _is_connected(squares: tuple[Square, ...]) -> bool:
    members = set(squares)
    stack = [squares[0]]
    reached = {squares[0]}
    while stack:
        sq = stack.pop()
        for direction in range(4):
            nxt = NEIGHBOUR[direction][sq]
            if nxt in members and nxt not in reached:
                reached.add(nxt)
                stack.append(nxt)
    return len(reached) == len(members)


def _phalanx_facing(cells: tuple[int, ...], squares: tuple[Square, ...], actor: City) -> Direction:
    """The shared facing of a valid phalanx, or IllegalAction saying what is wrong."""
    facings = [_own_piece(cells, sq, actor) for sq in squares]
    if any(f != facings[0] for f in facings):
        detail = ", ".join(f"{square_name(sq)} faces {f.letter}" for sq, f in zip(squares, facings, strict=True))
        raise IllegalAction(f"a phalanx's pieces all face the same way, but {detail}")
    if not _is_connected(squares):
        raise IllegalAction(
            f"{squares_text(squares)} is not one connected group: a phalanx's pieces touch side by side"
        )
    return facings[0]


def _line_name(sq: Square, direction: Direction) -> str:
    return f"file {FILES[file_of(sq)]}" if direction.is_vertical else f"rank {rank_of(sq)}"


def _play_move(position: Position, action: Move, cells: list[int]) -> list[Event]:
    actor = position.to_act
    frm, direction = _check_square(action.square), _check_direction(action.direction)
    _own_piece(position.cells, frm, actor)
    to = NEIGHBOUR[direction][frm]
    if to == OFF_GRID or not IN_PLAY[to]:
        raise IllegalAction(f"{square_name(frm)} cannot move {direction.word}: {not_in_play_text(to)}")
    if not ENTERABLE[actor.team][to]:
        raise IllegalAction(f"{square_name(to)} is {region_name(to)}: {actor.title} may never enter it")
    events: list[Event] = []
    target = cells[to]
    if target:
        owner = cell_city(target)
        if not owner.is_enemy_of(actor):
            raise IllegalAction(f"{square_name(to)} is occupied by {_owner_text(owner, actor)}")
        if cell_facing(target) == direction.opposite:
            raise IllegalAction(
                f"{owner.possessive} hoplite on {square_name(to)} faces you: a single piece can only rout "
                "an enemy that is not facing it (a phalanx may push)"
            )
        events.append(Routed(owner, to))
    cells[frm] = EMPTY
    cells[to] = encode(actor, direction)
    return [Moved(actor, frm, to), *events]


def _play_rotate(position: Position, action: Rotate, cells: list[int]) -> list[Event]:
    actor = position.to_act
    facing = _check_direction(action.facing)
    squares = _canonical_squares(action.squares)
    if not squares:
        raise IllegalAction("rotate needs the square of a piece or the squares of a phalanx")
    if len(squares) == 1:
        current = _own_piece(position.cells, squares[0], actor)
    else:
        current = _phalanx_facing(position.cells, squares, actor)
    if current == facing:
        what = square_name(squares[0]) if len(squares) == 1 else "that phalanx"
        raise IllegalAction(f"{what} already faces {facing.word}: rotating must change the facing")
    new = encode(actor, facing)
    for sq in squares:
        cells[sq] = new
    return [Rotated(actor, squares, facing)]


# One piece that an advance moves: (from, to, cell value it carries).
_Step = tuple[Square, Square, int]


def _advance_effects(
    cells: tuple[int, ...], squares: tuple[Square, ...], direction: Direction, actor: City
) -> tuple[list[_Step], list[Event]]:
    """What advancing this phalanx does, run by run, or IllegalAction naming the line that cannot go.

    All-or-nothing (docs/nika.md, rule 6): each run's front piece must step onto an empty
    enterable square, rout an enemy not facing it, or outweigh the enemy line facing it.
    """
    step = NEIGHBOUR[direction]
    back = NEIGHBOUR[direction.opposite]
    members = set(squares)
    enterable = ENTERABLE[actor.team]
    facing_us = direction.opposite  # compared with the facing bits of a cell
    our_team = actor & 1
    moves: list[_Step] = []
    effects: list[Event] = []
    for front in squares:
        target = step[front]
        if target in members:
            continue
        if target == OFF_GRID or not IN_PLAY[target]:
            line = _line_name(front, direction)
            raise IllegalAction(f"the line of pieces on {line} cannot advance: {not_in_play_text(target)}")
        if not enterable[target]:
            line = _line_name(front, direction)
            where = f"{square_name(target)} is {region_name(target)}"
            raise IllegalAction(f"the line of pieces on {line} cannot advance: {where}")
        cell = cells[target]
        if cell == EMPTY:
            continue
        if _CELL_TEAM[cell] == our_team:
            who = "your own piece" if cell_city(cell) == actor else "your ally"
            line = _line_name(front, direction)
            raise IllegalAction(f"the line of pieces on {line} is blocked by {who} at {square_name(target)}")
        if (cell - 1) & 3 != facing_us:
            effects.append(Routed(cell_city(cell), target))
            continue
        # The enemy line facing us: its weight is every contiguous piece of that team,
        # whatever their facing; ours is the run of phalanx pieces behind the front.
        chain = [target]
        nxt = step[target]
        while nxt != OFF_GRID and cells[nxt] and _CELL_TEAM[cells[nxt]] != our_team:
            chain.append(nxt)
            nxt = step[nxt]
        run = 1
        behind = back[front]
        while behind in members:
            run += 1
            behind = back[behind]
        if run <= len(chain):
            raise IllegalAction(
                f"{cell_city(cell).possessive} hoplite on {square_name(target)} faces you: "
                f"weight {run} against {len(chain)}, no push"
            )
        last = chain[-1]
        # The last pushed piece is routed if pushed off the board, into the central area,
        # onto an enemy victory area, or into one of its enemies (our team). A piece of
        # this very phalanx steps away in the same action, so it does not rout
        # (docs/nika.md, rule 13).
        crushed = nxt == OFF_GRID or not ENTERABLE[1 - our_team][nxt] or (cells[nxt] != EMPTY and nxt not in members)
        for sq in chain:
            if sq == last and crushed:
                effects.append(Routed(cell_city(cells[sq]), sq, pushed_to=nxt))
            else:
                moves.append((sq, step[sq], cells[sq]))
                effects.append(Pushed(cell_city(cells[sq]), sq, step[sq]))
    for sq in squares:
        moves.append((sq, step[sq], cells[sq]))
    return moves, effects


def _play_advance(position: Position, action: Advance, cells: list[int]) -> list[Event]:
    actor = position.to_act
    squares = _canonical_squares(action.squares)
    if len(squares) < 2:
        raise IllegalAction("a phalanx has 2 or more pieces: a single piece uses move")
    direction = _phalanx_facing(position.cells, squares, actor)
    moves, effects = _advance_effects(position.cells, squares, direction, actor)
    for event in effects:
        if isinstance(event, Routed):
            cells[event.square] = EMPTY
    for frm, _, _ in moves:
        cells[frm] = EMPTY
    for _, to, cell in moves:
        cells[to] = cell
    effects.sort(key=lambda e: sort_key(e.square if isinstance(e, Routed) else e.frm))  # type: ignore[union-attr]
    return [Advanced(actor, squares, direction), *effects]


def _play_rally(position: Position, action: Rally, cells: list[int]) -> list[Event]:
    actor = position.to_act
    sq, facing = _check_square(action.square), _check_direction(action.facing)
    area = _RALLY_SQUARES[actor]
    if sq not in area:
        raise IllegalAction(
            f"{square_name(sq)} is not in your rally area: {actor.title} rallies on "
            f"{square_name(area[0])}–{square_name(area[-1])}"
        )
    if position.routed(actor) == 0:
        raise IllegalAction(f"{actor.title} has no routed pieces to rally")
    if cells[sq]:
        raise IllegalAction(f"{square_name(sq)} is occupied: rally onto an empty square")
    cells[sq] = encode(actor, facing)
    return [Rallied(actor, sq, facing)]


def play(position: Position, action: Action) -> tuple[Position, list[Event]]:
    """The position after `action` by the city to act, with what happened.

    Raises IllegalAction (and leaves `position` untouched) when the rules refuse it.
    Squares of a rotate or advance may come in any order; events name them canonically.
    """
    cells = list(position.cells)
    if isinstance(action, Move):
        events = _play_move(position, action, cells)
    elif isinstance(action, Rotate):
        events = _play_rotate(position, action, cells)
    elif isinstance(action, Advance):
        events = _play_advance(position, action, cells)
    elif isinstance(action, Rally):
        events = _play_rally(position, action, cells)
    elif isinstance(action, Pass):
        events = [Passed(position.to_act)]
    else:
        raise IllegalAction(f"unknown action {action!r}")
    if position.actions_left > 1:
        to_act, left = position.to_act, position.actions_left - 1
    else:
        to_act, left = City((position.to_act + 1) % 4), ACTIONS_PER_TURN
    return Position(tuple(cells), to_act, left), events


def _connected_subsets(squares: list[Square]) -> list[tuple[Square, ...]]:
    """Every connected subset of 2+ squares (squares given in canonical order, kept in it)."""
    index = {sq: i for i, sq in enumerate(squares)}
    adjacency = [0] * len(squares)
    for i, sq in enumerate(squares):
        for direction in range(4):
            j = index.get(NEIGHBOUR[direction][sq])
            if j is not None:
                adjacency[i] |= 1 << j
    found: list[tuple[Square, ...]] = []
    for mask in range(1, 1 << len(squares)):
        if mask & (mask - 1) == 0:
            continue
        low = mask & -mask
        reached = low
        frontier = low
        while frontier:
            bit = frontier & -frontier
            frontier ^= bit
            grow = adjacency[bit.bit_length() - 1] & mask & ~reached
            reached |= grow
            frontier |= grow
        if reached == mask:
            found.append(tuple(sq for i, sq in enumerate(squares) if mask >> i & 1))
    return found


def legal_actions(position: Position) -> list[Action]:
    """Every legal action for the city to act, each once, in canonical form.

    Mirrors the checks of `play`; the property tests hold the two to each other.
    """
    actor = position.to_act
    cells = position.cells
    enterable = ENTERABLE[actor.team]
    our_team = actor & 1
    actions: list[Action] = []
    mine = position.squares_of(actor)
    by_facing: dict[Direction, list[Square]] = {}
    for sq in mine:
        facing = cell_facing(cells[sq])
        by_facing.setdefault(facing, []).append(sq)
        for direction in _DIRECTIONS:
            to = NEIGHBOUR[direction][sq]
            if to == OFF_GRID or not enterable[to]:
                continue
            target = cells[to]
            # Occupied: only an enemy not facing the mover can be routed.
            if target and (_CELL_TEAM[target] == our_team or (target - 1) & 3 == direction ^ 2):
                continue
            actions.append(Move(sq, direction))
        for direction in _OTHER_FACINGS[facing]:
            actions.append(Rotate((sq,), direction))
    for facing, group in by_facing.items():
        if len(group) < 2:
            continue
        others = _OTHER_FACINGS[facing]
        for subset in _connected_subsets(group):
            for direction in others:
                actions.append(Rotate(subset, direction))
            try:
                _advance_effects(cells, subset, facing, actor)
            except IllegalAction:
                continue
            actions.append(Advance(subset))
    if len(mine) < PIECES_PER_CITY:
        for sq in _RALLY_SQUARES[actor]:
            if not cells[sq]:
                actions.extend(Rally(sq, direction) for direction in _DIRECTIONS)
    actions.append(Pass())
    return actions
