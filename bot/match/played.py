"""The steps of a match that count (actions not undone, and endings), of which memory keeps
only the recent ones.

A match of thousands of actions must cost no more than a short one while it sits in the
service's cache or in a snapshot, so a `PlayedLog` keeps the number of steps played, the last
`KEPT` or more of them (what a board highlights and an undo checks; the last `KEPT` with their
events), and every ending decided off the board (a few at most: one per seat that left, and
the last). Older steps are in the match's log: `steps_from_log` rebuilds the whole list from it
when a history page, a game record or a replay asks (see `MatchBook.steps`).

Like a persistent list, a `PlayedLog` is a view of the first `length` steps of columns shared by
the states along one line of play: appending after the last entry extends them in place
(O(1)), appending after an earlier one (an undo, then a new action) copies the kept part. When
the columns hold twice `KEPT` steps, the next append starts new ones with the last `KEPT`, so a
state always sees at least `KEPT - 1` recent steps (all of them in a shorter match).
"""

from __future__ import annotations

import threading
from array import array
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from typing import Any, overload

from engine.api import EndingKind

KEPT = 64  # a board highlights at most 2 × 12 recent actions; an undo looks at 2 × 4
EVENTS_KEPT = KEPT  # steps that keep their events: the last KEPT of those in memory
_LOCK = threading.Lock()  # states are values and may be shared between threads
_NO_USER = -1


class NotKept(IndexError):
    """A step older than those kept in memory: read it from the log (`steps_from_log`)."""


@dataclass(frozen=True, slots=True)
class Played:
    """An effective step of the game (not undone): an action, or an ending decided off the board."""

    seq: int
    seat: str
    user_id: int | None
    action: str | None  # canonical notation; None for an ending
    events: tuple[Any, ...] | None  # None: not kept in memory (a step restored from a snapshot)
    ending: EndingKind | None = None
    side: str | None = None

    @property
    def step(self) -> tuple[int, str, int | None, str | None, EndingKind | None, str | None]:
        """What the log says of this step: everything but its events."""
        return (self.seq, self.seat, self.user_id, self.action, self.ending, self.side)


class _Columns:
    """Steps `first`, `first + 1`, … of one line of play, by column."""

    __slots__ = ("actions", "events", "first", "odd", "seat_names", "seats", "seqs", "users")

    def __init__(self, first: int = 0) -> None:
        self.first = first
        self.seqs = array("q")
        self.seats = array("H")  # index into seat_names
        self.seat_names: list[str] = []
        self.users = array("q")
        self.actions: list[str | None] = []
        self.events: list[tuple[Any, ...] | None] = []
        self.odd: dict[int, tuple[EndingKind | None, str | None]] = {}  # endings and sides, which are rare

    def end(self) -> int:
        return self.first + len(self.seqs)

    def push(self, item: Played) -> None:
        index = len(self.seqs)
        if item.seat not in self.seat_names:
            self.seat_names.append(item.seat)
        self.seqs.append(item.seq)
        self.seats.append(self.seat_names.index(item.seat))
        self.users.append(_NO_USER if item.user_id is None else item.user_id)
        self.actions.append(item.action)
        self.events.append(item.events)
        if item.ending is not None or item.side is not None:
            self.odd[index] = (item.ending, item.side)
        if index >= KEPT:  # events only for the last KEPT (the columns hold up to twice as many steps)
            self.events[index - KEPT] = None

    def item(self, number: int) -> Played:
        index = number - self.first
        ending, side = self.odd.get(index, (None, None))
        user = self.users[index]
        return Played(self.seqs[index], self.seat_names[self.seats[index]], None if user == _NO_USER else user,
                      self.actions[index], self.events[index], ending, side)  # fmt: skip

    def copy(self, first: int, end: int) -> _Columns:
        """Steps `first` to `end - 1` in columns of their own."""
        columns = _Columns(first)
        low, high = first - self.first, end - self.first
        columns.seqs, columns.seats, columns.users = self.seqs[low:high], self.seats[low:high], self.users[low:high]
        columns.seat_names = list(self.seat_names)
        columns.actions, columns.events = self.actions[low:high], self.events[low:high]
        columns.odd = {index - low: odd for index, odd in self.odd.items() if low <= index < high}
        return columns


