"""OpenSkill ratings: recomputed deterministically from ordered results; sensible for one
against one, teams and free-for-alls; today's stored results convert and recompute."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.ratings import PROVISIONAL_MATCHES, RatedResult, Rating, ranked, rated_result, rated_results, recompute
from bot.ratings.present import history_chart, shown
from engine.registry import get_game

CI = settings(derandomize=True, max_examples=40, deadline=None, database=None)


def duel(match_id: int, winner: int, loser: int) -> RatedResult:
    return RatedResult(match_id, ((winner,), (loser,)), (1, 2))


def test_a_newcomer_shows_1000_and_is_provisional() -> None:
    assert Rating().display == 1000
    table = recompute([duel(1, 1, 2)])
    assert table[1].provisional and table[1].matches == 1


def test_the_written_start_values_are_the_models_own() -> None:
    # bot.ratings.system writes them out so that importing it leaves openskill unimported.
    from bot.ratings.system import START_MU, START_SIGMA, model

    assert (model().mu, model().sigma) == (START_MU, START_SIGMA)


def test_the_winner_rises_and_the_loser_falls() -> None:
    table = recompute([duel(1, 1, 2)])
    assert table[1].rating.mu > 25 > table[2].rating.mu
    assert table[1].display > table[2].display
    assert (table[1].wins, table[2].losses) == (1, 1)


def test_a_draw_between_equals_moves_neither_but_makes_both_surer() -> None:
    table = recompute([RatedResult(1, ((1,), (2,)), (1, 1))])
    assert table[1].rating.mu == pytest.approx(25) and table[2].rating.mu == pytest.approx(25)
    assert table[1].rating.sigma < Rating().sigma
    assert table[1].display > 1000  # surer, so the conservative value rises
    assert (table[1].draws, table[2].draws) == (1, 1)


def test_team_members_move_together_and_opponents_the_other_way() -> None:
    table = recompute([RatedResult(1, ((1, 2), (3, 4)), (1, 2))])
    assert table[1].rating == table[2].rating
    assert table[3].rating == table[4].rating
    assert table[1].rating.mu > 25 > table[3].rating.mu
    assert [table[u].wins for u in (1, 2)] == [1, 1] and [table[u].losses for u in (3, 4)] == [1, 1]


def test_a_stronger_partner_and_a_weaker_one_share_the_gain_by_uncertainty() -> None:
    # 1 has played a lot (sure of them), 2 is new: the new player's estimate moves more.
    history = [duel(i, 1, 10 + i) for i in range(12)]
    table = recompute([*history, RatedResult(100, ((1, 2), (3, 4)), (1, 2))])
    before = recompute(history)[1].rating.mu
    assert table[2].rating.mu - 25 > table[1].rating.mu - before > 0


def test_free_for_all_places_order_the_changes() -> None:
    table = recompute([RatedResult(1, ((1,), (2,), (3,), (4,)), (1, 2, 3, 4))])
    mus = [table[u].rating.mu for u in (1, 2, 3, 4)]
    assert mus == sorted(mus, reverse=True) and mus[0] > 25 > mus[-1]
    assert [table[u].wins for u in (1, 2, 3, 4)] == [1, 0, 0, 0]


def test_a_free_for_all_draw_between_some_seats() -> None:
    # Two seats share first place (a draw between them), two share the last.
    table = recompute([RatedResult(1, ((1,), (2,), (3,), (4,)), (1, 1, 2, 2))])
    assert table[1].rating == table[2].rating and table[3].rating == table[4].rating
    assert table[1].rating.mu > 25 > table[3].rating.mu
    assert (table[1].draws, table[3].losses) == (1, 1)


def test_provisional_until_ten_rated_matches() -> None:
    table = recompute([duel(i, 1, 2) for i in range(PROVISIONAL_MATCHES)])
    assert not table[1].provisional
    table = recompute([duel(i, 1, 2) for i in range(PROVISIONAL_MATCHES - 1)])
    assert table[1].provisional and shown(table[1]).endswith("?")


def test_no_contest_changes_nothing() -> None:
    # The same member on both sides (a test of the bot, not a game between members), or one side.
    assert recompute([RatedResult(1, ((1,), (1,)), (1, 2)), RatedResult(2, ((1, 2),), (1,))]) == {}


def test_a_player_on_two_seats_of_one_side_counts_once() -> None:
    table = recompute([RatedResult(1, ((1, 1), (2, 3)), (1, 2))])
    assert table[1].matches == 1 and len(table[1].history) == 1


@CI
@given(st.lists(st.tuples(st.integers(1, 6), st.integers(1, 6), st.sampled_from([(1, 2), (2, 1), (1, 1)])),
                min_size=1, max_size=40))  # fmt: skip
def test_recomputing_is_deterministic_and_order_matters(games: list[tuple[int, int, tuple[int, int]]]) -> None:
    results = [RatedResult(i, ((a,), (b,)), ranks) for i, (a, b, ranks) in enumerate(games) if a != b]
    first, second = recompute(results), recompute(list(results))
    assert {u: (p.rating, p.wins, p.losses, p.draws) for u, p in first.items()} == {
        u: (p.rating, p.wins, p.losses, p.draws) for u, p in second.items()
    }
    assert [p.user_id for p in ranked(first)] == [p.user_id for p in ranked(second)]
    for player in first.values():  # the history ends at the current rating, one point per match
        assert player.history[-1].rating == player.rating and len(player.history) == player.matches


def test_order_changes_the_table() -> None:
    games = [duel(1, 1, 2), duel(2, 2, 3), duel(3, 3, 1)]
    assert recompute(games)[1].rating != recompute(games[::-1])[1].rating


def test_stored_results_of_every_game_convert() -> None:
    nika, numica, pikemen = get_game("nika"), get_game("numica"), get_game("pikemen")
    team = rated_result(nika, 1, "athens-messene", 4, {"athens": 1, "messene": 2, "sparta": 3, "thebes": 4})
    assert (team.sides, team.ranks) == (((1, 2), (3, 4)), (1, 2))
    two = rated_result(nika, 2, "sparta-thebes", 2, {"athens": 1, "sparta": 2})
    assert (two.sides, two.ranks) == (((1,), (2,)), (2, 1))
    drawn = rated_result(numica, 3, "draw", 2, {"red": 5, "blue": 6})
    assert drawn.ranks == (1, 1)
    ffa = rated_result(pikemen, 4, "yellow", 4, {"red": 1, "yellow": 2, "green": 3, "blue": 4})
    assert (ffa.sides, ffa.ranks) == (((1,), (2,), (3,), (4,)), (2, 1, 2, 2))
    some = rated_result(pikemen, 5, "draw:red,blue", 3, {"red": 1, "yellow": 2, "blue": 3})
    assert (some.sides, some.ranks) == (((1,), (2,), (3,)), (1, 2, 1))
    rows = [(1, "athens-messene", 4, {"athens": 1, "messene": 2, "sparta": 3, "thebes": 4})]
    assert list(rated_results(nika, rows)) == [team]


def test_the_history_chart_starts_at_1000_and_ends_at_the_shown_value() -> None:
    table = recompute([duel(i, 1, 2) for i in range(5)])
    chart = history_chart(table[1], "Ana", "Nika")
    assert chart.shown[0] == 1000 and chart.shown[-1] == table[1].display and len(chart.shown) == 6
    assert all(e >= s for e, s in zip(chart.estimates, chart.shown, strict=True))
    assert chart.current == f"{table[1].display}?" and "5 of 10" in chart.note
