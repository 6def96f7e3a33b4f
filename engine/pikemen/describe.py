"""One line for the channel from a move's or a departure's events:
"Red charged a6 to a3, capturing Blue's medium pikeman (+2, now 5)".

Each kind of line is one whole template (engine/i18n.py), so other languages may order
and inflect it freely; a step's consequences and several steps are joined by templates too.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.i18n import M, Message, P, Text
from engine.pikemen.events import Charged, Ended, Event, Left, OutOfPieces, Turned
from engine.pikemen.geometry import UPRIGHT, square_name
from engine.pikemen.words import seat_term

# Each step's events start with one of these; the rest are its consequences.
_LEADS = (Charged, Turned, Left)


def _charged(event: Charged) -> Message:
    seat, frm, to = seat_term(event.seat), square_name(event.frm), square_name(event.to)
    if event.captured_seat is None or event.captured_size is None:
        if event.turned is UPRIGHT:
            return M("{seat} charged {frm} to {to} and stood it upright", seat=seat, frm=frm, to=to)
        if event.turned is not None:
            return M("{seat} charged {frm} to {to} and turned it to point {direction}", seat=seat, frm=frm, to=to,
                     direction=event.turned.word)  # fmt: skip
        return M("{seat} charged {frm} to {to}", seat=seat, frm=frm, to=to)
    capture: dict[str, Any] = {"victim": seat_term(event.captured_seat), "size": event.captured_size.word,
                               "points": event.captured_size.points, "score": event.score}  # fmt: skip
    if event.turned is UPRIGHT:
        return M("{seat} charged {frm} to {to}, capturing {victim:poss} {size} pikeman (+{points}, now {score}), "
                 "and stood it upright", seat=seat, frm=frm, to=to, **capture)  # fmt: skip
    if event.turned is not None:
        return M("{seat} charged {frm} to {to}, capturing {victim:poss} {size} pikeman (+{points}, now {score}), "
                 "and turned it to point {direction}", seat=seat, frm=frm, to=to, direction=event.turned.word,
                 **capture)  # fmt: skip
    return M("{seat} charged {frm} to {to}, capturing {victim:poss} {size} pikeman (+{points}, now {score})",
             seat=seat, frm=frm, to=to, **capture)  # fmt: skip


def _turned(event: Turned) -> Message:
    seat, square = seat_term(event.seat), square_name(event.square)
    if event.after is UPRIGHT:
        return M("{seat} stood {square} upright", seat=seat, square=square)
    return M("{seat} turned {square} to point {direction}", seat=seat, square=square, direction=event.after.word)


def _left(event: Left) -> Message:
    seat, resigned = seat_term(event.seat), event.how == "resignation"
    if event.already_out:
        if resigned:
            return M("{seat} resigned (already out of the game)", seat=seat)
        return M("{seat} ran out of time (already out of the game)", seat=seat)
    if not event.removed:
        if resigned:
            return M("{seat} resigned and left the game", seat=seat)
        return M("{seat} ran out of time and left the game", seat=seat)
    if resigned:
        return P("{seat} resigned and left the game, {count} piece removed",
                 "{seat} resigned and left the game, {count} pieces removed",
                 count=event.removed, seat=seat)  # fmt: skip
    return P("{seat} ran out of time and left the game, {count} piece removed",
             "{seat} ran out of time and left the game, {count} pieces removed",
             count=event.removed, seat=seat)  # fmt: skip


def _lead(event: Event) -> Message | None:
    if isinstance(event, Charged):
        return _charged(event)
    if isinstance(event, Turned):
        return _turned(event)
    if isinstance(event, Left):
        return _left(event)
    return None


def _consequence(event: Event) -> Text | None:
    if isinstance(event, OutOfPieces):
        return M("{seat} has no pieces left and will be skipped", seat=seat_term(event.seat))
    if isinstance(event, Ended):
        return event.summary
    return None


def _describe_step(events: Sequence[Event]) -> Text | None:
    first = events[0]
    last = events[-1]
    if isinstance(first, Left) and isinstance(last, Ended) and last.reason in ("resignation", "timeout"):
        return last.summary  # "Red resigned: Blue wins" says it all
    lead = _lead(first)
    parts = [part for part in (lead, *map(_consequence, events[1:] if lead else events)) if part is not None]
    if not parts:
        return None
    text = parts[0]
    for part in parts[1:]:
        text = M("{before} — {after}", before=text, after=part)
    return text


def describe_events(events: Sequence[Event]) -> Text:
    """A summary of what happened; the events of several steps are joined with "; then "."""
    groups: list[list[Event]] = []
    for event in events:
        if isinstance(event, _LEADS) or not groups:
            groups.append([event])
        else:
            groups[-1].append(event)
    steps = [step for step in map(_describe_step, groups) if step is not None]
    if not steps:
        return Message("")
    text = steps[0]
    for step in steps[1:]:
        text = M("{before}; then {after}", before=text, after=step)
    return text
