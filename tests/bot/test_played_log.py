"""The played steps of a match: a persistent sequence stored by column, keeping events only for
the recent steps."""

from __future__ import annotations

from bot.match.played import EVENTS_KEPT, Played, PlayedLog
from engine.api import EndingKind


def step(seq: int, *, seat: str = "red", user: int | None = 7, ending: EndingKind | None = None) -> Played:
    return Played(seq, seat, user, None if ending else f"a{seq}", (f"event {seq}",), ending, None)


def test_a_log_reads_back_what_was_appended_endings_and_computer_seats_included() -> None:
    items = [step(1), step(2, seat="blue", user=None), step(3, ending=EndingKind.RESIGNATION)]
    log = PlayedLog.of(items)
    assert list(log) == items and log[-1] == items[2] and log[0:2] == items[:2] and len(log) == 3


def test_appending_to_an_earlier_state_branches_without_changing_the_longer_one() -> None:
    longer = PlayedLog.of([step(1), step(2), step(3)])
    shorter = longer.dropped_last()  # an undo
    branch = shorter.appended(step(9, seat="blue"))
    assert [p.seq for p in branch] == [1, 2, 9]
    assert [p.seq for p in longer] == [1, 2, 3]
    assert [p.seq for p in shorter.appended(step(10))] == [1, 2, 10]


def test_only_the_recent_steps_keep_their_events() -> None:
    log = PlayedLog.of([step(n) for n in range(1, EVENTS_KEPT + 11)])
    assert [p.events for p in log[:10]] == [None] * 10
    assert all(p.events for p in log[10:]) and len(log[10:]) == EVENTS_KEPT
    assert [p.action for p in log[:2]] == ["a1", "a2"]  # the steps themselves are all kept
