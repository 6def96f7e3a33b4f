"""Queries over matches, seats and the append-only log. No game rules live here."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from bot.storage.connection import ChannelHasMatch, Connection, Row, StorageUnavailable, VersionConflict

__all__ = ["ChannelHasMatch", "LogRow", "MatchRow", "MatchStatus", "SeatRow", "VersionConflict"]


class MatchStatus(StrEnum):
    LOBBY = "lobby"
    ACTIVE = "active"
    FINISHED = "finished"
    ABORTED = "aborted"


OPEN_STATUSES = (MatchStatus.LOBBY.value, MatchStatus.ACTIVE.value)


@dataclass(frozen=True, slots=True)
class MatchRow:
    id: int
    game: str
    guild_id: int
    channel_id: int
    parent_channel_id: int | None
    creator_id: int
    status: str
    players: int
    options: dict[str, str]
    seed: int
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
    suspended_at: float | None = None  # paused: the bot cannot post in its channel
    unrated_reason: str | None = None  # why a rule made it unrated (bot/rating_gate.py), if one did
    started_at: float | None = None  # when the lobby started (None for matches started before it was kept)
    bank_days: int | None = None  # the most time a seat's clock holds (None: the deadline itself)
    pause_agreed: str = ""  # who agreed to pause every clock (user ids, comma-separated)
    clocks_paused_at: float | None = None  # paused by agreement: every clock stands since then
    archives_keys: bool = False  # every position's repetition key is stored (made after migration 24)

    @property
    def is_open(self) -> bool:
        return self.status in OPEN_STATUSES


@dataclass(frozen=True, slots=True)
class SeatRow:
    seat: str
    user_id: int | None
    computer: str | None  # the level of a computer seat


@dataclass(frozen=True, slots=True)
class LogRow:
    seq: int
    kind: str
    seat: str | None
    user_id: int | None
    action: str | None
    position: str
    created_at: float


_COLUMNS = (
    "id", "game", "guild_id", "channel_id", "parent_channel_id", "creator_id", "status", "players", "options",
    "seed", "start_position", "position", "to_act", "version", "result", "end_reason", "rated", "created_at",
    "updated_at", "board_message_id", "reminder_hours", "deadline_days", "turn_started_at", "turn_reminders",
    "suspended_at", "unrated_reason", "started_at", "bank_days", "pause_agreed", "clocks_paused_at", "archives_keys",
)  # fmt: skip
MATCH_COLUMNS = ", ".join(_COLUMNS)
_OPTIONS = _COLUMNS.index("options")
_RATED = _COLUMNS.index("rated")
_ARCHIVES = _COLUMNS.index("archives_keys")


def _match(row: Row | None) -> MatchRow | None:
    if row is None:
        return None
    values: list[Any] = list(row[: len(_COLUMNS)])
    try:
        values[_OPTIONS] = json.loads(values[_OPTIONS] or "{}")
    except ValueError:  # a damaged row is refused as unreadable, never a raw decoding error
        raise StorageUnavailable(writing=False) from None
    values[_RATED] = bool(values[_RATED])
    values[_ARCHIVES] = bool(values[_ARCHIVES])
    return MatchRow(*values)


@dataclass(frozen=True, slots=True)
class NewMatch:
    game: str
    guild_id: int
    channel_id: int
    creator_id: int
    players: int
    start_position: str
    to_act: str | None
    rated: bool
    now: float
    options: Mapping[str, str] = field(default_factory=dict)
    seed: int = 0
    deadline_days: int | None = None
    parent_channel_id: int | None = None
    bank_days: int | None = None


async def insert_match(db: Connection, new: NewMatch) -> int:
    # An event's match sharing its channel (parent = channel) is outside the unique index; any
    # other match still finds a channel holding such matches taken.
    if new.parent_channel_id != new.channel_id and await open_match_in(db, new.channel_id) is not None:
        raise ChannelHasMatch
    try:
        return await db.insert(
            "INSERT INTO matches (game, guild_id, channel_id, parent_channel_id, creator_id, status, players, options, "
            "seed, start_position, position, to_act, rated, created_at, updated_at, deadline_days, bank_days) "
            "VALUES (?, ?, ?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            new.game, new.guild_id, new.channel_id, new.parent_channel_id, new.creator_id, new.players,
            json.dumps(dict(new.options), sort_keys=True), new.seed, new.start_position, new.start_position,
            new.to_act, new.rated, new.now, new.now, new.deadline_days, new.bank_days,
        )  # fmt: skip
    except Exception as error:
        if _is_unique_violation(error):
            raise ChannelHasMatch from error
        raise


def _is_unique_violation(error: Exception) -> bool:
    # sqlite3.IntegrityError or asyncpg's UniqueViolationError, without importing either here:
    # the only unique rule a new match can break is one open match per channel.
    return type(error).__name__ in ("IntegrityError", "UniqueViolationError")


async def open_match_in(db: Connection, channel_id: int) -> MatchRow | None:
    return _match(
        await db.fetchone(
            f"SELECT {MATCH_COLUMNS} FROM matches WHERE channel_id = ? AND status IN (?, ?)", channel_id, *OPEN_STATUSES
        )
    )


async def open_matches_in(db: Connection, channel_id: int) -> list[MatchRow]:
    """Every open match of a channel: one, or an event's matches sharing its channel."""
    rows = await db.fetchall(
        f"SELECT {MATCH_COLUMNS} FROM matches WHERE channel_id = ? AND status IN (?, ?) ORDER BY id",
        channel_id, *OPEN_STATUSES,
    )  # fmt: skip
    return [row for row in map(_match, rows) if row is not None]


