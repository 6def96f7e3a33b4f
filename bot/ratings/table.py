"""A whole rating table from an ordered list of rated results: a pure function.

The table is derived, never edited: recomputing it from the same results in the same order
gives the same numbers, which is how today's Elo standings move to the new system (every
stored rated result replayed, oldest first) and how a corrected result is taken into
account. Which results count (rated matches only, and the rating-farming gate that refuses
matches ended before each side made a real move or past the daily cap between two members)
is decided before the results reach this module: the rating math knows nothing of it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from bot.ratings.system import PROVISIONAL_MATCHES, Rating, rate_sides


@dataclass(frozen=True, slots=True)
class RatedResult:
    """One rated game: sides in seat order (each a tuple of user ids) and a rank per side,
    1 best, equal ranks tied."""

    match_id: int
    sides: tuple[tuple[int, ...], ...]
    ranks: tuple[int, ...]

    def __post_init__(self) -> None:
        if len(self.sides) != len(self.ranks):
            raise ValueError(f"match {self.match_id}: {len(self.ranks)} ranks for {len(self.sides)} sides")

    @property
    def contested(self) -> bool:
        """At least two sides, each with a player, and nobody on two sides."""
        players = [user for side in self.sides for user in set(side)]
        return len(self.sides) >= 2 and all(self.sides) and len(players) == len(set(players))


@dataclass(frozen=True, slots=True)
class HistoryPoint:
    match_id: int
    rating: Rating

    @property
    def display(self) -> int:
        return self.rating.display


@dataclass(slots=True)
class PlayerRating:
    user_id: int
    rating: Rating = field(default_factory=Rating)
    wins: int = 0
    losses: int = 0
    draws: int = 0
    history: list[HistoryPoint] = field(default_factory=list)

    @property
    def matches(self) -> int:
        return self.wins + self.losses + self.draws

    @property
    def provisional(self) -> bool:
        return self.matches < PROVISIONAL_MATCHES

    @property
    def display(self) -> int:
        return self.rating.display


def apply(table: dict[int, PlayerRating], result: RatedResult) -> dict[int, Rating]:
    """Rate one game into `table` (in place); the new ratings of those who played. A game that
    is no contest (one side, or someone on two sides) changes nothing."""
    if not result.contested:
        return {}
    sides = [tuple(dict.fromkeys(side)) for side in result.sides]  # a player holding two seats counts once
    for side in sides:
        for user in side:
            table.setdefault(user, PlayerRating(user))
    rated = rate_sides([[table[u].rating for u in side] for side in sides], list(result.ranks))
    best = min(result.ranks)
    outright = result.ranks.count(best) == 1
    changed: dict[int, Rating] = {}
    for side, rank, new in zip(sides, result.ranks, rated, strict=True):
        for user, rating in zip(side, new, strict=True):
            player = table[user]
            player.rating = rating
            if rank == best and outright:
                player.wins += 1
            elif rank == best:
                player.draws += 1
            else:
                player.losses += 1
            player.history.append(HistoryPoint(result.match_id, rating))
            changed[user] = rating
    return changed


def recompute(results: Iterable[RatedResult]) -> dict[int, PlayerRating]:
    """The table after every result, in the order given (oldest first)."""
    table: dict[int, PlayerRating] = {}
    for result in results:
        apply(table, result)
    return table


def ranked(table: Mapping[int, PlayerRating]) -> list[PlayerRating]:
    """Best first: shown value, then more matches, then the lower user id (stable)."""
    return sorted(table.values(), key=lambda p: (-p.display, -p.rating.mu, -p.matches, p.user_id))
