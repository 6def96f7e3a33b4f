"""Times as players read them, the same in a board post's text and on its picture: pure text,
no clock read here (whoever shows a time says which one). The bot's clocks and the board
pictures both use these, so "2d 5h" never reads two ways."""

from __future__ import annotations

import time

HOUR = 3600.0


def format_left(seconds: float) -> str:
    """Time left as players read it: "2d 5h", "6d", "7h", "40m" (rounded down: never more than there is)."""
    seconds = max(0.0, seconds)
    if seconds < HOUR:
        return f"{int(seconds // 60)}m"
    days, rest = divmod(int(seconds // HOUR), 24)
    if days and rest:
        return f"{days}d {rest}h"
    return f"{days}d" if days else f"{rest}h"


def format_moment(when: float) -> str:
    """A date and time as both languages read it, in UTC: "2026-12-03 14:00 UTC"."""
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(when))


def format_day(when: float) -> str:
    """A date alone, in UTC, as both languages read it: "2026-12-03" (where a picture has little room)."""
    return time.strftime("%Y-%m-%d", time.gmtime(when))
