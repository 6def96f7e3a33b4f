"""Today's stored results as rated results: the bridge for recomputing a server's table.

Storage keeps, per finished rated match, its result text (a side's slug, a comma-separated
list of winning seats, `draw`, or `draw:<seat>,…`), its player count and who sat where
(`bot.storage.matches.finished_rated_matches`). Each side of the game's table becomes a side
of the rated result with the users on its seats; winners rank first, seats sharing a draw
rank first together, everyone else shares the next place.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from bot.ratings.table import RatedResult
from engine.api import Game

StoredRow = tuple[int, str, int, Mapping[str, int]]  # (match id, result, player count, seat → user)


def rated_result(game: Game[Any], match_id: int, result: str, players: int, seats: Mapping[str, int]) -> RatedResult:
    table = game.sides(players)
    if result == "draw":
        first = {seat for side in table for seat in side.seats}
    elif result.startswith("draw:"):
        first = set(result[5:].split(","))
    else:
        named = {side.slug: set(side.seats) for side in table}
        first = named.get(result, set(result.split(",")))
    sides: list[tuple[int, ...]] = []
    ranks: list[int] = []
    for side in table:
        users = tuple(dict.fromkeys(seats[s] for s in side.seats if s in seats))
        if not users:
            continue
        sides.append(users)
        ranks.append(1 if first & set(side.seats) else 2)
    return RatedResult(match_id, tuple(sides), tuple(ranks))


def rated_results(game: Game[Any], rows: Iterable[StoredRow]) -> Iterator[RatedResult]:
    """The stored rows of one game, in their order, as rated results."""
    for match_id, result, players, seats in rows:
        yield rated_result(game, match_id, result, players, seats)
