"""The rating system: OpenSkill's Plackett–Luce model, one model for every table shape.

Why Plackett–Luce (Weng and Lin's Algorithm 4, as the `openskill` package implements it):

- A game is a ranking of sides, whatever their number and size, so one-against-one, two
  teams of two and free-for-alls of three or four are rated by the same rule, as what they
  are: a team's strength is the sum of its players', and a four-player game is one ranking
  of four, not six made-up duels. Equal ranks are ties (a draw, or a draw between some seats).
- Its update costs time linear in the number of sides (the full Bradley–Terry and
  Thurstone–Mosteller models compare every pair), and in Weng and Lin's comparisons and the
  package's own benchmarks it predicts multi-side results at least as well as the others.
- It is deterministic: the same results in the same order give the same ratings, so a table
  is recomputed from the stored results whenever wanted, and never drifts.

Every player starts at μ = 25, σ = 25/3 (the package's defaults; β = σ/2 sets how much one
game says, τ = 25/300 lets a rating move again after a long time). What players see is a
conservative value: μ − 3σ, which the player's true strength exceeds with high confidence,
scaled so that one point of μ is about 30 Elo points (the logistic curve of a game between
two settled players has the slope of Elo's at that scale) and starting from 1000:

    shown = 1000 + 30 · (μ − 3σ)

A newcomer shows 1000 and rises as the system becomes sure of them; a settled player of
average strength sits near 1500. Fewer than `PROVISIONAL_MATCHES` rated matches mark the
rating provisional.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from openskill.models import PlackettLuce

# PlackettLuce()'s defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300), written here so that
# importing the ratings does not import openskill: the console reaches its prompt sooner, and
# tests/ratings/test_ratings.py checks they agree with the model's.
START_MU = 25.0
START_SIGMA = 25.0 / 3
DISPLAY_BASE = 1000.0
DISPLAY_SCALE = 30.0
CONFIDENCE = 3.0  # standard deviations below the mean that the shown value sits
PROVISIONAL_MATCHES = 10


@dataclass(frozen=True, slots=True)
class Rating:
    mu: float = START_MU
    sigma: float = START_SIGMA

    @property
    def conservative(self) -> float:
        return self.mu - CONFIDENCE * self.sigma

    @property
    def display(self) -> int:
        """The value players see (see the module's docstring)."""
        return display_of(self.conservative)

    @property
    def estimate(self) -> int:
        """μ on the shown scale: where the rating would sit once the system is sure."""
        return display_of(self.mu)


def display_of(value: float) -> int:
    return round(DISPLAY_BASE + DISPLAY_SCALE * value)


@cache
def model() -> PlackettLuce:
    """The rating model, made (and openskill imported) when a first game is rated."""
    from openskill.models import PlackettLuce

    return PlackettLuce()


def rate_sides(sides: list[list[Rating]], ranks: list[int]) -> list[list[Rating]]:
    """New ratings of every player of every side after one game ranked `ranks` (1 best)."""
    rater = model()
    teams = [[rater.rating(mu=r.mu, sigma=r.sigma) for r in side] for side in sides]
    rated = rater.rate(teams, ranks=[float(rank) for rank in ranks])
    return [[Rating(p.mu, p.sigma) for p in side] for side in rated]
