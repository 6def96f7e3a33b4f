"""The moves: which are legal, and what playing one does to a position.

A charge runs along its piece's precomputed ray through empty squares; the first piece
in the way stops it, and is captured if it is an enemy lying flat, or upright and
strictly smaller. Enumeration hands out cached action values, so listing a position's
moves allocates almost nothing.
"""

from __future__ import annotations

from engine.errors import IllegalAction
from engine.i18n import M
from engine.pikemen.actions import Action, Charge, Reorient
from engine.pikemen.events import Charged, Event, OutOfPieces, Turned
from engine.pikemen.geometry import RAYS, UPRIGHT, Orientation, Square, direction_between, square_name
from engine.pikemen.pieces import ORIENTATION_OF, SEAT_OF, SIZE_OF, TURNED, Size
from engine.pikemen.position import Position, next_seat
from engine.pikemen.words import seat_term

_U = int(UPRIGHT)
_CHARGES: dict[tuple[Square, Square, bool], tuple[Charge, ...]] = {}
# REORIENTS[square][current orientation]: the turns in place, to every other orientation.
_REORIENTS: tuple[tuple[tuple[Reorient, ...], ...], ...] = tuple(
    tuple(tuple(Reorient(sq, o) for o in Orientation if o != current) for current in Orientation) for sq in range(64)
)


def _charges(frm: Square, to: Square, capture: bool) -> tuple[Charge, ...]:
    """A charge from `frm` to `to` and every turn after it, in canonical form: first the
    plain charge, then a turn to each orientation other than the one it charged in."""
    key = (frm, to, capture)
    found = _CHARGES.get(key)
    if found is None:
        direction = direction_between(frm, to)
        turns = [None, *(o for o in Orientation if o != direction)]
        found = _CHARGES.setdefault(key, tuple(Charge(frm, to, o, capture) for o in turns))
    return found


def capturable(charger: int, target: int) -> bool:
    """Whether the piece coded `charger` may capture the piece coded `target`."""
    return SEAT_OF[target] != SEAT_OF[charger] and (ORIENTATION_OF[target] != _U or SIZE_OF[target] < SIZE_OF[charger])


def legal_actions(position: Position) -> list[Action]:
    """Every legal move of the seat to act, each once in canonical form: per piece in
    square order, its charges (nearest first), then its turns in place."""
    board, me = position.board, position.to_act
    found: list[Action] = []
    for sq in range(64):
        code = board[sq]
        if not code or SEAT_OF[code] != me:
            continue
        orientation = ORIENTATION_OF[code]
        if orientation != _U:
            for to in RAYS[sq][orientation]:
                target = board[to]
                if not target:
                    found.extend(_charges(sq, to, False))
                    continue
                if capturable(code, target):
                    found.extend(_charges(sq, to, True))
                break
        found.extend(_REORIENTS[sq][orientation])
    return found


def canonical(position: Position, action: Action) -> Action:
    """How the legal-move list writes `action` here: `x` exactly when it captures, and a
    turn to the orientation the piece charged in dropped. Unchanged if it is not legal."""
    if not isinstance(action, Charge):
        return action
    code = position.board[action.frm]
    if not code or ORIENTATION_OF[code] == _U or direction_between(action.frm, action.to) != ORIENTATION_OF[code]:
        return action
    written = canonical_charge(action, Orientation(ORIENTATION_OF[code]), bool(position.board[action.to]))
    if written is not action:
        try:
            play(position, written)
        except IllegalAction:
            return action
    return written


def canonical_charge(action: Charge, pointing: Orientation, capture: bool) -> Charge:
    """`action` with `x` exactly when it captures and no turn to the way it already points."""
    turn = None if action.orientation == pointing else action.orientation
    if turn == action.orientation and capture == action.capture:
        return action
    return Charge(action.frm, action.to, turn, capture)


def play(position: Position, action: Action) -> tuple[Position, list[Event]]:
    """The position after the seat to act plays `action`, or IllegalAction saying why not."""
    if isinstance(action, Charge):
        return _charge(position, action)
    if isinstance(action, Reorient):
        return _reorient(position, action)
    raise IllegalAction(
        M("that is not a Pikemen move: charge a piece along the way it points (a6-a3) or turn one in place (b7 se)")
    )


def _own_piece(position: Position, sq: Square) -> int:
    code = position.board[sq]
    if not code:
        raise IllegalAction(M("there is no pikeman on {square}: choose one of yours", square=square_name(sq)))
    if SEAT_OF[code] != position.to_act:
        owner = seat_term(position.seats[SEAT_OF[code]])
        raise IllegalAction(M("{square} is not yours: it is {owner:poss}", square=square_name(sq), owner=owner))
    return code


