"""Members' vacations, per server: while one runs, their seats' clocks stand still."""

from __future__ import annotations

import math
from dataclasses import dataclass

from bot.storage.connection import Connection

DEFAULT_ALLOWANCE_DAYS = 14  # a year, per member and server, unless the server says otherwise


@dataclass(frozen=True, slots=True)
class Vacation:
    id: int
    guild_id: int
    user_id: int
    started_at: float
    ends_at: float


async def current(db: Connection, guild_id: int, user_id: int, now: float) -> Vacation | None:
    row = await db.fetchone(
        "SELECT id, guild_id, user_id, started_at, ends_at FROM vacations WHERE guild_id = ? AND user_id = ? "
        "AND started_at <= ? AND ends_at > ? ORDER BY ends_at DESC LIMIT 1",
        guild_id, user_id, now, now,
    )  # fmt: skip
    return Vacation(int(row[0]), int(row[1]), int(row[2]), float(row[3]), float(row[4])) if row else None


async def away_until(db: Connection, guild_id: int, user_ids: tuple[int, ...], now: float) -> dict[int, float]:
    """Which of these members are on vacation in this server now, and until when (one query)."""
    if not user_ids:
        return {}
    marks = ", ".join("?" for _ in user_ids)
    rows = await db.fetchall(
        f"SELECT user_id, MAX(ends_at) FROM vacations WHERE guild_id = ? AND user_id IN ({marks}) "
        "AND started_at <= ? AND ends_at > ? GROUP BY user_id",
        guild_id, *user_ids, now, now,
    )  # fmt: skip
    return {int(row[0]): float(row[1]) for row in rows}


async def ended_between(
    db: Connection, guild_id: int, user_ids: tuple[int, ...], since: float, now: float
) -> list[int]:
    """Which of these members' vacations in this server ended in (since, now], and are not renewed."""
    ended = []
    for user_id in user_ids:
        row = await db.fetchone(
            "SELECT COUNT(*) FROM vacations WHERE guild_id = ? AND user_id = ? AND ends_at > ? AND ends_at <= ?",
            guild_id, user_id, since, now,
        )  # fmt: skip
        if row and row[0] and await current(db, guild_id, user_id, now) is None:
            ended.append(user_id)
    return ended


async def used_seconds(db: Connection, guild_id: int, user_id: int, since: float, now: float) -> float:
    """Vacation time used since `since`, each vacation counted to the (started) hour."""
    rows = await db.fetchall(
        "SELECT started_at, ends_at FROM vacations WHERE guild_id = ? AND user_id = ? AND started_at >= ?",
        guild_id, user_id, since,
    )  # fmt: skip
    total = 0.0
    for started, ends in rows:
        spent = max(0.0, min(float(ends), now) - float(started))
        total += math.ceil(spent / 3600 - 1e-9) * 3600
    return total


async def start(db: Connection, guild_id: int, user_id: int, now: float, ends_at: float) -> None:
    await db.execute(
        "INSERT INTO vacations (guild_id, user_id, started_at, ends_at) VALUES (?, ?, ?, ?)",
        guild_id, user_id, now, ends_at,
    )  # fmt: skip


async def move_end(db: Connection, vacation_id: int, ends_at: float) -> None:
    await db.execute("UPDATE vacations SET ends_at = ? WHERE id = ?", ends_at, vacation_id)


async def allowance_days(db: Connection, guild_id: int) -> int:
    row = await db.fetchone("SELECT vacation_days FROM guild_settings WHERE guild_id = ?", guild_id)
    return int(row[0]) if row and row[0] is not None else DEFAULT_ALLOWANCE_DAYS


async def set_allowance_days(db: Connection, guild_id: int, days: int) -> None:
    await db.execute(
        "INSERT INTO guild_settings (guild_id, vacation_days) VALUES (?, ?) "
        "ON CONFLICT (guild_id) DO UPDATE SET vacation_days = excluded.vacation_days",
        guild_id, days,
    )  # fmt: skip
