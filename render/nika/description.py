"""The alt text: the image described for screen readers (Discord allows 1024 characters).

Read in this order: who acts (or the result), what the last action did, then
every city's pieces. Pieces in a straight run with one facing are read as one
("j4 through j6 west"). If a position is ever too long even so, the pieces
switch to a terser form, and only as a last resort is the end cut.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.nika.board import NEIGHBOUR, City, Direction, Square, Team, sort_key, square_name
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


def alt_text(state: GameState, events: Sequence[Event] = ()) -> str:
    head = [f"Nika board. {_status(state)}"]
    last = _last_action(events)
    if last:
        head.append(f"Last action: {last}.")
    for describe in (_squares_long, _squares_short):
        text = " ".join([*head, *_pieces(state.position, describe)])
        if len(text) <= LIMIT:
            return text
    return text[: LIMIT - 1].rstrip() + "…"


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


# --- the last action ----------------------------------------------------------------


def _last_action(events: Sequence[Event]) -> str:
    clauses: list[str] = []
    for event in events:
        clause = _event_text(event)
        if clause:
            clauses.append(clause)
    return "; ".join(clauses)


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
