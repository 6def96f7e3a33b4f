"""Timers (reminders, turn deadlines, computer turns, lobby expiry) and the settings that
shape them. One task dispatches them (`bot/dispatcher.py`); each is removed in the same
transaction as the change it makes, so it fires once."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from bot.storage.connection import Connection

DEFAULT_REMINDER_HOURS = 24.0


class TimerKind(StrEnum):
    REMINDER = "reminder"  # the seat to act has not moved for the reminder interval
    DEADLINE = "deadline"  # the turn ran out
    COMPUTER = "computer"  # a computer seat is to act
    LOBBY = "lobby"  # a lobby nobody started expires
    DIGEST = "digest"  # a member's daily digest (kept in user_settings, not in this table: bot/storage/digests.py)


@dataclass(frozen=True, slots=True)
class TimerRow:
    id: int
    due: float
    kind: TimerKind
    match_id: int
    user_id: int | None = None  # the member of a digest (whose `id` and `match_id` are 0)


async def schedule(db: Connection, match_id: int, kind: TimerKind, due: float, now: float) -> None:
    """Queued (`Connection.later`): sent with the next statement or the commit."""
    await db.later(
        "INSERT INTO timers (due, kind, match_id, created_at) VALUES (?, ?, ?, ?)", due, kind.value, match_id, now
    )


async def clear(db: Connection, match_id: int, *kinds: TimerKind) -> None:
    """Queued (`Connection.later`): sent with the next statement or the commit."""
    if not kinds:
        await db.later("DELETE FROM timers WHERE match_id = ?", match_id)
        return
    marks = ", ".join("?" for _ in kinds)
    await db.later(f"DELETE FROM timers WHERE match_id = ? AND kind IN ({marks})", match_id,
                   *(kind.value for kind in kinds))  # fmt: skip


async def schedule_reminder(db: Connection, match_id: int, guild_id: int, match_hours: float | None, after: float,
                            now: float) -> None:
    """A reminder `reminder_hours` after `after`, the server's setting read in the same statement
    (queued, as `schedule` is)."""
    await db.later(
        "INSERT INTO timers (due, kind, match_id, created_at) VALUES (CAST(? AS DOUBLE PRECISION) + 3600.0 * "
        "COALESCE(CAST(? AS DOUBLE PRECISION), (SELECT reminder_hours FROM guild_settings WHERE guild_id = ?), "
        "CAST(? AS DOUBLE PRECISION)), ?, ?, ?)",
        after, match_hours, guild_id, DEFAULT_REMINDER_HOURS, TimerKind.REMINDER.value, match_id, now,
    )  # fmt: skip


async def of_match(db: Connection, match_id: int) -> list[TimerRow]:
    rows = await db.fetchall("SELECT id, due, kind, match_id FROM timers WHERE match_id = ? ORDER BY due", match_id)
    return [TimerRow(row[0], row[1], TimerKind(row[2]), row[3]) for row in rows]


async def next_due(db: Connection) -> TimerRow | None:
    row = await db.fetchone("SELECT id, due, kind, match_id FROM timers ORDER BY due, id LIMIT 1")
    return TimerRow(row[0], row[1], TimerKind(row[2]), row[3]) if row else None


async def take(db: Connection, timer_id: int) -> bool:
    """Remove a timer that is firing; False if it was already gone (fired or replaced)."""
    return await db.execute("DELETE FROM timers WHERE id = ?", timer_id) == 1


async def postpone(db: Connection, timer_id: int, due: float) -> None:
    await db.execute("UPDATE timers SET due = ? WHERE id = ?", due, timer_id)


async def reminder_hours(db: Connection, guild_id: int, match_hours: float | None) -> float:
    if match_hours is not None:
        return match_hours
    row = await db.fetchone("SELECT reminder_hours FROM guild_settings WHERE guild_id = ?", guild_id)
    return float(row[0]) if row and row[0] is not None else DEFAULT_REMINDER_HOURS


async def set_guild_reminder_hours(db: Connection, guild_id: int, hours: float) -> None:
    await db.execute(
        "INSERT INTO guild_settings (guild_id, reminder_hours) VALUES (?, ?) "
        "ON CONFLICT (guild_id) DO UPDATE SET reminder_hours = excluded.reminder_hours",
        guild_id, hours,
    )  # fmt: skip


async def set_locale(db: Connection, table: str, key: str, key_value: int, locale: str) -> None:
    """Remember the locale last seen from a member (user_settings) or a server (guild_settings)."""
    assert (table, key) in (("user_settings", "user_id"), ("guild_settings", "guild_id"))
    await db.execute(
        f"INSERT INTO {table} ({key}, locale) VALUES (?, ?) ON CONFLICT ({key}) DO UPDATE SET locale = excluded.locale",
        key_value, locale,
    )  # fmt: skip


async def locale_for(db: Connection, user_ids: tuple[int, ...], guild_id: int) -> str | None:
    """The locale to address these members in: the first one's last seen, else the server's."""
    for user_id in user_ids:
        row = await db.fetchone("SELECT locale FROM user_settings WHERE user_id = ?", user_id)
        if row and row[0]:
            return str(row[0])
    row = await db.fetchone("SELECT locale FROM guild_settings WHERE guild_id = ?", guild_id)
    return str(row[0]) if row and row[0] else None


async def dm_reminders(db: Connection, user_id: int) -> bool:
    row = await db.fetchone("SELECT dm_reminders FROM user_settings WHERE user_id = ?", user_id)
    return bool(row and row[0])


async def set_dm_reminders(db: Connection, user_id: int, on: bool) -> None:
    await db.execute(
        "INSERT INTO user_settings (user_id, dm_reminders) VALUES (?, ?) "
        "ON CONFLICT (user_id) DO UPDATE SET dm_reminders = excluded.dm_reminders",
        user_id, int(on),
    )  # fmt: skip
