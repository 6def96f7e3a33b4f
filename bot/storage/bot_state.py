"""Key-value facts the bot keeps between restarts."""

from __future__ import annotations

import aiosqlite


async def get(db: aiosqlite.Connection, key: str) -> str | None:
    async with db.execute("SELECT value FROM bot_state WHERE key = ?", (key,)) as cursor:
        row = await cursor.fetchone()
    return str(row[0]) if row else None


async def put(db: aiosqlite.Connection, key: str, value: str) -> None:
    await db.execute(
        "INSERT INTO bot_state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        (key, value),
    )
