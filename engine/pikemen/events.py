"""What a move or a departure did, for the channel's summary, the picture and the record.

Events name seats by slug, so they describe themselves without the position."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.i18n import Text
from engine.pikemen.geometry import Orientation, Square, square_name
from engine.pikemen.pieces import Size


@dataclass(frozen=True, slots=True)
class Charged:
    """A piece charged from `frm` to `to`; `turned` is its new orientation if it turned
    afterwards. A capture names the captured piece and the charger's score after it."""

    seat: str
    frm: Square
    to: Square
    size: Size
    direction: Orientation
    turned: Orientation | None = None
    captured_seat: str | None = None
    captured_size: Size | None = None
    score: int = 0

    @property
    def orientation(self) -> Orientation:
        """Where the piece points (or upright) after the move."""
        return self.direction if self.turned is None else self.turned

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "event": "charged", "seat": self.seat, "from": square_name(self.frm), "to": square_name(self.to),
            "size": self.size.letter, "orientation": self.orientation.letter,
        }  # fmt: skip
        if self.captured_seat is not None and self.captured_size is not None:
            data["captured"] = {"seat": self.captured_seat, "size": self.captured_size.letter}
            data["points"] = self.captured_size.points
            data["score"] = self.score
        return data


@dataclass(frozen=True, slots=True)
class Turned:
    """A piece reoriented where it stands."""

    seat: str
    square: Square
    size: Size
    before: Orientation
    after: Orientation

    def to_dict(self) -> dict[str, Any]:
        return {
            "event": "turned", "seat": self.seat, "square": square_name(self.square), "size": self.size.letter,
            "from": self.before.letter, "orientation": self.after.letter,
        }  # fmt: skip


@dataclass(frozen=True, slots=True)
class OutOfPieces:
    """A seat lost its last piece: it stays in the game, keeps its points, and is skipped."""

    seat: str

    def to_dict(self) -> dict[str, Any]:
        return {"event": "out-of-pieces", "seat": self.seat}


@dataclass(frozen=True, slots=True)
class Left:
    """A seat left the game (resigned or ran out of time); its `removed` pieces left the board."""

    seat: str
    how: str  # "resignation" or "timeout"
    removed: int = 0
    already_out: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"event": "left", "seat": self.seat, "how": self.how, "removed": self.removed,
                "already_out": self.already_out}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Ended:
    """The game is over; `summary` is the outcome's line for players, rendered when read."""

    reason: str
    winners: tuple[str, ...]
    drawn: tuple[str, ...]
    summary: Text

    def to_dict(self) -> dict[str, Any]:
        return {"event": "ended", "reason": self.reason, "winners": list(self.winners), "drawn": list(self.drawn),
                "summary": str(self.summary)}  # fmt: skip


Event = Charged | Turned | OutOfPieces | Left | Ended