def _charge(position: Position, action: Charge) -> tuple[Position, list[Event]]:
    frm, to = action.frm, action.to
    code = _own_piece(position, frm)
    size, pointing = Size(SIZE_OF[code]), Orientation(ORIENTATION_OF[code])
    name = square_name(frm)
    if pointing is UPRIGHT:
        raise IllegalAction(
            M("the {size} pikeman on {square} stands upright: only charge it after reorienting", size=size.word,
              square=name)
        )  # fmt: skip
    ray = RAYS[frm][pointing]
    if direction_between(frm, to) != pointing:
        if not ray:
            raise IllegalAction(
                M("the {size} pikeman on {square} points {direction}, off the board: turn it first",
                  size=size.word, square=name, direction=pointing.word)
            )  # fmt: skip
        raise IllegalAction(
            M("the {size} pikeman on {square} points {direction}: it charges only that way (toward {next}); "
              "turn it first to go elsewhere", size=size.word, square=name, direction=pointing.word,
              next=square_name(ray[0]))
        )  # fmt: skip
    board = position.board
    for sq in ray:
        if sq == to:
            break
        if board[sq]:
            raise IllegalAction(
                M("the way from {frm} to {to} is blocked at {square}", frm=name, to=square_name(to),
                  square=square_name(sq))
            )  # fmt: skip
    target = board[to]
    me = position.to_act
    scores, counts, material = position.scores, position.counts, position.material
    events: list[Event] = []
    if target:
        _check_capture(position, code, to, target)
    _check_written_form(position, action, pointing, target)
    turned = action.orientation
    if target:
        victim, points = SEAT_OF[target], SIZE_OF[target]
        scores = _plus(scores, me, points)
        counts = _plus(counts, victim, -1)
        material = _plus(material, victim, -points)
        charged = Charged(position.seats[me], frm, to, size, pointing, turned, position.seats[victim], Size(points),
                          scores[me])  # fmt: skip
        events.append(charged)
        if counts[victim] == 0:
            events.append(OutOfPieces(position.seats[victim]))
    else:
        events.append(Charged(position.seats[me], frm, to, size, pointing, turned, score=scores[me]))
    cells = list(board)
    cells[frm] = 0
    cells[to] = TURNED[code][turned] if turned is not None else code
    after = Position(position.seats, tuple(cells), scores, position.out, next_seat(position.out, counts, me),
                     position.target, 0 if target else position.quiet + 1, counts, material)  # fmt: skip
    return after, events


def _check_capture(position: Position, code: int, to: Square, target: int) -> None:
    name = square_name(to)
    if SEAT_OF[target] == SEAT_OF[code]:
        raise IllegalAction(M("{square} is your own pikeman: you never capture your own pieces", square=name))
    if ORIENTATION_OF[target] == _U and SIZE_OF[target] == SIZE_OF[code]:
        raise IllegalAction(
            M("{square} is upright and as large as yours: it cannot be captured (only a larger pikeman takes an "
              "upright one)", square=name)
        )  # fmt: skip
    if ORIENTATION_OF[target] == _U and SIZE_OF[target] > SIZE_OF[code]:
        raise IllegalAction(
            M("{square} is upright and larger than yours: it cannot be captured (only a larger pikeman takes an "
              "upright one)", square=name)
        )  # fmt: skip


def _check_written_form(position: Position, action: Charge, pointing: Orientation, target: int) -> None:
    """The move is legal; refuse it unless written as the legal-move list writes it (the host
    puts what players type in that form first, with `Game.canonical`)."""
    written = canonical_charge(action, pointing, bool(target))
    if written != action:
        if written.capture and not action.capture:
            owner = seat_term(position.seats[SEAT_OF[target]])
            why = M("it captures {owner:poss} {size} pikeman on {square}", owner=owner,
                    size=Size(SIZE_OF[target]).word, square=square_name(action.to))  # fmt: skip
        elif action.capture and not written.capture:
            why = M("{square} is empty, so it captures nothing", square=square_name(action.to))
        else:
            why = M("the pikeman already points {direction}, and keeps doing so unless turned", direction=pointing.word)
        raise IllegalAction(M("write that move as {notation}: {why}", notation=written.notation(), why=why))


def _reorient(position: Position, action: Reorient) -> tuple[Position, list[Event]]:
    sq, new = action.square, action.orientation
    code = _own_piece(position, sq)
    current = Orientation(ORIENTATION_OF[code])
    if new == current and new is UPRIGHT:
        raise IllegalAction(
            M("{square} already stands upright: turn it to another orientation (a move must change something)",
              square=square_name(sq))
        )  # fmt: skip
    if new == current:
        raise IllegalAction(
            M("{square} already points {direction}: turn it to another orientation (a move must change something)",
              square=square_name(sq), direction=new.word)
        )  # fmt: skip
    cells = list(position.board)
    cells[sq] = TURNED[code][new]
    me = position.to_act
    after = Position(position.seats, tuple(cells), position.scores, position.out, position.next_seat(me),
                     position.target, position.quiet + 1, position.counts, position.material)  # fmt: skip
    return after, [Turned(position.seats[me], sq, Size(SIZE_OF[code]), current, new)]


def _plus(values: tuple[int, ...], index: int, amount: int) -> tuple[int, ...]:
    changed = list(values)
    changed[index] += amount
    return tuple(changed)