async def match_in_channel(db: Connection, channel_id: int, match_id: int, open_only: bool) -> MatchRow | None:
    """The match `match_id` if it is (an open match) in this channel."""
    row = await match_by_id(db, match_id)
    if row is None or row.channel_id != channel_id or (open_only and row.status not in OPEN_STATUSES):
        return None
    return row


async def latest_match_in(db: Connection, channel_id: int) -> MatchRow | None:
    return _match(
        await db.fetchone(
            f"SELECT {MATCH_COLUMNS} FROM matches WHERE channel_id = ? ORDER BY id DESC LIMIT 1", channel_id
        )
    )


async def match_by_id(db: Connection, match_id: int) -> MatchRow | None:
    return _match(await db.fetchone(f"SELECT {MATCH_COLUMNS} FROM matches WHERE id = ?", match_id))


async def seats_of(db: Connection, match_id: int) -> list[SeatRow]:
    rows = await db.fetchall("SELECT seat, user_id, computer FROM seats WHERE match_id = ?", match_id)
    return [SeatRow(row[0], row[1], row[2]) for row in rows]


async def take_seats(
    db: Connection, match_id: int, seats: list[str], *, user_id: int | None, computer: str | None
) -> None:
    """Give seats to a member or the computer, replacing whoever held them in the lobby."""
    for seat in seats:
        await db.execute("DELETE FROM seats WHERE match_id = ? AND seat = ?", match_id, seat)
    await db.executemany(
        "INSERT INTO seats (match_id, seat, user_id, computer) VALUES (?, ?, ?, ?)",
        [(match_id, seat, user_id, computer) for seat in seats],
    )


async def remove_seats(db: Connection, match_id: int, user_id: int) -> None:
    await db.execute("DELETE FROM seats WHERE match_id = ? AND user_id = ?", match_id, user_id)


async def log_of(db: Connection, match_id: int) -> list[LogRow]:
    rows = await db.fetchall(
        "SELECT seq, kind, seat, user_id, action, position, created_at FROM log WHERE match_id = ? ORDER BY seq",
        match_id,
    )
    return [LogRow(*row) for row in rows]


async def bump_version(db: Connection, match_id: int, expected_version: int, now: float) -> int:
    """Claim the next version of a match, or raise VersionConflict if someone else did."""
    changed = await db.execute(
        "UPDATE matches SET version = version + 1, updated_at = ? WHERE id = ? AND version = ?",
        now, match_id, expected_version,
    )  # fmt: skip
    if changed != 1:
        raise VersionConflict
    return expected_version + 1


async def claim_version(db: Connection, match_id: int, expected_version: int, now: float,
                        **columns: object) -> MatchRow:
    """`bump_version` and `update_match` in one statement: the match row as it is now, at its next
    version with `columns` set, or VersionConflict if someone else claimed that version."""
    if not set(columns) <= _UPDATABLE:
        raise ValueError(f"cannot update {sorted(set(columns) - _UPDATABLE)}")
    assignments = "".join(f", {name} = ?" for name in columns)
    row = _match(await db.fetchone(
        f"UPDATE matches SET version = version + 1, updated_at = ?{assignments} WHERE id = ? AND version = ? "
        f"RETURNING {MATCH_COLUMNS}",
        now, *columns.values(), match_id, expected_version,
    ))  # fmt: skip
    if row is None:
        raise VersionConflict
    return row


async def append_log(db: Connection, match_id: int, seq: int, row: LogRow) -> None:
    """Queued (`Connection.later`): sent with the next statement or the commit."""
    await db.later(
        "INSERT INTO log (match_id, seq, kind, seat, user_id, action, position, created_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        match_id, seq, row.kind, row.seat, row.user_id, row.action, row.position, row.created_at,
    )  # fmt: skip


