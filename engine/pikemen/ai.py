"""Pikemen's evaluation and move ordering for the shared search (engine/search.py).

Pikemen is won on points: the first seat to the target, or the highest score when the game
stalls. A capture moves a piece's size from its owner's material to the capturer's score.
The evaluation values, for each seat,

- its score, and each of its pieces on the board by size (a piece can still capture, and
  it is points the others have not scored);
- one round of the captures on the board, as each seat in turn would play them: a piece
  lying flat threatens the first piece its way points to, if it may capture it (a flat
  piece of any size, an upright one strictly smaller). The seat to act takes its best
  capture or saves its most threatened piece, whichever is better, then the next seat
  does the same with what is left, and so on round the table. A capturer turns upright
  after its charge, so only a strictly larger piece aiming at its square takes it back,
  and a large one is safe. The search has no quiescence step, so this is what stops it
  from trusting a position where a piece is about to fall;
- a little for flat pieces that could charge somewhere, and against flat pieces in line
  with an enemy that could turn to aim at them (charging exposes a piece, standing
  upright protects it).

With two seats this is zero-sum. With three or four, a seat's value is its total less a
blend of the best and the average of the other seats': finishing first is what counts,
and the search is paranoid (every other seat plays against the searching one).
Scores are in points: a point scored is worth 100, a piece on the board 30 per size.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from engine.pikemen.actions import Action, Charge, Reorient
from engine.pikemen.geometry import DIRECTIONS, RAYS, UPRIGHT
from engine.pikemen.pieces import ORIENTATION_OF, SEAT_OF, SIZE_OF, TURNED
from engine.pikemen.position import Position, next_seat
from engine.pikemen.rules import capturable
from engine.pikemen.state import GameState

WIN = 100_000.0
POINT = 100.0  # a point scored
PIECE = 30.0  # per size point of a piece on the board
EXCHANGE = 0.8  # how much of the round of captures to trust
MOBILITY = 1.0  # per square a flat piece could charge to
EXPOSED = 0.15  # share of a piece's worth at risk per enemy in line that could turn to aim at it
LEADER = 0.5  # with more than two seats: weight of the best other seat against the average
DRAW_MARGIN = 250.0  # clearly worse: two or three points behind with nothing in hand
# Easy may play anything within this of its best-looking move: it lets a capture of up to
# three points go, or a piece be taken, which a newcomer can punish; a capture that reaches
# the target is a win, and always taken. With the shared 60 it beat the greedy capturer in
# every one of 30 games.
EASY_MARGIN = 400.0

_U = int(UPRIGHT)
_LINES = tuple(int(direction) for direction in DIRECTIONS)
_OPPOSITE = tuple((d + 4) % 8 for d in range(8))


def key(state: GameState) -> Hashable:
    """What the search's transposition table keys on: the pieces, the scores and the seat to act."""
    return state.position.key


def evaluate(state: GameState, side: str) -> float:
    """How good the state is for `side` (a seat slug), in points; a win is WIN, a loss -WIN,
    a draw shared with others 0."""
    position = state.position
    if state.outcome is not None:
        if side in state.outcome.winners:
            return WIN
        return 0.0 if side in state.outcome.drawn else -WIN
    totals = _totals(position)
    me = position.seats.index(side)
    others = [total for seat, total in enumerate(totals) if seat != me and not position.out[seat]]
    if not others:
        return totals[me]
    if len(others) == 1:
        return totals[me] - others[0]
    return totals[me] - LEADER * max(others) - (1.0 - LEADER) * sum(others) / len(others)


# An exchange: (the capturer's seat, its square, the victim's seat, its square, what the
# capture is worth to the capturer against the victim, the seat that would take it back or -1).
Exchange = tuple[int, int, int, int, float, int]


def _totals(position: Position) -> list[float]:
    board = position.board
    seats = len(position.seats)
    totals = [POINT * position.scores[seat] + PIECE * position.material[seat] for seat in range(seats)]
    # aimed[sq]: the flat pieces whose way first meets the piece on sq, as (square, code).
    aimed: dict[int, list[tuple[int, int]]] = {}
    for sq in range(64):
        code = board[sq]
        if not code:
            continue
        direction = ORIENTATION_OF[code]
        if direction == _U:
            continue
        for to in RAYS[sq][direction]:
            if board[to]:
                aimed.setdefault(to, []).append((sq, code))
                break
            totals[SEAT_OF[code]] += MOBILITY
    exchanges: list[Exchange] = []
    for to, attackers in aimed.items():
        victim = board[to]
        owner = SEAT_OF[victim]
        for frm, code in attackers:
            if not capturable(code, victim):
                continue
            seat = SEAT_OF[code]
            size = SIZE_OF[code]
            # It turns upright after the charge: only a strictly larger piece of another seat
            # already aiming at the square takes it back.
            back = -1
            for _, other in attackers:
                if SEAT_OF[other] != seat and SIZE_OF[other] > size:
                    back = SEAT_OF[other]
                    break
            worth = (POINT + PIECE) * (SIZE_OF[victim] - (size if back >= 0 else 0))
            if worth > 0:
                exchanges.append((seat, frm, owner, to, worth, back))
    _latent(board, totals)
    if exchanges:
        _round_of_captures(position, exchanges, totals)
    return totals


