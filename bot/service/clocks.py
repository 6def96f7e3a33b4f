"""Each match's clocks, kept in step with the match inside the committing transaction.

`MatchClocks.sync` is the one place that decides which clocks run: those of the seats owed an
action, unless the match is paused (by agreement, or because its channel is unreachable) or
the seat's holder is on vacation. It stores the clocks (bot/storage/seat_clocks.py) and the
three timers that follow from them: the first clock to run out (DEADLINE), the next final
warning (WARNING) and the first vacation to end (VACATION). Every change that may start or stop
a clock calls it: a turn, a vacation, a pause or resume, the channel lost or back.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from bot.match import MatchState
from bot.replies import Image
from bot.storage import Connection, MatchRow, Storage, seat_clocks, timers, vacations
from bot.storage import matches as queries
from bot.storage.timers import TimerKind
from bot.time_bank import Bank, SeatClock, first_run_out, format_left, format_moment, next_warning, settle, starting
from engine.i18n import M
from render.seat_times import Clocks, SeatTime

CLOCK_TIMERS = (TimerKind.DEADLINE, TimerKind.WARNING, TimerKind.VACATION)


def owed_seats(state: MatchState) -> tuple[str, ...]:
    """The seats the match waits for: the one to act, or those still owing a secret setup."""
    if state.is_over:
        return ()
    return (state.to_act,) if state.to_act is not None else state.setup_pending()


def clocks_stand(row: MatchRow) -> bool:
    """Every clock of the match stands: paused by agreement, or its channel is unreachable."""
    return row.clocks_paused_at is not None or row.suspended_at is not None


async def sync(
    db: Connection,
    row: MatchRow,
    now: float,
    *,
    state: MatchState | None = None,
    fresh: bool = False,
    undo: bool = False,
) -> dict[str, SeatClock]:
    """Settle the match's clocks at `now` and schedule their timers. `row` is read afresh inside
    the caller's transaction; `state`, when given, is the match after the change (else the seats
    owed an action are those the clocks last recorded: a vacation or a pause changes no turn)."""
    bank = Bank.of(row.deadline_days, row.bank_days)
    if bank is None:  # no deadline, no clock, no clock timer (a deadline is fixed before the start)
        return {}
    await timers.clear(db, row.id, *CLOCK_TIMERS)
    if row.status != "active":
        return {}
    clocks = await seat_clocks.of_match(db, row.id)
    holders: dict[str, int | None] = (
        dict(state.seats) if state is not None else {s.seat: s.user_id for s in await queries.seats_of(db, row.id)}
    )
    if not clocks:
        clocks = starting(sorted(holders) if state is None else [s.slug for s in state.table], bank)
    owed = owed_seats(state) if state is not None else tuple(s for s, c in clocks.items() if c.on_turn)
    away = await vacations.away_until(db, row.guild_id, tuple(sorted({u for u in holders.values() if u})), now)
    running = () if clocks_stand(row) else tuple(s for s in owed if holders.get(s) not in away)
    settled = settle(clocks, bank, now, owed=owed, running=running, fresh=fresh, undo=undo,
                     restarted=_setup_over(state, clocks))  # fmt: skip
    await seat_clocks.save(db, row.id, settled)
    if (due := first_run_out(settled)) is not None:
        await timers.schedule(db, row.id, TimerKind.DEADLINE, due, now)
    if (due := next_warning(settled, bank)) is not None:
        await timers.schedule(db, row.id, TimerKind.WARNING, max(due, now), now)
    if away and not clocks_stand(row):
        await timers.schedule(db, row.id, TimerKind.VACATION, min(away.values()), now)
    return settled


async def sync_match(db: Connection, match_id: int, now: float) -> None:
    """`sync` for a change that is not a turn (a vacation, a pause): the row is locked first, so a
    move committing at the same moment on another shard is settled before or after, never across."""
    await db.execute("UPDATE matches SET updated_at = updated_at WHERE id = ?", match_id)
    row = await queries.match_by_id(db, match_id)
    if row is not None:
        await sync(db, row, now)


def clocks_line(
    state: MatchState,
    clocks: Mapping[str, SeatClock],
    now: float,
    *,
    away: Mapping[int, float] | None = None,
    paused: bool = False,
) -> str:
    """Each seat's time left, in turn order: "⏱ First 2d 5h · Second 6d", the seats on vacation said so."""
    if not clocks:
        return ""
    away = away or {}
    parts = []
    for seat in _seats_in_order(state, clocks):
        part = f"{state.seat_title(seat)} {format_left(clocks[seat].left(now))}"
        holder = state.seats.get(seat)
        if holder is not None and holder in away:
            part += " " + str(M("(on vacation until {date})", date=format_moment(away[holder])))
        parts.append(part)
    line = "⏱ " + " · ".join(parts)
    if paused:
        line += " " + str(M("(paused by agreement)"))
    return line


