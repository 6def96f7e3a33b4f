"""Per-guild standings: wins, losses, draws and an Elo rating for team games.

Derived from the finished rated matches every time, never stored: nothing can drift
or be counted twice. A team's rating is the average of its players' ratings; every
player of a team moves by the team's result against that expectation.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

START_RATING = 1500.0
K_FACTOR = 32.0
TEAM_CITIES = {"athens-messene": ("athens", "messene"), "sparta-thebes": ("sparta", "thebes")}


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


def standings(matches: Iterable[tuple[int, str, dict[str, int]]]) -> dict[int, Standing]:
    """Replay finished matches (oldest first: id, result, city→user) into standings."""
    table: dict[int, Standing] = {}
    for _, result, seats in matches:
        teams = {
            slug: sorted({uid for city, uid in seats.items() if city in cities}) for slug, cities in TEAM_CITIES.items()
        }
        if not all(teams.values()):
            continue
        for uid in teams["athens-messene"] + teams["sparta-thebes"]:
            table.setdefault(uid, Standing(uid))
        average = {slug: sum(table[u].rating for u in users) / len(users) for slug, users in teams.items()}
        for slug, users in teams.items():
            other = "sparta-thebes" if slug == "athens-messene" else "athens-messene"
            score = 0.5 if result == "draw" else float(result == slug)
            change = K_FACTOR * (score - expected_score(average[slug], average[other]))
            for uid in users:
                standing = table[uid]
                standing.rating += change
                if score == 1.0:
                    standing.wins += 1
                elif score == 0.0:
                    standing.losses += 1
                else:
                    standing.draws += 1
    return table


def ranked(table: dict[int, Standing]) -> list[Standing]:
    return sorted(table.values(), key=lambda s: (-s.rating, -s.wins, s.user_id))
