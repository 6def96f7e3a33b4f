"""Legality and effects of actions on a position: runs, pushes and routs.

`play` applies an action to a position or raises IllegalAction with a reason a
player can act on; `legal_actions` enumerates every legal action once.
"""

from __future__ import annotations

from engine.errors import IllegalAction
from engine.i18n import M, Message
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
    sort_key,
    square_name,
    victory_owner,
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


def _own_piece(cells: tuple[int, ...], sq: Square, actor: City) -> Direction:
    cell = cells[sq]
    if cell == EMPTY:
        raise IllegalAction(M("{square} is not one of your pieces: it is empty", square=square_name(sq)))
    owner = cell_city(cell)
    if owner == actor.ally:
        # Whoever holds both cities of a team needs the turn named, not "your ally".
        raise IllegalAction(
            M("it is {city:poss} turn; {square} is {owner:poss} piece", city=actor.term, square=square_name(sq),
              owner=owner.term)
        )  # fmt: skip
    if owner != actor:
        raise IllegalAction(
            M("{square} is not one of your pieces: it is {owner:poss} piece", square=square_name(sq), owner=owner.term)
        )
    return cell_facing(cell)


def _check_square(sq: object) -> Square:
    """Typed actions can be built by code, so guard against squares outside the board."""
    if not isinstance(sq, int) or not 0 <= sq < GRID_SIZE:
        raise IllegalAction(M("{square} is not a square of the board", square=repr(sq)))
    if not IN_PLAY[sq]:
        raise IllegalAction(not_in_play_text(sq))
    return sq


def _check_direction(direction: object) -> Direction:
    if not isinstance(direction, int) or not 0 <= direction < 4:
        raise IllegalAction(M("{text} is not a direction: use n, e, s or w", text=repr(direction)))
    return Direction(direction)


def _canonical_squares(squares: tuple[Square, ...]) -> tuple[Square, ...]:
    """The squares sorted by file then rank, refusing repeats: how notation names a group."""
    for sq in squares:
        _check_square(sq)
    ordered = tuple(sorted(set(squares), key=sort_key))
    if len(ordered) != len(squares):
        twice = next(sq for sq in ordered if squares.count(sq) > 1)
        raise IllegalAction(M("{square} is listed twice", square=square_name(twice)))
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
        raise IllegalAction(
            M("a phalanx's pieces all face the same way, but {facings}", facings=_facings_text(squares, facings))
        )
    if not _is_connected(squares):
        raise IllegalAction(
            M("{squares} is not one connected group: a phalanx's pieces touch side by side",
              squares=squares_text(squares))
        )  # fmt: skip
    return facings[0]


def _facings_text(squares: tuple[Square, ...], facings: list[Direction]) -> Message:
    """'j4 faces n, j5 faces e': each piece's facing, listed in one template per piece."""
    text = M("{square} faces {facing}", square=square_name(squares[0]), facing=facings[0].letter)
    for sq, facing in zip(squares[1:], facings[1:], strict=True):
        text = M("{facings}, {square} faces {facing}", facings=text, square=square_name(sq), facing=facing.letter)
    return text


def _line_name(sq: Square, direction: Direction) -> Message:
    if direction.is_vertical:
        return M("the line of pieces on file {file}", file=FILES[file_of(sq)])
    return M("the line of pieces on rank {rank}", rank=rank_of(sq))


def _play_move(position: Position, action: Move, cells: list[int]) -> list[Event]:
    actor = position.to_act
    frm, direction = _check_square(action.square), _check_direction(action.direction)
    _own_piece(position.cells, frm, actor)
    to = NEIGHBOUR[direction][frm]
    if to == OFF_GRID or not IN_PLAY[to]:
        raise IllegalAction(
            M("{square} cannot move {direction}: {reason}", square=square_name(frm), direction=direction.word,
              reason=not_in_play_text(to))
        )  # fmt: skip
    if not ENTERABLE[actor.team][to]:
        raise IllegalAction(
            M("{square} is {owner:poss} victory area: {city} may never enter it", square=square_name(to),
              owner=victory_owner(to).term, city=actor.term)
        )  # fmt: skip
    events: list[Event] = []
    target = cells[to]
    if target:
        owner = cell_city(target)
        if owner == actor:
            raise IllegalAction(M("{square} is occupied by your own piece", square=square_name(to)))
        if owner == actor.ally:
            raise IllegalAction(
                M("{square} is occupied by your ally {owner:poss} piece", square=square_name(to), owner=owner.term)
            )
        if cell_facing(target) == direction.opposite:
            raise IllegalAction(
                M("{owner:poss} hoplite on {square} faces you: a single piece can only rout an enemy that is not "
                  "facing it (a phalanx may push)", owner=owner.term, square=square_name(to))
            )  # fmt: skip
        events.append(Routed(owner, to))
    cells[frm] = EMPTY
    cells[to] = encode(actor, direction)
    return [Moved(actor, frm, to), *events]


def _play_rotate(position: Position, action: Rotate, cells: list[int]) -> list[Event]:
    actor = position.to_act
    facing = _check_direction(action.facing)
    squares = _canonical_squares(action.squares)
    if not squares:
        raise IllegalAction(M("rotate needs the square of a piece or the squares of a phalanx"))
    if len(squares) == 1:
        current = _own_piece(position.cells, squares[0], actor)
    else:
        current = _phalanx_facing(position.cells, squares, actor)
    if current == facing:
        if len(squares) == 1:
            raise IllegalAction(
                M("{square} already faces {direction}: rotating must change the facing", square=square_name(squares[0]),
                  direction=facing.word)
            )  # fmt: skip
        raise IllegalAction(M("that phalanx already faces {direction}: rotating must change the facing",
                              direction=facing.word))  # fmt: skip
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
            raise IllegalAction(
                M("{line} cannot advance: {reason}", line=_line_name(front, direction), reason=not_in_play_text(target))
            )
        if not enterable[target]:
            where = M("{square} is {owner:poss} victory area", square=square_name(target),
                      owner=victory_owner(target).term)  # fmt: skip
            raise IllegalAction(M("{line} cannot advance: {reason}", line=_line_name(front, direction), reason=where))
        cell = cells[target]
        if cell == EMPTY:
            continue
        if _CELL_TEAM[cell] == our_team:
            line = _line_name(front, direction)
            if cell_city(cell) == actor:
                raise IllegalAction(M("{line} is blocked by your own piece at {square}", line=line,
                                      square=square_name(target)))  # fmt: skip
            raise IllegalAction(M("{line} is blocked by your ally at {square}", line=line, square=square_name(target)))
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
                M("{owner:poss} hoplite on {square} faces you: weight {weight} against {against}, no push",
                  owner=cell_city(cell).term, square=square_name(target), weight=run, against=len(chain))
            )  # fmt: skip
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
        raise IllegalAction(M("a phalanx has 2 or more pieces: a single piece uses move"))
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
            M("{square} is not in your rally area: {city} rallies on {first}–{last}", square=square_name(sq),
              city=actor.term, first=square_name(area[0]), last=square_name(area[-1]))
        )  # fmt: skip
    if position.routed(actor) == 0:
        raise IllegalAction(M("{city} has no routed pieces to rally", city=actor.term))
    if cells[sq]:
        raise IllegalAction(M("{square} is occupied: rally onto an empty square", square=square_name(sq)))
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
        raise IllegalAction(M("unknown action {action}", action=repr(action)))
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
