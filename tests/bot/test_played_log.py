"""The played steps of a match: a persistent sequence stored by column that keeps only the recent
steps (with their events) and every ending, and the whole list rebuilt from the log."""

from __future__ import annotations

import pytest

from bot.match.played import KEPT, NotKept, Played, PlayedLog, steps_from_log
from engine.api import EndingKind


def step(seq: int, *, seat: str = "red", user: int | None = 7, ending: EndingKind | None = None) -> Played:
    return Played(seq, seat, user, None if ending else f"a{seq}", (f"event {seq}",), ending, None)


def test_a_log_reads_back_what_was_appended_endings_and_computer_seats_included() -> None:
    items = [step(1), step(2, seat="blue", user=None), step(3, ending=EndingKind.RESIGNATION)]
    log = PlayedLog.of(items)
    assert list(log) == items and log[-1] == items[2] and log[0:2] == items[:2] and len(log) == 3
    assert log.complete and [e.seq for e in log.endings] == [3]


def test_appending_to_an_earlier_state_branches_without_changing_the_longer_one() -> None:
    longer = PlayedLog.of([step(1), step(2), step(3)])
    shorter = longer.dropped_last()  # an undo
    branch = shorter.appended(step(9, seat="blue"))
    assert [p.seq for p in branch] == [1, 2, 9]
    assert [p.seq for p in longer] == [1, 2, 3]
    assert [p.seq for p in shorter.appended(step(10))] == [1, 2, 10]


def test_a_long_log_keeps_its_length_its_recent_steps_with_their_events_and_every_ending() -> None:
    log = PlayedLog()
    for n in range(1, 10 * KEPT + 1):
        log = log.appended(step(n, ending=EndingKind.TIMEOUT if n in (5, 300) else None))
        assert len(log) - log.first_kept >= min(n, KEPT)  # never fewer than KEPT recent steps
        assert len(log) - log.first_kept <= 2 * KEPT  # nor more than twice as many
    assert len(log) == 10 * KEPT and not log.complete
    assert [p.seq for p in log[-KEPT:]] == list(range(9 * KEPT + 1, 10 * KEPT + 1))
    assert all(p.events for p in log[-KEPT:])
    assert [(e.seq, e.ending) for e in log.endings] == [(5, EndingKind.TIMEOUT), (300, EndingKind.TIMEOUT)]
    with pytest.raises(NotKept):
        log[0]
    with pytest.raises(NotKept):
        list(log)  # the whole list is the log's to give (steps_from_log)
    undone = log.dropped_last().appended(step(9999))  # an undo, then another action
    assert len(undone) == len(log) and undone[-1].seq == 9999 and undone[-2] == log[-2]
    assert len(undone) - undone.first_kept >= KEPT - 1


def test_only_the_last_kept_steps_keep_their_events() -> None:
    log = PlayedLog.of([step(n) for n in range(1, KEPT + 11)])
    kept = log.kept()
    assert [p.events for p in kept[: len(kept) - KEPT]] == [None] * (len(kept) - KEPT)
    assert all(p.events for p in kept[-KEPT:])


def rows(*entries: tuple[int, str, str | None]) -> list[tuple[int, str, str | None, int | None, str | None]]:
    """Log entries (seq, kind, seat) by user 7, an action's text being `a<seq>`."""
    return [(seq, kind, seat, 7, f"a{seq}" if kind == "action" else None) for seq, kind, seat in entries]


def test_the_whole_list_is_rebuilt_from_the_log_undos_endings_and_proposals_included() -> None:
    log = PlayedLog()
    entries = []
    seq = 0
    for n in range(3 * KEPT):
        seq += 1
        entries += rows((seq, "action", "red"))
        log = log.appended(step(seq))
        if n % 7 == 3:  # taken back, and played again otherwise
            seq += 1
            entries += rows((seq, "undo", "red"))
            log = log.dropped_last()
        if n == 40:  # a draw offer declined, then a departure (an ending decided off the board)
            entries += rows(
                (seq + 1, "draw_offer", "red"), (seq + 2, "draw_decline", "blue"), (seq + 3, "resign", "blue")
            )
            seq += 3
            log = log.appended(step(seq, seat="blue", ending=EndingKind.RESIGNATION))
    assert not log.complete
    steps = steps_from_log(entries, log)
    assert len(steps) == len(log) and steps[-KEPT:] == log[-KEPT:]
    assert [p.step for p in steps if p.action is None] == [e.step for e in log.endings]
    assert [p.seq for p in steps] == sorted(p.seq for p in steps)
    # Replaying what the log says by hand gives the same steps.
    expected: list[int] = []
    for s, kind, *_ in entries:
        if kind == "undo":
            expected.pop()
        elif kind == "action" or s == log.endings[0].seq:
            expected.append(s)
    assert [p.seq for p in steps] == expected


def test_a_log_that_does_not_give_the_match_s_steps_is_refused() -> None:
    log = PlayedLog.of([step(1), step(2)])
    with pytest.raises(ValueError, match="gives 1 steps"):
        steps_from_log(rows((1, "action", "red"), (2, "action", "red"), (3, "undo", "red")), log)
    with pytest.raises(ValueError, match="not the match's"):
        steps_from_log(rows((1, "action", "red"), (2, "action", "blue")), log)
    with pytest.raises(ValueError, match="takes back no action"):
        steps_from_log(rows((1, "undo", "red")), log)
