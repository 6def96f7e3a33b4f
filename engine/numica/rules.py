"""Moving and capturing: the legal moves of a position, and one move played with its refusals.

A piece moves as the tile under it says (number tiles and knights jump, rooks and bishops
slide, X goes to any empty square). It may land on an enemy piece to capture it, except
from an X tile, and except when neither it nor the enemy piece has moved yet.
"""

from __future__ import annotations

from engine.errors import IllegalAction
from engine.i18n import M, Message
from engine.numica.actions import Move
from engine.numica.board import COLOURS, SHAPES, how_it_moves, square_name, tile_phrase
from engine.numica.events import Captured, Event, Moved
from engine.numica.moves import JUMP, SLIDE
from engine.numica.position import BLUE_BIT, MOVED_BIT, ROUND_BIT, Position

FIRST_MOVE_TEXT = M(
    "neither piece has moved yet: no capture on a first move (a piece that has not moved may capture only "
    "pieces that have)"
)


def legal_moves(position: Position) -> list[Move]:
    """Every legal move of the side to move, each once, listed (see `Move`), by from- then to-square."""
    cells, side = position.cells, position.to_act
    table = position.table
    kinds, jumps, rays = table.kinds, table.jumps, table.rays
    moves: list[Move] = []
    append = moves.append
    empty: list[int] | None = None
    for sq, cell in enumerate(cells):
        if not cell or cell & BLUE_BIT != side:
            continue
        moved = cell & MOVED_BIT
        kind = kinds[sq]
        if kind == JUMP:
            for to in jumps[sq]:
                target = cells[to]
                if not target:
                    append(Move(sq, to, False, True))
                elif target & BLUE_BIT != side and (moved or target & MOVED_BIT):
                    append(Move(sq, to, True, True))
        elif kind == SLIDE:
            found: list[tuple[int, bool]] = []
            for ray in rays[sq]:
                for to in ray:
                    target = cells[to]
                    if not target:
                        found.append((to, False))
                        continue
                    if target & BLUE_BIT != side and (moved or target & MOVED_BIT):
                        found.append((to, True))
                    break
            found.sort()
            moves.extend(Move(sq, to, capture, True) for to, capture in found)
        else:  # an X tile: any empty square, never a capture
            if empty is None:
                empty = [to for to, target in enumerate(cells) if not target]
            moves.extend(Move(sq, to, False, True) for to in empty)
    return moves


def has_legal_move(position: Position) -> bool:
    """Whether the side to move can move at all (`legal_moves` without building the list)."""
    cells, side = position.cells, position.to_act
    table = position.table
    kinds, jumps, rays = table.kinds, table.jumps, table.rays
    for sq, cell in enumerate(cells):
        if not cell or cell & BLUE_BIT != side:
            continue
        moved = cell & MOVED_BIT
        kind = kinds[sq]
        if kind == JUMP:
            for to in jumps[sq]:
                target = cells[to]
                if not target or (target & BLUE_BIT != side and (moved or target & MOVED_BIT)):
                    return True
        elif kind == SLIDE:
            for ray in rays[sq]:
                target = cells[ray[0]]
                if not target or (target & BLUE_BIT != side and (moved or target & MOVED_BIT)):
                    return True
        elif 0 in cells:  # an X tile moves wherever a square is empty
            return True
    return False


def _list_squares(squares: list[int]) -> str | Message:
    """'b3', 'b3 or d3', 'a1, b3 or d3'."""
    names = [square_name(sq) for sq in squares]
    if len(names) == 1:
        return names[0]
    return M("{squares} or {last}", squares=", ".join(names[:-1]), last=names[-1])


def _reach(position: Position, frm: int) -> Message:
    """Where the piece on `frm` can go, for a refusal that says what to do instead."""
    targets = [move.to for move in legal_moves(position) if move.frm == frm]
    if not targets:
        return M("from here it has no legal move")
    return M("from here it can go to {squares}", squares=_list_squares(targets))


