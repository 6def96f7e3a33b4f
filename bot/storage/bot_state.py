"""Key-value facts the bot keeps between restarts."""

from __future__ import annotations

from bot.storage.connection import Connection


async def get(db: Connection, key: str) -> str | None:
    row = await db.fetchone("SELECT value FROM bot_state WHERE key = ?", key)
    return str(row[0]) if row else None


async def put(db: Connection, key: str, value: str) -> None:
    await db.execute(
        "INSERT INTO bot_state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        key, value,
    )  # fmt: skip
