"""One-line, player-facing summaries of what an action did, built from its events."""

from __future__ import annotations

from collections.abc import Sequence

from engine.nika.actions import squares_text
from engine.nika.board import IN_PLAY, OFF_GRID, VICTORY_OWNER, square_name
from engine.nika.events import (
    Advanced,
    Drawn,
    Event,
    Moved,
    Passed,
    Pushed,
    Rallied,
    Rotated,
    Routed,
    Won,
)

_DRAW_TEXT = {
    "passes": "four city turns in a row passed both actions",
    "repetition": "the same position occurred three times",
}
# Each action's events start with exactly one of these; the rest are its consequences.
_ACTION_EVENTS = (Moved, Rotated, Advanced, Rallied, Passed)


def _piece(event: Routed | Pushed) -> str:
    where = event.square if isinstance(event, Routed) else event.frm
    return f"{event.city.possessive} {square_name(where)}"


def pushed_off_text(event: Routed) -> str:
    """A push that routs, where the piece was pushed: "pushed Athens' f9 off the board"."""
    into = event.pushed_to
    piece = _piece(event)
    if into is None or into == OFF_GRID or not IN_PLAY[into]:
        return f"pushed {piece} off the board"
    owner = VICTORY_OWNER[into]
    if owner is not None:
        return f"pushed {piece} into {owner.possessive} victory area, routing it"
    return f"pushed {piece} into {square_name(into)}, routing it"


def _describe_action(events: Sequence[Event]) -> str:
    first = events[0]
    rest = events[1:] if isinstance(first, _ACTION_EVENTS) else events
    routed = [e for e in rest if isinstance(e, Routed) and e.pushed_to is None]
    pushed_off = [e for e in rest if isinstance(e, Routed) and e.pushed_to is not None]
    pushed = [e for e in rest if isinstance(e, Pushed)]
    if isinstance(first, Moved):
        text = f"{first.city.title} moved {square_name(first.frm)} to {square_name(first.to)}"
        if routed:
            text += ", routing " + ", ".join(_piece(e) for e in routed)
    elif isinstance(first, Advanced):
        text = f"{first.city.title} advanced {squares_text(first.squares)}"
        effects = []
        if pushed:
            effects.append("pushed " + ", ".join(f"{_piece(e)} to {square_name(e.to)}" for e in pushed))
        effects.extend(pushed_off_text(e) for e in pushed_off)
        if routed:
            effects.append("routed " + ", ".join(_piece(e) for e in routed))
        if effects:
            text += ": " + "; ".join(effects)
    elif isinstance(first, Rotated):
        text = f"{first.city.title} rotated {squares_text(first.squares)} to face {first.facing.word}"
    elif isinstance(first, Rallied):
        text = f"{first.city.title} rallied on {square_name(first.square)} facing {first.facing.word}"
    elif isinstance(first, Passed):
        text = f"{first.city.title} passed"
    else:  # an ending reported without its action
        text = ""
    endings = []
    for event in rest:
        if isinstance(event, Won):
            endings.append(f"{event.team.title} win!")
        elif isinstance(event, Drawn):
            endings.append(f"draw: {_DRAW_TEXT.get(event.reason, event.reason)}")
    if not text:
        alone = " — ".join(endings)
        return alone[:1].upper() + alone[1:]
    return " — ".join([text, *endings])


def describe_events(events: Sequence[Event]) -> str:
    """A one-line summary of an action from its events, e.g. "Athens moved j6 to i6".

    Given the events of several actions, describes each and joins them with "; then ".
    """
    groups: list[list[Event]] = []
    for event in events:
        if isinstance(event, _ACTION_EVENTS) or not groups:
            groups.append([event])
        else:
            groups[-1].append(event)
    return "; then ".join(_describe_action(group) for group in groups)
