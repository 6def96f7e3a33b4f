"""Knockout: a valid seeded bracket, drawn games replayed with sides swapped, walkovers."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournament import Event, EventState, Format, Plan, Result, Table, Waiting, advance, apply, standings
from bot.tournament.knockout import bracket, rounds_in, seeding_order

from .helpers import better_seed_wins, entrants, play

CI = settings(derandomize=True, max_examples=40, deadline=None, database=None)


def test_standard_seeding_order() -> None:
    assert seeding_order(2) == [1, 2]
    assert seeding_order(4) == [1, 4, 2, 3]
    assert seeding_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert seeding_order(16) == [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]


@CI
@given(st.integers(2, 40), st.integers(0, 30), st.data())
def test_the_bracket_is_valid_and_produces_one_champion(count: int, seed: int, data: st.DataObject) -> None:
    event = Event(Format.KNOCKOUT, entrants(count), seed=seed)
    places = bracket(EventState(event))
    size = len(places)
    assert size & (size - 1) == 0 and size // 2 < count <= size
    assert sorted(p for p in places if p is not None) == list(range(1, count + 1))
    # Byes fall to the top seeds, one each, and never two byes meet.
    pairs = [places[i : i + 2] for i in range(0, size, 2)]
    with_bye = sorted(p[0] if p[1] is None else p[1] for p in pairs if None in p)
    assert with_bye == list(range(1, size - count + 1))
    # The two top seeds are in opposite halves; the top four in different quarters.
    assert (places.index(1) < size // 2) != (places.index(2) < size // 2)
    if count >= 4:
        assert len({places.index(s) * 4 // size for s in (1, 2, 3, 4)}) == 4

    def decide(table: Table) -> Result:
        return data.draw(st.sampled_from([Result((1, 2)), Result((2, 1)), Result((1, 1))]))

    state, finished = play(event, decide)
    assert len(finished.winners) == 1
    for row in state.rounds:
        per_board = Counter(t.board for t in row.tables)
        assert all(n <= event.knockout_games for n in per_board.values())
    table = standings(state)
    assert len(state.rounds) == rounds_in(count)
    assert sum(1 for s in table if s.eliminated is None) == 1  # only the champion was never knocked out
    assert table[0].entrant == finished.winners[0] and table[0].place == 1


def test_seeds_go_through_when_the_better_seed_always_wins() -> None:
    state, finished = play(Event(Format.KNOCKOUT, entrants(8)), better_seed_wins)
    assert finished.winners == (1,)
    final = state.rounds[-1].tables
    assert sorted(final[0].entrants) == [1, 2]
    semis = sorted(tuple(sorted(t.entrants)) for t in state.rounds[1].tables)
    assert semis == [(1, 4), (2, 3)]
    places = {s.entrant: s.place for s in standings(state)}
    assert places == {1: 1, 2: 2, 3: 3, 4: 3, 5: 5, 6: 5, 7: 5, 8: 5}


def test_a_drawn_game_is_replayed_at_once_with_sides_swapped() -> None:
    state = EventState(Event(Format.KNOCKOUT, entrants(4)))
    step = advance(state)
    assert isinstance(step, Plan)
    state = apply(state, step)
    drawn, other = step.tables
    state = state.with_results({drawn: Result((1, 1))})
    replay = advance(state)  # the other game is still running: the replay does not wait for it
    assert isinstance(replay, Plan) and replay.round == 1
    (again,) = replay.tables
    assert again.sides == tuple(reversed(drawn.sides)) and (again.board, again.game) == (drawn.board, 2)
    state = apply(state, replay)
    assert isinstance(advance(state), Waiting)
    state = state.with_results({other: Result((1, 2)), again: Result((2, 1))})  # the second mover wins the replay
    final = advance(state)
    assert isinstance(final, Plan) and final.round == 2
    assert again.sides[1][0] in final.tables[0].entrants


def test_after_every_game_drawn_the_better_seed_goes_through() -> None:
    event = Event(Format.KNOCKOUT, entrants(2), knockout_games=3)
    state, finished = play(event, lambda table: Result((1, 1)))
    assert [t.game for t in state.rounds[0].tables] == [1, 2, 3]
    sides = [t.sides for t in state.rounds[0].tables]
    assert sides[1] == tuple(reversed(sides[0])) and sides[2] == sides[0]
    assert finished.winners == (1,)


def test_a_withdrawn_player_gives_a_walkover() -> None:
    # Entrant 1 wins round one, then leaves before the final is paired: 2 wins the final by walkover.
    event = Event(Format.KNOCKOUT, entrants(4))
    state = EventState(event)
    step = advance(state)
    assert isinstance(step, Plan)
    state = apply(state, step).with_results({t: better_seed_wins(t) for t in step.tables})
    state = state.with_withdrawal(1)
    final = advance(state)
    assert isinstance(final, Plan) and not final.tables
    ((table, result),) = final.forfeits
    assert result.forfeit and table.sides[result.ranks.index(1)] == (2,)
    state = apply(state, final)
    finished = advance(state)
    assert finished.__class__.__name__ == "Finished" and finished.winners == (2,)  # type: ignore[union-attr]
