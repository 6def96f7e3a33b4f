"""The alt text: the picture for a screen reader, within Discord's 1024 characters.

In reading order: the game and the status (who acts, or the result), every seat's score,
what the last move did, then every piece by seat and size, as its square and where it
points ("a6 s", in notation) or "up" for upright. If that is ever too long, sizes shrink to
letters. Every sentence is a template in the active catalogue's language.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from engine.i18n import M, Message, Text
from engine.pikemen.describe import describe_events
from engine.pikemen.geometry import UPRIGHT, Orientation, square_name
from engine.pikemen.pieces import ORIENTATION_OF, SEAT_OF, SIZE_OF, Size
from engine.pikemen.position import Position
from engine.pikemen.state import GameState
from engine.pikemen.words import seat_term
from render.words import voice

LIMIT = 1024


def alt_text(
    state: GameState, events: Sequence[Any] = (), *, earlier: Sequence[Sequence[Any]] = (), live: bool = True
) -> str:
    """In the active catalogue's language. With `earlier` moves (those before the latest since
    the viewer's previous turn), every move is listed by the number the picture gives it. Not
    `live` (a rules example): whose turn it is goes unsaid."""
    position = state.position
    players = len(position.seats)
    head = [M("Pikemen board, {players} players, first to {target} points.", players=players, target=position.target)]
    if state.outcome is not None:
        head.append(M("Game over: {summary}.", summary=state.outcome.summary))
    elif live:
        head.append(M("{seat} to act.", seat=seat_term(position.seat_slug)))
    head.append(M("Scores: {scores}.", scores=_scores(position)))
    moves = [move for move in (*earlier, events) if move]
    if len(moves) > 1:
        listed = "; ".join(f"{number}. {describe_events(move)}" for number, move in enumerate(moves, start=1))
        head.append(M("Recent moves, oldest first: {moves}.", moves=listed))
    elif events:
        head.append(M("Last move: {move}.", move=described(events)))
    opening = [str(sentence) for sentence in head]
    placed = _placed(position)
    for long in (True, False):
        text = " ".join([*opening, *(_pieces(position, seat, names, long) for seat, names in enumerate(placed))])
        if len(text) <= LIMIT:
            return text
    return text[: LIMIT - 1].rstrip() + "…"


def described(events: Sequence[Any]) -> str:
    """What a move did, said in the active language and kept (`_sentence`): the panel's last
    line and the alt text both say it on every board, and saying it (a template, a seat's and
    squares' words) cost as much as the rest of the alt text."""
    try:
        hash(tuple(events))
    except TypeError:  # an ending carries its summary, a message with values, which has no hash
        return str(describe_events(events))
    return _sentence(("move", *events), describe_events, events)


def _scores(position: Position) -> str:
    parts = []
    for seat, slug in enumerate(position.seats):
        kind = "out" if position.out[seat] else "no pieces" if position.counts[seat] == 0 else "in"
        said = _sentence(("score", slug, kind), _score, slug, kind)  # its score filled in after
        parts.append(said.replace(_SQUARE, str(position.scores[seat])))
    return ", ".join(parts)


def _score(slug: str, kind: str) -> Message:
    """A seat's score, its number left to fill in (`_SQUARE`)."""
    who = seat_term(slug)
    if kind == "out":
        return M("{seat} {score} (out of the game)", seat=who, score=_SQUARE)
    if kind == "no pieces":
        return M("{seat} {score} (no pieces left)", seat=who, score=_SQUARE)
    return M("{seat} {score}", seat=who, score=_SQUARE)


_SAID_KEPT = 256
_said: dict[tuple[object, ...], str] = {}


def _sentence(key: tuple[object, ...], message: Callable[..., Text], *values: Any) -> str:
    """`message` said in the active language, kept: an alt text says the same few templates (a
    seat's pieces, a size's group) board after board, their values filled in afterwards."""
    full = (*voice(), *key)
    found = _said.get(full)
    if found is None:
        if len(_said) >= _SAID_KEPT:
            _said.clear()
        found = _said[full] = str(message(*values))
    return found


def _group(size: Size, squares: str, long: bool) -> Message:
    """One size's pieces: "large a8 up, b7 se" (or "L a8 up, b7 se" when space is short)."""
    if size is Size.L:
        return M("large {squares}", squares=squares) if long else M("L {squares}", squares=squares)
    if size is Size.M:
        return M("medium {squares}", squares=squares) if long else M("M {squares}", squares=squares)
    return M("small {squares}", squares=squares) if long else M("S {squares}", squares=squares)


def _placed(position: Position) -> list[dict[Size, list[str]]]:
    """Every seat's pieces by size, largest first, each as its square and where it points."""
    found: list[dict[Size, list[str]]] = [{size: [] for size in (Size.L, Size.M, Size.S)} for _ in position.seats]
    up = _sentence(("up",), lambda: M("{square} up", square=_SQUARE))  # its square filled in for each piece
    for sq, code in enumerate(position.board):  # one pass over the board for every seat, by piece code
        if code:
            orientation = ORIENTATION_OF[code]
            found[SEAT_OF[code]][SIZE_OF[code]].append(  # type: ignore[index]  # an IntEnum's key, by its value
                up.replace(_SQUARE, _NAMES[sq]) if orientation == UPRIGHT else _POINTING[sq][orientation]
            )
    return found


_SQUARE = "\0"  # stands for a square's name (or a score) while its sentence is rendered
_GROUPS = "\1"  # and for a seat's groups of pieces
_NAMES = tuple(square_name(sq) for sq in range(64))
_POINTING = tuple(tuple(f"{name} {o.letter}" for o in Orientation) for name in _NAMES)  # "a6 s", by square and way


def _pieces(position: Position, seat: int, placed: dict[Size, list[str]], long: bool) -> str:
    who = seat_term(position.seats[seat])
    if position.out[seat]:
        return str(M("{seat}: out.", seat=who))
    # Each sentence rendered once, its squares filled in after: an alt text holds dozens of pieces.
    groups = [_sentence(("group", size, long), _group, size, _SQUARE, long).replace(_SQUARE, ", ".join(names))
              for size, names in placed.items() if names]  # fmt: skip
    if not groups:
        return str(M("{seat}: no pieces.", seat=who))
    said = _sentence(("seat", who), lambda: M("{seat}: {groups}.", seat=who, groups=_GROUPS))
    return said.replace(_GROUPS, "; ".join(groups))
