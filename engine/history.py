"""The history a game's repetition rule counts: the key of every position of one line of play.

Only keys are kept (a position's 64-bit hash, 8 bytes in an array), not positions (kilobytes
each): a match of thousands of actions stays small. A game makes its keys from its positions'
integers only, so they are the same in every process, which lets a snapshot carry the history
(`pack`, `unpack`).

Counting must stay cheap however long the line: scanning thousands of keys for every action
made a long match's actions (and its replay after a restart) slower the longer it ran. So a
line's older keys are *settled* into a sorted array, counted by binary search, and only the
recent ones (fewer than `History.SETTLE`) are scanned. A line that archives (its root holds an
`Archive`, engine/archive.py) moves its settled keys out of memory once they reach
`History.KEEP`, so its memory stays bounded however long it runs.
"""

from __future__ import annotations

import base64
import binascii
import sys
import threading
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Iterable
from itertools import chain

from engine.archive import Archive

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

    A root segment (no parent) may hold its first `base` entries settled: `settled` is them
    as a sorted array, whose order of play is no longer known (or, with an `archive`, the
    archive's first `archive.size` entries and then `settled`). Every state holding such a
    segment has seen all of them (the segment was made for a state `SETTLE` entries further
    on), so no count ever needs part of them.
    """

    __slots__ = ("archive", "base", "depth", "keys", "parent", "settled")

    MAX_DEPTH = 24
    SETTLE = 128  # recent keys scanned before they are settled into the sorted part
    KEEP = 2048  # settled keys kept in memory by an archiving line (16 KiB) before they are archived

    def __init__(
        self,
        keys: Iterable[int],
        parent: History | None = None,
        base: int = 0,
        settled: array[int] | None = None,
        archive: Archive | None = None,
    ) -> None:
        self.parent = parent
        self.base = base  # entries before `base`: the parent's first `base`, or the archive's and `settled`
        self.settled: array[int] = settled if settled is not None else array("q")
        self.archive = archive  # only on a root; None: this line never archives
        self.depth: int = 0 if parent is None else parent.depth + 1
        self.keys = array("q", keys)  # entries base, base + 1, ...
        assert parent is not None or len(self.settled) + self.archived == base
        assert parent is None or archive is None

    @property
    def archived(self) -> int:
        """Entries of this root in its archive (0 if none)."""
        return 0 if self.archive is None else self.archive.size

    @classmethod
    def of(cls, keys: array[int], settled: array[int] | None = None, archive: Archive | None = None) -> History:
        """A line of the `archive`'s keys, `settled` (sorted, as `split` gives them: not checked) and
        then `keys` (the last one the newest; the others in any order, as `prefix` gives them)."""
        archived = 0 if archive is None else archive.size
        if settled is None:
            return cls(keys[-1:], None, archived + len(keys) - 1, array("q", sorted(keys[:-1])), archive)
        return cls(keys, None, archived + len(settled), settled, archive)

    def root(self) -> History:
        segment = self
        while segment.parent is not None:
            segment = segment.parent
        return segment

    def held_bytes(self) -> int:
        """The bytes of the keys this line holds in memory: every segment's, the root's settled
        ones, its archive's filter and answers (shared with earlier states of the line)."""
        total = 0
        segment: History | None = self
        while segment is not None:
            total += sys.getsizeof(segment.keys)
            if segment.parent is None:
                total += sys.getsizeof(segment.settled)
                if segment.archive is not None:
                    total += segment.archive.held_bytes()
            segment = segment.parent
        return total

    def split(self, length: int) -> tuple[array[int], array[int]]:
        """The first `length` entries as (the settled ones, sorted; the others in order of play),
        for a snapshot: `History.of(others, settled, archive)` restores them without sorting.
        Archived entries are in neither."""
        settled = self.root().settled
        keys = self.prefix(length)
        return settled, keys[len(settled) :]

    def prefix(self, length: int) -> array[int]:
        """The first `length` entries but the archived ones: in order of play, except that settled
        ones come first, sorted."""
        if length <= self.base:
            if self.parent is None:  # a holder of a settled root sees all of it
                assert length == self.base
                return array("q", self.settled)
            return self.parent.prefix(length)
        head = self.parent.prefix(self.base) if self.parent is not None else array("q", self.settled)
        return head + self.keys[: length - self.base]

    def count(self, key: int, length: int) -> int:
        """How often `key` occurs among the first `length` entries (ArchiveLookup: see Archive)."""
        found = 0
        segment = self
        while True:
            if length > segment.base:
                keys, seen = segment.keys, length - segment.base
                found += keys.count(key) if seen >= len(keys) else keys[:seen].count(key)
                length = segment.base
            if segment.parent is None:
                if length:
                    settled = segment.settled
                    found += bisect_right(settled, key) - bisect_left(settled, key)
                    if segment.archive is not None:
                        found += segment.archive.count(key)
                return found
            segment = segment.parent

    def extended(self, length: int, key: int) -> History:
        """A history holding the first `length` entries and then `key`."""
        with _EXTEND_LOCK:
            if self.base + len(self.keys) == length:
                if len(self.keys) < self.SETTLE:
                    self.keys.append(key)
                    return self
                if self.parent is not None:  # a branch grown long: a root of its own, settled (and archived)
                    return self._flattened(length, key)
                # A new root (this one stays as it is for the states holding it).
                archive = self.archive
                if archive is not None and len(self.settled) + len(self.keys) >= self.KEEP:
                    # Out of memory: the host has every ply's key (see Archive).
                    return History([key], None, length, None, archive.added(chain(self.settled, self.keys)))
                settled = array("q", self.settled)
                for old in self.keys:  # a copy and a few memmoves: cheaper than sorting it all
                    settled.insert(bisect_right(settled, old), old)
                return History([key], None, length, settled, archive)
        if length <= self.base:
            assert self.parent is not None  # never shorter than a root's settled part (see the class)
            return self.parent.extended(length, key)
        if self.depth >= self.MAX_DEPTH:
            return self._flattened(length, key)
        return History([key], self, length)

    def _flattened(self, length: int, key: int) -> History:
        """A new root holding the first `length` entries and then `key`. On an archiving line the
        keys in memory go to the archive once they reach KEEP, as a root's own settling does: a
        line that branches at every action (each what-if tried on a match's state extends its
        segment first) is flattened here, never settled by its root, and would keep them all."""
        archive = self.root().archive
        keys = self.prefix(length)
        if archive is not None and len(keys) >= self.KEEP:
            return History([key], None, length, None, archive.added(keys))
        keys.append(key)
        return History.of(keys, None, archive)


def pack(keys: array[int]) -> str:
    """Keys as text for a snapshot (little-endian 64-bit integers, in base64)."""
    if sys.byteorder != "little":
        keys = array("q", keys)
        keys.byteswap()
    return base64.b64encode(keys.tobytes()).decode("ascii")


def unpack(text: str) -> array[int]:
    """The keys `pack` wrote; ValueError if the text is not such keys."""
    keys: array[int] = array("q")
    keys.frombytes(binascii.a2b_base64(text, strict_mode=True))
    if sys.byteorder != "little":
        keys.byteswap()
    return keys
