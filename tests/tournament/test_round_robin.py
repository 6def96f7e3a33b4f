"""Round robin: every pair meets (twice, sides swapped, when double), sides stay balanced, and
withdrawals leave a fair table."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournament import Event, EventState, Format, Plan, Result, advance, apply, standings
from bot.tournament.records import records
from bot.tournament.round_robin import numbered, rounds_in, schedule

from .helpers import better_seed_wins, entrants, first_wins, play

CI = settings(derandomize=True, max_examples=40, deadline=None, database=None)


@CI
@given(st.integers(2, 16), st.booleans(), st.integers(0, 50))
def test_everyone_meets_everyone_with_sides_balanced_after_every_round(count: int, double: bool, seed: int) -> None:
    event = Event(Format.ROUND_ROBIN, entrants(count), seed=seed, double=double)
    state, _ = play(event, first_wins)
    assert len(state.rounds) == rounds_in(event) == (count - 1 + count % 2) * (2 if double else 1)
    games = Counter((t.sides[0][0], t.sides[1][0]) for r in state.rounds for t in r.tables)
    pairs = Counter(frozenset(pair) for pair in games.elements())
    assert set(pairs) == {frozenset((a, b)) for a in range(1, count + 1) for b in range(a + 1, count + 1)}
    assert set(pairs.values()) == {2 if double else 1}
    if double:  # the second meeting swaps the sides
        assert all(games[(b, a)] == 1 for a, b in games)
    # Firsts and seconds within one after every round, never three alike in a row.
    sides: dict[int, list[int]] = {e: [] for e in range(1, count + 1)}
    for round_ in state.rounds:
        for table in round_.tables:
            sides[table.sides[0][0]].append(0)
            sides[table.sides[1][0]].append(1)
        assert all(abs(s.count(0) - s.count(1)) <= 1 for s in sides.values())
    assert all("000" not in "".join(map(str, s)) and "111" not in "".join(map(str, s)) for s in sides.values())
    if double:
        assert all(s.count(0) == s.count(1) for s in sides.values())
    # An odd count: everyone sits out exactly once per cycle, and it scores nothing.
    byes = Counter(b.entrant for r in state.rounds for b in r.byes)
    if count % 2:
        assert byes == Counter(dict.fromkeys(range(1, count + 1), 2 if double else 1))
        assert all(b.points == 0 for r in state.rounds for b in r.byes)
    else:
        assert not byes


def test_each_round_is_one_game_each_and_numbers_are_drawn_by_lot() -> None:
    rounds = schedule(tuple(range(1, 7)))
    for pairs in rounds:
        assert sorted(e for pair in pairs for e in pair if e is not None) == [1, 2, 3, 4, 5, 6]
    assert numbered(Event(Format.ROUND_ROBIN, entrants(6), seed=1)) != numbered(
        Event(Format.ROUND_ROBIN, entrants(6), seed=2))  # fmt: skip
    assert numbered(Event(Format.ROUND_ROBIN, entrants(6), seed=1)) == numbered(
        Event(Format.ROUND_ROBIN, entrants(6), seed=1))  # fmt: skip


def test_the_next_round_waits_for_every_game() -> None:
    state = EventState(Event(Format.ROUND_ROBIN, entrants(4)))
    step = advance(state)
    assert isinstance(step, Plan) and step.round == 1 and len(step.tables) == 2
    state = apply(state, step)
    state = state.with_results({step.tables[0]: Result((1, 2))})
    assert advance(state).__class__.__name__ == "Waiting"
    state = state.with_results({step.tables[1]: Result((1, 1))})
    assert isinstance(next_step := advance(state), Plan) and next_step.round == 2


def test_a_withdrawal_forfeits_the_games_left_and_keeps_those_played() -> None:
    # Entrant 2 leaves after round 2 is paired: that game is resigned, the rest are forfeits.
    event = Event(Format.ROUND_ROBIN, entrants(6), seed=7)
    state, finished = play(event, better_seed_wins, withdraw={2: 2})
    found = records(state)
    played = [g for g in found[2].games if not g.forfeit]
    forfeited = [g for g in found[2].games if g.forfeit]
    assert len(played) == 2 and len(forfeited) == 3
    assert all(g.points == 0 for g in forfeited)
    # Everyone else still has five games, so the table stays fair.
    assert all(len(found[e].games) == 5 for e in (1, 3, 4, 5, 6))
    # Forfeits never count for sides: the forfeit games are no games over the board.
    assert all(len(found[e].sides) == len([g for g in found[e].games if not g.forfeit]) for e in found)
    table = standings(state)
    assert next(s for s in table if s.entrant == 2).withdrawn
    assert finished.winners == (1,)
