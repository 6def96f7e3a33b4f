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

from engine.nika.board import NEIGHBOUR, City, Direction, Square, Team, sort_key, square_name
from engine.nika.describe import pushed_off_text
from engine.nika.events import Advanced, Drawn, Event, Moved, Passed, Pushed, Rallied, Rotated, Routed, Won
from engine.nika.position import Position
from engine.nika.state import GameState, Reason
from render.nika.colours import CITY_WORD

LIMIT = 1024
_WIN_HOW = {
    Reason.VICTORY: "a piece reached its victory area",
    Reason.CONCESSION: "Nika was declared and the opponents conceded",
    Reason.RESIGNATION: "the opponents resigned",
    Reason.YIELDED: "the opponents conceded",
}


_VERB: dict[type, str] = {Moved: "moved", Rotated: "turned", Advanced: "advanced", Rallied: "rallied", Passed: "passed"}


class Detail(IntEnum):
    """How fully an action is told, from everything it did down to who did what."""

    FULL = 0
    BRIEF = 1
    BARE = 2


def alt_text(state: GameState, events: Sequence[Event] = (), *, earlier: Sequence[Sequence[Event]] = ()) -> str:
    """`events` is the action just played; `earlier` the actions before it since the viewer's
    last turn, oldest first (the picture numbers them 1, 2, … in that order)."""
    actions = [*earlier, events]
    head = f"Nika board. {_status(state)}"
    # Cheapest loss first: terser pieces, then ever shorter earlier actions (the oldest first), then the last.
    full = [Detail.FULL] * len(actions)
    plans: list[tuple[Callable[[list[Square], Direction], str], list[Detail]]] = [
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
        return f"Last action: {last}." if last else ""
    told = [
        f"{number}. {text}"
        for number, (events, detail) in enumerate(zip(actions, details, strict=True), start=1)
        if (text := _action_text(events, detail, ", "))
    ]
    if not told:
        return ""
    first = next((actor for events in actions if (actor := _actor(events)) is not None), None)
    since = f"Since {City((first - 1) % len(City)).possessive} last turn" if first is not None else "Recent actions"
    return f"{since}: {'; '.join(told)}."


def city_name(city: City) -> str:
    return f"{city.title} ({CITY_WORD[city]})"


def _status(state: GameState) -> str:
    outcome = state.outcome
    if outcome is None:
        left = state.position.actions_left
        return f"{city_name(state.to_act)} to act, {left} action{'s' if left != 1 else ''} left."
    if outcome.winner is None:
        return f"Game over. {outcome.describe()}."
    how = _WIN_HOW.get(outcome.reason)
    return f"Game over: {_team_name(outcome.winner)} win{f' ({how})' if how else ''}."


def _team_name(team: Team) -> str:
    return " and ".join(city.title for city in team.cities)


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


def _run_text(run: list[Square], joiner: str) -> str:
    first, last = square_name(run[0]), square_name(run[-1])
    if len(run) == 1:
        return first
    if len(run) == 2:
        return f"{first}, {last}" if joiner == " through " else f"{first},{last}"
    return f"{first}{joiner}{last}"


def _squares_long(squares: list[Square], facing: Direction) -> str:
    return f"{', '.join(_run_text(run, ' through ') for run in _runs(squares))} {facing.word}"


def _squares_short(squares: list[Square], facing: Direction) -> str:
    return f"{','.join(_run_text(run, '-') for run in _runs(squares))} {facing.letter}"


def _pieces(position: Position, describe: Callable[[list[Square], Direction], str]) -> list[str]:
    lines = []
    for city in City:
        by_facing: dict[Direction, list[Square]] = {}
        for piece in position.pieces(city):
            by_facing.setdefault(piece.facing, []).append(piece.square)
        # Canonical order: by the first square of each facing group.
        groups = sorted(by_facing.items(), key=lambda item: sort_key(item[1][0]))
        placed = "; ".join(describe(squares, facing) for facing, squares in groups) or "no pieces on the board"
        routed = position.routed(city)
        lines.append(f"{city_name(city)}: {placed}; {routed or 'none'} routed.")
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
        return joiner.join(clause for event in events if (clause := _event_text(event)))
    clauses = [clause for event in events if (clause := _brief_text(event, detail))][:1]
    if detail is Detail.BRIEF:
        pushed = sum(isinstance(event, Pushed) for event in events)
        routed = sum(isinstance(event, Routed) for event in events)
        clauses += [f"pushed {pushed}"] if pushed else []
        clauses += [f"routed {routed}"] if routed else []
        clauses += [f"reached its victory area on {square_name(e.square)}" for e in events if isinstance(e, Won)]
    return joiner.join(clauses)


def _brief_text(event: Event, detail: Detail) -> str:
    """The acting clause alone: counts for phalanxes when BRIEF, just the verb when BARE."""
    if detail is Detail.BARE:
        if isinstance(event, Moved | Rotated | Advanced | Rallied | Passed):
            return f"{event.city.title} {_VERB[type(event)]}"
        return ""
    if isinstance(event, Rotated | Advanced):
        count = len(event.squares)
        pieces = f"{count} pieces" if count > 1 else square_name(event.squares[0])
        if isinstance(event, Rotated):
            return f"{event.city.title} turned {pieces} {event.facing.word}"
        return f"{event.city.title} advanced {pieces} {event.direction.word}"
    if isinstance(event, Rallied):
        return f"{event.city.title} rallied on {square_name(event.square)}"
    if isinstance(event, Moved | Passed):
        return _event_text(event)
    return ""


def _event_text(event: Event) -> str:
    if isinstance(event, Moved):
        return f"{event.city.title} moved {square_name(event.frm)} to {square_name(event.to)}"
    if isinstance(event, Rotated):
        return f"{event.city.title} turned {_group_text(event.squares)} to face {event.facing.word}"
    if isinstance(event, Advanced):
        return f"{event.city.title} advanced {_group_text(event.squares)} {event.direction.word}"
    if isinstance(event, Pushed):
        return f"pushed {event.city.title} {square_name(event.frm)} to {square_name(event.to)}"
    if isinstance(event, Routed):
        if event.pushed_to is not None:
            return pushed_off_text(event)
        return f"routed {event.city.title} on {square_name(event.square)}"
    if isinstance(event, Rallied):
        return f"{event.city.title} rallied a piece on {square_name(event.square)} facing {event.facing.word}"
    if isinstance(event, Passed):
        return f"{event.city.title} passed"
    if isinstance(event, Won):
        return f"{event.city.title} reached its victory area on {square_name(event.square)}"
    if isinstance(event, Drawn):
        return ""  # the status already says how the game was drawn
    return ""


def _group_text(squares: Sequence[Square]) -> str:
    runs = _runs(list(squares))
    texts = [_run_text(run, " through ") for run in runs]
    if len(texts) <= 2:
        return " and ".join(texts)
    return ", ".join(texts[:-1]) + " and " + texts[-1]
