"""Autocomplete suggestions from the legal actions: pure, so the cog stays thin.

Each function takes what the player may legally do now, what they typed, and the
options already filled in, and returns at most 25 (label, value) pairs.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.errors import IllegalAction
from engine.nika import Action, Advance, Direction, Move, Rally, Rotate, parse_action, square_name
from engine.nika.actions import squares_text

LIMIT = 25  # Discord shows at most 25 choices
Suggestion = tuple[str, str]


def _norm(text: str) -> str:
    return text.lower().replace(" ", "")


def _matching(values: Iterable[str], typed: str, label: dict[str, str] | None = None) -> list[Suggestion]:
    typed = _norm(typed)
    seen: dict[str, None] = {}
    for value in values:
        if typed in _norm(value):
            seen.setdefault(value)
    ranked = sorted(seen, key=lambda v: (not _norm(v).startswith(typed), len(v), v))
    return [((label or {}).get(v, v), v) for v in ranked[:LIMIT]]


def movable_pieces(actions: Sequence[Action], typed: str) -> list[Suggestion]:
    return _matching((square_name(a.square) for a in actions if isinstance(a, Move)), typed)


def move_directions(actions: Sequence[Action], piece: str, typed: str) -> list[Suggestion]:
    """Legal directions for the chosen piece; all four while no piece is chosen yet."""
    piece = _norm(piece)
    if not piece:
        return _direction_choices(Direction, typed) if any(isinstance(a, Move) for a in actions) else []
    directions = [a.direction for a in actions if isinstance(a, Move) and square_name(a.square) == piece]
    return _direction_choices(directions, typed)


def rotatable_groups(actions: Sequence[Action], typed: str) -> list[Suggestion]:
    return _matching((squares_text(a.squares) for a in actions if isinstance(a, Rotate)), typed)


def rotate_facings(actions: Sequence[Action], pieces: str, typed: str) -> list[Suggestion]:
    """Legal new facings for the chosen pieces; all four while none are chosen yet."""
    pieces = _norm(pieces)
    if not pieces:
        return _direction_choices(Direction, typed) if any(isinstance(a, Rotate) for a in actions) else []
    try:
        chosen = squares_text(parse_action(f"rotate {pieces} n").squares)  # type: ignore[union-attr]
    except IllegalAction:
        return []
    facings = [a.facing for a in actions if isinstance(a, Rotate) and squares_text(a.squares) == chosen]
    return _direction_choices(facings, typed)


def advancing_formations(actions: Sequence[Action], typed: str) -> list[Suggestion]:
    return _matching((squares_text(a.squares) for a in actions if isinstance(a, Advance)), typed)


def rally_squares(actions: Sequence[Action], typed: str) -> list[Suggestion]:
    return _matching((square_name(a.square) for a in actions if isinstance(a, Rally)), typed)


def _largest_first(values: Iterable[str]) -> list[Suggestion]:
    """For menus (no typing): the biggest formations first, since only 25 fit."""
    unique = list(dict.fromkeys(values))
    return [(v, v) for v in sorted(unique, key=lambda v: (-v.count(","), v))[:LIMIT]]


def groups_largest_first(actions: Sequence[Action], typed: str = "") -> list[Suggestion]:
    return _largest_first(squares_text(a.squares) for a in actions if isinstance(a, Rotate))


def formations_largest_first(actions: Sequence[Action], typed: str = "") -> list[Suggestion]:
    return _largest_first(squares_text(a.squares) for a in actions if isinstance(a, Advance))


def any_action(actions: Sequence[Action], typed: str) -> list[Suggestion]:
    return _matching((a.notation() for a in actions), typed)


def _direction_choices(directions: Iterable[Direction], typed: str) -> list[Suggestion]:
    typed = _norm(typed)
    unique = sorted(set(directions))
    return [
        (f"{d.word} ({d.letter})", d.letter)
        for d in unique
        if not typed or d.letter.startswith(typed) or d.word.startswith(typed)
    ]
