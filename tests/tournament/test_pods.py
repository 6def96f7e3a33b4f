"""Pods: tables of three or four, or teams of two, regrouped by standing every round."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

from bot.tournament import Event, EventState, Finished, Format, Plan, PodShape, Result, advance, apply, standings
from bot.tournament.pods import BYE_POINTS, layout
from bot.tournament.records import records

from .helpers import better_seed_wins, entrants, play

FFA4 = PodShape.free_for_all(4)
FFA3 = PodShape.free_for_all(3)
TEAMS = PodShape.teams()


@pytest.mark.parametrize(("count", "pod", "tables", "byes"), [
    (4, FFA4, [4], 0), (5, FFA4, [3, 2], 0), (6, FFA4, [3, 3], 0), (7, FFA4, [4, 3], 0), (8, FFA4, [4, 4], 0),
    (9, FFA4, [3, 3, 3], 0), (10, FFA4, [4, 3, 3], 0), (11, FFA4, [4, 4, 3], 0), (13, FFA4, [4, 3, 3, 3], 0),
    (3, FFA3, [3], 0), (4, FFA3, [4], 0), (5, FFA3, [3, 2], 0), (7, FFA3, [4, 3], 0), (2, FFA3, [2], 0),
    (4, TEAMS, [4], 0), (5, TEAMS, [4], 1), (6, TEAMS, [4, 2], 0), (7, TEAMS, [4, 2], 1), (9, TEAMS, [4, 4], 1),
    (1, FFA4, [], 1),
])  # fmt: skip
def test_uneven_counts_use_smaller_tables_then_byes(count: int, pod: PodShape, tables: list[int], byes: int) -> None:
    shapes, sitting = layout(count, pod)
    assert sorted((sum(s) for s in shapes), reverse=True) == tables and sitting == byes


def team_event(count: int, rounds: int = 3) -> Event:
    return Event(Format.PODS, entrants(count), seed=1, rounds=rounds, pod=TEAMS)


def test_four_player_free_for_all_pods_from_sign_up_to_winners() -> None:
    event = Event(Format.PODS, entrants(8), seed=3, rounds=3, pod=FFA4)
    state, finished = play(event, better_seed_wins)
    assert finished.winners == (1,)
    for round_ in state.rounds:
        assert [len(t.sides) for t in round_.tables] == [4, 4]
        assert all(len(side) == 1 for t in round_.tables for side in t.sides)
    # After round one the leaders play together: each first-round winner is at the top table.
    first = state.rounds[0].tables
    winners = {min(t.entrants) for t in first}
    table = standings(EventState(event, state.rounds[:1], state.results))
    assert {s.entrant for s in table[:2]} == winners
    assert winners <= set(state.rounds[1].tables[0].entrants)
    # Points: a four-player game scores 1, ⅔, ⅓, 0 by place.
    assert standings(state)[0].points == 3


def test_nika_style_team_pods_draw_fresh_teams_each_round() -> None:
    state, finished = play(team_event(8, rounds=3), better_seed_wins)
    partners = Counter()
    for round_ in state.rounds:
        assert all(len(t.sides) == 2 and all(len(side) == 2 for side in t.sides) for t in round_.tables)
        for table in round_.tables:
            for side in table.sides:
                partners[frozenset(side)] += 1
    assert max(partners.values()) == 1  # nobody has the same partner twice in three rounds
    assert finished.winners


def test_team_pods_with_an_uneven_count_play_one_against_one_and_give_half_point_byes() -> None:
    state, _ = play(team_event(7, rounds=4), better_seed_wins)
    found = records(state)
    for round_ in state.rounds:
        sizes = sorted(len(t.entrants) for t in round_.tables)
        assert sizes == [2, 4] and len(round_.byes) == 1
        assert round_.byes[0].points == BYE_POINTS == Fraction(1, 2)
    assert max(len(r.byes) for r in found.values()) == 1  # four byes, four different players


def test_a_withdrawn_player_is_regrouped_no_more() -> None:
    event = Event(Format.PODS, entrants(9), seed=2, rounds=3, pod=FFA3)
    state, _ = play(event, better_seed_wins, withdraw={5: 1})
    assert all(5 not in t.entrants for r in state.rounds[1:] for t in r.tables)
    assert [sorted(len(t.entrants) for t in r.tables) for r in state.rounds[1:]] == [[4, 4], [4, 4]]


def test_seats_rotate_so_nobody_always_moves_first() -> None:
    state, _ = play(Event(Format.PODS, entrants(4), seed=5, rounds=4, pod=FFA4), better_seed_wins)
    first = Counter(t.entrants[0] for r in state.rounds for t in r.tables)
    assert sorted(first.values()) == [1, 1, 1, 1]


def test_pods_are_deterministic_given_the_seed() -> None:
    def run(seed: int) -> list[tuple[int, ...]]:
        state, _ = play(Event(Format.PODS, entrants(10), seed=seed, rounds=3, pod=FFA4), better_seed_wins)
        return [t.entrants for r in state.rounds for t in r.tables]

    assert run(4) == run(4)
    assert run(4) != run(5)


def test_results_name_places_for_every_side() -> None:
    state = EventState(Event(Format.PODS, entrants(4), rounds=1, pod=FFA4))
    step = advance(state)
    assert isinstance(step, Plan)
    (table,) = step.tables
    state = apply(state, step).with_results({table: Result((2, 1, 4, 3))})
    points = {s.entrant: s.points for s in standings(state)}
    assert sorted(points.values()) == [0, Fraction(1, 3), Fraction(2, 3), 1]
    assert points[table.sides[1][0]] == 1
    assert isinstance(advance(state), Finished)
