"""Numica's evaluation and move ordering for the shared search (engine/search.py).

Numica is won by captures: 2 square and 2 round enemy pieces, or 3 of one shape. So a
capture is worth what it does for the capturer's goal, and the same enemy piece can be
worth a lot (the third square) or little (a second round piece when two squares are in).
The evaluation values, for each side,

- its progress towards a winning set of captures (`GOAL`), and its pieces on the board
  (each can still capture and is one the enemy has not taken);
- its mobility: the moves its pieces have, as the tiles under them allow;
- the exchanges on the board: every capture each side could make now, less what the
  other side would win back by recapturing. The side to move makes its best one or saves
  its most threatened piece, whichever is better; the other side's remaining threats
  count against it. The search has no quiescence step, so this is what stops it from
  trusting a position where a piece is about to fall.

Everything is from one side's point of view and zero-sum: one side's gain is the other's
loss. Scores are in points: a first capture is worth about 250, a piece on the board 60.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from engine.numica.actions import Move
from engine.numica.board import Colour
from engine.numica.moves import JUMP, SLIDE
from engine.numica.position import BLUE_BIT, MOVED_BIT, PRESENT, ROUND_BIT, Position
from engine.numica.state import GameState

WIN = 100_000.0
PIECE = 60.0  # a piece on the board: a future capturer, and one the enemy has not taken
MOBILITY = 2.0  # per move a side's pieces have
X_MOBILITY = 8  # an X piece reaches every empty square, but can never capture: count it as this many moves
EXCHANGE = 0.8  # how much of the static exchange estimate to trust
PRESSURE = 0.1  # share of each threat credited to the threatening side even when it can be parried
DECISIVE = 5_000.0  # a capture that wins the game, in exchange estimates (below WIN: it is not played yet)
DRAW_MARGIN = 250.0  # clearly worse: a capture behind, or about to lose a piece that matters
# Easy may play anything within this of its best-looking move: it lets a free capture go or
# leaves a piece to be taken (a capture is worth about 250), which a newcomer can punish, but
# never a capture that decides the game (DECISIVE). With a piece's 60 it played like a careful
# one-move player and beat the greedy capturer 39 games of 40.
EASY_MARGIN = 400.0

_SIDES = {colour.slug: colour for colour in (Colour.RED, Colour.BLUE)}


def need(square: int, round_: int) -> int:
    """Captures still needed to win after capturing `square` square and `round_` round pieces."""
    return max(0, min(3 - square, 3 - round_, max(0, 2 - square) + max(0, 2 - round_)))


# Progress towards a win by how many captures are still needed (0: won).
_GOAL = (WIN, 600.0, 250.0, 0.0)
WAYS = 60.0  # per shape whose capture brings the win nearer: more ways to win are harder to stop


def _progress(square: int, round_: int) -> float:
    needed = need(square, round_)
    if needed == 0:
        return WIN
    ways = (need(square + 1, round_) < needed) + (need(square, round_ + 1) < needed)
    return _GOAL[needed] + WAYS * ways


# PROGRESS[square][round]: the goal term for a side that has captured that many pieces.
PROGRESS: tuple[tuple[float, ...], ...] = tuple(tuple(_progress(s, r) for r in range(5)) for s in range(5))
# WORTH[square][round][shape]: what capturing one more enemy piece of `shape` is worth to a side
# that has captured `square` and `round` pieces: DECISIVE when it wins, else the progress it
# makes plus the piece taken off the board.
WORTH: tuple[tuple[tuple[float, float], ...], ...] = tuple(
    tuple(
        (
            DECISIVE if s < 4 and need(s + 1, r) == 0 else PROGRESS[min(s + 1, 4)][r] - PROGRESS[s][r] + PIECE,
            DECISIVE if r < 4 and need(s, r + 1) == 0 else PROGRESS[s][min(r + 1, 4)] - PROGRESS[s][r] + PIECE,
        )
        for r in range(5)
    )
    for s in range(5)
)


def key(state: GameState) -> Hashable:
    """What the search's transposition table keys on: the pieces with their marks and the side to move."""
    return state.position.key


def evaluate(state: GameState, side: str) -> float:
    """How good the state is for `side` ("red" or "blue"), in points; wins are ±WIN, draws 0."""
    me = _SIDES[side]
    if state.outcome is not None:
        return 0.0 if not state.outcome.winners else WIN if side in state.outcome.winners else -WIN
    if state.setting_up:
        return 0.0
    return _score(state.position, me)


def _captured(cells: bytes, victim: int) -> tuple[int, int]:
    """(square, round) pieces of colour `victim` that its opponent has captured."""
    square = PRESENT | victim
    round_ = square | ROUND_BIT
    return (
        4 - cells.count(square) - cells.count(square | MOVED_BIT),
        4 - cells.count(round_) - cells.count(round_ | MOVED_BIT),
    )


