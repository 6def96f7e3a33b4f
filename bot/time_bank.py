"""Clocks with a time bank, as pure arithmetic (no storage, no Discord).

Each seat starts with a turn's time (the match's deadline), gains a turn's time whenever its
turn ends, and never holds more than the bank (default: the deadline itself, which is the
plain "N days per turn"). Only the clocks of seats owed an action run, and only while nothing
stops them (a vacation, a pause). A running clock is kept as the moment it runs out, a
standing one as the time it has left, so any process can read it exactly at any time.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

# Re-exported: the formatting lives in render, so board pictures read times as the text does.
from render.durations import format_left as format_left
from render.durations import format_moment as format_moment

HOUR = 3600.0
DAY = 24 * HOUR
BANK_MAX_DAYS = 30
FINAL_WARNING = 12 * HOUR  # the final warning comes this long before a clock runs out…
SHORT_CLOCK = 2 * DAY  # …or, for a turn shorter than this, a quarter of a turn before


@dataclass(frozen=True, slots=True)
class Bank:
    """A match's time control: what a turn adds, and the most a clock holds (seconds)."""

    turn: float
    most: float

    @classmethod
    def of(cls, deadline_days: int | None, bank_days: int | None) -> Bank | None:
        """None for a match without a deadline (nothing runs out)."""
        if not deadline_days:
            return None
        return cls(deadline_days * DAY, max(bank_days or deadline_days, deadline_days) * DAY)

    @property
    def warning_before(self) -> float:
        return FINAL_WARNING if self.turn >= SHORT_CLOCK else self.turn / 4


@dataclass(frozen=True, slots=True)
class SeatClock:
    seat: str
    remaining: float  # time left when it last stopped (while it runs: when it started)
    runs_out_at: float | None = None  # set while it runs
    on_turn: bool = False  # the seat owes an action (its turn, or a secret setup)
    warned: bool = False  # its final warning of this turn went out
    gained: float = 0.0  # what its last turn added (taken back if that turn is undone)

    @property
    def running(self) -> bool:
        return self.runs_out_at is not None

    def left(self, now: float) -> float:
        if self.runs_out_at is not None:
            return max(0.0, self.runs_out_at - now)
        return max(0.0, self.remaining)


def starting(seats: Iterable[str], bank: Bank) -> dict[str, SeatClock]:
    """Every seat's clock at the start: a turn's time each, all standing."""
    return {seat: SeatClock(seat, bank.turn) for seat in seats}


def settle(
    clocks: Mapping[str, SeatClock],
    bank: Bank,
    now: float,
    *,
    owed: Iterable[str],
    running: Iterable[str],
    fresh: bool = False,
    undo: bool = False,
    restarted: Iterable[str] = (),
) -> dict[str, SeatClock]:
    """The clocks after a change at `now`: `owed` are the seats that owe an action now, `running`
    those of them whose clock may run (not on vacation, nothing paused). A seat whose turn just
    ended gains a turn's time, up to the bank; `fresh` gives every owed seat at least a turn's time
    (a match that comes back after its channel was unreachable). An `undo` that gives a turn back
    takes back what that turn's end added, and the seat whose turn it takes away gains nothing.
    `restarted` seats ended a turn and begin another at once (a secret setup made by the host,
    then the first move)."""
    owed_now, running_now, again = set(owed), set(running), set(restarted)
    settled: dict[str, SeatClock] = {}
    for seat, clock in clocks.items():
        left = clock.left(now)
        changed = False
        warned = clock.warned
        on_turn = seat in owed_now
        gained = clock.gained
        if clock.on_turn and (not on_turn or seat in again) and not undo:  # its turn ended
            gained = min(bank.most, left + bank.turn) - left
            left, changed, warned = left + gained, True, False
        elif clock.on_turn and not on_turn and clock.running:  # an undo took its turn away: time refunded
            left, changed = clock.remaining, True
        elif on_turn and not clock.on_turn:  # its turn begins (or, undone, comes back)
            warned = False
            if undo:
                left, changed, gained = max(0.0, left - gained), True, 0.0
        if fresh and on_turn and left < bank.turn:
            left, changed = bank.turn, True
        if seat in running_now and on_turn:
            keep = clock.running and not changed
            runs_out_at = clock.runs_out_at if keep else now + left
            remaining = clock.remaining if keep else left
            settled[seat] = SeatClock(seat, remaining, runs_out_at, on_turn, warned, gained)
        else:
            settled[seat] = SeatClock(seat, left, None, on_turn, warned, gained)
    return settled


def first_run_out(clocks: Mapping[str, SeatClock]) -> float | None:
    """When the first running clock runs out (the match's deadline timer), if one runs."""
    return min((c.runs_out_at for c in clocks.values() if c.runs_out_at is not None), default=None)


def next_warning(clocks: Mapping[str, SeatClock], bank: Bank) -> float | None:
    """When the next final warning is due: the first running clock not warned this turn."""
    due = [c.runs_out_at - bank.warning_before for c in clocks.values() if c.runs_out_at is not None and not c.warned]
    return min(due, default=None)


def mark_warned(clocks: Mapping[str, SeatClock], seats: Iterable[str]) -> dict[str, SeatClock]:
    chosen = set(seats)
    return {seat: replace(c, warned=True) if seat in chosen else c for seat, c in clocks.items()}
