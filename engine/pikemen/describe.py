"""One line for the channel from a move's or a departure's events:
"Red charged a6 to a3, capturing Blue's medium pikeman (+2, now 5)"."""

from __future__ import annotations

from collections.abc import Sequence

from engine.pikemen.events import Charged, Ended, Event, Left, OutOfPieces, Turned
from engine.pikemen.geometry import UPRIGHT, square_name
from engine.pikemen.pieces import possessive, seat_title

# Each step's events start with one of these; the rest are its consequences.
_LEADS = (Charged, Turned, Left)


def _lead(event: Event) -> str:
    if isinstance(event, Charged):
        text = f"{seat_title(event.seat)} charged {square_name(event.frm)} to {square_name(event.to)}"
        if event.captured_seat is not None and event.captured_size is not None:
            text += (
                f", capturing {possessive(event.captured_seat)} {event.captured_size.word} pikeman "
                f"(+{event.captured_size.points}, now {event.score})"
            )
            if event.turned is not None:
                text += ","
        if event.turned is UPRIGHT:
            text += " and stood it upright"
        elif event.turned is not None:
            text += f" and turned it to point {event.turned.word}"
        return text
    if isinstance(event, Turned):
        who, where = seat_title(event.seat), square_name(event.square)
        if event.after is UPRIGHT:
            return f"{who} stood {where} upright"
        return f"{who} turned {where} to point {event.after.word}"
    if isinstance(event, Left):
        who = seat_title(event.seat)
        if event.already_out:
            return f"{who} {'resigned' if event.how == 'resignation' else 'ran out of time'} (already out of the game)"
        text = f"{who} {'resigned' if event.how == 'resignation' else 'ran out of time'} and left the game"
        if event.removed:
            text += f", {event.removed} piece{'s' if event.removed != 1 else ''} removed"
        return text
    return ""


def _consequence(event: Event) -> str:
    if isinstance(event, OutOfPieces):
        return f"{seat_title(event.seat)} has no pieces left and will be skipped"
    if isinstance(event, Ended):
        return event.summary
    return ""


def _describe_step(events: Sequence[Event]) -> str:
    first = events[0]
    last = events[-1]
    if isinstance(first, Left) and isinstance(last, Ended) and last.reason in ("resignation", "timeout"):
        return last.summary  # "Red resigned: Blue wins" says it all
    parts = [_lead(first)] if isinstance(first, _LEADS) else []
    rest = events[1:] if isinstance(first, _LEADS) else events
    parts += [text for text in map(_consequence, rest) if text]
    return " — ".join(part for part in parts if part)


def describe_events(events: Sequence[Event]) -> str:
    """A summary of what happened; the events of several steps are joined with "; then "."""
    groups: list[list[Event]] = []
    for event in events:
        if isinstance(event, _LEADS) or not groups:
            groups.append([event])
        else:
            groups[-1].append(event)
    return "; then ".join(_describe_step(group) for group in groups)
