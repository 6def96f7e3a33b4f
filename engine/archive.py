"""Repetition keys kept outside memory: the oldest part of a very long line of play.

A match can go on for tens of thousands of actions, and in a game where nothing is
irreversible its repetition rule must count every earlier position; 8 bytes a key made the cached state
grow without bound. An `Archive` stands for the keys of a line's first `size` positions, which
the host stores (per ply) outside the engine. In memory it keeps a Bloom filter of fixed size
over them, so most positions are known absent without asking, and the exact counts the host
has answered. A possible hit with no known count raises `ArchiveLookup`: the host looks the
count up in its store (keys of plies below `size` only) and calls `learn`, then applies again.
So a count is always exact, a false positive costs one look-up and never a false draw, and
the engine does no I/O.

An archive is a value once made (its keys never change: plies below `size` cannot be taken
back); `learn` only memoises facts about it. The memo is keyed by (size, key) and shared by the
archives one line derives (and, through `share`, by every state of a match the host rebuilds):
a count among a match's first `size` positions is one fact however often the line branches.
"""

from __future__ import annotations

import base64
import binascii
import sys
from collections.abc import Iterable

MASK64 = (1 << 64) - 1


class ArchiveLookup(Exception):
    """The exact count of `key` among the archive's keys is needed: the host answers with
    `archive.learn(key, count)` and applies again."""

    def __init__(self, archive: Archive, key: int) -> None:
        super().__init__(f"repetition key {key} may be among the first {archive.size} positions")
        self.archive = archive
        self.key = key


class Archive:
    __slots__ = ("bits", "guess", "known", "size")

    # 32 KiB and 5 bits a key: about 0.3 % false positives at 20,000 keys (3 % at 40,000), each
    # costing one look-up; 16 KiB and 3 bits made it 4 %, a cold load's replay then asked
    # several times and cost 1.3× the CPU of a short match's.
    BITS = 1 << 18
    HASHES = 5
    KNOWN = 64  # answers kept (about 200 bytes each)

    def __init__(self, size: int = 0, bits: bytes | bytearray | None = None) -> None:
        self.size = size
        # No filter until something is archived: a short match (most of the cache) holds none.
        self.bits = bytearray(bits) if bits else bytearray()
        if (self.bits or size) and len(self.bits) * 8 != self.BITS:  # keys archived need their filter
            raise ValueError("an archive filter of another size")
        self.known: dict[tuple[int, int], int] = {}  # (size, key): count, the host's answers
        self.guess = False  # a copy for searches: an unknown count is taken as 0, never asked

    def guessing(self) -> Archive:
        """A copy that never raises ArchiveLookup (a search's estimate, never a ruling)."""
        copy = Archive(self.size, self.bits)
        copy.known = dict(self.known)
        copy.guess = True
        return copy

    def added(self, keys: Iterable[int]) -> Archive:
        """A new archive: this one's keys, then `keys` (the positions that follow)."""
        new = Archive(self.size, self.bits or bytearray(self.BITS // 8))
        bits = new.bits
        for key in keys:
            new.size += 1
            for spot in _spots(key):
                bits[spot >> 3] |= 1 << (spot & 7)
        new.guess = self.guess
        new.known = self.known  # shared; answers about smaller archives are dropped (asked again if needed)
        for old in [k for k in self.known if k[0] < new.size]:
            del self.known[old]
        return new

    def may_hold(self, key: int) -> bool:
        bits = self.bits
        return all(bits[spot >> 3] & (1 << (spot & 7)) for spot in _spots(key))

    def count(self, key: int) -> int:
        """How often `key` occurs among the archived keys; ArchiveLookup if only the host knows."""
        if not self.size or not self.may_hold(key):
            return 0
        found = self.known.get((self.size, key))
        if found is None:
            if self.guess:
                return 0
            raise ArchiveLookup(self, key)
        return found

    def learn(self, key: int, count: int) -> None:
        """The host's answer: `key` occurs `count` times among the first `size` positions. Only
        the newest KNOWN answers are kept (memory stays bounded as false positives grow with the
        archive; an answer is needed again only while one action or one rebuild is retried)."""
        known = self.known
        known[(self.size, key)] = count
        while len(known) > self.KNOWN:
            del known[next(iter(known))]

    def share(self, memo: dict[tuple[int, int], int]) -> None:
        """Keep answers in `memo` from now on (the host's, for one match), with those known so far."""
        memo.update(self.known)
        self.known = memo

    def held_bytes(self) -> int:
        """The filter and the answers known (a dict entry with its key tuple: about 200 bytes)."""
        return sys.getsizeof(self.bits) + sys.getsizeof(self.known) + 200 * len(self.known)

    def pack(self) -> str:
        return base64.b64encode(bytes(self.bits)).decode("ascii")

    @classmethod
    def unpack(cls, size: int, text: str) -> Archive:
        """ValueError if `text` is not a filter `pack` wrote."""
        return cls(size, binascii.a2b_base64(text, strict_mode=True))


def _spots(key: int) -> list[int]:
    """The filter's bits for `key`: a 64-bit mix (keys of similar positions may differ little)."""
    spots = []
    x = key & MASK64
    for _ in range(Archive.HASHES):
        x = (x + 0x9E3779B97F4A7C15) & MASK64
        z = x
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        z ^= z >> 31
        spots.append(z % Archive.BITS)
    return spots
