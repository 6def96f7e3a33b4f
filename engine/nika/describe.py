"""One-line, player-facing summaries of what an action did, built from its events.

Each kind of line is one whole template (engine/i18n.py), so other languages may order and
inflect it freely; an action's consequences and several actions are joined by templates too.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.i18n import M, Message, Text
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
from engine.nika.words import capitalised, series

_DRAW_TEXT = {
    "passes": M("four city turns in a row passed both actions"),
    "repetition": M("the same position occurred three times"),
}
# Each action's events start with exactly one of these; the rest are its consequences.
_ACTION_EVENTS = (Moved, Rotated, Advanced, Rallied, Passed)


def _piece(event: Routed) -> Message:
    return M("{city:poss} {square}", city=event.city.term, square=square_name(event.square))


def _push(event: Pushed) -> Message:
    return M("{city:poss} {frm} to {to}", city=event.city.term, frm=square_name(event.frm), to=square_name(event.to))


def pushed_off_text(event: Routed) -> Message:
    """A push that routs, where the piece was pushed: "pushed Athens' f9 off the board"."""
    into = event.pushed_to
    city, square = event.city.term, square_name(event.square)
    if into is None or into == OFF_GRID or not IN_PLAY[into]:
        return M("pushed {city:poss} {square} off the board", city=city, square=square)
    owner = VICTORY_OWNER[into]
    if owner is not None:
        return M("pushed {city:poss} {square} into {owner:poss} victory area, routing it", city=city, square=square,
                 owner=owner.term)  # fmt: skip
    return M("pushed {city:poss} {square} into {into}, routing it", city=city, square=square, into=square_name(into))


def _advance_effects(rest: Sequence[Event]) -> Text | None:
    """What an advance did to the enemy: its pushes, then pushes that routed, then routs."""
    effects: list[Text] = []
    pushed = [e for e in rest if isinstance(e, Pushed)]
    if pushed:
        effects.append(M("pushed {pieces}", pieces=series([_push(e) for e in pushed])))
    effects.extend(pushed_off_text(e) for e in rest if isinstance(e, Routed) and e.pushed_to is not None)
    routed = [e for e in rest if isinstance(e, Routed) and e.pushed_to is None]
    if routed:
        effects.append(M("routed {pieces}", pieces=series([_piece(e) for e in routed])))
    if not effects:
        return None
    text = effects[0]
    for effect in effects[1:]:
        text = M("{before}; {after}", before=text, after=effect)
    return text


def _lead(first: Event, rest: Sequence[Event]) -> Text | None:
    """The action itself, with what it did to the enemy."""
    if isinstance(first, Moved):
        city, frm, to = first.city.term, square_name(first.frm), square_name(first.to)
        routed = [e for e in rest if isinstance(e, Routed) and e.pushed_to is None]
        if routed:
            return M("{city} moved {frm} to {to}, routing {pieces}", city=city, frm=frm, to=to,
                     pieces=series([_piece(e) for e in routed]))  # fmt: skip
        return M("{city} moved {frm} to {to}", city=city, frm=frm, to=to)
    if isinstance(first, Advanced):
        squares = squares_text(first.squares)
        effects = _advance_effects(rest)
        if effects is not None:
            return M("{city} advanced {squares}: {effects}", city=first.city.term, squares=squares, effects=effects)
        return M("{city} advanced {squares}", city=first.city.term, squares=squares)
    if isinstance(first, Rotated):
        return M("{city} rotated {squares} to face {direction}", city=first.city.term,
                 squares=squares_text(first.squares), direction=first.facing.word)  # fmt: skip
    if isinstance(first, Rallied):
        return M("{city} rallied on {square} facing {direction}", city=first.city.term,
                 square=square_name(first.square), direction=first.facing.word)  # fmt: skip
    if isinstance(first, Passed):
        return M("{city} passed", city=first.city.term)
    return None  # an ending reported without its action


def _ending(event: Event) -> Message | None:
    if isinstance(event, Won):
        return M("{team} win!", team=event.team.term)
    if isinstance(event, Drawn):
        why = _DRAW_TEXT.get(event.reason)
        return M("draw: {why}", why=why if why is not None else event.reason)
    return None


def _describe_action(events: Sequence[Event]) -> Text:
    first = events[0]
    rest = events[1:] if isinstance(first, _ACTION_EVENTS) else events
    lead = _lead(first, rest)
    endings = [ending for ending in map(_ending, rest) if ending is not None]
    if lead is None:
        if not endings:
            return ""
        lead, endings = capitalised(endings[0]), endings[1:]
    text: Text = lead
    for ending in endings:
        text = M("{before} — {after}", before=text, after=ending)
    return text


def describe_message(events: Sequence[Event]) -> Text:
    """A one-line summary of an action from its events, e.g. "Athens moved j6 to i6", rendered
    when read. Given the events of several actions, describes each and joins them with "; then "."""
    groups: list[list[Event]] = []
    for event in events:
        if isinstance(event, _ACTION_EVENTS) or not groups:
            groups.append([event])
        else:
            groups[-1].append(event)
    if not groups:
        return ""
    text = _describe_action(groups[0])
    for group in groups[1:]:
        text = M("{before}; then {after}", before=text, after=_describe_action(group))
    return text


def describe_events(events: Sequence[Event]) -> str:
    """The summary of `describe_message`, in the active language."""
    return str(describe_message(events))
