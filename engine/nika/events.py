"""What an action did, for summaries, highlights and the game record."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.nika.actions import squares_text
from engine.nika.board import OFF_GRID, City, Direction, Square, Team, square_name


@dataclass(frozen=True, slots=True)
class Moved:
    city: City
    frm: Square
    to: Square

    def to_dict(self) -> dict[str, Any]:
        return {
            "event": "moved",
            "city": self.city.name.lower(),
            "from": square_name(self.frm),
            "to": square_name(self.to),
        }


@dataclass(frozen=True, slots=True)
class Rotated:
    city: City
    squares: tuple[Square, ...]
    facing: Direction

    def to_dict(self) -> dict[str, Any]:
        return {
            "event": "rotated", "city": self.city.name.lower(),
            "squares": squares_text(self.squares), "facing": self.facing.letter,
        }  # fmt: skip


@dataclass(frozen=True, slots=True)
class Advanced:
    city: City
    squares: tuple[Square, ...]
    direction: Direction

    def to_dict(self) -> dict[str, Any]:
        return {
            "event": "advanced", "city": self.city.name.lower(),
            "squares": squares_text(self.squares), "direction": self.direction.letter,
        }  # fmt: skip


@dataclass(frozen=True, slots=True)
class Pushed:
    city: City
    frm: Square
    to: Square

    def to_dict(self) -> dict[str, Any]:
        return {
            "event": "pushed",
            "city": self.city.name.lower(),
            "from": square_name(self.frm),
            "to": square_name(self.to),
        }


@dataclass(frozen=True, slots=True)
class Routed:
    """A piece removed from the board; `square` is where it fell from. `pushed_to` is set when
    a push routed it: the square it was pushed toward (off the grid: OFF_GRID)."""

    city: City
    square: Square
    pushed_to: Square | None = None

    def to_dict(self) -> dict[str, Any]:
        data = {"event": "routed", "city": self.city.name.lower(), "square": square_name(self.square)}
        if self.pushed_to is not None:
            data["pushed_into"] = square_name(self.pushed_to) if self.pushed_to != OFF_GRID else "off the grid"
        return data


@dataclass(frozen=True, slots=True)
class Rallied:
    city: City
    square: Square
    facing: Direction

    def to_dict(self) -> dict[str, Any]:
        return {
            "event": "rallied", "city": self.city.name.lower(),
            "square": square_name(self.square), "facing": self.facing.letter,
        }  # fmt: skip


@dataclass(frozen=True, slots=True)
class Passed:
    city: City

    def to_dict(self) -> dict[str, Any]:
        return {"event": "passed", "city": self.city.name.lower()}


@dataclass(frozen=True, slots=True)
class Won:
    """A piece reached its own victory area: its team wins at once."""

    team: Team
    city: City
    square: Square

    def to_dict(self) -> dict[str, Any]:
        return {
            "event": "win",
            "team": self.team.slug,
            "city": self.city.name.lower(),
            "square": square_name(self.square),
        }


@dataclass(frozen=True, slots=True)
class Drawn:
    reason: str  # "passes" or "repetition"

    def to_dict(self) -> dict[str, Any]:
        return {"event": "draw", "reason": self.reason}


Event = Moved | Rotated | Advanced | Pushed | Routed | Rallied | Passed | Won | Drawn
