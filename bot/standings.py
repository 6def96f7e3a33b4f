"""Per-guild, per-game standings: wins, losses, draws and an Elo rating, for team games,
one-against-one and free-for-all alike.

Derived from the finished rated matches every time, never stored: nothing can drift or
be counted twice. Each side is rated by the average of its players' ratings; every pair
of sides is an Elo game decided by their results (a win beats a loss, a shared draw is
even), and a side moves by the sum over its opponents, scaled so that two sides move by
the usual K. Every player of a side moves by the side's change.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from engine.api import AnyGame

START_RATING = 1500.0
K_FACTOR = 32.0


@dataclass(slots=True)
class Standing:
    user_id: int
    rating: float = START_RATING
    wins: int = 0
    losses: int = 0
    draws: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.losses + self.draws


def expected_score(rating: float, opponent: float) -> float:
    return 1.0 / (1.0 + 10 ** ((opponent - rating) / 400.0))


def seat_scores(game: AnyGame, players: int, result: str) -> dict[str, float]:
    """1 for a winning seat, ½ for a seat sharing a draw, 0 for the rest, from a stored result:
    a side's slug, a comma-separated list of winning seats, `draw`, or `draw:<seat>,…`."""
    seats = [seat.slug for seat in game.seats(players)]
    if result == "draw":
        return dict.fromkeys(seats, 0.5)
    if result.startswith("draw:"):
        drawn = set(result[5:].split(","))
        return {seat: 0.5 if seat in drawn else 0.0 for seat in seats}
    sides = {side.slug: set(side.seats) for side in game.sides(players)}
    winners = sides.get(result, set(result.split(",")))
    return {seat: 1.0 if seat in winners else 0.0 for seat in seats}


def standings(matches: Iterable[tuple[int, str, Mapping[str, int]]], game: AnyGame,
              players: int | None = None) -> dict[int, Standing]:  # fmt: skip
    """Replay finished matches of `game` (oldest first: id, result, seat → user) into standings,
    all at one player count (default: the game's largest)."""
    return standings_of(game, ((match_id, result, players or max(game.player_counts), seats)
                               for match_id, result, seats in matches))  # fmt: skip


def standings_of(game: AnyGame, matches: Iterable[tuple[int, str, int, Mapping[str, int]]]) -> dict[int, Standing]:
    table: dict[int, Standing] = {}
    for _, result, players, seats in matches:
        scores = seat_scores(game, players, result)
        sides: dict[str, list[int]] = {}
        side_score: dict[str, float] = {}
        for seat in game.seats(players):
            user = seats.get(seat.slug)
            if user is None:
                continue
            members = sides.setdefault(seat.side, [])
            if user not in members:
                members.append(user)
            side_score[seat.side] = scores[seat.slug]
        if len(sides) < 2 or any(user in other for users in sides.values() for user in users
                                 for other in sides.values() if other is not users):  # fmt: skip
            continue  # not a contest between different members
        for users in sides.values():
            for user in users:
                table.setdefault(user, Standing(user))
        average = {side: sum(table[u].rating for u in users) / len(users) for side, users in sides.items()}
        scale = K_FACTOR / (len(sides) - 1)
        changes = {
            side: scale * sum(
                _actual(side_score[side], side_score[other]) - expected_score(average[side], average[other])
                for other in sides if other != side
            )
            for side in sides
        }  # fmt: skip
        for side, users in sides.items():
            for user in users:
                standing = table[user]
                standing.rating += changes[side]
                score = side_score[side]
                if score == 1.0:
                    standing.wins += 1
                elif score == 0.0:
                    standing.losses += 1
                else:
                    standing.draws += 1
    return table


def _actual(score: float, other: float) -> float:
    return 1.0 if score > other else 0.5 if score == other else 0.0


def ranked(table: dict[int, Standing]) -> list[Standing]:
    return sorted(table.values(), key=lambda s: (-s.rating, -s.wins, s.user_id))