def _score(position: Position, me: Colour) -> float:
    cells = position.cells
    table = position.table
    kinds, jumps, rays = table.kinds, table.jumps, table.rays
    empty = cells.count(0)
    # Per colour: the captures it has made, and so what each enemy shape is worth to it.
    taken = (_captured(cells, 1), _captured(cells, 0))  # red's captures are blue's losses
    worth = (WORTH[taken[0][0]][taken[0][1]], WORTH[taken[1][0]][taken[1][1]])
    mobility = [0, 0]
    pieces = [0, 0]
    # Per colour, the squares of its own pieces it could recapture on (any capture there leaves
    # an enemy that has moved), and every capture it could make now.
    guarded = (bytearray(64), bytearray(64))
    captures: list[tuple[int, int, int]] = []  # (colour, from, to)
    for sq, cell in enumerate(cells):
        if not cell:
            continue
        colour = cell & BLUE_BIT
        pieces[colour] += 1
        kind = kinds[sq]
        reached: Sequence[int]
        if kind == JUMP:
            reached = jumps[sq]
        elif kind == SLIDE:
            found: list[int] = []
            for ray in rays[sq]:
                for to in ray:
                    found.append(to)
                    if cells[to]:
                        break
            reached = found
        else:  # X: anywhere empty, never a capture or a recapture
            mobility[colour] += min(empty, X_MOBILITY)
            continue
        moved = cell & MOVED_BIT
        guards = guarded[colour]
        for to in reached:
            target = cells[to]
            if not target:
                mobility[colour] += 1
            elif target & BLUE_BIT == colour:
                guards[to] = 1
            elif moved or target & MOVED_BIT:
                mobility[colour] += 1
                captures.append((colour, sq, to))
    # Each capture as an exchange: what it wins, less the capturer if the enemy can take it back.
    exchanges: tuple[list[tuple[float, int, int]], list[tuple[float, int, int]]] = ([], [])
    for colour, frm, to in captures:
        gain = worth[colour][(cells[to] & ROUND_BIT) >> 1]
        if gain < DECISIVE and guarded[1 - colour][to]:
            gain -= worth[1 - colour][(cells[frm] & ROUND_BIT) >> 1]
        if gain > 0:
            exchanges[colour].append((gain, frm, to))
    stm = int(position.to_act)
    other = 1 - stm
    tactics, pressure = _tactics(exchanges[stm], exchanges[other])
    totals = [0.0, 0.0]
    for colour in (0, 1):
        s, r = taken[colour]
        totals[colour] = PROGRESS[s][r] + PIECE * pieces[colour] + MOBILITY * mobility[colour]
    totals[stm] += tactics
    totals[other] += pressure
    return totals[me] - totals[1 - me]


def _tactics(mine: list[tuple[float, int, int]], theirs: list[tuple[float, int, int]]) -> tuple[float, float]:
    """(what the side to move can expect from the exchanges on the board, the credit its
    opponent earns for threats that keep it busy). Exchanges are (gain, from, to).

    The side to move either makes a capture and then suffers the opponent's best remaining
    one (not by the piece it took, nor against the piece it moved), or parries the threat to
    its most exposed piece and suffers the next one; whichever is better, or neither."""
    threatened: dict[int, float] = {}  # victim square -> the opponent's best gain there
    for gain, _, to in theirs:
        if gain > threatened.get(to, 0.0):
            threatened[to] = gain
    ranked = sorted(threatened.values(), reverse=True)
    pressure = PRESSURE * sum(ranked[:2])
    best = -ranked[1] if len(ranked) > 1 else 0.0
    for gain, frm, to in mine:
        if gain >= DECISIVE:
            return DECISIVE, pressure
        reply = max((g for g, f, t in theirs if f != to and t != frm), default=0.0)
        best = max(best, gain - reply)
    return EXCHANGE * best, pressure


def order(state: GameState, actions: Sequence[Move]) -> list[Move]:
    """The moves, most promising first: captures by what they win, then quiet moves that save
    a threatened piece, attack enemy pieces from their new square, or land out of reach."""
    position = state.position
    cells = position.cells
    if len(actions) < 2:
        return list(actions)
    table = position.table
    kinds, jumps, rays = table.kinds, table.jumps, table.rays
    me = int(position.to_act)
    enemy = 1 - me
    taken = _captured(cells, enemy)
    worth = WORTH[taken[0]][taken[1]]
    # Squares an enemy piece could capture on: 1 a piece of ours that has moved, 3 any (the
    # attacker has moved too, so the first-move rule does not protect ours).
    attacked = bytearray(64)
    for sq, cell in enumerate(cells):
        if not cell or cell & BLUE_BIT != enemy:
            continue
        flag = 3 if cell & MOVED_BIT else 1
        kind = kinds[sq]
        if kind == JUMP:
            for to in jumps[sq]:
                attacked[to] |= flag
        elif kind == SLIDE:
            for ray in rays[sq]:
                for to in ray:
                    attacked[to] |= flag
                    if cells[to]:
                        break

    def guess(move: Move) -> float:
        frm, to = move.frm, move.to
        target = cells[to]
        if target:
            return 10_000.0 + worth[(target & ROUND_BIT) >> 1] - (50.0 if attacked[to] else 0.0)
        score = 0.0
        if attacked[frm] == 3 or (attacked[frm] and cells[frm] & MOVED_BIT):
            score += 40.0  # it escapes a capture
        if attacked[to]:
            score -= 60.0
        # What it would attack from the new square (it will have moved, so it may capture anything).
        kind = kinds[to]
        if kind == JUMP:
            for nxt in jumps[to]:
                victim = cells[nxt]
                if victim and victim & BLUE_BIT == enemy:
                    score += 0.1 * worth[(victim & ROUND_BIT) >> 1]
        elif kind == SLIDE:
            for ray in rays[to]:
                for nxt in ray:
                    victim = cells[nxt]
                    if victim:
                        if victim & BLUE_BIT == enemy:
                            score += 0.1 * worth[(victim & ROUND_BIT) >> 1]
                        break
        return score

    # sorted() is stable: moves that look alike keep the order they came in.
    return sorted(actions, key=lambda move: -guess(move))
