"""Ratings for every game: OpenSkill (Plackett–Luce), recomputed from ordered results.

    recompute(results) -> {user: PlayerRating}     the whole table, oldest result first
    apply(table, result) -> {user: Rating}         one more result, in place
    ranked(table) -> [PlayerRating]                best first
    rated_results(game, stored rows) -> results    today's stored results, for the migration

Pure: no storage, no Discord. See `system.py` for the model and the value players see.
"""

from bot.ratings.stored import rated_result, rated_results
from bot.ratings.system import PROVISIONAL_MATCHES, Rating, display_of
from bot.ratings.table import HistoryPoint, PlayerRating, RatedResult, apply, ranked, recompute

__all__ = [
    "PROVISIONAL_MATCHES",
    "HistoryPoint",
    "PlayerRating",
    "RatedResult",
    "Rating",
    "apply",
    "display_of",
    "ranked",
    "rated_result",
    "rated_results",
    "recompute",
]