def _latent(board: tuple[int, ...], totals: list[float]) -> None:
    """Flat pieces are at risk from enemies in line with them that could turn to aim at them
    (any enemy once it lies flat; a strictly larger one if ours stands upright)."""
    for sq in range(64):
        code = board[sq]
        if not code:
            continue
        seat, size = SEAT_OF[code], SIZE_OF[code]
        upright = ORIENTATION_OF[code] == _U
        if upright and size == 3:
            continue  # a large upright piece can never be captured
        risk = 0
        for direction in _LINES:
            for nxt in RAYS[sq][direction]:
                other = board[nxt]
                if other:
                    # An enemy already aiming this way is a threat, not a latent one.
                    if (
                        SEAT_OF[other] != seat
                        and ORIENTATION_OF[other] != _OPPOSITE[direction]
                        and (not upright or SIZE_OF[other] > size)
                    ):
                        risk += 1
                    break
        if risk:
            totals[seat] -= EXPOSED * min(risk, 2) * (POINT + PIECE) * size


def _round_of_captures(position: Position, exchanges: list[Exchange], totals: list[float]) -> None:
    """Each seat in turn order from the seat to act takes its best capture, or saves its most
    threatened piece, with what the seats before it left; the result is added to `totals`."""
    board = position.board
    gone: set[int] = set()  # squares whose piece was taken, has moved away or was saved
    order = [position.to_act]
    for _ in range(len(position.seats) - 1):
        following = next_seat(position.out, position.counts, order[-1])
        if following == position.to_act or following in order:
            break
        order.append(following)
    for seat in order:
        live = [x for x in exchanges if x[1] not in gone and x[3] not in gone]
        threats = [x for x in live if x[2] == seat]
        best_value, best, saved = 0.0, None, -1
        # Saving a piece: turning it upright works against attackers no larger than it; a flat
        # piece can also charge away if its way is open.
        by_victim: dict[int, float] = {}
        for x in threats:
            by_victim[x[3]] = max(by_victim.get(x[3], 0.0), x[4])
        ranked = sorted(by_victim.items(), key=lambda item: -item[1])
        if ranked:
            for sq, _ in ranked:
                if _can_save(board, sq, [x for x in threats if x[3] == sq]):
                    rest = max((value for other, value in ranked if other != sq), default=0.0)
                    best_value, saved = -rest, sq
                    break
            else:
                best_value = -ranked[0][1]
        for x in live:
            if x[0] != seat:
                continue
            reply = max((t[4] for t in threats if t[1] != x[3] and t[3] != x[1]), default=0.0)
            if x[4] - reply > best_value:
                best_value, best = x[4] - reply, x
        if best is None:
            gone.add(saved)  # nothing happens to it any more this round (-1 when none was saved)
            continue
        capturer, frm, victim, to, _, back = best
        size, lost = SIZE_OF[board[frm]], SIZE_OF[board[to]]
        totals[capturer] += EXCHANGE * POINT * lost
        totals[victim] -= EXCHANGE * PIECE * lost
        if back >= 0:
            totals[capturer] -= EXCHANGE * PIECE * size
            totals[back] += EXCHANGE * POINT * size
        gone.add(frm)
        gone.add(to)


def _can_save(board: tuple[int, ...], sq: int, threats: list[Exchange]) -> bool:
    code = board[sq]
    direction = ORIENTATION_OF[code]
    if direction == _U:
        return False  # it cannot charge away, and is already as safe as standing makes it
    largest = max(SIZE_OF[board[x[1]]] for x in threats)
    if largest <= SIZE_OF[code]:
        return True
    way = RAYS[sq][direction]
    return bool(way) and not board[way[0]]


def order(state: GameState, actions: Sequence[Action]) -> list[Action]:
    """The moves, most promising first: captures of the largest pieces by the smallest, then
    moves that save a threatened piece or aim at a piece they could capture next."""
    if len(actions) < 2:
        return list(actions)
    position = state.position
    board = position.board
    me = position.to_act
    # danger[sq]: the largest enemy piece aiming at our piece on sq.
    danger = [0] * 64
    for sq in range(64):
        code = board[sq]
        if not code or SEAT_OF[code] == me or ORIENTATION_OF[code] == _U:
            continue
        for to in RAYS[sq][ORIENTATION_OF[code]]:
            target = board[to]
            if target:
                if SEAT_OF[target] == me and capturable(code, target):
                    danger[to] = max(danger[to], SIZE_OF[code])
                break

    def aims_at(code: int, sq: int, frm: int) -> int:
        """The size of the piece `code` would threaten from `sq` (`frm` is empty by then)."""
        direction = ORIENTATION_OF[code]
        if direction == _U:
            return 0
        for to in RAYS[sq][direction]:
            target = board[to]
            if target and to != frm:
                return SIZE_OF[target] if capturable(code, target) else 0
        return 0

    def guess(action: Action) -> float:
        if isinstance(action, Charge):
            code = board[action.frm]
            size = SIZE_OF[code]
            landed = code if action.orientation is None else TURNED[code][action.orientation]
            score = 0.0
            if action.capture:
                score += 1_000.0 + 100.0 * SIZE_OF[board[action.to]] - 10.0 * size
            elif danger[action.frm]:
                score += 30.0 * size  # it runs from a threat
            if ORIENTATION_OF[landed] == _U:
                score += 5.0 if size < 3 else 8.0
            else:
                score += 20.0 * aims_at(landed, action.to, action.frm) - 4.0
            return score
        assert isinstance(action, Reorient)
        code = board[action.square]
        size = SIZE_OF[code]
        turned = TURNED[code][action.orientation]
        if danger[action.square]:
            if action.orientation == UPRIGHT and danger[action.square] <= size:
                return 300.0 + 30.0 * size  # standing up saves it
            return -20.0
        if ORIENTATION_OF[turned] == _U:
            return -10.0
        return 40.0 * aims_at(turned, action.square, -1) - 2.0

    # sorted() is stable: moves that look alike keep the order they came in.
    return sorted(actions, key=lambda action: -guess(action))
