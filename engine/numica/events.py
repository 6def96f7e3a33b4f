"""What happened, for summaries, highlights and the command line's JSON."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.i18n import Text
from engine.numica.board import Colour, Shape, square_name


@dataclass(frozen=True, slots=True)
class Arranged:
    """Both back rows placed at once (files a to h, `s` square, `o` round)."""

    red: str
    blue: str

    def to_dict(self) -> dict[str, Any]:
        return {"event": "arranged", "red": self.red, "blue": self.blue}


@dataclass(frozen=True, slots=True)
class Moved:
    colour: Colour
    shape: Shape
    frm: int
    to: int
    first: bool  # the piece's first move

    def to_dict(self) -> dict[str, Any]:
        return {
            "event": "moved", "side": self.colour.slug, "piece": self.shape.word,
            "from": square_name(self.frm), "to": square_name(self.to), "first": self.first,
        }  # fmt: skip


@dataclass(frozen=True, slots=True)
class Captured:
    """A piece removed from the board; `colour` is its owner's."""

    colour: Colour
    shape: Shape
    square: int

    def to_dict(self) -> dict[str, Any]:
        return {"event": "captured", "side": self.colour.slug, "piece": self.shape.word,
                "square": square_name(self.square)}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Ended:
    """The game is over: `winner` None for a draw. `reason` as in `Outcome.reason`; `summary`
    is rendered when read, in the reader's language."""

    winner: Colour | None
    reason: str
    summary: Text

    def to_dict(self) -> dict[str, Any]:
        result = self.winner.slug if self.winner is not None else "draw"
        return {"event": "end", "result": result, "reason": self.reason, "summary": str(self.summary)}


Event = Arranged | Moved | Captured | Ended
