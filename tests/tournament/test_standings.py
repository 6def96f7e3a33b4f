"""Standings and tie-breaks against tables computed by hand (the arithmetic is in the comments)."""

from __future__ import annotations

from fractions import Fraction as F

from bot.tournament import Bye, Event, EventState, Format, PodShape, Result, Round, Table, TieBreak, standings
from bot.tournament.records import side_points

from .helpers import built, entrants

A, B, C, D, E = 1, 2, 3, 4, 5
WIN, LOSS, DRAW = (1, 2), (2, 1), (1, 1)


def test_game_points_share_the_places_beaten() -> None:
    assert side_points(Result((1, 2))) == (1, 0)
    assert side_points(Result((1, 1))) == (F(1, 2), F(1, 2))
    assert side_points(Result((1, 2, 3, 4))) == (1, F(2, 3), F(1, 3), 0)
    assert side_points(Result((1, 2, 2, 2))) == (1, F(1, 3), F(1, 3), F(1, 3))  # only the winner named
    assert side_points(Result((1, 1, 2, 2))) == (F(5, 6), F(5, 6), F(1, 6), F(1, 6))  # a draw between two seats
    assert side_points(Result((2, 1, 3))) == (F(1, 2), 1, 0)


def swiss_with_a_bye_and_a_withdrawal():
    """Five players, three rounds. D withdraws after round 2 (not paired in round 3).
    R1: A beats B, C draws D, E has the bye.  R2: A draws C, E beats B, D has the bye.
    R3: E beats A, B beats C."""
    event = Event(Format.SWISS, entrants(5), rounds=3)
    return built(event, [
        ([(((A,), (B,)), WIN), (((C,), (D,)), DRAW)], [(E, F(1))]),
        ([(((A,), (C,)), DRAW), (((B,), (E,)), LOSS)], [(D, F(1))]),
        ([(((A,), (E,)), LOSS), (((B,), (C,)), WIN)], []),
    ], withdrawn={D: 2})  # fmt: skip


def test_swiss_buchholz_and_median_buchholz_by_hand() -> None:
    table = {s.entrant: s for s in standings(swiss_with_a_bye_and_a_withdrawal())}
    # Points: A 1+½+0 = 1½; B 0+0+1 = 1; C ½+½+0 = 1; D ½ + bye 1 = 1½; E bye 1+1+1 = 3.
    assert {e: s.points for e, s in table.items()} == {A: F(3, 2), B: 1, C: 1, D: F(3, 2), E: 3}
    # Opponents' scores as Buchholz takes them (byes and rounds missed after withdrawing count ½):
    # A 1½, B 1, C 1, D ½ + ½·(bye + round 3) = 1½, E 2 + ½ = 2½.
    # A met B, C, E: 1 + 1 + 2½ = 4½.   B met A, E, C: 1½ + 2½ + 1 = 5.   C met D, A, B: 1½ + 1½ + 1 = 4.
    # D met C (1), had a bye (own score 1½), missed round 3 (own score 1½): 4.
    # E had a bye (own score 3), met B (1) and A (1½): 5½.
    buchholz = {e: s.tie_breaks[TieBreak.BUCHHOLZ] for e, s in table.items()}
    assert buchholz == {A: F(9, 2), B: 5, C: 4, D: 4, E: F(11, 2)}
    # Median: the highest and the lowest dropped; D's missed round goes first as the lowest.
    # A [1, 1, 2½] → 1; B [1½, 2½, 1] → 1½; C [1½, 1½, 1] → 1½; D [1, 1½, 1½ missed] → 1; E [3, 1, 1½] → 1½.
    median = {e: s.tie_breaks[TieBreak.MEDIAN_BUCHHOLZ] for e, s in table.items()}
    assert median == {A: 1, B: F(3, 2), C: F(3, 2), D: 1, E: F(3, 2)}
    assert {e: s.tie_breaks[TieBreak.WINS] for e, s in table.items()} == {A: 1, B: 1, C: 0, D: 0, E: 2}


def test_swiss_order_byes_and_withdrawals() -> None:
    rows = standings(swiss_with_a_bye_and_a_withdrawal())
    # E 3; A and D on 1½, A ahead on Buchholz (4½ to 4); B and C on 1, B ahead (5 to 4).
    assert [(s.entrant, s.place) for s in rows] == [(E, 1), (A, 2), (D, 3), (B, 4), (C, 5)]
    d = next(s for s in rows if s.entrant == D)
    assert (d.withdrawn, d.byes, d.played, d.draws) == (True, 1, 1, 1)
    assert next(s for s in rows if s.entrant == E).byes == 1


def round_robin_cycle():
    """Five players, single round robin (E's bye rounds left out: they score nothing).
    A beats B, B beats C, C beats A; A and B beat D, C draws D; A and B draw E, C beats E;
    D beats E."""
    event = Event(Format.ROUND_ROBIN, entrants(5))
    return built(event, [
        ([(((A,), (B,)), WIN), (((C,), (D,)), DRAW)], []),
        ([(((B,), (C,)), WIN), (((A,), (E,)), DRAW)], []),
        ([(((C,), (A,)), WIN), (((B,), (D,)), WIN)], []),
        ([(((A,), (D,)), WIN), (((C,), (E,)), WIN)], []),
        ([(((B,), (E,)), DRAW), (((D,), (E,)), WIN)], []),
    ])  # fmt: skip


