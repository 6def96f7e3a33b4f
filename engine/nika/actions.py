"""Actions as typed values, with the canonical notation and a tolerant parser.

The parser reads directions as letters, English or Spanish words (`west`, `oeste`),
arrows or emoji; canonical notation always writes the letters.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.errors import NotationError
from engine.i18n import M
from engine.nika.board import (
    FILE_COUNT,
    IN_PLAY,
    NEIGHBOUR,
    Direction,
    Square,
    file_of,
    not_in_play_text,
    parse_square_name,
    rank_of,
    sort_key,
    square,
    square_name,
)


def squares_text(squares: tuple[Square, ...]) -> str:
    return ",".join(square_name(sq) for sq in squares)


@dataclass(frozen=True, slots=True)
class Move:
    """A single piece steps one square and ends facing the way it moved."""

    square: Square
    direction: Direction

    def notation(self) -> str:
        return f"move {square_name(self.square)} {self.direction.letter}"


@dataclass(frozen=True, slots=True)
class Rotate:
    """One piece, or a phalanx, turns in place."""

    squares: tuple[Square, ...]
    facing: Direction

    def notation(self) -> str:
        return f"rotate {squares_text(self.squares)} {self.facing.letter}"


@dataclass(frozen=True, slots=True)
class Advance:
    """A phalanx steps one square the way it faces, pushing or routing."""

    squares: tuple[Square, ...]

    def notation(self) -> str:
        return f"advance {squares_text(self.squares)}"


@dataclass(frozen=True, slots=True)
class Rally:
    """A routed piece returns on an empty square of its city's rally area."""

    square: Square
    facing: Direction

    def notation(self) -> str:
        return f"rally {square_name(self.square)} {self.facing.letter}"


@dataclass(frozen=True, slots=True)
class Pass:
    def notation(self) -> str:
        return "pass"


Action = Move | Rotate | Advance | Rally | Pass

_VERBS = {
    "move": "move", "mv": "move", "m": "move", "step": "move", "go": "move",
    "rotate": "rotate", "rot": "rotate", "r": "rotate", "turn": "rotate", "face": "rotate",
    "advance": "advance", "adv": "advance", "a": "advance", "march": "advance", "push": "advance",
    "rally": "rally", "ral": "rally",
    "pass": "pass", "p": "pass", "skip": "pass",
}  # fmt: skip
_DIRECTIONS = {
    "n": Direction.N, "north": Direction.N, "up": Direction.N, "↑": Direction.N, "^": Direction.N,
    "e": Direction.E, "east": Direction.E, "right": Direction.E, "→": Direction.E, ">": Direction.E,
    "s": Direction.S, "south": Direction.S, "down": Direction.S, "↓": Direction.S, "v": Direction.S,
    "w": Direction.W, "west": Direction.W, "left": Direction.W, "←": Direction.W, "<": Direction.W,
    # Spanish, like the English above (arriba is up: north); `o` (oeste) means nothing else in Nika.
    "norte": Direction.N, "arriba": Direction.N, "este": Direction.E, "derecha": Direction.E,
    "sur": Direction.S, "abajo": Direction.S, "oeste": Direction.W, "o": Direction.W, "izquierda": Direction.W,
    # What phone emoji keyboards send (the variation selector U+FE0F is dropped before lookup).
    "⬆": Direction.N, "➡": Direction.E, "⬇": Direction.S, "⬅": Direction.W,
    "🔼": Direction.N, "🔽": Direction.S, "▶": Direction.E, "◀": Direction.W,
}  # fmt: skip
# Pieces never move or face diagonally; these words get a reason instead of "can't read".
_DIAGONALS = frozenset(
    {"ne", "nw", "se", "sw", "northeast", "northwest", "southeast", "southwest", "north-east", "north-west",
     "south-east", "south-west", "up-left", "up-right", "down-left", "down-right", "upleft", "upright",
     "downleft", "downright", "↗", "↖", "↘", "↙", "diagonal", "diagonally",
     "noreste", "noroeste", "sureste", "suroeste", "sudeste", "sudoeste", "nor-este", "nor-oeste", "sur-este",
     "sur-oeste", "diagonalmente"}
)  # fmt: skip
# "rally k1 facing north", "move j6 to i6", "rally k1 mirando al norte", "move j6 hacia el oeste"
_FILLERS = frozenset({"to", "facing", "face", "toward", "towards", "a", "al", "el", "hacia", "hasta", "mirando"})
_GLUED = re.compile(r"^([a-u]\d{1,2})(ne|nw|se|sw|[nesw])$")
_RANGE = re.compile(r"^([a-u]\d{1,2})-([a-u]\d{1,2})$")
_SPACED_RANGE = re.compile(r"([a-u]\d{1,2})\s*(?:-|\.\.)\s*([a-u]\d{1,2})")
_DIAGONAL_TEXT = M("pieces never move or face diagonally: use n, e, s or w")
_USAGE = M("write one of: move j6 w · rotate k5 w · rotate j4,j5,j6 n · advance j4,j5,j6 · rally k1 n · pass")


_NEEDS_DIRECTION = {
    "move": M("move needs the square(s) and then a direction, like move j6 w"),
    "rotate": M("rotate needs the square(s) and then a direction, like rotate k5 w"),
    "rally": M("rally needs the square(s) and then a direction, like rally k1 n"),
}


def shown(text: str, limit: int = 40) -> str:
    """Echo what a player typed in an error, quoted and cut short if it is long."""
    text = text.strip()
    return repr(text if len(text) <= limit else text[: limit - 1] + "…")


