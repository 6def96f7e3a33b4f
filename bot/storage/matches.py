"""Queries over matches, seats and the append-only log. No game rules live here."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

import aiosqlite


class ChannelHasMatch(Exception):
    """The unique index refused a second open match in one channel."""


class VersionConflict(Exception):
    """The match changed since it was read."""


@dataclass(frozen=True, slots=True)
class MatchRow:
    id: int
    game: str
    guild_id: int
    channel_id: int
    creator_id: int
    status: str
    start_position: str
    position: str
    to_act: str | None
    version: int
    result: str | None
    end_reason: str | None
    rated: bool
    created_at: float
    updated_at: float
    board_message_id: int | None
    reminder_hours: float | None = None
    deadline_days: int | None = None
    turn_started_at: float | None = None
    turn_reminders: int = 0


@dataclass(frozen=True, slots=True)
class LogRow:
    seq: int
    kind: str
    city: str | None
    user_id: int | None
    action: str | None
    position: str
    created_at: float


_MATCH_COLUMNS = (
    "id, game, guild_id, channel_id, creator_id, status, start_position, position, to_act, version, "
    "result, end_reason, rated, created_at, updated_at, board_message_id, "
    "reminder_hours, deadline_days, turn_started_at, turn_reminders"
)


def _match(row: aiosqlite.Row | None) -> MatchRow | None:
    if row is None:
        return None
    values = list(row)
    values[12] = bool(values[12])
    return MatchRow(*values)


async def insert_match(
    db: aiosqlite.Connection,
    *,
    guild_id: int,
    channel_id: int,
    creator_id: int,
    start_position: str,
    to_act: str,
    rated: bool,
    now: float,
    deadline_days: int | None = None,
) -> int:
    try:
        cursor = await db.execute(
            "INSERT INTO matches (guild_id, channel_id, creator_id, status, start_position, position, to_act, "
            "rated, created_at, updated_at, deadline_days) VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?)",
            (
                guild_id,
                channel_id,
                creator_id,
                start_position,
                start_position,
                to_act,
                int(rated),
                now,
                now,
                deadline_days,
            ),
        )
    except sqlite3.IntegrityError as error:
        raise ChannelHasMatch from error
    assert cursor.lastrowid is not None
    return cursor.lastrowid


async def open_match_in(db: aiosqlite.Connection, channel_id: int) -> MatchRow | None:
    async with db.execute(
        f"SELECT {_MATCH_COLUMNS} FROM matches WHERE channel_id = ? AND status IN ('lobby', 'active')",
        (channel_id,),
    ) as cursor:
        return _match(await cursor.fetchone())


async def latest_match_in(db: aiosqlite.Connection, channel_id: int) -> MatchRow | None:
    async with db.execute(
        f"SELECT {_MATCH_COLUMNS} FROM matches WHERE channel_id = ? ORDER BY id DESC LIMIT 1", (channel_id,)
    ) as cursor:
        return _match(await cursor.fetchone())


async def match_by_id(db: aiosqlite.Connection, match_id: int) -> MatchRow | None:
    async with db.execute(f"SELECT {_MATCH_COLUMNS} FROM matches WHERE id = ?", (match_id,)) as cursor:
        return _match(await cursor.fetchone())


async def seats_of(db: aiosqlite.Connection, match_id: int) -> dict[str, int | None]:
    async with db.execute("SELECT city, user_id FROM seats WHERE match_id = ?", (match_id,)) as cursor:
        return {row[0]: row[1] for row in await cursor.fetchall()}


async def set_seats(db: aiosqlite.Connection, match_id: int, user_id: int, cities: list[str]) -> None:
    await db.executemany(
        "INSERT INTO seats (match_id, city, user_id) VALUES (?, ?, ?)", [(match_id, c, user_id) for c in cities]
    )


async def remove_seats(db: aiosqlite.Connection, match_id: int, user_id: int) -> None:
    await db.execute("DELETE FROM seats WHERE match_id = ? AND user_id = ?", (match_id, user_id))


async def log_of(db: aiosqlite.Connection, match_id: int) -> list[LogRow]:
    async with db.execute(
        "SELECT seq, kind, city, user_id, action, position, created_at FROM log WHERE match_id = ? ORDER BY seq",
        (match_id,),
    ) as cursor:
        return [LogRow(*row) for row in await cursor.fetchall()]


async def bump_version(db: aiosqlite.Connection, match_id: int, expected_version: int, now: float) -> int:
    """Claim the next version of a match, or raise VersionConflict if someone else did."""
    cursor = await db.execute(
        "UPDATE matches SET version = version + 1, updated_at = ? WHERE id = ? AND version = ?",
        (now, match_id, expected_version),
    )
    if cursor.rowcount != 1:
        raise VersionConflict
    return expected_version + 1


async def append_log(
    db: aiosqlite.Connection,
    match_id: int,
    seq: int,
    *,
    kind: str,
    city: str | None,
    user_id: int | None,
    action: str | None,
    position: str,
    now: float,
) -> None:
    await db.execute(
        "INSERT INTO log (match_id, seq, kind, city, user_id, action, position, created_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (match_id, seq, kind, city, user_id, action, position, now),
    )


async def update_match(db: aiosqlite.Connection, match_id: int, **columns: object) -> None:
    allowed = {
        "status", "position", "to_act", "result", "end_reason", "updated_at", "board_message_id", "rated",
        "reminder_hours", "deadline_days", "turn_started_at", "turn_reminders",
    }  # fmt: skip
    if not columns or not set(columns) <= allowed:
        raise ValueError(f"cannot update {sorted(set(columns) - allowed)}")
    assignments = ", ".join(f"{name} = ?" for name in columns)
    await db.execute(f"UPDATE matches SET {assignments} WHERE id = ?", (*columns.values(), match_id))


async def open_matches_of(db: aiosqlite.Connection, guild_id: int, user_id: int) -> list[tuple[MatchRow, list[str]]]:
    """A user's open matches in a guild, each with the cities they hold."""
    async with db.execute(
        f"SELECT {', '.join('m.' + c for c in _MATCH_COLUMNS.split(', '))}, group_concat(s.city) "
        "FROM matches m JOIN seats s ON s.match_id = m.id "
        "WHERE m.guild_id = ? AND s.user_id = ? AND m.status IN ('lobby', 'active') "
        "GROUP BY m.id ORDER BY m.updated_at",
        (guild_id, user_id),
    ) as cursor:
        rows = await cursor.fetchall()
    result = []
    for row in rows:
        match = _match(row[:-1])  # type: ignore[arg-type]
        assert match is not None
        result.append((match, str(row[-1]).split(",")))
    return result


async def finished_rated_matches(db: aiosqlite.Connection, guild_id: int) -> list[tuple[int, str, dict[str, int]]]:
    """(match id, result, seats) of a guild's rated finished matches, oldest first."""
    async with db.execute(
        "SELECT m.id, m.result, s.city, s.user_id FROM matches m JOIN seats s ON s.match_id = m.id "
        "WHERE m.guild_id = ? AND m.status = 'finished' AND m.rated = 1 AND m.result IS NOT NULL "
        "AND s.user_id IS NOT NULL ORDER BY m.updated_at, m.id",
        (guild_id,),
    ) as cursor:
        rows = await cursor.fetchall()
    matches: dict[int, tuple[int, str, dict[str, int]]] = {}
    for match_id, result, city, user_id in rows:
        matches.setdefault(match_id, (match_id, result, {}))[2][city] = user_id
    return list(matches.values())


async def count_matches(db: aiosqlite.Connection) -> int:
    async with db.execute("SELECT COUNT(*) FROM matches") as cursor:
        row = await cursor.fetchone()
    return int(row[0]) if row else 0
