"""Tournament events as rows (migration 15): the event, its entrants, its rounds' games and
byes. The pure event state (`bot.tournament.EventState`) is rebuilt from them; a round is paired
by whoever claims the event's next version (`claim`), so it is paired once, whatever the number
of processes (docs/tournaments.md, "Pairing exactly once")."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.storage.connection import Connection

OPEN_EVENT_STATUSES = ("signup", "running")

EVENT_COLUMNS = (
    "id, guild_id, channel_id, message_id, game, format, title, creator_id, status, options, deadline_days, "
    "rounds, double_round, pod_shape, knockout_games, rated, seed, max_entrants, signup_deadline, winners, version, "
    "created_at, players"
)


@dataclass(frozen=True, slots=True)
class EventRow:
    id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    game: str
    format: str
    title: str
    creator_id: int
    status: str
    options: dict[str, str]
    deadline_days: int | None
    rounds: int | None
    double: bool
    pod_shape: tuple[tuple[int, ...], tuple[tuple[int, ...], ...]] | None
    knockout_games: int
    rated: bool
    seed: int
    max_entrants: int | None
    signup_deadline: float | None
    winners: tuple[int, ...]
    version: int
    created_at: float
    players: int


@dataclass(frozen=True, slots=True)
class NewEvent:
    guild_id: int
    channel_id: int
    game: str
    format: str
    title: str
    creator_id: int
    seed: int
    now: float
    players: int
    options: Mapping[str, str] = field(default_factory=dict)
    deadline_days: int | None = None
    rounds: int | None = None
    double: bool = False
    pod_shape: tuple[tuple[int, ...], tuple[tuple[int, ...], ...]] | None = None
    rated: bool = True
    max_entrants: int | None = None
    signup_deadline: float | None = None


@dataclass(frozen=True, slots=True)
class EntrantRow:
    user_id: int
    position: int
    name: str
    rating: float | None
    withdrawn_after: int | None


@dataclass(frozen=True, slots=True)
class TableRow:
    round: int
    board: int
    game: int
    sides: tuple[tuple[int, ...], ...]
    match_id: int | None
    ranks: tuple[int, ...] | None
    forfeit: bool


def _event(row: Sequence[Any] | None) -> EventRow | None:
    if row is None:
        return None
    shape = json.loads(row[13]) if row[13] else None
    pod = (tuple(shape[0]), tuple(tuple(s) for s in shape[1])) if shape else None
    return EventRow(
        int(row[0]), int(row[1]), int(row[2]), row[3], row[4], row[5], row[6], int(row[7]), row[8],
        json.loads(row[9] or "{}"), row[10], row[11], bool(row[12]), pod, int(row[14]), bool(row[15]), int(row[16]),
        row[17], row[18], tuple(json.loads(row[19] or "[]")), int(row[20]), float(row[21]), int(row[22]),
    )  # fmt: skip


async def insert_event(db: Connection, new: NewEvent) -> int:
    shape = json.dumps([list(new.pod_shape[0]), [list(s) for s in new.pod_shape[1]]]) if new.pod_shape else None
    return await db.insert(
        "INSERT INTO events (guild_id, channel_id, game, format, title, creator_id, status, options, deadline_days, "
        "rounds, double_round, pod_shape, rated, seed, max_entrants, signup_deadline, players, created_at, updated_at) "
        "VALUES (?, ?, ?, ?, ?, ?, 'signup', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
        new.guild_id, new.channel_id, new.game, new.format, new.title, new.creator_id,
        json.dumps(dict(new.options), sort_keys=True), new.deadline_days, new.rounds, new.double, shape, new.rated,
        new.seed, new.max_entrants, new.signup_deadline, new.players, new.now, new.now,
    )  # fmt: skip


async def event_by_id(db: Connection, event_id: int) -> EventRow | None:
    return _event(await db.fetchone(f"SELECT {EVENT_COLUMNS} FROM events WHERE id = ?", event_id))


async def events_of(db: Connection, guild_id: int, game: str, *, limit: int = 25) -> list[EventRow]:
    """The server's events of a game: open ones first, then the latest finished."""
    rows = await db.fetchall(
        f"SELECT {EVENT_COLUMNS} FROM events WHERE guild_id = ? AND game = ? "
        "ORDER BY CASE WHEN status IN ('signup', 'running') THEN 0 ELSE 1 END, id DESC LIMIT ?",
        guild_id, game, limit,
    )  # fmt: skip
    return [e for e in map(_event, rows) if e is not None]


async def running_events(db: Connection) -> list[int]:
    return [int(r[0]) for r in await db.fetchall("SELECT id FROM events WHERE status = 'running' ORDER BY id")]


async def due_signups(db: Connection, now: float) -> list[int]:
    rows = await db.fetchall(
        "SELECT id FROM events WHERE status = 'signup' AND signup_deadline <= ? ORDER BY signup_deadline", now
    )
    return [int(r[0]) for r in rows]


async def next_signup_deadline(db: Connection) -> float | None:
    row = await db.fetchone("SELECT MIN(signup_deadline) FROM events WHERE status = 'signup'")
    return float(row[0]) if row and row[0] is not None else None


async def claim(db: Connection, event_id: int, version: int, now: float) -> bool:
    """Take the event's next version; False when another change (another process) got there first."""
    changed = await db.execute(
        "UPDATE events SET version = version + 1, updated_at = ? WHERE id = ? AND version = ?", now, event_id, version
    )
    return changed == 1


async def update_event(db: Connection, event_id: int, **columns: object) -> None:
    allowed = {"status", "message_id", "rounds", "winners", "creator_id"}
    assert set(columns) <= allowed, columns
    values = [json.dumps(list(v)) if k == "winners" and isinstance(v, tuple) else v for k, v in columns.items()]
    sets = ", ".join(f"{name} = ?" for name in columns)
    await db.execute(f"UPDATE events SET {sets} WHERE id = ?", *values, event_id)


