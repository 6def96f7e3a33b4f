"""Properties over random legal games (hypothesis draws the choices; runs are deterministic):
points are conserved (on the board plus in the scores), enumeration and apply agree on what
is legal, and positions, moves and records round-trip."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.api import Ending, EndingKind
from engine.errors import IllegalAction
from engine.pikemen.actions import Charge, Reorient
from engine.pikemen.game import GAME
from engine.pikemen.geometry import RAYS, SQUARES, Orientation
from engine.pikemen.position import Position
from engine.pikemen.state import GameState
from engine.record import GameRecord, RecordEntry

CI = settings(max_examples=25, derandomize=True, database=None, deadline=None,
              suppress_health_check=[HealthCheck.too_slow])  # fmt: skip
CHOICES = st.lists(st.integers(0, 2**16), min_size=1, max_size=160)


def random_game(players: int, choices: list[int]) -> list[tuple[GameState, object, GameState]]:
    """(before, move, after) for a game whose moves the choices pick; captures are preferred
    on even choices so that scores and emptied seats come up often."""
    state = GAME.new(players, {}, 0)
    steps = []
    for choice in choices:
        if GAME.outcome(state) is not None:
            break
        legal = list(GAME.legal_actions(state))
        captures = [a for a in legal if isinstance(a, Charge) and a.capture]
        pool = captures if captures and choice % 2 == 0 else legal
        move = pool[choice // 2 % len(pool)]
        after, _ = GAME.apply(state, move)
        steps.append((state, move, after))
        state = after
    return steps


def points(state: GameState) -> int:
    return sum(state.position.material) + sum(state.position.scores)


@CI
@given(st.sampled_from([2, 3, 4]), CHOICES)
def test_points_on_the_board_and_in_the_scores_are_conserved(players, choices):
    total = points(GAME.new(players, {}, 0))
    for before, move, after in random_game(players, choices):
        assert points(after) == total
        gained = [a - b for a, b in zip(after.position.scores, before.position.scores, strict=True)]
        taken = before.position.piece_at(move.to) if isinstance(move, Charge) else None
        assert sum(gained) == (taken.size if taken else 0)
        assert gained[before.position.to_act] == sum(gained)
        rebuilt = Position.build(*[getattr(after.position, f) for f in
                                   ("seats", "board", "scores", "out", "to_act", "target", "quiet")])  # fmt: skip
        assert (rebuilt.counts, rebuilt.material) == (after.position.counts, after.position.material)


def candidates(state: GameState, rng: random.Random) -> list[object]:
    """Moves of every shape from every occupied square, legal or not, sampled."""
    found: list[object] = []
    for sq in SQUARES:
        if state.position.board[sq]:
            found += [Reorient(sq, o) for o in Orientation]
            for direction in Orientation:
                for to in RAYS[sq][direction]:
                    found.append(Charge(sq, to, rng.choice([None, *Orientation]), rng.random() < 0.5))
    return rng.sample(found, min(250, len(found)))


@CI
@given(st.sampled_from([2, 3, 4]), CHOICES)
def test_apply_accepts_exactly_the_enumerated_moves(players, choices):
    rng = random.Random(len(choices))
    for before, _, _ in random_game(players, choices)[::7]:
        legal = set(GAME.legal_actions(before))
        for move in [*legal, *candidates(before, rng)]:
            try:
                GAME.apply(before, move)
                accepted = True
            except IllegalAction:
                accepted = False
            assert accepted == (move in legal), move.notation()
            # Canonical form leaves legal moves as they are, and rewrites only into legal moves.
            canonical = GAME.canonical(before, move)
            assert canonical == move if move in legal else (canonical is move or canonical in legal)


@CI
@given(st.sampled_from([2, 3, 4]), CHOICES)
def test_positions_and_moves_round_trip(players, choices):
    for before, move, after in random_game(players, choices):
        for state in (before, after):
            text = GAME.notation(state)
            assert GAME.notation(GAME.load(text)) == text
        assert GAME.parse_action(move.notation()) == move


@CI
@given(st.sampled_from([2, 3, 4]), CHOICES, st.booleans())
def test_records_round_trip_and_replay(players, choices, resign):
    steps = random_game(players, choices)
    entries = [RecordEntry(GAME.to_act(before) or "", move.notation()) for before, move, _ in steps]
    final = steps[-1][2]
    if resign and GAME.outcome(final) is None:
        entries.append(RecordEntry("blue", ending=EndingKind.RESIGNATION))
        final, _ = GAME.end(final, Ending(EndingKind.RESIGNATION, "blue"))
    record = GameRecord("pikemen", GAME.notation(GAME.new(players, {}, 0)), entries, players, {"target": "12"}, 0)
    again = GameRecord.from_json(record.to_json())
    assert again == record
    replayed = again.final_state()
    assert GAME.notation(replayed) == GAME.notation(final)
    assert GAME.outcome(replayed) == GAME.outcome(final)
