"""Rematch acceptances: who of a finished match accepted a rematch, and when
(bot/service/rematch.py)."""

from __future__ import annotations

from bot.storage.connection import Connection


async def accept(db: Connection, match_id: int, user_id: int, now: float) -> None:
    await db.execute(
        "INSERT INTO rematches (match_id, user_id, accepted_at) VALUES (?, ?, ?) "
        "ON CONFLICT (match_id, user_id) DO UPDATE SET accepted_at = excluded.accepted_at",
        match_id, user_id, now,
    )  # fmt: skip


async def accepted(db: Connection, match_id: int, since: float) -> set[int]:
    """The members who accepted since `since` (older acceptances have lapsed)."""
    rows = await db.fetchall("SELECT user_id FROM rematches WHERE match_id = ? AND accepted_at >= ?", match_id, since)
    return {int(row[0]) for row in rows}


async def lapse(db: Connection, match_id: int, before: float) -> None:
    await db.execute("DELETE FROM rematches WHERE match_id = ? AND accepted_at < ?", match_id, before)


async def rematch_of(db: Connection, match_id: int) -> tuple[int, int] | None:
    """The rematch a match led to, if one started: (its id, its channel)."""
    row = await db.fetchone("SELECT id, channel_id FROM matches WHERE rematch_of = ?", match_id)
    return (int(row[0]), int(row[1])) if row else None


async def mark_rematch(db: Connection, new_match_id: int, old_match_id: int) -> None:
    """Name the match a rematch came from; a second rematch of it breaks the unique index."""
    await db.execute("UPDATE matches SET rematch_of = ? WHERE id = ?", old_match_id, new_match_id)
