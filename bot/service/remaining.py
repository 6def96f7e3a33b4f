"""A seat's remaining time as the digest writes it ("2d 5h"); the time itself comes from the
seat's clock (bot/service/clocks.py: a turn deadline or a time bank, vacations and pauses)."""

from __future__ import annotations

from engine.i18n import M

DAY = 86_400.0
HOUR = 3_600.0


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