def test_round_robin_sonneborn_berger_and_head_to_head_by_hand() -> None:
    rows = standings(round_robin_cycle())
    table = {s.entrant: s for s in rows}
    # A: B 1 + D 1 + E ½ = 2½; B: C 1 + D 1 + E ½ = 2½; C: A 1 + D ½ + E 1 = 2½; D: C ½ + E 1 = 1½; E: 1.
    assert {e: s.points for e, s in table.items()} == {A: F(5, 2), B: F(5, 2), C: F(5, 2), D: F(3, 2), E: 1}
    # Sonneborn–Berger: points scored against each opponent × the opponent's score.
    # A: 1·2½ (B) + 1·1½ (D) + ½·1 (E) = 4½; B: 1·2½ (C) + 1·1½ (D) + ½·1 (E) = 4½;
    # C: 1·2½ (A) + ½·1½ (D) + 1·1 (E) = 4¼; D: ½·2½ (C) + 1·1 (E) = 2¼; E: ½·2½ + ½·2½ = 2½.
    sb = {e: s.tie_breaks[TieBreak.SONNEBORN_BERGER] for e, s in table.items()}
    assert sb == {A: F(9, 2), B: F(9, 2), C: F(17, 4), D: F(9, 4), E: F(5, 2)}
    # Head-to-head among A, B, C is level (1 each); Sonneborn–Berger puts C third; head-to-head is
    # then taken again between A and B, and A beat B.
    assert [(s.entrant, s.place, s.shared) for s in rows] == [
        (A, 1, False), (B, 2, False), (C, 3, False), (D, 4, False), (E, 5, False)
    ]  # fmt: skip


def test_a_tie_on_everything_shares_the_place_best_seed_listed_first() -> None:
    event = Event(Format.ROUND_ROBIN, entrants(2))
    rows = standings(built(event, [([(((A,), (B,)), DRAW)], [])]))
    assert [(s.entrant, s.place, s.shared) for s in rows] == [(A, 1, True), (B, 1, True)]


def test_head_to_head_waits_until_everyone_tied_has_met() -> None:
    # Swiss, A and C tied on everything but have not met: head-to-head leaves them tied.
    event = Event(Format.SWISS, entrants(4), rounds=2)
    state = built(event, [
        ([(((A,), (B,)), WIN), (((C,), (D,)), WIN)], []),
        ([(((A,), (D,)), DRAW), (((C,), (B,)), DRAW)], []),
    ])  # fmt: skip
    rows = standings(state)
    assert [(s.entrant, s.place, s.shared) for s in rows][:2] == [(A, 1, True), (C, 1, True)]


def test_pods_points_and_buchholz_by_hand() -> None:
    # Four players, one four-player game: places 1–4 score 1, ⅔, ⅓, 0; a second game, a team game.
    event = Event(Format.PODS, entrants(4), rounds=2, pod=PodShape.free_for_all(4))
    state = built(event, [
        ([(((A,), (B,), (C,), (D,)), (1, 2, 3, 4))], []),
        ([(((A,), (B,), (C,), (D,)), (4, 1, 2, 3))], []),
    ])  # fmt: skip
    table = {s.entrant: s for s in standings(state)}
    # A 1 + 0 = 1; B ⅔ + 1 = 1⅔; C ⅓ + ⅔ = 1; D 0 + ⅓ = ⅓.
    assert {e: s.points for e, s in table.items()} == {A: 1, B: F(5, 3), C: 1, D: F(1, 3)}
    # Buchholz in pods: per game, the mean of the opponents' scores. A: (1⅔ + 1 + ⅓)/3 twice = 2.
    assert table[A].tie_breaks[TieBreak.BUCHHOLZ] == 2
    # C (1 point) also has 2·(1 + 1⅔ + ⅓)/3 = 2; head-to-head: C beat A once, A beat C once: level;
    # wins: A won a game, C none, so A is ahead.
    assert [s.entrant for s in standings(state)] == [B, A, C, D]


def test_knockout_places_by_round_reached() -> None:
    event = Event(Format.KNOCKOUT, entrants(5))
    # Eight places in bracket order: 1 v bye, 4 v 5, 2 v bye, 3 v bye; then 1 v 4 and 2 v 3; final 1 v 3.
    r1 = Round(1, (Table(1, 2, ((4,), (5,))),), (Bye(1, F(0)), Bye(2, F(0)), Bye(3, F(0))))
    r2 = Round(2, (Table(2, 1, ((1,), (4,))), Table(2, 2, ((2,), (3,)))))
    r3 = Round(3, (Table(3, 1, ((1,), (3,))),))
    results = {r1.tables[0]: Result(WIN), r2.tables[0]: Result(WIN), r2.tables[1]: Result(LOSS),
               r3.tables[0]: Result(LOSS)}  # fmt: skip
    state = EventState(event, (r1, r2, r3), results)
    rows = standings(state)
    assert [(s.entrant, s.place, s.shared, s.eliminated) for s in rows] == [
        (3, 1, False, None), (1, 2, False, 3), (2, 3, True, 2), (4, 3, True, 2), (5, 5, False, 1)
    ]  # fmt: skip
