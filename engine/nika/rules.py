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
    Position,
    cell_city,
    cell_facing,
    encode,
)

_RALLY_SQUARES: dict[City, tuple[Square, ...]] = {
    city: tuple(sorted(area, key=sort_key)) for city, area in RALLY_AREA.items()
}


def _owner_text(city: City, actor: City) -> str:
    if city == actor:
        return "your own piece"
    if city == actor.ally:
        return f"your ally {city.possessive} piece"
    return f"{city.possessive} piece"


def _own_piece(position: Position, sq: Square, actor: City) -> Direction:
    cell = position.cells[sq]
    if cell == EMPTY:
        raise IllegalAction(f"{square_name(sq)} is not one of your pieces: it is empty")
    if cell_city(cell) != actor:
        raise IllegalAction(f"{square_name(sq)} is not one of your pieces: it is {_owner_text(cell_city(cell), actor)}")
    return cell_facing(cell)


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


def _phalanx_facing(position: Position, squares: tuple[Square, ...], actor: City) -> Direction:
    """The shared facing of a valid phalanx, or IllegalAction saying what is wrong."""
    facings = [_own_piece(position, sq, actor) for sq in squares]
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
    frm, direction = action.square, action.direction
    _own_piece(position, frm, actor)
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
    if len(action.squares) == 1:
        facing = _own_piece(position, action.squares[0], actor)
    else:
        facing = _phalanx_facing(position, action.squares, actor)
    if facing == action.facing:
        what = square_name(action.squares[0]) if len(action.squares) == 1 else "that phalanx"
        raise IllegalAction(f"{what} already faces {action.facing.word}: rotating must change the facing")
    new = encode(actor, action.facing)
    for sq in action.squares:
        cells[sq] = new
    return [Rotated(actor, action.squares, action.facing)]


def _play_advance(position: Position, action: Advance, cells: list[int]) -> list[Event]:
    """All-or-nothing: every run of the phalanx must be able to step, push or rout."""
    actor = position.to_act
    direction = _phalanx_facing(position, action.squares, actor)
    step = NEIGHBOUR[direction]
    back = NEIGHBOUR[direction.opposite]
    members = set(action.squares)
    enterable = ENTERABLE[actor.team]
    facing_us = direction.opposite
    moves: list[tuple[Square, Square, int]] = []  # (from, to, cell) for every piece that moves
    effects: list[Event] = []
    for front in action.squares:
        target = step[front]
        if target in members:
            continue
        run = 1
        behind = back[front]
        while behind in members:
            run += 1
            behind = back[behind]
        line = _line_name(front, direction)
        if target == OFF_GRID or not IN_PLAY[target]:
            raise IllegalAction(f"the run on {line} cannot advance: {not_in_play_text(target)}")
        if not enterable[target]:
            raise IllegalAction(f"the run on {line} cannot advance: {square_name(target)} is {region_name(target)}")
        cell = cells[target]
        if cell == EMPTY:
            continue
        owner = cell_city(cell)
        if not owner.is_enemy_of(actor):
            who = "your own piece" if owner == actor else "your ally"
            raise IllegalAction(f"the run on {line} is blocked by {who} at {square_name(target)}")
        if cell_facing(cell) != facing_us:
            effects.append(Routed(owner, target))
            continue
        chain = [target]
        nxt = step[target]
        while nxt != OFF_GRID and cells[nxt] and cell_city(cells[nxt]).is_enemy_of(actor):
            chain.append(nxt)
            nxt = step[nxt]
        if run <= len(chain):
            raise IllegalAction(
                f"{owner.possessive} hoplite on {square_name(target)} faces you: "
                f"weight {run} against {len(chain)}, no push"
            )
        last = chain[-1]
        pushed_team = cell_city(cells[last]).team
        crushed = (
            nxt == OFF_GRID
            or not ENTERABLE[pushed_team][nxt]
            or (cells[nxt] != EMPTY and nxt not in members)  # an enemy of the pushed piece
        )
        for sq in chain:
            if sq == last and crushed:
                effects.append(Routed(cell_city(cells[sq]), sq))
            else:
                moves.append((sq, step[sq], cells[sq]))
                effects.append(Pushed(cell_city(cells[sq]), sq, step[sq]))
    for sq in action.squares:
        moves.append((sq, step[sq], cells[sq]))
    for event in effects:
        if isinstance(event, Routed):
            cells[event.square] = EMPTY
    for frm, _, _ in moves:
        cells[frm] = EMPTY
    for _, to, cell in moves:
        cells[to] = cell
    effects.sort(key=lambda e: sort_key(e.square if isinstance(e, Routed) else e.frm))  # type: ignore[union-attr]
    return [Advanced(actor, action.squares, direction), *effects]


def _play_rally(position: Position, action: Rally, cells: list[int]) -> list[Event]:
    actor = position.to_act
    area = _RALLY_SQUARES[actor]
    if action.square not in area:
        raise IllegalAction(
            f"{square_name(action.square)} is not in your rally area: {actor.title} rallies on "
            f"{square_name(area[0])}–{square_name(area[-1])}"
        )
    if position.routed(actor) == 0:
        raise IllegalAction(f"{actor.title} has no routed pieces to rally")
    if cells[action.square]:
        raise IllegalAction(f"{square_name(action.square)} is occupied: rally onto an empty square")
    cells[action.square] = encode(actor, action.facing)
    return [Rallied(actor, action.square, action.facing)]


def play(position: Position, action: Action) -> tuple[Position, list[Event]]:
    """The position after `action` by the city to act, with what happened.

    Raises IllegalAction (and leaves `position` untouched) when the rules refuse it.
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
    """Every connected subset of 2+ squares (squares given in canonical order)."""
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
    """Every legal action for the city to act, each once, in canonical form."""
    actor = position.to_act
    cells = position.cells
    enterable = ENTERABLE[actor.team]
    actions: list[Action] = []
    mine = position.squares_of(actor)
    by_facing: dict[Direction, list[Square]] = {}
    for sq in mine:
        facing = cell_facing(cells[sq])
        by_facing.setdefault(facing, []).append(sq)
        for direction in Direction:
            to = NEIGHBOUR[direction][sq]
            if to == OFF_GRID or not enterable[to]:
                continue
            target = cells[to]
            if target and (not cell_city(target).is_enemy_of(actor) or cell_facing(target) == direction.opposite):
                continue
            actions.append(Move(sq, direction))
        for direction in Direction:
            if direction != facing:
                actions.append(Rotate((sq,), direction))
    for facing, group in by_facing.items():
        if len(group) < 2:
            continue
        for subset in _connected_subsets(group):
            for direction in Direction:
                if direction != facing:
                    actions.append(Rotate(subset, direction))
            scratch = list(cells)
            try:
                _play_advance(position, Advance(subset), scratch)
            except IllegalAction:
                continue
            actions.append(Advance(subset))
    if len(mine) < 6:
        for sq in _RALLY_SQUARES[actor]:
            if not cells[sq]:
                actions.extend(Rally(sq, direction) for direction in Direction)
    actions.append(Pass())
    return actions
