"""Forecasts: a player's private conditional lines for a match (bot/service/forecasts.py). One
row per member and match; never read by anything that shows a match to others."""

from __future__ import annotations

from dataclasses import dataclass

from bot.storage.connection import Connection


@dataclass(frozen=True, slots=True)
class ForecastRow:
    match_id: int
    user_id: int
    seat: str  # a seat of the forecaster's side (who plays the answers)
    version: int  # the match version it was made at
    position_key: str  # the position it was made for
    lines: str  # JSON: [{"turns": [[notation, …], …], "key": position key after their turn}, …]


async def put(db: Connection, row: ForecastRow, now: float) -> None:
    await db.execute("DELETE FROM forecasts WHERE match_id = ? AND user_id = ?", row.match_id, row.user_id)
    await db.execute(
        "INSERT INTO forecasts (match_id, user_id, seat, version, position_key, lines, created_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        row.match_id, row.user_id, row.seat, row.version, row.position_key, row.lines, now,
    )  # fmt: skip


async def of_match(db: Connection, match_id: int) -> list[ForecastRow]:
    rows = await db.fetchall(
        "SELECT match_id, user_id, seat, version, position_key, lines FROM forecasts WHERE match_id = ? "
        "ORDER BY user_id", match_id,
    )  # fmt: skip
    return [ForecastRow(int(r[0]), int(r[1]), str(r[2]), int(r[3]), str(r[4]), str(r[5])) for r in rows]


async def remove(db: Connection, match_id: int, user_id: int | None = None) -> int:
    if user_id is None:
        return await db.execute("DELETE FROM forecasts WHERE match_id = ?", match_id)
    return await db.execute("DELETE FROM forecasts WHERE match_id = ? AND user_id = ?", match_id, user_id)


async def matches_with(db: Connection) -> set[int]:
    """Every match that holds a forecast."""
    return {int(row[0]) for row in await db.fetchall("SELECT DISTINCT match_id FROM forecasts")}
