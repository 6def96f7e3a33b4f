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
    await db.execute("DELETE FROM seat_clocks WHERE match_id = ?", match_id)
    if clocks:
        await db.executemany(
            "INSERT INTO seat_clocks (match_id, seat, remaining, runs_out_at, on_turn, warned, gained) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(match_id, c.seat, c.remaining, c.runs_out_at, int(c.on_turn), int(c.warned), c.gained)
             for c in clocks.values()],
        )


async def clear(db: Connection, match_id: int) -> None:
    await db.execute("DELETE FROM seat_clocks WHERE match_id = ?", match_id)
