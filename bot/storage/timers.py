"""Timers (reminders and turn deadlines) and the settings that shape them."""

from __future__ import annotations

from dataclasses import dataclass

import aiosqlite

DEFAULT_REMINDER_HOURS = 24.0


@dataclass(frozen=True, slots=True)
class TimerRow:
    id: int
    due: float
    kind: str
    match_id: int


async def schedule(db: aiosqlite.Connection, match_id: int, kind: str, due: float, now: float) -> None:
    await db.execute(
        "INSERT INTO timers (due, kind, match_id, created_at) VALUES (?, ?, ?, ?)", (due, kind, match_id, now)
    )


async def clear(db: aiosqlite.Connection, match_id: int, kind: str | None = None) -> None:
    if kind is None:
        await db.execute("DELETE FROM timers WHERE match_id = ?", (match_id,))
    else:
        await db.execute("DELETE FROM timers WHERE match_id = ? AND kind = ?", (match_id, kind))


async def next_due(db: aiosqlite.Connection) -> TimerRow | None:
    async with db.execute("SELECT id, due, kind, match_id FROM timers ORDER BY due, id LIMIT 1") as cursor:
        row = await cursor.fetchone()
    return TimerRow(*row) if row else None


async def take(db: aiosqlite.Connection, timer_id: int) -> bool:
    """Remove a timer that is firing; False if it was already gone (fired or replaced)."""
    cursor = await db.execute("DELETE FROM timers WHERE id = ?", (timer_id,))
    return cursor.rowcount == 1


async def postpone(db: aiosqlite.Connection, timer_id: int, due: float) -> None:
    await db.execute("UPDATE timers SET due = ? WHERE id = ?", (due, timer_id))


async def reminder_hours(db: aiosqlite.Connection, guild_id: int, match_hours: float | None) -> float:
    if match_hours is not None:
        return match_hours
    async with db.execute("SELECT reminder_hours FROM guild_settings WHERE guild_id = ?", (guild_id,)) as cursor:
        row = await cursor.fetchone()
    return float(row[0]) if row and row[0] is not None else DEFAULT_REMINDER_HOURS


async def set_guild_reminder_hours(db: aiosqlite.Connection, guild_id: int, hours: float) -> None:
    await db.execute(
        "INSERT INTO guild_settings (guild_id, reminder_hours) VALUES (?, ?) "
        "ON CONFLICT (guild_id) DO UPDATE SET reminder_hours = excluded.reminder_hours",
        (guild_id, hours),
    )


async def dm_reminders(db: aiosqlite.Connection, user_id: int) -> bool:
    async with db.execute("SELECT dm_reminders FROM user_settings WHERE user_id = ?", (user_id,)) as cursor:
        row = await cursor.fetchone()
    return bool(row and row[0])


async def set_dm_reminders(db: aiosqlite.Connection, user_id: int, on: bool) -> None:
    await db.execute(
        "INSERT INTO user_settings (user_id, dm_reminders) VALUES (?, ?) "
        "ON CONFLICT (user_id) DO UPDATE SET dm_reminders = excluded.dm_reminders",
        (user_id, int(on)),
    )