async def save_snapshot(db: Connection, match_id: int, version: int, data: str, *, keep: int) -> None:
    """Store a match's snapshot at `version`, keeping only the newest `keep`. Queued
    (`Connection.later`): the older ones go first, so the two writes can be one statement."""
    assert keep >= 1
    await db.later(
        "DELETE FROM snapshots WHERE match_id = ? AND version NOT IN "
        "(SELECT version FROM snapshots WHERE match_id = ? ORDER BY version DESC LIMIT ?)",
        match_id, match_id, keep - 1,
    )  # fmt: skip
    await db.later("INSERT INTO snapshots (match_id, version, data) VALUES (?, ?, ?)", match_id, version, data)


async def store_key(db: Connection, match_id: int, ply: int, key: int) -> None:
    """Store the repetition key of a match's position `ply` (engine/archive.py). Queued with the
    action's other writes; an upsert, so a retry or a ply played again after an undo is harmless."""
    await db.later(
        "INSERT INTO repetition_keys (match_id, ply, key) VALUES (?, ?, ?) "
        "ON CONFLICT (match_id, ply) DO UPDATE SET key = excluded.key",
        match_id, ply, key,
    )  # fmt: skip


async def archived_count(db: Connection, match_id: int, key: int, below: int) -> tuple[int, int]:
    """(the newest ply stored below `below`, or -1; how many plies below `below` hold `key`).
    Both are index look-ups (the key index and the primary key), so a lookup costs the same
    however long the match: no scan of its keys."""
    row = await db.fetchone(
        "SELECT (SELECT COALESCE(MAX(ply), -1) FROM repetition_keys WHERE match_id = ? AND ply < ?), "
        "(SELECT COUNT(*) FROM repetition_keys WHERE match_id = ? AND key = ? AND ply < ?)",
        match_id, below, match_id, key, below,
    )  # fmt: skip
    assert row is not None
    return int(row[0]), int(row[1])


async def snapshot_before_tail(db: Connection, match_id: int, tail: int) -> tuple[int, str] | None:
    """The newest snapshot of a match that leaves at least `tail` log entries after it:
    (its version, its data)."""
    row = await db.fetchone(
        "SELECT version, data FROM snapshots WHERE match_id = ? AND version <= "
        "(SELECT COALESCE(MAX(seq), 0) FROM log WHERE match_id = ?) - ? ORDER BY version DESC LIMIT 1",
        match_id, match_id, tail,
    )  # fmt: skip
    return (int(row[0]), str(row[1])) if row is not None else None


async def steps_log(db: Connection, match_id: int, upto: int) -> list[Row]:
    """(seq, kind, seat, user_id, action) of the log entries up to `upto`, in order: what a long
    match's older steps are rebuilt from (bot/match/played.py), without the positions."""
    return await db.fetchall(
        "SELECT seq, kind, seat, user_id, action FROM log WHERE match_id = ? AND seq <= ? ORDER BY seq",
        match_id, upto,
    )  # fmt: skip


async def log_after(db: Connection, match_id: int, seq: int) -> list[LogRow]:
    """The log entries after `seq`, in order."""
    rows = await db.fetchall(
        "SELECT seq, kind, seat, user_id, action, position, created_at FROM log WHERE match_id = ? AND seq > ? "
        "ORDER BY seq",
        match_id, seq,
    )  # fmt: skip
    return [LogRow(*row) for row in rows]


_UPDATABLE = frozenset(
    {"status", "position", "to_act", "result", "end_reason", "updated_at", "board_message_id", "rated",
     "reminder_hours", "deadline_days", "turn_started_at", "turn_reminders", "creator_id", "suspended_at",
     "unrated_reason", "started_at", "bank_days", "pause_agreed", "clocks_paused_at"}
)  # fmt: skip


async def update_match(db: Connection, match_id: int, **columns: object) -> None:
    await db.execute(*_update(match_id, columns))


async def update_match_later(db: Connection, match_id: int, **columns: object) -> None:
    """`update_match`, queued (`Connection.later`): sent with the next statement or the commit."""
    await db.later(*_update(match_id, columns))


def _update(match_id: int, columns: dict[str, object]) -> tuple[Any, ...]:
    if not columns or not set(columns) <= _UPDATABLE:
        raise ValueError(f"cannot update {sorted(set(columns) - _UPDATABLE)}")
    assignments = ", ".join(f"{name} = ?" for name in columns)
    return (f"UPDATE matches SET {assignments} WHERE id = ?", *columns.values(), match_id)


