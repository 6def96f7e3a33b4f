"""An append-only sequence shared by the states along one line of play.

Each state sees the first `length` items. Appending after the last item extends the
shared list in place (O(1)); appending after an earlier item (a branch, as an undo
followed by a new action makes) copies that prefix. Replaying a long log therefore
stays linear, where rebuilding a tuple per entry would be quadratic.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Generic, TypeVar, overload

T = TypeVar("T")
_LOCK = threading.Lock()  # states are values and may be shared between threads


class Chain(Generic[T]):
    __slots__ = ("_items", "_length")

    def __init__(self, items: list[T] | None = None, length: int | None = None) -> None:
        self._items = items if items is not None else []
        self._length = len(self._items) if length is None else length

    def __len__(self) -> int:
        return self._length

    def __bool__(self) -> bool:
        return self._length > 0

    def __iter__(self) -> Iterator[T]:
        items = self._items
        for index in range(self._length):
            yield items[index]

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> list[T]: ...

    def __getitem__(self, index: int | slice) -> T | list[T]:
        if isinstance(index, slice):
            return self._items[: self._length][index]
        if index < 0:
            index += self._length
        if not 0 <= index < self._length:
            raise IndexError(index)
        return self._items[index]

    def appended(self, item: T) -> Chain[T]:
        with _LOCK:
            if len(self._items) == self._length:
                self._items.append(item)
                return Chain(self._items, self._length + 1)
        return Chain([*self._items[: self._length], item])

    def dropped_last(self) -> Chain[T]:
        return Chain(self._items, self._length - 1)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Chain):
            return NotImplemented
        return list(self) == list(other)

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"Chain({list(self)!r})"
