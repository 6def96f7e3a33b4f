"""The daily digest's settings and schedule (columns of `user_settings`): the UTC hour a member
chose and when their next digest is due. The dispatcher fires a due digest like a timer; it is
taken by moving its due time on, in one statement, so two processes send it once."""

from __future__ import annotations

from bot.storage.connection import Connection


async def set_digest(db: Connection, user_id: int, hour: int | None, due: float | None) -> None:
    await db.execute(
        "INSERT INTO user_settings (user_id, digest_hour, digest_due) VALUES (?, ?, ?) "
        "ON CONFLICT (user_id) DO UPDATE SET digest_hour = excluded.digest_hour, digest_due = excluded.digest_due",
        user_id, hour, due,
    )  # fmt: skip


async def digest_hour(db: Connection, user_id: int) -> int | None:
    """The hour (UTC) of a member's daily digest; None when they have none."""
    row = await db.fetchone("SELECT digest_hour FROM user_settings WHERE user_id = ?", user_id)
    return int(row[0]) if row and row[0] is not None else None


async def next_digest(db: Connection) -> tuple[int, float] | None:
    """The member whose digest is due first, and when."""
    row = await db.fetchone(
        "SELECT user_id, digest_due FROM user_settings WHERE digest_due IS NOT NULL "
        "ORDER BY digest_due, user_id LIMIT 1"
    )
    return (int(row[0]), float(row[1])) if row else None


async def take(db: Connection, user_id: int, due: float, next_due: float) -> bool:
    """Claim the digest due at `due` by moving it to `next_due`; False if another process did."""
    return await db.execute(
        "UPDATE user_settings SET digest_due = ? WHERE user_id = ? AND digest_due = ?", next_due, user_id, due
    ) == 1  # fmt: skip


async def postpone(db: Connection, user_id: int, due: float) -> None:
    await db.execute(
        "UPDATE user_settings SET digest_due = ? WHERE user_id = ? AND digest_due IS NOT NULL", due, user_id
    )
