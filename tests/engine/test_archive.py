"""Repetition keys archived out of memory (engine/archive.py): counts stay exact, whatever the
filter says, across branches (undo) and snapshots; the memory a line keeps stays bounded."""

from __future__ import annotations

import random

import pytest

from engine.archive import Archive, ArchiveLookup
from engine.history import History


class Host:
    """What the host keeps: every ply's key (an undone ply's key is overwritten when replayed)."""

    def __init__(self) -> None:
        self.keys: dict[int, int] = {}
        self.lookups = 0

    def count(self, history: History, key: int, length: int) -> int:
        while True:
            try:
                return history.count(key, length)
            except ArchiveLookup as need:  # answered from the plies below the archive's size only
                self.lookups += 1
                need.archive.learn(key, sum(1 for p, k in self.keys.items() if p < need.archive.size and k == key))


@pytest.fixture
def small(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(History, "SETTLE", 8)
    monkeypatch.setattr(History, "KEEP", 40)
    monkeypatch.setattr(Archive, "BITS", 256)  # a crowded filter: many false positives


def play(keys: list[int], host: Host) -> tuple[History, int]:
    history = History.of(keys[:1], None, Archive())
    host.keys[0] = keys[0]
    for length, key in enumerate(keys[1:], start=1):
        history = history.extended(length, key)
        host.keys[length] = key
    return history, len(keys)


@pytest.mark.usefixtures("small")
def test_archived_keys_count_exactly_and_false_positives_cost_only_a_lookup() -> None:
    rng = random.Random(7)
    keys = [rng.randrange(300) for _ in range(1_000)]
    host = Host()
    history, length = play(keys, host)
    root = history.root()
    assert root.archive is not None and root.archive.size >= 950  # most are out of memory
    assert len(root.settled) + len(history.keys) <= History.KEEP + History.SETTLE
    for key in [*range(-50, 0), *range(300)]:  # absent ones too: the filter may say "maybe"
        assert host.count(history, key, length) == keys.count(key)
    assert host.lookups > 50  # among them false positives (the absent keys), each answered 0
    asked = host.lookups
    assert len(root.archive.known) == Archive.KNOWN  # only the newest answers are kept
    recent = [key for _, key in root.archive.known]
    assert all(host.count(history, k, length) == keys.count(k) for k in recent)  # memoised
    assert host.lookups == asked
    assert all(host.count(history, k, length) == keys.count(k) for k in range(300))  # older ones asked again
    assert len(root.archive.known) == Archive.KNOWN


@pytest.mark.usefixtures("small")
def test_an_undo_across_the_archive_boundary_counts_the_new_line() -> None:
    host = Host()
    before, length = play(list(range(40)), host)  # 40 positions, all in memory
    assert before.root().archived == 0
    history = before.extended(length, 7)  # the 41st archives the first 40
    host.keys[40] = 7
    assert history.root().archived == 40 and host.count(history, 7, 41) == 2
    # Undo: the state before keeps its own line; playing another action from it archives again.
    branch = before.extended(length, 8)
    host.keys[40] = 8  # the undone ply's key replaced, as the host's upsert does
    assert branch.root().archive is not history.root().archive and branch.root().archived == 40
    assert host.count(branch, 7, 41) == 1 and host.count(branch, 8, 41) == 2
    assert host.count(before, 7, 40) == 1  # the state before counts as it did
    # On the archived line, positions repeated on both sides of the boundary still add up.
    again = history.extended(41, 7).extended(42, 7)
    assert host.count(again, 7, 43) == 4


@pytest.mark.usefixtures("small")
def test_a_branch_off_an_archived_line_and_flattening_keep_the_archive() -> None:
    host = Host()
    history, length = play([n % 17 for n in range(200)], host)
    for step in range(3 * History.MAX_DEPTH):  # every step branches, as a search does
        history.extended(length, -1)
        history = history.extended(length, step % 17)
        host.keys[length] = step % 17  # the host stores the line's keys, never a what-if's
        length += 1
    assert history.depth <= History.MAX_DEPTH and history.root().archive is not None
    line = [n % 17 for n in range(200)] + [s % 17 for s in range(3 * History.MAX_DEPTH)]
    assert all(host.count(history, k, length) == line.count(k) for k in range(17))


@pytest.mark.usefixtures("small")
def test_a_line_that_branches_at_every_step_still_archives_and_stays_bounded() -> None:
    """A match's state has what-ifs tried on it before its action (a forecast checked, a bench's
    pick): its line grows by branches and flattening, never by its root settling."""
    host = Host()
    history, length = play([0], host)
    line = [0]
    for step in range(1, 400):
        history.extended(length, -1 - step)  # a what-if first: the real action branches
        history = history.extended(length, step % 23)
        host.keys[length] = step % 23
        line.append(step % 23)
        length += 1
        in_memory = len(history.prefix(length))
        assert in_memory <= History.KEEP + History.MAX_DEPTH + History.SETTLE
    assert history.root().archived >= 400 - History.KEEP - History.MAX_DEPTH
    assert all(host.count(history, k, length) == line.count(k) for k in range(-5, 23))


def test_the_filter_travels_whole_and_a_line_without_an_archive_never_asks() -> None:
    archive = Archive().added(range(1_000))
    again = Archive.unpack(archive.size, archive.pack())
    assert again.size == 1_000 and again.bits == archive.bits and all(again.may_hold(k) for k in range(1_000))
    with pytest.raises(ValueError):
        Archive.unpack(3, "AAAA")
    history = History([1])
    for length in range(1, 10_000):
        history = history.extended(length, length % 5)
    assert history.root().archive is None and history.count(3, 10_000) == 2_000


def test_an_empty_archive_holds_no_filter_and_a_filled_one_needs_its_own() -> None:
    empty = Archive()
    assert not empty.bits and empty.count(12345) == 0 and Archive.unpack(0, empty.pack()).size == 0
    filled = empty.added([1, 2, 3])
    assert len(filled.bits) * 8 == Archive.BITS and not empty.bits  # the empty one is unchanged
    with pytest.raises(ValueError):
        Archive.unpack(3, empty.pack())  # keys archived without their filter: unusable, never "absent"
    with pytest.raises(ValueError):
        Archive.unpack(3, filled.pack()[:-8])