def _blocker(position: Position, frm: int, to: int) -> int | None:
    """For a slide: the first occupied square strictly between `frm` and `to`, if any; -1 when
    `to` is on none of the piece's lines."""
    for ray in position.table.rays[frm]:
        if to in ray:
            for between in ray[: ray.index(to)]:
                if position.cells[between]:
                    return between
            return None
    return -1


def _cannot_reach(position: Position, frm: int) -> IllegalAction:
    symbol = position.tiles[frm]
    return IllegalAction(
        M(
            "{square} stands on {tile}: {how}, so {reach}",
            square=square_name(frm),
            tile=tile_phrase(symbol),
            how=how_it_moves(symbol),
            reach=_reach(position, frm),
        )
    )


def _blocked(position: Position, frm: int, to: int, blocker: int) -> IllegalAction:
    names = {"frm": square_name(frm), "to": square_name(to), "blocker": square_name(blocker)}
    reach = _reach(position, frm)
    if position.tiles[frm] == "R":
        text = M(
            "the way from {frm} to {to} is blocked at {blocker}: rooks slide and cannot jump, so {reach}",
            reach=reach,
            **names,
        )
    else:
        text = M(
            "the way from {frm} to {to} is blocked at {blocker}: bishops slide and cannot jump, so {reach}",
            reach=reach,
            **names,
        )
    return IllegalAction(text)


def check(position: Position, frm: int, to: int) -> bool:
    """Whether moving `frm` to `to` captures, if it is legal; IllegalAction says why not."""
    cells, side = position.cells, position.to_act
    cell = cells[frm]
    if not cell:
        raise IllegalAction(
            M("there is no piece on {square}: move one of {side:poss} pieces", square=square_name(frm), side=side.term)
        )
    if cell & BLUE_BIT != side:
        raise IllegalAction(
            M(
                "{square} is {owner:poss} piece: it is {side:poss} turn",
                square=square_name(frm),
                owner=COLOURS[cell & BLUE_BIT].term,
                side=side.term,
            )
        )
    if frm == to:
        raise IllegalAction(M("a move goes to another square: a piece cannot stay where it is"))
    kind = position.table.kinds[frm]
    if kind == JUMP and to not in position.table.jumps[frm]:
        raise _cannot_reach(position, frm)
    if kind == SLIDE:
        blocker = _blocker(position, frm, to)
        if blocker == -1:
            raise _cannot_reach(position, frm)
        if blocker is not None:
            raise _blocked(position, frm, to, blocker)
    target = cells[to]
    if not target:
        return False
    if target & BLUE_BIT == side:
        raise IllegalAction(M("{square} is your own piece: pieces never stack", square=square_name(to)))
    if kind != JUMP and kind != SLIDE:
        raise IllegalAction(
            M(
                "{square} stands on an X tile: X tiles move only to empty squares, so it cannot capture",
                square=square_name(frm),
            )
        )
    if not (cell & MOVED_BIT or target & MOVED_BIT):
        raise IllegalAction(FIRST_MOVE_TEXT)
    return True


def play(position: Position, move: Move) -> tuple[Position, list[Event]]:
    """The position after the side to move plays `move`, with its events; IllegalAction otherwise."""
    frm, to = move.frm, move.to
    capture = check(position, frm, to)
    if move.listed and move.capture != capture:
        names = {"frm": square_name(frm), "to": square_name(to)}
        if capture:
            raise IllegalAction(M("{frm}-{to} captures the piece on {to}: it is written {frm}x{to}", **names))
        raise IllegalAction(M("{to} is empty, so nothing is captured there: the move is {frm}-{to}", **names))
    cells = bytearray(position.cells)
    moving, taken = cells[frm], cells[to]
    cells[to] = moving | MOVED_BIT
    cells[frm] = 0
    colour = COLOURS[moving & BLUE_BIT]
    after = Position(position.tiles, bytes(cells), colour.opponent, 0 if taken else position.quiet + 1, position.table)
    events: list[Event] = [Moved(colour, SHAPES[(moving & ROUND_BIT) >> 1], frm, to, not (moving & MOVED_BIT))]
    if taken:
        events.append(Captured(COLOURS[taken & BLUE_BIT], SHAPES[(taken & ROUND_BIT) >> 1], to))
    return after, events
