"""The history a game's repetition rule counts: the key of every position of one line of play.

Only keys are kept (a position's 64-bit hash, 8 bytes in an array), not positions (kilobytes
each): a match of thousands of actions stays small, and counting a repetition is a scan of
the array in C. A game makes its keys from its positions' integers only, so they are the
same in every process, which lets a snapshot carry the history (`pack`, `unpack`).
"""

from __future__ import annotations

import base64
import sys
import threading
from array import array
from collections.abc import Iterable

# Guards the check-then-append in History.extended: states are values and may be
# shared between threads. One module lock (not one per history) keeps states picklable.
_EXTEND_LOCK = threading.Lock()


class History:
    """The keys of one line of play, in order, shared by the states along it.

    Append-only: a state sees only the first `length` entries, so extending the log
    for a child never changes what its ancestors count. Applying to a state that
    already has a child (a branch, as a search does at every node) starts a new segment
    that refers to this one for its first `length` entries instead of copying them, so
    `apply` stays O(1) however long the game. Chains are flattened once they get deep,
    which keeps counting a repetition cheap.
    """

    __slots__ = ("base", "depth", "keys", "parent")

    MAX_DEPTH = 24

    def __init__(self, keys: Iterable[int], parent: History | None = None, base: int = 0) -> None:
        self.parent = parent
        self.base = base  # entries before `base` are the parent's first `base` entries
        self.depth: int = 0 if parent is None else parent.depth + 1
        self.keys = array("q", keys)  # entries base, base + 1, ...

    def prefix(self, length: int) -> array[int]:
        """The first `length` entries."""
        if length <= self.base:
            assert self.parent is not None
            return self.parent.prefix(length)
        head = self.parent.prefix(self.base) if self.parent is not None else array("q")
        return head + self.keys[: length - self.base]

    def count(self, key: int, length: int) -> int:
        """How often `key` occurs among the first `length` entries."""
        found = 0
        segment: History | None = self
        while segment is not None:
            if length > segment.base:
                keys, seen = segment.keys, length - segment.base
                found += keys.count(key) if seen >= len(keys) else keys[:seen].count(key)
                length = segment.base
            segment = segment.parent
        return found

    def extended(self, length: int, key: int) -> History:
        """A history holding the first `length` entries and then `key`."""
        with _EXTEND_LOCK:
            if self.base + len(self.keys) == length:
                self.keys.append(key)
                return self
        if length <= self.base:
            assert self.parent is not None
            return self.parent.extended(length, key)
        if self.depth >= self.MAX_DEPTH:
            return History([*self.prefix(length), key])
        return History([key], self, length)


def pack(keys: array[int]) -> str:
    """Keys as text for a snapshot (little-endian 64-bit integers, in base64)."""
    if sys.byteorder != "little":
        keys = array("q", keys)
        keys.byteswap()
    return base64.b64encode(keys.tobytes()).decode("ascii")


def unpack(text: str) -> array[int]:
    """The keys `pack` wrote; ValueError if the text is not such keys."""
    keys: array[int] = array("q")
    keys.frombytes(base64.b64decode(text, validate=True))
    if sys.byteorder != "little":
        keys.byteswap()
    return keys
