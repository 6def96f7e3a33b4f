"""The computer player in Numica: the shared search (engine/search.py) with Numica's
evaluation (engine/numica/ai.py), through the `Game` interface.

Budgets are small so the file runs in seconds: a level's effort is counted in nodes and
scales down with the budget, so the same arguments give the same actions on any machine.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from numica_scenarios import EXAMPLE, game, position

from engine.__main__ import new_playable
from engine.numica.game import GAME
from engine.numica.state import GameState
from engine.search import LEVELS, accepts_draw, think
from tests.engine.serving import serve_over_a_pipe

QUICK_MS = 40.0  # per action: tens of nodes for easy's one look ahead, hundreds for the searching levels
SEEDS = range(4)

# Red has taken two square pieces: a third square wins, a round one does not. Red's knight
# on d4 reaches both Blue's square on e6 and Blue's round piece on c6.
THIRD_SQUARE = position(red="a1s,b1o,c1s,d4s*,h1o", blue="c6o*,e6s*,a8o,b8s,g8o,h8o", tiles_at="d4=K")

# Blue has taken two of Red's square pieces, and Blue's knight on e6 attacks Red's square on
# d4: whatever else Red does, that square must move (to anywhere but c5) or Blue wins.
SQUARE_EN_PRISE = position(
    red="a1o,b1o,c1s,d4s*,e1o,h1o",
    blue="e6s*,a8o,b8s,c8s,g8o,h8o",
    tiles_at="a1=1 b1=1 c1=1 e1=1 h1=1 d4=1 e6=K",
)

# Blue has taken two of Red's square pieces; Red's last two squares are on c3 and f4, both a
# knight's move from d5. Red's rook on h5 guards d5 and can also take Blue's round piece on
# h7. If it does, Blue's d7 jumps to the knight tile on d5, attacking both squares, and Red
# can save only one of them: the capture loses in two moves, which one look ahead cannot see.
GUARD_OF_D5 = position(
    red="e1o,g1o,h1o,c3s*,f4s*,h5o*",
    blue="a8s,b8s,c8s,f8s,e8o,g8o,d7o*,h7o*",
    tiles_at="h5=R h7=1 d7=2 d5=K c3=1 f4=1 e1=1 g1=1 h1=1 a8=2 b8=1 c8=1 e8=1 f8=1 g8=1",
)

# Red has taken two square pieces and a round one, Blue nothing yet, and nothing can be
# captured at once: Red is well ahead.
RED_WELL_AHEAD = position(
    red="a1o,b1o,c1s,d1s,e1o,f1s,g1s,h1o",
    blue="a8o,b8s,c8o,d8o,g8s",
    tiles_at="a1=1 b1=1 c1=1 d1=1 e1=1 f1=1 g1=1 h1=1 a8=2 b8=2 c8=2 d8=2 g8=2",
)


def notations(actions: Any) -> list[str]:
    return [action.notation() for action in actions]


def played(state: GameState, actions: list[Any]) -> GameState:
    """The state after the proposed actions, each checked to be in the legal list, in the
    form the list writes it (a capture with `x`), before it is applied."""
    seat = GAME.to_act(state)
    assert len(actions) == 1  # Numica turns are one move
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


def wins(state: GameState, colour: str) -> bool:
    outcome = GAME.outcome(state)
    return outcome is not None and colour in outcome.winners


def blue_wins_at_once(state: GameState) -> bool:
    """Blue, to move, has a move that wins."""
    return any(wins(GAME.apply(state, move)[0], "blue") for move in GAME.legal_actions(state))


def blue_forces_a_win(state: GameState) -> bool:
    """Blue, to move, wins now or with a move after which every Red reply lets Blue win."""
    for move in GAME.legal_actions(state):
        reply_to, _ = GAME.apply(state, move)
        if wins(reply_to, "blue"):
            return True
        if GAME.outcome(reply_to) is None and all(
            blue_wins_at_once(GAME.apply(reply_to, reply)[0]) for reply in GAME.legal_actions(reply_to)
        ):
            return True
    return False


def random_positions(count: int, seed: int) -> list[GameState]:
    """Positions along seeded random games, from the start to well into the middle game."""
    rng = random.Random(seed)
    found: list[GameState] = []
    while len(found) < count:
        state = new_playable(GAME, 2, {}, rng.randrange(1000))
        for _ in range(rng.randrange(0, 30)):
            if GAME.outcome(state) is not None:
                break
            state, _ = GAME.apply(state, rng.choice(list(GAME.legal_actions(state))))
        if GAME.outcome(state) is None:
            found.append(state)
    return found


# --- legal proposals ----------------------------------------------------------------------


@pytest.mark.parametrize("level", LEVELS)
def test_every_proposal_is_legal_in_seeded_games_played_to_the_end(level):
    finished = 0
    for seed in range(3):
        state = new_playable(GAME, 2, {}, seed)  # a deal and back rows drawn from the seed
        moves = 0
        while GAME.outcome(state) is None and moves < 150:  # a cap, in case both sides shuffle about
            state = played(state, think(GAME, state, level=level, budget_ms=QUICK_MS, seed=seed))
            moves += 1
        finished += GAME.outcome(state) is not None
    assert finished == 3  # the games were played out, not just begun


def test_every_level_proposes_a_legal_move_in_random_middle_games():
    for index, state in enumerate(random_positions(6, seed=17)):
        for level in LEVELS:
            proposal(state, level, seed=index)


def test_a_game_still_setting_up_or_finished_gets_no_moves():
    arranging = GAME.new(2, {"setup": "choose"}, 3)
    assert GAME.setup_pending(arranging) == ("red", "blue")
    finished = after(game(THIRD_SQUARE), "d4xe6")
    assert wins(finished, "red")
    for level in LEVELS:
        assert think(GAME, arranging, level=level, budget_ms=QUICK_MS, seed=0) == []
        assert think(GAME, finished, level=level, budget_ms=QUICK_MS, seed=0) == []


# --- determinism --------------------------------------------------------------------------


@pytest.mark.parametrize("level", LEVELS)
def test_the_same_position_level_budget_and_seed_give_the_same_move(level):
    # Starts, where many moves look alike and the seed decides, and middle games.
    for state in [new_playable(GAME, 2, {}, 1), new_playable(GAME, 2, {}, 2), *random_positions(2, seed=5)]:
        first = notations(think(GAME, state, level=level, budget_ms=150, seed=9))
        again = notations(think(GAME, state, level=level, budget_ms=150, seed=9))
        reloaded = notations(think(GAME, game(GAME.notation(state)), level=level, budget_ms=150, seed=9))
        assert first == again == reloaded


@pytest.mark.parametrize("level", ["easy", "normal"])
def test_the_seed_varies_the_choice_among_moves_that_look_alike(level):
    # Easy picks among fair moves at random, normal adds noise to its choices: games vary.
    state = new_playable(GAME, 2, {}, 1)
    assert len({proposal(state, level, seed, ms=150) for seed in range(8)}) > 1


# --- tactics ------------------------------------------------------------------------------


@pytest.mark.parametrize("level", LEVELS)
def test_it_takes_the_third_square_piece_that_wins_rather_than_a_round_one(level):
    state = game(THIRD_SQUARE)
    assert not wins(after(state, "d4xc6"), "red")  # the round piece is a capture, not the win
    assert {proposal(state, level, seed) for seed in SEEDS} == {"d4xe6"}


@pytest.mark.parametrize("level", LEVELS)
def test_it_moves_a_square_piece_away_when_its_capture_would_lose_the_game(level):
    state = game(SQUARE_EN_PRISE)
    assert blue_wins_at_once(after(state, "h1-h2"))  # leaving it there loses at once
    assert blue_wins_at_once(after(state, "d4-c5"))  # and so does moving it into the knight's reach
    for seed in SEEDS:
        move = proposal(state, level, seed)
        assert move.startswith("d4-") and not blue_wins_at_once(after(state, move))


def test_easy_takes_a_capture_that_loses_in_two_moves_where_hard_does_not():
    # Easy looks one move ahead; the fork that punishes the capture comes a move later.
    state = game(GUARD_OF_D5)
    assert blue_forces_a_win(after(state, "h5xh7"))
    assert not blue_forces_a_win(after(state, "h1-g2"))  # a quiet move keeps d5 guarded
    easy = [proposal(state, "easy", seed) for seed in range(8)]
    hard = [proposal(state, "hard", seed, ms=100) for seed in range(8)]
    assert "h5xh7" in easy
    assert not any(blue_forces_a_win(after(state, move)) for move in hard)


# --- draw offers ----------------------------------------------------------------------------


# Red's d4 (on a 1 tile) can take Blue's round piece on d5: a first capture, nothing decided.
FREE_ROUND_PIECE = position(
    red="a1o,b1o,c1s,d4s*,e1o,f1s,g1s,h1o",
    blue="a8o,b8s,c8o,d5o*,e8s,f8s,g8s,h8o",
    tiles_at="a1=1 b1=1 c1=1 d4=1 e1=1 f1=1 g1=1 h1=1 a8=2 b8=2 c8=2 d5=2 e8=2 f8=2 g8=2 h8=2",
)


def test_easy_often_lets_a_free_capture_go_where_the_searching_levels_never_do():
    state = game(FREE_ROUND_PIECE)
    easy = [proposal(state, "easy", seed) for seed in range(20)]
    assert 0 < sum(move == "d4xd5" for move in easy) < 15  # a newcomer's opponent, not a random one
    assert all(proposal(state, level, seed, ms=100) == "d4xd5" for level in ("normal", "hard") for seed in SEEDS)


def test_a_draw_is_refused_by_the_side_well_ahead_and_accepted_by_the_side_well_behind():
    state = game(RED_WELL_AHEAD)
    assert not accepts_draw(GAME, state, "red")
    assert accepts_draw(GAME, state, "blue")


def test_a_draw_is_refused_by_both_sides_in_an_even_start():
    state = game(EXAMPLE)
    assert not accepts_draw(GAME, state, "red")
    assert not accepts_draw(GAME, state, "blue")


# Numica has no claims (GAME.claim is None), so `concedes_claim` is never asked of it.


# --- the command line -----------------------------------------------------------------------


def test_serve_answers_a_think_request_with_a_legal_move():
    requests = [
        {"position": "start", "think": {"ms": 200}},
        {"position": THIRD_SQUARE, "think": {"ms": 200}},
        {"position": SQUARE_EN_PRISE, "think": {"ms": 200, "level": "easy", "seed": 3}},
    ]
    replies = serve_over_a_pipe(requests, game="numica")
    states = [new_playable(GAME, 2, {}, 0), game(THIRD_SQUARE), game(SQUARE_EN_PRISE)]
    for state, reply in zip(states, replies, strict=True):
        assert set(reply) == {"actions"}
        played(state, [GAME.parse_action(text) for text in reply["actions"]])
    assert replies[1]["actions"] == ["d4xe6"]
    # Another process, with its own string hashing, thinks exactly as this one does.
    assert replies[2]["actions"] == notations(think(GAME, states[2], level="easy", budget_ms=200, seed=3))
    assert replies[0]["actions"] == notations(think(GAME, states[0], level="hard", budget_ms=200, seed=0))