class PlayedLog:
    """The first `length` steps of a line of play, of which the recent ones are kept; a value."""

    __slots__ = ("_columns", "_endings", "_length")

    def __init__(
        self, columns: _Columns | None = None, length: int | None = None, endings: tuple[Played, ...] = ()
    ) -> None:
        self._columns = columns if columns is not None else _Columns()
        self._length = self._columns.end() if length is None else length
        self._endings = endings  # every ending of the line so far, without events

    @classmethod
    def of(cls, items: Iterable[Played]) -> PlayedLog:
        log = cls()
        for item in items:
            log = log.appended(item)
        return log

    @classmethod
    def restored(cls, length: int, recent: list[Played], endings: Iterable[Played]) -> PlayedLog:
        """A log of `length` steps of which `recent` are the last (a snapshot's)."""
        if not 0 <= len(recent) <= length:
            raise ValueError(f"{len(recent)} recent steps of {length}")
        columns = _Columns(length - len(recent))
        for item in recent:
            columns.push(item)
        return cls(columns, length, tuple(replace(e, events=None) for e in endings))

    def __len__(self) -> int:
        return self._length

    def __bool__(self) -> bool:
        return self._length > 0

    @property
    def first_kept(self) -> int:
        """The number (from 0) of the oldest step kept in memory."""
        return self._columns.first

    @property
    def complete(self) -> bool:
        """Whether every step is kept (a short match)."""
        return self._columns.first == 0

    @property
    def endings(self) -> tuple[Played, ...]:
        """Every ending decided off the board so far (without events)."""
        return self._endings

    def kept(self) -> list[Played]:
        """The steps kept in memory, oldest first."""
        return [self._columns.item(n) for n in range(self._columns.first, self._length)]

    def __iter__(self) -> Iterator[Played]:
        """Every step; NotKept unless all are kept (else see `steps_from_log`)."""
        if not self.complete:
            raise NotKept(f"steps before {self.first_kept} are only in the log")
        return iter(self.kept())

    @overload
    def __getitem__(self, index: int) -> Played: ...

    @overload
    def __getitem__(self, index: slice) -> list[Played]: ...

    def __getitem__(self, index: int | slice) -> Played | list[Played]:
        if isinstance(index, slice):
            numbers = range(*index.indices(self._length))
            if numbers and min(numbers[0], numbers[-1]) < self._columns.first:
                raise NotKept(f"steps before {self.first_kept} are only in the log")
            return [self._columns.item(n) for n in numbers]
        if index < 0:
            index += self._length
        if not 0 <= index < self._length:
            raise IndexError(index)
        if index < self._columns.first:
            raise NotKept(f"step {index} is only in the log")
        return self._columns.item(index)

    def appended(self, item: Played) -> PlayedLog:
        endings = (*self._endings, replace(item, events=None)) if item.action is None else self._endings
        with _LOCK:
            columns = self._columns
            if columns.end() == self._length and len(columns.seqs) < 2 * KEPT:
                columns.push(item)
                return PlayedLog(columns, self._length + 1, endings)
            # After an undo, or once the columns are full: new ones with the recent steps only.
            columns = columns.copy(max(columns.first, self._length + 1 - KEPT), self._length)
        columns.push(item)
        return PlayedLog(columns, self._length + 1, endings)

    def dropped_last(self) -> PlayedLog:
        """The log without its last step, an action (an undo: endings are never taken back)."""
        if self._length <= self._columns.first:
            raise NotKept("the last step is not kept")
        return PlayedLog(self._columns, self._length - 1, self._endings)

    def __eq__(self, other: object) -> bool:
        """Equal when they have the same length and endings and agree on the steps both keep."""
        if not isinstance(other, PlayedLog):
            return NotImplemented
        if self._length != other._length or self._endings != other._endings:
            return False
        first = max(self.first_kept, other.first_kept)
        return self[first:] == other[first:]

    def __hash__(self) -> int:
        return hash((self._length, self._endings))

    def __repr__(self) -> str:
        return f"PlayedLog({self._length} steps, from {self.first_kept}: {self.kept()!r})"


def steps_from_log(
    log: Iterable[tuple[int, str, str | None, int | None, str | None]], played: PlayedLog
) -> list[Played]:
    """Every step of the line of play `played` ends, rebuilt from the match's log entries up to
    its version (seq, kind, seat, user, text): an action adds a step and an undo takes the last
    back, as `MatchState` does; endings come from `played` (the log alone cannot tell whether an
    accepted draw ended the game or awaits another player), and the recent steps bring their
    events. Raises ValueError if the log and `played` disagree."""
    steps: list[Played] = []
    endings = {ending.seq: ending for ending in played.endings}  # made by the entry of that seq
    for seq, kind, seat, user, text in log:
        ending = endings.get(seq)
        if ending is not None:
            steps.append(ending)
        elif kind == "action":
            steps.append(Played(seq, seat or "", user, text, None))
        elif kind == "undo":
            if not steps or steps[-1].action is None:
                raise ValueError(f"log entry {seq} takes back no action")
            steps.pop()
    if len(steps) != len(played):
        raise ValueError(f"the log gives {len(steps)} steps, the match has {len(played)}")
    kept = played.kept()
    if [p.step for p in steps[played.first_kept :]] != [p.step for p in kept]:
        raise ValueError("the log's recent steps are not the match's")
    return steps[: played.first_kept] + kept