def _seats_in_order(state: MatchState, clocks: Mapping[str, SeatClock]) -> Iterable[str]:
    ordered = [s.slug for s in state.table if s.slug in clocks]
    return ordered + sorted(set(clocks) - set(ordered))


async def projected(db: Connection, row: MatchRow, state: MatchState, now: float) -> dict[str, SeatClock]:
    """The clocks as they will be once `state` is committed (read-only): what a board post shows."""
    bank = Bank.of(row.deadline_days, row.bank_days)
    if bank is None:
        return {}
    clocks = await seat_clocks.of_match(db, row.id) or starting([s.slug for s in state.table], bank)
    owed = owed_seats(state)
    away = await away_of(db, row, state, now)
    running = () if clocks_stand(row) else tuple(s for s in owed if state.seats.get(s) not in away)
    # Right after an undo the stored clocks are those before it: settle them as the commit will.
    return settle(clocks, bank, now, owed=owed, running=running, undo=state.undone,
                  restarted=_setup_over(state, clocks))  # fmt: skip


def _setup_over(state: MatchState | None, clocks: Mapping[str, SeatClock]) -> tuple[str, ...]:
    """Seats whose secret setup ended as play began: several seats owed an action at once happens
    only in a setup, so if the clocks say so and the match is no longer in one, each of them ended
    its setup (and the one to act begins its first turn)."""
    if state is None or state.in_setup():
        return ()
    before = [seat for seat, clock in clocks.items() if clock.on_turn]
    return tuple(before) if len(before) > 1 else ()


async def away_of(db: Connection, row: MatchRow, state: MatchState, now: float) -> dict[int, float]:
    return await vacations.away_until(db, row.guild_id, tuple(sorted(state.players)), now)


async def clock_text(db: Connection, row: MatchRow, state: MatchState, now: float) -> str:
    """The clocks line of a match as it stands (for a board post, a digest, …); "" without clocks."""
    if state.is_over:
        return ""
    clocks = await projected(db, row, state, now)
    return clocks_line(state, clocks, now, away=await away_of(db, row, state, now), paused=clocks_stand(row))


async def seat_time_left(db: Connection, row: MatchRow, state: MatchState, seat: str, now: float) -> str:
    """One seat's time left as players read it ("2d 5h"), or "" when the match has no clock."""
    clock = (await projected(db, row, state, now)).get(seat)
    return format_left(clock.left(now)) if clock is not None else ""


async def board_clocks(storage: Storage, row: MatchRow, state: MatchState, now: float) -> BoardClocks:
    """A board post's clocks as they stand at `now`: the text line, and the same for the picture
    (render draws it under the board; it reads no clock itself). Empty without clocks."""
    if row.status not in ("active", "lobby") or state.is_over or Bank.of(row.deadline_days, row.bank_days) is None:
        return BoardClocks()  # no clock: nothing to read (a board post without a deadline costs no query)
    async with storage.reading() as db:
        clocks = await projected(db, row, state, now)
        away = await away_of(db, row, state, now)
    paused = clocks_stand(row)
    line = clocks_line(state, clocks, now, away=away, paused=paused)
    if not line:
        return BoardClocks()
    return BoardClocks(line, picture_clocks(state, clocks, now, away=away, paused=paused))


@dataclass(frozen=True, slots=True)
class BoardClocks:
    line: str = ""  # "⏱ First 2d 5h · Second 6d", or ""
    picture: Clocks | None = None  # what the board's clocks strip shows, or None (no strip)

    def describe(self, image: Image | None) -> Image | None:
        """The picture with its alt text saying the clocks too."""
        if not self.line or image is None:
            return image
        return replace(image, description=f"{image.description} {self.line.removeprefix('⏱ ')}.".strip())


def picture_clocks(
    state: MatchState, clocks: Mapping[str, SeatClock], now: float, *, away: Mapping[int, float], paused: bool
) -> Clocks:
    """The clocks as data for the board picture, in the order of the text line."""
    titles = {s.slug: s.title for s in state.table}
    seats = []
    for seat in _seats_in_order(state, clocks):
        holder = state.seats.get(seat)
        clock = clocks[seat]
        on_vacation = away.get(holder) if holder is not None else None
        running = clock.running and not paused
        seats.append(SeatTime(seat, titles.get(seat, seat.title()), clock.left(now), running, on_vacation))
    return Clocks(tuple(seats), paused=paused)
