"""The steps of a match that count (actions not undone, and endings), kept compactly.

A match of thousands of actions must not cost megabytes while it sits in the service's
cache, so the log is stored by column: numbers in arrays, one string per action, and the
events (what the board highlights, what the history describes) only for the last
`EVENTS_KEPT` entries. Older events are dropped; whoever needs them (a history page from
long ago) replays the game record, which the engine does quickly.

Like a persistent list, a `PlayedLog` is a view of the first `length` entries of columns
shared by the states along one line of play: appending after the last entry extends them in
place (O(1)), appending after an earlier one (an undo, then a new action) copies the prefix.
"""

from __future__ import annotations

import threading
from array import array
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, overload

from engine.api import EndingKind

EVENTS_KEPT = 64  # a board highlights at most 2 × 12 recent actions; undo needs the last one
_LOCK = threading.Lock()  # states are values and may be shared between threads
_NO_USER = -1


@dataclass(frozen=True, slots=True)
class Played:
    """An effective step of the game (not undone): an action, or an ending decided off the board."""

    seq: int
    seat: str
    user_id: int | None
    action: str | None  # canonical notation; None for an ending
    events: tuple[Any, ...] | None  # None: no longer kept in memory (see the module's note)
    ending: EndingKind | None = None
    side: str | None = None


class _Columns:
    __slots__ = ("actions", "events", "odd", "seat_names", "seats", "seqs", "users")

    def __init__(self) -> None:
        self.seqs = array("q")
        self.seats = array("H")  # index into seat_names
        self.seat_names: list[str] = []
        self.users = array("q")
        self.actions: list[str | None] = []
        self.events: list[tuple[Any, ...] | None] = []
        self.odd: dict[int, tuple[EndingKind | None, str | None]] = {}  # endings and sides, which are rare

    def __len__(self) -> int:
        return len(self.seqs)

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
        if index >= EVENTS_KEPT:
            self.events[index - EVENTS_KEPT] = None

    def item(self, index: int) -> Played:
        ending, side = self.odd.get(index, (None, None))
        user = self.users[index]
        return Played(self.seqs[index], self.seat_names[self.seats[index]], None if user == _NO_USER else user,
                      self.actions[index], self.events[index], ending, side)  # fmt: skip

    def prefix(self, length: int) -> _Columns:
        copy = _Columns()
        copy.seqs, copy.seats, copy.users = self.seqs[:length], self.seats[:length], self.users[:length]
        copy.seat_names = list(self.seat_names)
        copy.actions, copy.events = self.actions[:length], self.events[:length]
        copy.odd = {index: odd for index, odd in self.odd.items() if index < length}
        return copy


class PlayedLog:
    """The first `length` entries of shared columns; a value, like a tuple of `Played`."""

    __slots__ = ("_columns", "_length")

    def __init__(self, columns: _Columns | None = None, length: int | None = None) -> None:
        self._columns = columns if columns is not None else _Columns()
        self._length = len(self._columns) if length is None else length

    @classmethod
    def of(cls, items: list[Played]) -> PlayedLog:
        log = cls()
        for item in items:
            log = log.appended(item)
        return log

    def __len__(self) -> int:
        return self._length

    def __bool__(self) -> bool:
        return self._length > 0

    def __iter__(self) -> Iterator[Played]:
        columns = self._columns
        for index in range(self._length):
            yield columns.item(index)

    @overload
    def __getitem__(self, index: int) -> Played: ...

    @overload
    def __getitem__(self, index: slice) -> list[Played]: ...

    def __getitem__(self, index: int | slice) -> Played | list[Played]:
        if isinstance(index, slice):
            return [self._columns.item(i) for i in range(*index.indices(self._length))]
        if index < 0:
            index += self._length
        if not 0 <= index < self._length:
            raise IndexError(index)
        return self._columns.item(index)

    def appended(self, item: Played) -> PlayedLog:
        with _LOCK:
            if len(self._columns) == self._length:
                self._columns.push(item)
                return PlayedLog(self._columns, self._length + 1)
            columns = self._columns.prefix(self._length)
        columns.push(item)
        return PlayedLog(columns, self._length + 1)

    def dropped_last(self) -> PlayedLog:
        return PlayedLog(self._columns, self._length - 1)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PlayedLog):
            return NotImplemented
        return list(self) == list(other)

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"PlayedLog({list(self)!r})"
