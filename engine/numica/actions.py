"""The one action, a move, as a typed value: canonical notation and a tolerant parser."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from engine.errors import NotationError
from engine.i18n import M
from engine.numica.board import parse_square, shown, square_name


@dataclass(frozen=True, slots=True)
class Move:
    """A piece moves from `frm` to `to`. Two moves are equal when they name the same squares:
    whether a move captures depends on the position, and `-`/`x` are interchangeable on input.

    `capture` is how the move is written. A move from the legal-move list is `listed`: its
    mark is then part of what it claims, and a position where it would be the other kind of
    move refuses it. A typed move is not listed: `apply` reads its mark as a mere spelling.
    """

    frm: int
    to: int
    capture: bool = field(default=False, compare=False)
    listed: bool = field(default=False, compare=False)

    def notation(self) -> str:
        return f"{square_name(self.frm)}{'x' if self.capture else '-'}{square_name(self.to)}"


Action = Move

_DASHES = str.maketrans({"–": "-", "—": "-", "−": "-", "×": "x", "→": "-", ">": "-", ":": "x"})
_MOVE = re.compile(r"^(?:move\s+|m\s+)?([a-z]\d+)\s*(?:(-|x|to)\s*)?([a-z]\d+)$")


def parse_action(text: str) -> Move:
    """`c1-c4`, `d2xf4`, `c1 c4`, `c1c4`, `C1 - C4`, `c1 to c4`, `move c1 c4`: case and spacing
    do not matter, and `-` and `x` are read alike (the canonical form uses the right one)."""
    cleaned = " ".join(text.strip().lower().translate(_DASHES).split())
    if not cleaned:
        raise NotationError(M("a move is needed: write a move as two squares, like c1-c4 (or d2xf4 for a capture)"))
    found = _MOVE.match(cleaned)
    if found is None:
        raise NotationError(
            M("I can't read {text}: write a move as two squares, like c1-c4 (or d2xf4 for a capture)", text=shown(text))
        )
    frm, separator, to = found.groups()
    return Move(parse_square(frm), parse_square(to), capture=separator == "x")
