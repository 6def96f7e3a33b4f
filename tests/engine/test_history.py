"""The repetition history shared by Nika and Pikemen: keys counted per line of play, however
the line branches, and packed into text for a snapshot without loss."""

from __future__ import annotations

from array import array

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.history import History, pack, unpack


def line(keys: list[int]) -> tuple[History, int]:
    history = History(keys[:1])
    for length, key in enumerate(keys[1:], start=1):
        history = history.extended(length, key)
    return history, len(keys)


def test_each_state_counts_only_its_own_prefix() -> None:
    history, length = line([1, 2, 1, 3, 1])
    assert history.count(1, length) == 3 and history.count(1, 3) == 2 and history.count(3, 3) == 0


def test_a_branch_counts_its_own_line_and_leaves_the_other_alone() -> None:
    history, _ = line([1, 2, 3, 4])
    branch = history.extended(2, 9)  # after 1, 2: a different third position
    assert list(branch.prefix(3)) == [1, 2, 9] and list(history.prefix(4)) == [1, 2, 3, 4]
    assert branch.count(3, 3) == 0 and history.count(9, 4) == 0


def test_deep_branching_is_flattened_and_still_counts_right() -> None:
    history, length = line([5])
    for step in range(3 * History.MAX_DEPTH):  # every step branches, as a search does
        history.extended(length, -1)  # a sibling first, so the next one must branch
        history = history.extended(length, step % 4)
        length += 1
    assert history.depth <= History.MAX_DEPTH
    expected = [5, *(step % 4 for step in range(3 * History.MAX_DEPTH))]
    keys = history.prefix(length)  # flattened: settled, so sorted but for the newest
    assert sorted(keys) == sorted(expected) and keys[-1] == expected[-1]
    assert history.count(2, length) == expected.count(2)


def test_a_long_line_counts_by_binary_search_and_keeps_a_few_recent_keys_to_scan() -> None:
    keys = [n % 1000 for n in range(20_000)]  # every key 20 times
    history, length = line(keys)
    assert len(history.keys) <= History.SETTLE and history.parent is None
    assert all(history.count(k, length) == 20 for k in (0, 1, 999))
    assert history.count(1000, length) == 0
    assert sorted(history.prefix(length)) == sorted(keys) and history.prefix(length)[-1] == keys[-1]


@settings(derandomize=True, max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(min_value=0, max_value=10**6), st.integers(0, 4)), min_size=30, max_size=120))
def test_any_tree_of_lines_counts_as_if_every_state_kept_its_own_list(steps: list[tuple[int, int]]) -> None:
    """Each step extends some earlier state (mostly the newest, as play does; sometimes an older
    one, as an undo or a search does) by a key; every state then counts exactly its own line,
    settled parts and flattened branches included."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(History, "SETTLE", 3)
        patch.setattr(History, "MAX_DEPTH", 4)
        states: list[tuple[History, int, list[int]]] = [(History([0]), 1, [0])]
        for pick, key in steps:
            history, length, keys = states[-1] if pick % 3 else states[pick % len(states)]
            states.append((history.extended(length, key), length + 1, [*keys, key]))
            for history, length, keys in states[-1:] + states[pick % len(states) :: 7]:
                assert [history.count(k, length) for k in range(5)] == [keys.count(k) for k in range(5)]
                prefix = history.prefix(length)
                assert sorted(prefix) == sorted(keys) and prefix[-1] == keys[-1]


def test_a_history_from_keys_counts_them_in_any_order() -> None:
    history = History.of(array("q", [3, 1, 3, 2]))
    assert history.count(3, 4) == 2 and history.count(2, 4) == 1
    assert history.prefix(4)[-1] == 2
    longer = history.extended(4, 3)
    assert longer.count(3, 5) == 3 and history.count(3, 4) == 2


@settings(derandomize=True, max_examples=60, deadline=None)
@given(st.lists(st.integers(min_value=-(2**63), max_value=2**63 - 1), max_size=50))
def test_packed_keys_unpack_to_the_same_keys(keys: list[int]) -> None:
    assert list(unpack(pack(array("q", keys)))) == keys


def test_text_that_is_not_packed_keys_is_refused() -> None:
    with pytest.raises(ValueError):
        unpack("not base64!")
    with pytest.raises(ValueError):
        unpack("AAA=")  # two bytes: not a whole 64-bit key
