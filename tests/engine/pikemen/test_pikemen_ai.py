"""The computer player in Pikemen, for 2, 3 and 4 players: the shared search
(engine/search.py) with Pikemen's evaluation (engine/pikemen/ai.py), through the `Game`
interface.

Budgets are small so the file runs in seconds: a level's effort is counted in nodes and
scales down with the budget, so the same arguments give the same actions on any machine.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from pikemen_scenarios import START_2, end, game

from engine.api import EndingKind
from engine.pikemen.game import GAME
from engine.pikemen.state import GameState
from engine.search import LEVELS, accepts_draw, think
from tests.engine.serving import serve_over_a_pipe

QUICK_MS = 40.0  # per action: a few hundred nodes for the searching levels
SEEDS = range(4)
RESIGN, TIMEOUT = EndingKind.RESIGNATION, EndingKind.TIMEOUT

# Red has 10 of 12 points. Its medium piece on c2 points north-east at Blue's flat medium on
# f5 (2 points: the win); its large h2 points north at Blue's flat small on h5 (1 point: not).
TWO_POINTS_FROM_THE_TARGET = "R10:c2Mne,h2Ln,a1Su B4:f5Mw,h5Sw,a8Lu,h8Lu R/12/3"
# The same with four players, Green to act.
GREEN_TWO_POINTS_FROM_THE_TARGET = "R3:a8Lu,h8Lu Y4:h5Sw,h1Lu G10:c2Mne,h2Ln B2:f5Mw,a1Lu G/12/0"

# Blue has 10 points and its medium on c2 points at Red's flat medium on f5: unless Red saves
# it (stand it up, or charge it off the line), Blue takes it and reaches 12.
BLUE_AIMS_AT_THE_WIN = "R4:f5Mw,a8Lu,h8Lu B10:c2Mne,a4Le,h1Lu R/12/0"
# The same, but Red's large a8 lies flat, pointing south at Blue's flat large on a4: three
# points for Red, and the game for Blue, who then takes f5.
A_LARGE_PIECE_AS_BAIT = "R4:f5Mw,a8Ls,h8Lu B10:c2Mne,a4Le,h1Lu R/12/0"

# Blue leads by 8 points with twice Red's material; with three players Yellow is behind too.
BLUE_WELL_AHEAD = "R1:a8Lu,h8Mu B9:a1Lu,b1Lu,c1Mu,d1Mu R/12/0"
BLUE_WELL_AHEAD_OF_TWO = "R1:a8Lu Y2:h8Mu,h7Mu B9:a1Lu,b1Lu,c1Mu,d1Mu R/12/0"

# Four players: Yellow has no pieces left and is skipped; Green's last piece can be taken.
YELLOW_WITHOUT_PIECES = "R2:c2Mne,a8Lu,c8Mse Y5:- G0:f5Sw B4:a1Lu,h8Lu,h1Lnw R/12/0"


def notations(actions: Any) -> list[str]:
    return [action.notation() for action in actions]


def played(state: GameState, actions: list[Any]) -> GameState:
    """The state after the proposed actions, each checked to be in the legal list (which
    `apply` takes exactly) before it is applied."""
    seat = GAME.to_act(state)
    assert len(actions) == 1  # Pikemen turns are one move
    for action in actions:
        assert GAME.to_act(state) == seat
        assert action.notation() in notations(GAME.legal_actions(state))
        state, _ = GAME.apply(state, action)
    return state


def proposal(state: GameState, level: str, seed: int, ms: float = QUICK_MS) -> str:
    actions = think(GAME, state, level=level, budget_ms=ms, seed=seed)
    played(state, actions)
    return actions[0].notation()


def after(state: GameState, move: str) -> GameState:
    return GAME.apply(state, GAME.canonical(state, GAME.parse_action(move)))[0]


def wins_at_once(state: GameState, seat: str) -> bool:
    """`seat`, to act, has a move that wins."""
    if GAME.to_act(state) != seat:
        return False
    for move in GAME.legal_actions(state):
        outcome = GAME.outcome(GAME.apply(state, move)[0])
        if outcome is not None and seat in outcome.winners:
            return True
    return False


def play_on(state: GameState, levels: dict[str, str], seed: int, actions: int) -> tuple[GameState, set[str]]:
    """Up to `actions` moves, each seat thinking at its level; the state and the seats that moved."""
    moved: set[str] = set()
    for _ in range(actions):
        seat = GAME.to_act(state)
        if seat is None:
            break
        moved.add(seat)
        state = played(state, think(GAME, state, level=levels[seat], budget_ms=QUICK_MS, seed=seed))
    return state, moved


def random_opening(players: int, seed: int) -> GameState:
    """The start, then a seeded number of random moves: games that differ from the first move."""
    rng = random.Random(seed)
    state = GAME.new(players, {}, seed)
    for _ in range(rng.randrange(0, 24)):
        if GAME.outcome(state) is not None:
            break
        state, _ = GAME.apply(state, rng.choice(list(GAME.legal_actions(state))))
    return state


# --- legal proposals ----------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_level_proposes_legal_moves_in_seeded_games(players):
    seats = GAME.state_seats(GAME.new(players, {}, 0))
    levels_played: set[str] = set()
    captures = 0
    for seed in range(3):
        # Seats take the levels in turn, shifted each game, so each level plays each seat count.
        levels = {seat: LEVELS[(index + seed) % len(LEVELS)] for index, seat in enumerate(seats)}
        state = random_opening(players, seed)
        state, moved = play_on(state, levels, seed, actions=24)
        levels_played |= {levels[seat] for seat in moved}
        captures += sum(state.position.scores)
    assert levels_played == set(LEVELS)
    assert captures > 0  # the games got to the fighting, not just the turning


def test_a_game_that_is_over_gets_no_moves():
    won = after(game(TWO_POINTS_FROM_THE_TARGET), "c2xf5")
    assert GAME.outcome(won) is not None
    for level in LEVELS:
        assert think(GAME, won, level=level, budget_ms=QUICK_MS, seed=0) == []


# --- determinism --------------------------------------------------------------------------


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("players", [2, 4])
def test_the_same_position_level_budget_and_seed_give_the_same_move(players, level):
    for seed in (3, 8):
        state = random_opening(players, seed)
        first = notations(think(GAME, state, level=level, budget_ms=120, seed=seed))
        again = notations(think(GAME, state, level=level, budget_ms=120, seed=seed))
        reloaded = notations(think(GAME, game(GAME.notation(state)), level=level, budget_ms=120, seed=seed))
        assert first == again == reloaded


@pytest.mark.parametrize("level", LEVELS)
def test_the_seed_varies_the_choice_among_moves_that_look_alike(level):
    # At the start every piece stands upright and many first turns are as good as each other.
    state = game(START_2)
    assert len({proposal(state, level, seed) for seed in range(8)}) > 1


# --- tactics ------------------------------------------------------------------------------


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize(
    "position", [TWO_POINTS_FROM_THE_TARGET, GREEN_TWO_POINTS_FROM_THE_TARGET], ids=["two-players", "four-players"]
)
def test_it_takes_the_capture_that_reaches_the_target(position, level):
    state = game(position)
    seat = GAME.to_act(state)
    assert GAME.outcome(after(state, "h2xh5")) is None  # the small piece is a point short
    for seed in SEEDS:
        move = proposal(state, level, seed)
        outcome = GAME.outcome(after(state, move))
        # The charge may end in any orientation: the win is the same.
        assert move.startswith("c2xf5") and outcome is not None and outcome.winners == {seat}


@pytest.mark.parametrize("level", LEVELS)
def test_it_saves_a_piece_whose_capture_would_take_the_opponent_to_the_target(level):
    state = game(BLUE_AIMS_AT_THE_WIN)
    assert wins_at_once(after(state, "h8 s"), "blue")  # a move elsewhere loses
    for seed in SEEDS:
        move = proposal(state, level, seed)
        assert move.startswith("f5") and not wins_at_once(after(state, move), "blue")


def test_easy_grabs_a_large_piece_and_lets_the_opponent_reach_the_target_where_hard_does_not():
    # Easy looks one move ahead, and the evaluation counts Blue's threat as points it may win,
    # not as the game: three points for Red outweigh it. Hard looks at Blue's reply.
    state = game(A_LARGE_PIECE_AS_BAIT)
    assert wins_at_once(after(state, "a8xa4 u"), "blue")
    easy = [proposal(state, "easy", seed) for seed in range(6)]
    hard = [proposal(state, "hard", seed, ms=100) for seed in range(6)]
    assert any(wins_at_once(after(state, move), "blue") for move in easy)
    assert not any(wins_at_once(after(state, move), "blue") for move in hard)


# --- seats that left, or have no pieces ---------------------------------------------------


def test_with_four_players_every_level_moves_legally_after_a_seat_resigned():
    state, _ = end(GAME.new(4, {}, 0), RESIGN, "yellow")  # out of turn: red still acts
    for seed, level in enumerate(LEVELS):
        levels = dict.fromkeys(GAME.state_seats(state), level)
        _, moved = play_on(state, levels, seed, actions=9)
        assert moved == {"red", "green", "blue"}


def test_with_four_players_the_next_seat_moves_legally_after_the_seat_to_act_timed_out():
    state, _ = play_on(GAME.new(4, {}, 0), dict.fromkeys(("red", "yellow", "green", "blue"), "normal"), 1, 5)
    assert GAME.to_act(state) == "yellow"
    state, _ = end(state, TIMEOUT, "yellow")
    assert GAME.to_act(state) == "green"
    for seed, level in enumerate(LEVELS):
        levels = dict.fromkeys(GAME.state_seats(state), level)
        _, moved = play_on(state, levels, seed, actions=6)
        assert moved == {"red", "green", "blue"}


def test_with_four_players_every_level_moves_legally_when_a_seat_has_no_pieces():
    state = game(YELLOW_WITHOUT_PIECES)
    assert GAME.to_act(after(state, "a8 s")) == "green"  # yellow is skipped
    for seed, level in enumerate(LEVELS):
        levels = dict.fromkeys(GAME.state_seats(state), level)
        final, moved = play_on(state, levels, seed, actions=8)
        assert "yellow" not in moved
        assert moved <= {"red", "green", "blue"} and "red" in moved
        if GAME.outcome(final) is None:
            assert GAME.to_act(final) != "yellow"


# --- draw offers --------------------------------------------------------------------------


@pytest.mark.parametrize("position", [BLUE_WELL_AHEAD, BLUE_WELL_AHEAD_OF_TWO], ids=["two-players", "three-players"])
def test_a_draw_is_accepted_by_a_seat_well_behind_and_refused_by_the_leader(position):
    state = game(position)
    behind = [seat for seat in GAME.state_seats(state) if seat != "blue"]
    assert all(accepts_draw(GAME, state, seat) for seat in behind)
    assert not accepts_draw(GAME, state, "blue")


def test_a_draw_is_refused_by_both_seats_at_the_start():
    state = game(START_2)
    assert not accepts_draw(GAME, state, "red")
    assert not accepts_draw(GAME, state, "blue")


# Pikemen has no claims (GAME.claim is None), so `concedes_claim` is never asked of it.


# --- the command line -----------------------------------------------------------------------


def test_serve_answers_a_think_request_with_a_legal_move():
    four_players = GAME.notation(random_opening(4, seed=2))
    requests = [
        {"position": "start", "think": {"ms": 200}},
        {"position": four_players, "think": {"ms": 200, "level": "normal", "seed": 5}},
        {"position": TWO_POINTS_FROM_THE_TARGET, "think": {"ms": 200}},
    ]
    replies = serve_over_a_pipe(requests, game="pikemen")
    states = [game(START_2), game(four_players), game(TWO_POINTS_FROM_THE_TARGET)]  # "start" has two players
    for state, reply in zip(states, replies, strict=True):
        assert set(reply) == {"actions"}
        played(state, [GAME.parse_action(text) for text in reply["actions"]])
    assert replies[2]["actions"][0].startswith("c2xf5")
    # Another process, with its own string hashing, thinks exactly as this one does.
    assert replies[1]["actions"] == notations(think(GAME, states[1], level="normal", budget_ms=200, seed=5))
    assert replies[0]["actions"] == notations(think(GAME, states[0], level="hard", budget_ms=200, seed=0))


def test_easy_often_lets_a_free_capture_go_where_the_searching_levels_never_do():
    # Red's medium on c2 points north-east at Blue's flat medium on f5: two points, nothing decided.
    state = game("R6:c2Mne,a8Lu,h8Lu B4:f5Mw,h1Lu,a1Lu,b1Lu,d1Mu R/12/0")
    easy = [proposal(state, "easy", seed) for seed in range(20)]
    assert 0 < sum(move.startswith("c2xf5") for move in easy) < 16  # a newcomer's opponent, not a random one
    searched = [proposal(state, level, seed, ms=100) for level in ("normal", "hard") for seed in SEEDS]
    assert all(move.startswith("c2xf5") for move in searched)


def test_a_deeper_look_cut_short_still_drops_a_choice_it_proved_lost():
    # At 50 ms normal searches about 300 nodes: depth 2 is cut short among 105 moves, but it
    # has already seen that the bait loses the game, and an unfinished depth must not keep it.
    state = game(A_LARGE_PIECE_AS_BAIT)
    moves = [proposal(state, "normal", seed, ms=50) for seed in range(8)]
    assert not any(wins_at_once(after(state, move), "blue") for move in moves)