def parse_direction(text: str) -> Direction:
    word = text.strip().lower().replace("\ufe0f", "")
    direction = _DIRECTIONS.get(word)
    if direction is None:
        if word in _DIAGONALS:
            raise NotationError(_DIAGONAL_TEXT)
        raise NotationError(M("{text} is not a direction: use n, e, s or w", text=shown(text)))
    return direction


def _grid_square(text: str) -> Square:
    sq = parse_square_name(text)
    if sq is None:
        raise NotationError(M("{text} is not a square: files run a–u and ranks 1–15, like j6", text=shown(text)))
    return sq


def parse_square(text: str) -> Square:
    """A square in play, from a name like 'J6'; raises NotationError otherwise."""
    sq = _grid_square(text)
    if not IN_PLAY[sq]:
        raise NotationError(not_in_play_text(sq))
    return sq


def _expand_range(start: Square, end: Square) -> list[Square]:
    if file_of(start) == file_of(end):
        low, high = sorted((rank_of(start), rank_of(end)))
        return [square(file_of(start), r) for r in range(low, high + 1)]
    if rank_of(start) == rank_of(end):
        low, high = sorted((file_of(start), file_of(end)))
        return [square(f, rank_of(start)) for f in range(low, high + 1) if f < FILE_COUNT]
    raise NotationError(
        M("{start}-{end} is not a straight line: a range runs along one file or rank", start=square_name(start),
          end=square_name(end))
    )  # fmt: skip


def _tokens(text: str) -> list[str]:
    spaced = text.lower().replace("–", "-").replace("—", "-").replace("\ufe0f", "")
    spaced = _SPACED_RANGE.sub(r"\1-\2", spaced)  # "j4 - j6", "j4..j6" -> "j4-j6"
    spaced = spaced.replace(",", " ").replace(";", " ").replace("/", " ")
    tokens: list[str] = []
    for token in spaced.split():
        glued = _GLUED.match(token)
        if glued and parse_square_name(glued.group(1)) is not None:
            tokens.extend(glued.groups())
        else:
            tokens.append(token)
    return tokens


def _squares(tokens: list[str]) -> tuple[Square, ...]:
    result: list[Square] = []
    for token in tokens:
        span = _RANGE.match(token)
        if span:
            start, end = _grid_square(span.group(1)), _grid_square(span.group(2))
            result.extend(parse_square(square_name(sq)) for sq in _expand_range(start, end))
        else:
            result.append(parse_square(token))
    seen: set[Square] = set()
    for sq in result:
        if sq in seen:
            raise NotationError(M("{square} is listed twice", square=square_name(sq)))
        seen.add(sq)
    return tuple(sorted(result, key=sort_key))


def _step(frm_text: str, to_text: str) -> Move:
    """'move j6 i6' / 'move j6 to i6' / 'move j6-i6': the one-square step between two squares."""
    frm, to = _grid_square(frm_text), _grid_square(to_text)
    for direction in Direction:
        if NEIGHBOUR[direction][frm] == to:
            return Move(parse_square(frm_text), direction)
    if abs(file_of(frm) - file_of(to)) == 1 and abs(rank_of(frm) - rank_of(to)) == 1:
        raise NotationError(_DIAGONAL_TEXT)
    raise NotationError(
        M("{frm} to {to} is not a single step: a piece moves one square n, e, s or w", frm=square_name(frm),
          to=square_name(to))
    )  # fmt: skip


def parse_action(text: str) -> Action:
    """Parse an action from notation, tolerantly: case, spaces, commas, ranges, words for directions."""
    tokens = _tokens(text)
    if not tokens:
        raise NotationError(M("an action is needed: {usage}", usage=_USAGE))
    verb = _VERBS.get(tokens[0])
    if verb is None:
        raise NotationError(M("I can't read {text}: {usage}", text=shown(text), usage=_USAGE))
    args = [token for token in tokens[1:] if token not in _FILLERS]
    if any(token in _DIAGONALS for token in args):
        raise NotationError(_DIAGONAL_TEXT)
    if verb == "pass":
        if args:
            raise NotationError(M("pass takes nothing after it"))
        return Pass()
    if verb == "advance":
        if args and args[-1] in _DIRECTIONS:
            raise NotationError(
                M("a phalanx advances the way it faces, so leave out the direction (rotate it first to go another way)")
            )
        squares = _squares(args)
        if len(squares) < 2:
            raise NotationError(
                M("advance needs the squares of a phalanx of 2 or more pieces, like advance j4,j5,j6 "
                  "(a single piece uses move)")
            )  # fmt: skip
        return Advance(squares)
    if args and args[-1] not in _DIRECTIONS and not any(c.isdigit() for c in args[-1]):
        parse_direction(args[-1])  # a word that is no square was meant as a direction: say why it is not one
    if verb == "move" and args and args[-1] not in _DIRECTIONS:
        span = _RANGE.match(args[0]) if len(args) == 1 else None
        if span:
            return _step(span.group(1), span.group(2))
        if len(args) == 2:
            return _step(args[0], args[1])
    if len(args) < 2 or args[-1] not in _DIRECTIONS:
        raise NotationError(_NEEDS_DIRECTION[verb])
    direction = parse_direction(args[-1])
    squares = _squares(args[:-1])
    if verb == "rotate":
        return Rotate(squares, direction)
    if len(squares) != 1:
        if verb == "move":
            raise NotationError(M("move takes one square: a single piece; a phalanx uses advance"))
        raise NotationError(M("rally takes one square: one piece at a time"))
    return Move(squares[0], direction) if verb == "move" else Rally(squares[0], direction)
