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
    assert list(history.prefix(length)) == expected
    assert history.count(2, length) == expected.count(2)


@settings(derandomize=True, max_examples=60, deadline=None)
@given(st.lists(st.integers(min_value=-(2**63), max_value=2**63 - 1), max_size=50))
def test_packed_keys_unpack_to_the_same_keys(keys: list[int]) -> None:
    assert list(unpack(pack(array("q", keys)))) == keys


def test_text_that_is_not_packed_keys_is_refused() -> None:
    with pytest.raises(ValueError):
        unpack("not base64!")
    with pytest.raises(ValueError):
        unpack("AAA=")  # two bytes: not a whole 64-bit key
