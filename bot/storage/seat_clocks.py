"""Each seat's clock of a match (bot/time_bank.py): a deadline while it runs, time left while it stands."""

from __future__ import annotations

from collections.abc import Mapping

from bot.storage.connection import Connection
from bot.time_bank import SeatClock


async def of_match(db: Connection, match_id: int) -> dict[str, SeatClock]:
    rows = await db.fetchall(
        "SELECT seat, remaining, runs_out_at, on_turn, warned, gained FROM seat_clocks WHERE match_id = ? "
        "ORDER BY seat",
        match_id,
    )
    return {str(r[0]): SeatClock(str(r[0]), float(r[1]), None if r[2] is None else float(r[2]), bool(r[3]),
                                 bool(r[4]), float(r[5])) for r in rows}  # fmt: skip


async def save(db: Connection, match_id: int, clocks: Mapping[str, SeatClock]) -> None:
    """An upsert of every seat's clock (a match's seats never change once it runs); queued
    (`Connection.later`): sent with the next statement or the commit."""
    if not clocks:
        return
    rows = ", ".join("(?, ?, ?, ?, ?, ?, ?)" for _ in clocks)
    values = [v for c in clocks.values()
              for v in (match_id, c.seat, c.remaining, c.runs_out_at, int(c.on_turn), int(c.warned), c.gained)]
    await db.later(
        f"INSERT INTO seat_clocks (match_id, seat, remaining, runs_out_at, on_turn, warned, gained) VALUES {rows} "
        "ON CONFLICT (match_id, seat) DO UPDATE SET remaining = excluded.remaining, "
        "runs_out_at = excluded.runs_out_at, on_turn = excluded.on_turn, warned = excluded.warned, "
        "gained = excluded.gained",
        *values,
    )  # fmt: skip


async def clear(db: Connection, match_id: int) -> None:
    await db.later("DELETE FROM seat_clocks WHERE match_id = ?", match_id)
