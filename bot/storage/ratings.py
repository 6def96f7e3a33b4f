"""The stored OpenSkill table (migration 26; docs/tournaments.md, "Ratings").

`ratings` holds each member's current rating per server and game, `rating_history` each rated
result's new rating for its players (the `/<game> stats user:` chart), and `rating_keys` one row
per (server, game) whose counter orders the results. A finished rated match is rated in the
transaction that finishes it (`rate_match`): the key row is updated first, which on PostgreSQL
locks it until commit (a second process rating a result of the same server and game waits, then
reads the ratings the first wrote) and on SQLite happens under the database's write lock. So no
update is lost, and the counter is the order results were rated in. The table is derived: the
migration fills it by replaying every stored rated result (`fill_all`), oldest first, and a
recompute from scratch gives the same numbers.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping

from bot.ratings import HistoryPoint, PlayerRating, Rating, apply, rated_result, rated_results
from bot.ratings.table import RatedResult
from bot.storage.connection import Connection
from bot.storage.matches import finished_rated_matches, match_by_id, seats_of
from engine.registry import get_game, installed_slugs

log = logging.getLogger(__name__)


async def next_seq(db: Connection, guild_id: int, game: str) -> int:
    """Claim the next place in the (server, game) order, holding its key until commit."""
    await db.execute("INSERT INTO rating_keys (guild_id, game, applied) VALUES (?, ?, 0) "
                     "ON CONFLICT (guild_id, game) DO NOTHING", guild_id, game)  # fmt: skip
    row = await db.fetchone("UPDATE rating_keys SET applied = applied + 1 WHERE guild_id = ? AND game = ? "
                            "RETURNING applied", guild_id, game)  # fmt: skip
    assert row is not None
    return int(row[0])


async def players(db: Connection, guild_id: int, game: str, users: Iterable[int]) -> dict[int, PlayerRating]:
    """The stored ratings of these members (without history); members never rated are absent."""
    wanted = sorted(set(users))
    if not wanted:
        return {}
    marks = ", ".join("?" for _ in wanted)
    rows = await db.fetchall(
        f"SELECT user_id, mu, sigma, wins, losses, draws FROM ratings WHERE guild_id = ? AND game = ? "
        f"AND user_id IN ({marks})", guild_id, game, *wanted,
    )  # fmt: skip
    return {int(r[0]): PlayerRating(int(r[0]), Rating(float(r[1]), float(r[2])), int(r[3]), int(r[4]), int(r[5]))
            for r in rows}  # fmt: skip


async def table(db: Connection, guild_id: int, game: str) -> dict[int, PlayerRating]:
    """The whole stored table of a server's game (without history)."""
    rows = await db.fetchall("SELECT user_id, mu, sigma, wins, losses, draws FROM ratings "
                             "WHERE guild_id = ? AND game = ?", guild_id, game)  # fmt: skip
    return {int(r[0]): PlayerRating(int(r[0]), Rating(float(r[1]), float(r[2])), int(r[3]), int(r[4]), int(r[5]))
            for r in rows}  # fmt: skip


async def history(db: Connection, guild_id: int, game: str, user_id: int) -> list[HistoryPoint]:
    rows = await db.fetchall("SELECT match_id, mu, sigma FROM rating_history WHERE guild_id = ? AND game = ? "
                             "AND user_id = ? ORDER BY seq", guild_id, game, user_id)  # fmt: skip
    return [HistoryPoint(int(r[0]), Rating(float(r[1]), float(r[2]))) for r in rows]


async def _store(db: Connection, guild_id: int, game: str, seq: int, match_id: int,
                 changed: Mapping[int, PlayerRating]) -> None:  # fmt: skip
    await db.executemany(
        "INSERT INTO ratings (guild_id, game, user_id, mu, sigma, wins, losses, draws) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
        "ON CONFLICT (guild_id, game, user_id) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, "
        "wins = excluded.wins, losses = excluded.losses, draws = excluded.draws",
        [(guild_id, game, p.user_id, p.rating.mu, p.rating.sigma, p.wins, p.losses, p.draws)
         for p in changed.values()],
    )  # fmt: skip
    await db.executemany(
        "INSERT INTO rating_history (guild_id, game, user_id, seq, match_id, mu, sigma) VALUES (?, ?, ?, ?, ?, ?, ?)",
        [(guild_id, game, p.user_id, seq, match_id, p.rating.mu, p.rating.sigma) for p in changed.values()],
    )


async def rate_result(db: Connection, guild_id: int, game: str, result: RatedResult) -> None:
    """Rate one result into the stored table, in the caller's transaction."""
    if not result.contested:
        return
    seq = await next_seq(db, guild_id, game)  # first: the key's lock orders concurrent results
    known = await players(db, guild_id, game, (u for side in result.sides for u in side))
    changed = apply(known, result)
    await _store(db, guild_id, game, seq, result.match_id, {u: known[u] for u in changed})


async def rate_match(db: Connection, match_id: int) -> None:
    """In the transaction that finished a match: rate it, if it finished rated."""
    row = await match_by_id(db, match_id)
    if row is None or row.status != "finished" or not row.rated or row.result is None:
        return
    seats = {s.seat: s.user_id for s in await seats_of(db, match_id) if s.user_id is not None}
    result = rated_result(get_game(row.game), row.id, row.result, row.players, seats)
    await rate_result(db, row.guild_id, row.game, result)


async def fill_all(db: Connection) -> int:
    """Migration 26's data step: every stored rated result replayed, per server and game, oldest
    first (the order today's standings used); returns how many were rated. A game no longer
    installed cannot say its sides: its results wait (logged), unrated, as they did before."""
    pairs = await db.fetchall("SELECT DISTINCT guild_id, game FROM matches WHERE status = 'finished' "
                              "AND rated = ? AND result IS NOT NULL ORDER BY guild_id, game", True)  # fmt: skip
    installed = set(installed_slugs())
    count = 0
    for guild_id, game in pairs:
        if game not in installed:
            log.warning("ratings: game not installed, its results are not rated", extra={"game": game})
            continue
        guild, slug = int(guild_id), str(game)
        # In memory, then written at once: the same steps as `rate_result`, one result after another.
        known: dict[int, PlayerRating] = {}
        rows: list[tuple[object, ...]] = []
        seq = 0
        for result in rated_results(get_game(slug), await finished_rated_matches(db, guild, slug)):
            if not result.contested:
                continue
            seq += 1
            for user, rating in apply(known, result).items():
                rows.append((guild, slug, user, seq, result.match_id, rating.mu, rating.sigma))
        await _store_many(db, guild, slug, known.values(), rows)
        await db.execute("INSERT INTO rating_keys (guild_id, game, applied) VALUES (?, ?, ?)", guild, slug, seq)
        count += seq
    return count


async def _store_many(db: Connection, guild_id: int, game: str, rated: Iterable[PlayerRating],
                      rows: list[tuple[object, ...]]) -> None:  # fmt: skip
    await db.executemany(
        "INSERT INTO ratings (guild_id, game, user_id, mu, sigma, wins, losses, draws) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [(guild_id, game, p.user_id, p.rating.mu, p.rating.sigma, p.wins, p.losses, p.draws) for p in rated],
    )
    await db.executemany(
        "INSERT INTO rating_history (guild_id, game, user_id, seq, match_id, mu, sigma) VALUES (?, ?, ?, ?, ?, ?, ?)",
        rows,
    )
