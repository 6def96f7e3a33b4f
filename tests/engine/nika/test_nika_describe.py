"""describe_events: one line a player can read, from the events of an action."""

from __future__ import annotations

import pytest
from nika_scenarios import START, events, play

from engine.nika import Drawn, Pass, describe_events, parse_action


@pytest.mark.parametrize(
    ("position", "action", "summary"),
    [
        ("A:f5w S:d5e,d6e,e5e,e6e M:f6n T:- S2", "advance d5,d6,e5,e6",
         "Sparta advanced d5,d6,e5,e6: pushed Athens' f5 to g5; routed Messene's f6"),
        ("A:g5w S:d5e,e5e,f5e,i5n M:h5e T:- S2", "advance d5,e5,f5",
         "Sparta advanced d5,e5,f5: pushed Athens' g5 to h5; pushed Messene's h5 into i5, routing it"),
        ("A:g5w,h5e S:d5e,e5e,f5e M:- T:- S2", "advance d5,e5,f5",
         "Sparta advanced d5,e5,f5: pushed Athens' g5 to h5, Athens' h5 to i5"),
        ("A:k4n,k5n S:- M:- T:- A2", "advance k4,k5", "Athens advanced k4,k5"),
        (START, "move j6 w", "Athens moved j6 to i6"),
        ("A:k5n S:- M:- T:k6e A2", "move k5 n", "Athens moved k5 to k6, routing Thebes' k6"),
        ("A:- S:- M:- T:q7s,r7s T2", "rotate q7,r7 w", "Thebes rotated q7,r7 to face west"),
        ("A:- S:- M:- T:- M2", "rally k14 s", "Messene rallied on k14 facing south"),
        (START.replace(" A2", " S2"), "pass", "Sparta passed"),
        ("A:k12n S:- M:- T:- A2", "move k12 n", "Athens moved k12 to k13 — Athens–Messene win!"),
        ("A:p8e,q8e S:r8w M:- T:- A2", "advance p8,q8",
         "Athens advanced p8,q8: pushed Sparta's r8 to s8 — Sparta–Thebes win!"),
    ],
)  # fmt: skip
def test_summaries(position, action, summary):
    assert describe_events(events(position, action)) == summary


def test_a_draw_is_appended():
    state = play(START, "rotate k5 e", "rotate k5 n", *["pass"] * 6, "rotate k5 e", "rotate k5 n", *["pass"] * 5)
    _, happened = state.apply(Pass())
    assert describe_events(happened) == "Thebes passed — draw: the same position occurred three times"
    state = play(START, *["pass"] * 7)
    _, happened = state.apply(Pass())
    assert describe_events(happened) == "Thebes passed — draw: four city turns in a row passed both actions"


def test_the_events_of_several_actions_are_described_in_order():
    state = play("A:k5n S:- M:- T:- A2")
    state, first = state.apply(parse_action("rotate k5 e"))
    _, second = state.apply(parse_action("move k5 n"))
    assert describe_events([*first, *second]) == "Athens rotated k5 to face east; then Athens moved k5 to k6"


def test_no_events_describe_nothing():
    assert describe_events([]) == ""


def test_an_ending_alone_is_still_a_sentence():
    assert describe_events([Drawn("repetition")]) == "Draw: the same position occurred three times"
