"""One-line, player-facing summaries of what an action did, built from its events."""

from __future__ import annotations

from collections.abc import Sequence

from engine.numica.board import square_name
from engine.numica.events import Arranged, Captured, Ended, Event, Moved


def _describe_action(events: Sequence[Event]) -> str:
    parts: list[str] = []
    moved = next((e for e in events if isinstance(e, Moved)), None)
    captured = next((e for e in events if isinstance(e, Captured)), None)
    if moved is not None and captured is not None:
        parts.append(
            f"{moved.colour.title} captured {captured.colour.possessive} {captured.shape.word} piece on "
            f"{square_name(captured.square)} ({square_name(moved.frm)}x{square_name(moved.to)})"
        )
    elif moved is not None:
        parts.append(f"{moved.colour.title} moved {square_name(moved.frm)} to {square_name(moved.to)}")
    for event in events:
        if isinstance(event, Arranged):
            parts.append(f"Both back rows are set (Red {event.red}, Blue {event.blue}): Red moves first")
        elif isinstance(event, Ended):
            parts.append(event.summary)
    return " — ".join(parts)


def describe_events(events: Sequence[Event]) -> str:
    """A one-line summary, e.g. "Red moved c1 to c4" or "Blue captured Red's round piece on f4
    (d2xf4) — Blue wins: 3 round pieces captured". Several actions' events are joined by "; then "."""
    groups: list[list[Event]] = []
    for event in events:
        if isinstance(event, Moved | Arranged) or not groups:
            groups.append([event])
        else:
            groups[-1].append(event)
    return "; then ".join(_describe_action(group) for group in groups)
