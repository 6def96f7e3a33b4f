"""The alt text: the image described for screen readers (Discord allows 1024 characters).

Read in this order: who acts (or the result), what the recent actions did (the
last one, or every action since the viewer's last turn, numbered as on the
picture), then every city's pieces. Pieces in a straight run with one facing are
read as one ("j4 through j6 west"). If the text is too long, the pieces switch to
a terser form, then the actions are shortened, oldest first, and only as a last
resort is the end cut.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import IntEnum

from engine.i18n import M, Message, P, T, Term, Text
from engine.nika.board import NEIGHBOUR, City, Direction, Square, sort_key, square_name
from engine.nika.describe import pushed_off_text
from engine.nika.events import Advanced, Event, Moved, Passed, Pushed, Rallied, Rotated, Routed, Won
from engine.nika.position import Position
from engine.nika.state import GameState, Reason
from engine.nika.words import listed, summary

LIMIT = 1024
_WIN_HOW = {
    Reason.VICTORY: M("a piece reached its victory area"),
    Reason.CONCESSION: M("Nika was declared and the opponents conceded"),
    Reason.RESIGNATION: M("the opponents resigned"),
    Reason.YIELDED: M("the opponents conceded"),
}
# The colour of each city's pieces, as the rulebook names them.
_COLOUR: dict[City, Term] = {
    City.ATHENS: T("white", "colour"),
    City.SPARTA: T("red", "colour"),
    City.MESSENE: T("blue", "colour"),
    City.THEBES: T("black", "colour"),
}


class Detail(IntEnum):
    """How fully an action is told, from everything it did down to who did what."""

    FULL = 0
    BRIEF = 1
    BARE = 2


def alt_text(
    state: GameState, events: Sequence[Event] = (), *, earlier: Sequence[Sequence[Event]] = (), live: bool = True
) -> str:
    """`events` is the action just played; `earlier` the actions before it since the viewer's
    last turn, oldest first (the picture numbers them 1, 2, … in that order). Not `live` (a
    rules example): whose turn it is goes unsaid. In the active language: lengths are measured
    in the words the reader gets."""
    actions = [*earlier, events]
    head = f"{M('Nika board.')} {_status(state)}" if live or state.outcome else str(M("Nika board."))
    # Cheapest loss first: terser pieces, then ever shorter earlier actions (the oldest first), then the last.
    full = [Detail.FULL] * len(actions)
    plans: list[tuple[Callable[[list[Square], Direction], Text], list[Detail]]] = [
        (_squares_long, full),
        (_squares_short, full),
    ]
    details = list(full)
    last = len(actions) - 1
    older = [(index, level) for level in (Detail.BRIEF, Detail.BARE) for index in range(last)]
    for index, level in [*older, (last, Detail.BRIEF), (last, Detail.BARE)]:
        details[index] = level
        plans.append((_squares_short, list(details)))
    for describe, detail in plans:
        parts = [head, _recent_text(actions, detail), *_pieces(state.position, describe)]
        text = " ".join(part for part in parts if part)
        if len(text) <= LIMIT:
            return text
    return text[: LIMIT - 1].rstrip() + "…"


def _recent_text(actions: Sequence[Sequence[Event]], details: Sequence[Detail]) -> str:
    if len(actions) == 1:
        last = _action_text(actions[0], details[0], "; ")
        return str(M("Last action: {action}.", action=last)) if last else ""
    told = [
        f"{number}. {text}"
        for number, (events, detail) in enumerate(zip(actions, details, strict=True), start=1)
        if (text := _action_text(events, detail, ", "))
    ]
    if not told:
        return ""
    first = next((actor for events in actions if (actor := _actor(events)) is not None), None)
    if first is None:
        return str(M("Recent actions: {actions}.", actions="; ".join(told)))
    before = City((first - 1) % len(City))
    return str(M("Since {city:poss} last turn: {actions}.", city=before.term, actions="; ".join(told)))


def city_name(city: City) -> Message:
    """A city with the colour of its pieces: "Athens (white)"."""
    return M("{city} ({colour})", city=city.term, colour=_COLOUR[city])


def _status(state: GameState) -> Message:
    outcome = state.outcome
    if outcome is None:
        left = state.position.actions_left
        return P("{city} to act, {count} action left.", "{city} to act, {count} actions left.", count=left,
                 city=city_name(state.to_act))  # fmt: skip
    if outcome.winner is None:
        return M("Game over. {summary}.", summary=summary(outcome))
    first, second = (city.term for city in outcome.winner.cities)
    how = _WIN_HOW.get(outcome.reason)
    if how is None:
        return M("Game over: {first} and {second} win.", first=first, second=second)
    return M("Game over: {first} and {second} win ({how}).", first=first, second=second, how=how)


# --- pieces -------------------------------------------------------------------------


def _runs(squares: Sequence[Square]) -> list[list[Square]]:
    """Split squares into straight runs of neighbours, preferring whichever axis gives fewer groups."""
    best: list[list[Square]] | None = None
    for first, second in ((Direction.N, Direction.E), (Direction.E, Direction.N)):
        left = set(squares)
        groups: list[list[Square]] = []
        for direction in (first, second):
            for sq in sorted(left, key=sort_key):
                if sq not in left or NEIGHBOUR[direction.opposite][sq] in left:
                    continue  # not the start of a run
                run = [sq]
                while NEIGHBOUR[direction][run[-1]] in left:
                    run.append(NEIGHBOUR[direction][run[-1]])
                if len(run) > 1 or direction == second:
                    groups.append(run)
                    left.difference_update(run)
        groups.sort(key=lambda run: sort_key(run[0]))
        if best is None or len(groups) < len(best):
            best = groups
    return best or []


def _run_long(run: list[Square]) -> Text:
    """A run in words: 'j4', 'j4, j5', 'j4 through j6'."""
    first, last = square_name(run[0]), square_name(run[-1])
    if len(run) == 1:
        return first
    if len(run) == 2:
        return f"{first}, {last}"
    return M("{first} through {last}", first=first, last=last)


def _run_short(run: list[Square]) -> str:
    """A run in notation: 'j4', 'j4,j5', 'j4-j6'."""
    first, last = square_name(run[0]), square_name(run[-1])
    if len(run) == 1:
        return first
    return f"{first},{last}" if len(run) == 2 else f"{first}-{last}"


def _squares_long(squares: list[Square], facing: Direction) -> Text:
    runs = ", ".join(str(_run_long(run)) for run in _runs(squares))
    return M("{squares} {direction}", squares=runs, direction=facing.word)


def _squares_short(squares: list[Square], facing: Direction) -> Text:
    return f"{','.join(_run_short(run) for run in _runs(squares))} {facing.letter}"


def _pieces(position: Position, describe: Callable[[list[Square], Direction], Text]) -> list[str]:
    lines = []
    for city in City:
        by_facing: dict[Direction, list[Square]] = {}
        for piece in position.pieces(city):
            by_facing.setdefault(piece.facing, []).append(piece.square)
        # Canonical order: by the first square of each facing group.
        groups = sorted(by_facing.items(), key=lambda item: sort_key(item[1][0]))
        placed = "; ".join(str(describe(squares, facing)) for facing, squares in groups)
        placed = placed or str(M("no pieces on the board"))
        routed = position.routed(city)
        if routed:
            line = P("{city}: {placed}; {count} routed.", "{city}: {placed}; {count} routed.", count=routed,
                     city=city_name(city), placed=placed)  # fmt: skip
        else:
            line = M("{city}: {placed}; none routed.", city=city_name(city), placed=placed)
        lines.append(str(line))
    return lines


# --- the recent actions ---------------------------------------------------------------


def _actor(events: Sequence[Event]) -> City | None:
    """The city that acted: the first event is its own (moves, turns, advances, rallies, passes)."""
    for event in events:
        if isinstance(event, Moved | Rotated | Advanced | Rallied | Passed | Won):
            return event.city
    return None


def _action_text(events: Sequence[Event], detail: Detail, joiner: str) -> str:
    if detail is Detail.FULL:
        return joiner.join(str(clause) for event in events if (clause := _event_text(event)) is not None)
    clauses = [clause for event in events if (clause := _brief_text(event, detail)) is not None][:1]
    if detail is Detail.BRIEF:
        pushed = sum(isinstance(event, Pushed) for event in events)
        routed = sum(isinstance(event, Routed) for event in events)
        clauses += [M("pushed {count}", count=pushed)] if pushed else []
        clauses += [M("routed {count}", count=routed)] if routed else []
        clauses += [M("reached its victory area on {square}", square=square_name(e.square))
                    for e in events if isinstance(e, Won)]  # fmt: skip
    return joiner.join(map(str, clauses))


def _brief_text(event: Event, detail: Detail) -> Message | None:
    """The acting clause alone: counts for phalanxes when BRIEF, just the verb when BARE."""
    if detail is Detail.BARE:
        return _bare_text(event)
    if isinstance(event, Rotated | Advanced):
        city, count = event.city.term, len(event.squares)
        if isinstance(event, Rotated):
            if count > 1:
                return M("{city} turned {count} pieces {direction}", city=city, count=count,
                         direction=event.facing.word)  # fmt: skip
            return M("{city} turned {square} {direction}", city=city, square=square_name(event.squares[0]),
                     direction=event.facing.word)  # fmt: skip
        if count > 1:
            return M("{city} advanced {count} pieces {direction}", city=city, count=count,
                     direction=event.direction.word)  # fmt: skip
        return M("{city} advanced {square} {direction}", city=city, square=square_name(event.squares[0]),
                 direction=event.direction.word)  # fmt: skip
    if isinstance(event, Rallied):
        return M("{city} rallied on {square}", city=event.city.term, square=square_name(event.square))
    if isinstance(event, Moved | Passed):
        return _event_text(event)
    return None


def _bare_text(event: Event) -> Message | None:
    """Who did what, and no more."""
    if isinstance(event, Moved):
        return M("{city} moved", city=event.city.term)
    if isinstance(event, Rotated):
        return M("{city} turned", city=event.city.term)
    if isinstance(event, Advanced):
        return M("{city} advanced", city=event.city.term)
    if isinstance(event, Rallied):
        return M("{city} rallied", city=event.city.term)
    if isinstance(event, Passed):
        return M("{city} passed", city=event.city.term)
    return None


def _event_text(event: Event) -> Message | None:
    if isinstance(event, Moved):
        return M("{city} moved {frm} to {to}", city=event.city.term, frm=square_name(event.frm),
                 to=square_name(event.to))  # fmt: skip
    if isinstance(event, Rotated):
        return M("{city} turned {squares} to face {direction}", city=event.city.term,
                 squares=_group_text(event.squares), direction=event.facing.word)  # fmt: skip
    if isinstance(event, Advanced):
        return M("{city} advanced {squares} {direction}", city=event.city.term, squares=_group_text(event.squares),
                 direction=event.direction.word)  # fmt: skip
    if isinstance(event, Pushed):
        return M("pushed {city} {frm} to {to}", city=event.city.term, frm=square_name(event.frm),
                 to=square_name(event.to))  # fmt: skip
    if isinstance(event, Routed):
        if event.pushed_to is not None:
            return pushed_off_text(event)
        return M("routed {city} on {square}", city=event.city.term, square=square_name(event.square))
    if isinstance(event, Rallied):
        return M("{city} rallied a piece on {square} facing {direction}", city=event.city.term,
                 square=square_name(event.square), direction=event.facing.word)  # fmt: skip
    if isinstance(event, Passed):
        return M("{city} passed", city=event.city.term)
    if isinstance(event, Won):
        return M("{city} reached its victory area on {square}", city=event.city.term, square=square_name(event.square))
    return None  # a draw: the status already says how the game was drawn


def _group_text(squares: Sequence[Square]) -> Text:
    return listed([_run_long(run) for run in _runs(list(squares))])
