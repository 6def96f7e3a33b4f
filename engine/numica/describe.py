"""One-line, player-facing summaries of what an action did, built from its events."""

from __future__ import annotations

from collections.abc import Sequence

from engine.i18n import M, Message, Text
from engine.numica.board import square_name
from engine.numica.events import Arranged, Captured, Ended, Event, Moved


def describe_move(events: Sequence[Event]) -> Message | None:
    """What the move among `events` did ("Red moved c1 to c4"), or None if none moved."""
    moved = next((e for e in events if isinstance(e, Moved)), None)
    if moved is None:
        return None
    captured = next((e for e in events if isinstance(e, Captured)), None)
    if captured is None:
        return M(
            "{side} moved {frm} to {to}", side=moved.colour.term, frm=square_name(moved.frm), to=square_name(moved.to)
        )
    return M(
        "{side} captured {owner:poss} {shape} piece on {square} ({move})",
        side=moved.colour.term,
        owner=captured.colour.term,
        shape=captured.shape.term,
        square=square_name(captured.square),
        move=f"{square_name(moved.frm)}x{square_name(moved.to)}",
    )


def _describe_action(events: Sequence[Event]) -> str:
    parts: list[Text] = []
    move = describe_move(events)
    if move is not None:
        parts.append(move)
    for event in events:
        if isinstance(event, Arranged):
            parts.append(
                M("Both back rows are set (Red {red}, Blue {blue}): Red moves first", red=event.red, blue=event.blue)
            )
        elif isinstance(event, Ended):
            parts.append(event.summary)
    return " — ".join(str(part) for part in parts)


def describe_events(events: Sequence[Event]) -> str:
    """A one-line summary in the reader's language, e.g. "Red moved c1 to c4" or "Blue captured
    Red's round piece on f4 (d2xf4) — Blue wins: 3 round pieces captured". Several actions'
    events are joined by "; then "."""
    groups: list[list[Event]] = []
    for event in events:
        if isinstance(event, Moved | Arranged) or not groups:
            groups.append([event])
        else:
            groups[-1].append(event)
    lines = [_describe_action(group) for group in groups]
    text = lines[0] if lines else ""
    for line in lines[1:]:
        text = str(M("{before}; then {after}", before=text, after=line))
    return text
