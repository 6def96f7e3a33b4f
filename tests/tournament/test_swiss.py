"""Swiss pairing: properties checked on random events against an exhaustive search, and the
rules an arbiter would check by eye."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournament import Event, EventState, Format, Plan, Result, advance, apply
from bot.tournament.records import records
from bot.tournament.swiss import Player, can_balance, can_meet, pair, players_of

from .helpers import entrants, first_wins, play

CI = settings(derandomize=True, max_examples=60, deadline=None, database=None)
OUTCOMES = (Result((1, 2)), Result((2, 1)), Result((1, 1)))


def matchings(players: list[int]) -> Iterator[list[tuple[int, int | None]]]:
    """Every way to pair `players` (None: the bye, for an odd count)."""
    if not players:
        yield []
        return
    if len(players) % 2:
        for i, bye in enumerate(players):
            rest = players[:i] + players[i + 1 :]
            for m in matchings(rest):
                yield [(bye, None), *m]
        return
    first, rest = players[0], players[1:]
    for i, other in enumerate(rest):
        for m in matchings(rest[:i] + rest[i + 1 :]):
            yield [(first, other), *m]


def faults(pairing: list[tuple[int, int | None]], by_id: dict[int, Player]) -> tuple[int, int, int, int, int]:
    """(second byes while someone has fewer, rematches, games breaking the absolute side limits,
    sum of squared score differences in half points, games leaving sides more than one apart):
    what the pairing must keep as low as possible, in that order."""
    fewest = min(p.byes for p in by_id.values())
    lowest = min(p.score for p in by_id.values())
    byes = rematches = beyond = spread = imbalance = 0
    for a, b in pairing:
        pa = by_id[a]
        if b is None:
            byes += pa.byes > fewest
            spread += int((pa.score - lowest) * 2 + 1) ** 2
            continue
        pb = by_id[b]
        rematches += b in pa.met
        beyond += not can_meet(pa, pb)
        spread += int((pa.score - pb.score) * 2) ** 2
        imbalance += not can_balance(pa, pb)
    return byes, rematches, beyond, spread, imbalance


@st.composite
def swiss_histories(draw: st.DrawFn) -> tuple[EventState, int]:
    """A Swiss event of 2–9 players part-way through (random results, perhaps a withdrawal),
    and the number of the round to pair next."""
    count = draw(st.integers(2, 9))
    rounds = draw(st.integers(1, count + 1))  # sometimes more rounds than opponents
    state = EventState(Event(Format.SWISS, entrants(count), seed=draw(st.integers(0, 9)), rounds=rounds))
    leaver = draw(st.sampled_from([None, *range(1, count + 1)]))
    leaves_after = draw(st.integers(1, rounds))
    for _ in range(draw(st.integers(0, rounds - 1))):
        step = advance(state)
        if not isinstance(step, Plan):
            break
        state = apply(state, step)
        state = state.with_results({t: draw(st.sampled_from(OUTCOMES)) for t in step.tables})
        if leaver is not None and step.round == leaves_after and len(state.active(step.round + 1)) > 2:
            state = state.with_withdrawal(leaver)
    return state, len(state.rounds) + 1


@CI
@given(swiss_histories())
def test_each_round_is_as_good_as_any_pairing_can_be(history: tuple[EventState, int]) -> None:
    """No second bye while avoidable, then no rematch while avoidable, then no side beyond the
    absolute limits while avoidable, then the closest scores, then sides within one while
    avoidable: exactly the best of every possible pairing."""
    state, number = history
    players = players_of(state, number)
    if len(players) < 2:
        return
    by_id = {p.id: p for p in players}
    result = pair(players, lot=0)
    chosen: list[tuple[int, int | None]] = [(a, b) for a, b in result.boards]
    if result.bye is not None:
        chosen.append((result.bye, None))
    assert sorted(e for pair_ in chosen for e in pair_ if e is not None) == sorted(by_id)
    best = min(faults(m, by_id) for m in matchings(sorted(by_id)))
    assert faults(chosen, by_id) == best


@CI
@given(st.integers(2, 10), st.integers(0, 20), st.data())
def test_whole_events_keep_the_arbiters_rules(count: int, seed: int, data: st.DataObject) -> None:
    """Through whole events (looking a round ahead): every round avoids second byes, rematches
    and sides beyond the absolute limits whenever any pairing of that round could; with no more
    rounds than half the field there is no rematch and nobody is more than two sides apart."""
    rounds = data.draw(st.integers(1, max(1, count - 1)))
    state = EventState(Event(Format.SWISS, entrants(count), seed=seed, rounds=rounds))
    while isinstance(step := advance(state), Plan):
        players = players_of(state, step.round)
        by_id = {p.id: p for p in players}
        chosen: list[tuple[int, int | None]] = [*step_pairs(step), *((b.entrant, None) for b in step.byes)]
        best = min(faults(m, by_id)[:3] for m in matchings(sorted(by_id)))
        assert faults(chosen, by_id)[:3] == best
        state = apply(state, step)
        state = state.with_results({t: data.draw(st.sampled_from(OUTCOMES)) for t in step.tables})
    found = records(state)
    assert all(len(r.byes) <= 1 for r in found.values())
    if rounds <= count // 2:
        assert all(abs(r.colour_balance) <= 2 for r in found.values())
        meetings = Counter(frozenset(t.entrants) for r in state.rounds for t in r.tables)
        assert max(meetings.values()) == 1
    assert len(state.rounds) == rounds


def test_round_one_pairs_the_top_half_against_the_bottom_half() -> None:
    state = EventState(Event(Format.SWISS, entrants(8), seed=3, rounds=3))
    step = advance(state)
    assert isinstance(step, Plan)
    assert [tuple(sorted(t.entrants)) for t in step.tables] == [(1, 5), (2, 6), (3, 7), (4, 8)]
    # Sides alternate down the boards from a side drawn by lot.
    firsts = [t.sides[0][0] in (1, 2, 3, 4) for t in step.tables]
    assert firsts in ([True, False, True, False], [False, True, False, True])


def test_the_bye_goes_to_the_lowest_player_of_the_lowest_group_and_scores_one() -> None:
    state = EventState(Event(Format.SWISS, entrants(5), seed=1, rounds=3))
    step = advance(state)
    assert isinstance(step, Plan) and [b.entrant for b in step.byes] == [5]
    assert step.byes[0].points == Fraction(1)
    state = apply(state, step)
    state = state.with_results({t: first_wins(t) for t in step.tables})
    step = advance(state)
    assert isinstance(step, Plan)
    (bye,) = step.byes
    scores = {r.entrant: r.points for r in records(state).values()}
    assert bye.entrant != 5 and scores[bye.entrant] == min(s for e, s in scores.items() if e != 5)


def test_winners_meet_winners_in_round_two_even_when_all_moved_first() -> None:
    """Score groups come before sides within one: when every round-one winner moved first, two
    of them still meet (one moves first again), rather than meeting losers."""
    state = EventState(Event(Format.SWISS, entrants(8), seed=0, rounds=3))
    step = advance(state)
    assert isinstance(step, Plan)
    state = apply(state, step).with_results({t: first_wins(t) for t in step.tables})
    winners = {t.sides[0][0] for t in step.tables}
    step = advance(state)
    assert isinstance(step, Plan)
    for table in step.tables:
        assert (table.entrants[0] in winners) == (table.entrants[1] in winners)


def test_a_withdrawn_player_is_not_paired_again_and_keeps_their_results() -> None:
    state, finished = play(Event(Format.SWISS, entrants(7), seed=2, rounds=4), first_wins, withdraw={3: 2})
    later = [t for r in state.rounds if r.number > 2 for t in r.tables]
    assert later and all(3 not in t.entrants for t in later)
    assert all(b.entrant != 3 for r in state.rounds if r.number > 2 for b in r.byes)
    assert len(records(state)[3].games) == 2  # the two games played stand
    assert finished.winners


def test_the_sparse_graph_of_large_rounds_keeps_every_rule() -> None:
    """Above the complete graph's size a sparse graph is tried first; its pairing must keep the
    rules and agree with the complete graph on them."""
    state = EventState(Event(Format.SWISS, entrants(61), seed=5, rounds=5))
    outcomes = iter(OUTCOMES * 200)
    while isinstance(step := advance(state), Plan):
        players = players_of(state, step.round)
        by_id = {p.id: p for p in players}
        chosen: list[tuple[int, int | None]] = [*step_pairs(step), *((b.entrant, None) for b in step.byes)]
        complete = pair(players, complete=True)
        reference: list[tuple[int, int | None]] = [*complete.boards, (complete.bye, None)]
        assert faults(chosen, by_id)[:3] == faults(reference, by_id)[:3] == (0, 0, 0)
        state = apply(state, step).with_results({t: next(outcomes) for t in step.tables})


def step_pairs(step: Plan) -> list[tuple[int, int | None]]:
    return [(t.sides[0][0], t.sides[1][0]) for t in step.tables]


def test_pairing_is_deterministic() -> None:
    def run() -> list[tuple[int, ...]]:
        state, _ = play(Event(Format.SWISS, entrants(9), seed=4, rounds=4), first_wins)
        return [t.entrants for r in state.rounds for t in r.tables]

    assert run() == run()
