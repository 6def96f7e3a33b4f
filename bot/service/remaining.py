"""The remaining time of a seat, in one place, so a richer clock (a time bank) replaces one
function. Today a match has a turn deadline: the seat to act has what is left of it (standing
still while the match is paused), every other seat a whole deadline for its next turn."""

from __future__ import annotations

from bot.storage import MatchRow
from engine.i18n import M

DAY = 86_400.0
HOUR = 3_600.0


def seat_remaining(row: MatchRow, seat: str, now: float) -> float | None:
    """Seconds left on `seat`'s clock; None when the match has no clock."""
    if not row.deadline_days:
        return None
    whole = row.deadline_days * DAY
    if seat != row.to_act or row.turn_started_at is None:
        return whole
    stopped = row.suspended_at if row.suspended_at is not None else now
    return max(0.0, row.turn_started_at + whole - stopped)


def remaining_text(seconds: float | None) -> str:
    """"2d 5h", "5h 20m", "40m"; "no deadline" without a clock."""
    if seconds is None:
        return str(M("no deadline"))
    minutes = int(seconds // 60)
    days, minutes = divmod(minutes, 24 * 60)
    hours, minutes = divmod(minutes, 60)
    if days:
        return str(M("{days}d {hours}h", days=days, hours=hours))
    if hours:
        return str(M("{hours}h {minutes}m", hours=hours, minutes=minutes))
    return str(M("{minutes}m", minutes=minutes))