async def open_matches_of(db: Connection, guild_id: int, user_id: int) -> list[tuple[MatchRow, list[str]]]:
    """A user's open matches in a guild, each with the seats they hold, oldest activity first."""
    prefixed = ", ".join("m." + c for c in _COLUMNS)
    rows = await db.fetchall(
        f"SELECT {prefixed}, s.seat FROM matches m JOIN seats s ON s.match_id = m.id "
        "WHERE m.guild_id = ? AND s.user_id = ? AND m.status IN (?, ?) ORDER BY m.updated_at, m.id, s.seat",
        guild_id, user_id, *OPEN_STATUSES,
    )  # fmt: skip
    found: dict[int, tuple[MatchRow, list[str]]] = {}
    for row in rows:
        match = _match(row)
        assert match is not None
        found.setdefault(match.id, (match, []))[1].append(row[-1])
    return list(found.values())


async def active_matches_of_member(db: Connection, user_id: int) -> list[tuple[MatchRow, list[str]]]:
    """A member's started matches in every server, each with the seats they hold."""
    prefixed = ", ".join("m." + c for c in _COLUMNS)
    rows = await db.fetchall(
        f"SELECT {prefixed}, s.seat FROM matches m JOIN seats s ON s.match_id = m.id "
        "WHERE s.user_id = ? AND m.status = ? ORDER BY m.updated_at, m.id, s.seat",
        user_id, MatchStatus.ACTIVE.value,
    )  # fmt: skip
    found: dict[int, tuple[MatchRow, list[str]]] = {}
    for row in rows:
        match = _match(row)
        assert match is not None
        found.setdefault(match.id, (match, []))[1].append(row[-1])
    return list(found.values())


async def hold_member(db: Connection, guild_id: int, user_id: int) -> None:
    """Until this transaction ends, no other transaction that holds this member of this server
    goes on (counting their lobbies, or their rated matches today): a count followed by an insert
    then holds under concurrency. SQLite needs nothing
    (BEGIN IMMEDIATE lets one writer in at a time); PostgreSQL's READ COMMITTED lets two counts
    see the same number, so a transaction-scoped advisory lock on the member serialises them."""
    if db.dialect != "postgresql":
        return
    digest = hashlib.blake2b(f"member:{guild_id}:{user_id}".encode(), digest_size=8).digest()
    await db.execute("SELECT pg_advisory_xact_lock(?)", int.from_bytes(digest, "big", signed=True))


async def rated_matches_between(db: Connection, guild_id: int, game: str, first: int, second: int, since: float) -> int:
    """Rated matches of a game on a server that two members both played in, started since `since`."""
    row = await db.fetchone(
        "SELECT COUNT(*) FROM matches m WHERE m.guild_id = ? AND m.game = ? AND m.rated = ? AND m.started_at > ? "
        "AND m.status IN (?, ?) "
        "AND EXISTS (SELECT 1 FROM seats a WHERE a.match_id = m.id AND a.user_id = ?) "
        "AND EXISTS (SELECT 1 FROM seats b WHERE b.match_id = m.id AND b.user_id = ?)",
        guild_id, game, True, since, MatchStatus.ACTIVE.value, MatchStatus.FINISHED.value, first, second,
    )  # fmt: skip
    return int(row[0]) if row else 0


async def open_lobbies_by(db: Connection, guild_id: int, creator_id: int) -> int:
    row = await db.fetchone(
        "SELECT COUNT(*) FROM matches WHERE guild_id = ? AND creator_id = ? AND status = ?",
        guild_id, creator_id, MatchStatus.LOBBY.value,
    )  # fmt: skip
    return int(row[0]) if row else 0


async def finished_rated_matches(
    db: Connection, guild_id: int, game: str
) -> list[tuple[int, str, int, dict[str, int]]]:
    """(match id, result, player count, seat → user) of a guild's rated finished matches of a game,
    oldest first."""
    rows = await db.fetchall(
        "SELECT m.id, m.result, m.players, s.seat, s.user_id FROM matches m JOIN seats s ON s.match_id = m.id "
        "WHERE m.guild_id = ? AND m.game = ? AND m.status = ? AND m.rated = ? AND m.result IS NOT NULL "
        "AND s.user_id IS NOT NULL ORDER BY m.updated_at, m.id",
        guild_id, game, MatchStatus.FINISHED.value, True,
    )  # fmt: skip
    matches: dict[int, tuple[int, str, int, dict[str, int]]] = {}
    for match_id, result, players, seat, user_id in rows:
        matches.setdefault(match_id, (match_id, result, players, {}))[3][seat] = user_id
    return list(matches.values())


async def count_matches(db: Connection) -> int:
    row = await db.fetchone("SELECT COUNT(*) FROM matches")
    return int(row[0]) if row else 0