async def entrants_of(db: Connection, event_id: int) -> list[EntrantRow]:
    rows = await db.fetchall(
        "SELECT user_id, position, name, rating, withdrawn_after FROM entrants WHERE event_id = ? ORDER BY position",
        event_id,
    )
    return [EntrantRow(int(r[0]), int(r[1]), str(r[2]), r[3], r[4]) for r in rows]


async def add_entrant(db: Connection, event_id: int, user_id: int, now: float, name: str = "") -> None:
    row = await db.fetchone("SELECT COALESCE(MAX(position), 0) FROM entrants WHERE event_id = ?", event_id)
    position = int(row[0]) + 1 if row else 1
    await db.execute(
        "INSERT INTO entrants (event_id, user_id, position, name, joined_at) VALUES (?, ?, ?, ?, ?)",
        event_id, user_id, position, name[:64], now,
    )  # fmt: skip


async def remove_entrant(db: Connection, event_id: int, user_id: int) -> bool:
    return await db.execute("DELETE FROM entrants WHERE event_id = ? AND user_id = ?", event_id, user_id) == 1


async def set_rating(db: Connection, event_id: int, user_id: int, rating: float) -> None:
    await db.execute("UPDATE entrants SET rating = ? WHERE event_id = ? AND user_id = ?", rating, event_id, user_id)


async def withdraw(db: Connection, event_id: int, user_id: int, after: int) -> None:
    await db.execute(
        "UPDATE entrants SET withdrawn_after = ? WHERE event_id = ? AND user_id = ? AND withdrawn_after IS NULL",
        after, event_id, user_id,
    )  # fmt: skip


async def rounds_of(db: Connection, event_id: int) -> list[int]:
    rows = await db.fetchall("SELECT number FROM event_rounds WHERE event_id = ? ORDER BY number", event_id)
    return [int(r[0]) for r in rows]


async def add_round(db: Connection, event_id: int, number: int, now: float) -> None:
    """A new round; a second insert of the same round fails on the key (the second guard)."""
    await db.execute("INSERT INTO event_rounds (event_id, number, paired_at) VALUES (?, ?, ?)", event_id, number, now)


async def add_bye(db: Connection, event_id: int, round_number: int, user_id: int, points: str) -> None:
    await db.execute(
        "INSERT INTO event_byes (event_id, round, user_id, points) VALUES (?, ?, ?, ?)",
        event_id, round_number, user_id, points,
    )  # fmt: skip


async def byes_of(db: Connection, event_id: int) -> list[tuple[int, int, str]]:
    rows = await db.fetchall("SELECT round, user_id, points FROM event_byes WHERE event_id = ? ORDER BY round, user_id",
                             event_id)  # fmt: skip
    return [(int(r[0]), int(r[1]), str(r[2])) for r in rows]


async def add_table(db: Connection, event_id: int, table: TableRow) -> None:
    await db.execute(
        "INSERT INTO event_tables (event_id, round, board, game, sides, ranks, forfeit) VALUES (?, ?, ?, ?, ?, ?, ?)",
        event_id, table.round, table.board, table.game, json.dumps([list(s) for s in table.sides]),
        json.dumps(list(table.ranks)) if table.ranks is not None else None, table.forfeit,
    )  # fmt: skip


def _table(r: Sequence[Any]) -> TableRow:
    return TableRow(int(r[0]), int(r[1]), int(r[2]), tuple(tuple(s) for s in json.loads(r[3])), r[4],
                    tuple(json.loads(r[5])) if r[5] is not None else None, bool(r[6]))  # fmt: skip


TABLE_COLUMNS = "round, board, game, sides, match_id, ranks, forfeit"


async def tables_of(db: Connection, event_id: int) -> list[TableRow]:
    rows = await db.fetchall(
        f"SELECT {TABLE_COLUMNS} FROM event_tables WHERE event_id = ? ORDER BY round, board, game", event_id
    )
    return [_table(r) for r in rows]


async def table_of_match(db: Connection, match_id: int) -> tuple[int, TableRow] | None:
    row = await db.fetchone(f"SELECT event_id, {TABLE_COLUMNS} FROM event_tables WHERE match_id = ?", match_id)
    return (int(row[0]), _table(row[1:])) if row else None


async def tables_to_open(db: Connection) -> list[tuple[int, TableRow]]:
    """Games of running events whose match is not made yet (a thread to create, then the match)."""
    rows = await db.fetchall(
        f"SELECT t.event_id, {', '.join('t.' + c for c in TABLE_COLUMNS.split(', '))} FROM event_tables t "
        "JOIN events e ON e.id = t.event_id WHERE e.status = 'running' AND t.match_id IS NULL AND t.ranks IS NULL "
        "ORDER BY t.event_id, t.round, t.board, t.game"
    )
    return [(int(r[0]), _table(r[1:])) for r in rows]


async def set_table_match(db: Connection, event_id: int, table: TableRow, match_id: int) -> bool:
    """The table's match, unless one was set already (a retried opening makes no second match)."""
    changed = await db.execute(
        "UPDATE event_tables SET match_id = ? WHERE event_id = ? AND round = ? AND board = ? AND game = ? "
        "AND match_id IS NULL",
        match_id, event_id, table.round, table.board, table.game,
    )  # fmt: skip
    return changed == 1


async def set_ranks(db: Connection, match_id: int, ranks: Sequence[int]) -> None:
    await db.execute("UPDATE event_tables SET ranks = ? WHERE match_id = ? AND ranks IS NULL",
                     json.dumps(list(ranks)), match_id)  # fmt: skip
