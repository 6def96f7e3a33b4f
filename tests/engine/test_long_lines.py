"""What a long game keeps for its draw rules (docs/architecture.md, "Long matches"): Nika every
position's key, its older ones settled into a sorted array; Pikemen only the keys since pieces
last left the board; Numica those since the last capture or first move. The counts are the
rules' own, however long the line and across a snapshot, and snapshots of the first format
still restore."""

from __future__ import annotations

import json
import random

import pytest
from nika_scenarios import START, game, play

from engine.history import History, pack
from engine.nika import GameState, Outcome, Pass, Reason
from engine.pikemen.endings import QUIET_TURNS
from engine.pikemen.game import GAME as PIKEMEN
from engine.registry import get_game

_CYCLE = ["rotate k5 e", "rotate k5 n", *["pass"] * 6]  # back to the start position every 8 actions


def test_nika_counts_a_position_from_long_ago_once_its_keys_are_settled(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(History, "SETTLE", 2)  # settle after every two keys
    state = play(START, *_CYCLE, *_CYCLE[:-1])
    assert state.history is not None and state.history.parent is None and len(state.history.settled) >= 12
    assert state.times_seen(game(START).position) == 2
    drawn, _ = state.apply(Pass())
    assert drawn.outcome == Outcome(None, Reason.REPETITION)
    restored = GameState.restore(state.snapshot())
    assert restored.times_seen(game(START).position) == 2 and restored.plies == state.plies
    assert restored.apply(Pass())[0].outcome == Outcome(None, Reason.REPETITION)


def test_a_long_nika_line_counts_every_position_as_a_plain_list_would() -> None:
    rng = random.Random(3)
    state = play(START, *_CYCLE)  # the start position twice
    seen = [game(START).position, *[play(START, *_CYCLE[: n + 1]).position for n in range(8)]]
    while len(seen) < 3 * History.SETTLE + 50:
        legal = [a for a in state.legal_actions() if a.notation() != "pass"]
        state, _ = state.apply(rng.choice(legal))
        seen.append(state.position)
        assert state.times_seen() == seen.count(state.position)
    assert state.history is not None and len(state.history.keys) <= History.SETTLE
    for position in seen[:12] + seen[-5:]:
        assert state.times_seen(position) == seen.count(position)
    restored = GameState.restore(state.snapshot())
    assert all(restored.times_seen(p) == seen.count(p) for p in seen[:12] + seen[-5:])
    action = next(a for a in state.legal_actions() if a.notation() != "pass")
    assert restored.apply(action)[0] == state.apply(action)[0]


def test_a_nika_snapshot_of_the_first_format_still_restores() -> None:
    state = play(START, *_CYCLE, *_CYCLE[:-1])
    data = json.loads(state.snapshot())
    assert state.history is not None
    keys = state.history.prefix(state.length)  # format 1: every key in order of play, the newest last
    old = json.dumps({**{k: v for k, v in data.items() if k != "settled"}, "format": 1, "history": pack(keys)})
    restored = GameState.restore(old)
    assert restored.times_seen(game(START).position) == 2
    assert restored.apply(Pass())[0].outcome == Outcome(None, Reason.REPETITION)


def test_pikemen_keeps_only_the_keys_since_pieces_last_left_the_board() -> None:
    """Captures and departures with pieces never come back, so nothing before one can recur:
    counting among all keys or among those since gives the same, and those since are few."""
    rng = random.Random(11)
    captures = 0
    for seed in range(3):
        state = PIKEMEN.new(2, {}, seed)
        seen = [hash(state.position.key)]
        while PIKEMEN.outcome(state) is None:
            state, _ = PIKEMEN.apply(state, rng.choice(PIKEMEN.legal_actions(state)))
            seen.append(hash(state.position.key))
            kept = state.history.prefix(state.length)
            assert len(kept) <= QUIET_TURNS + len(state.position.seats)
            assert state.times_seen() == seen.count(seen[-1])
            if state.position.quiet == 0:  # just captured
                captures += 1
                assert list(kept) == [seen[-1]]
            if len(seen) % 7 == 0 and PIKEMEN.outcome(state) is None:
                text = PIKEMEN.snapshot(state)
                assert text is not None
                restored = PIKEMEN.restore(text)
                assert restored.length == state.length and restored.times_seen() == state.times_seen()
    assert captures > 3


def test_numica_keeps_only_the_keys_since_the_last_capture_or_first_move() -> None:
    numica = get_game("numica")
    rng = random.Random(2)
    state = numica.new(2, {"setup": "random"}, 4)
    longest = 0
    while numica.outcome(state) is None:
        state, _ = numica.apply(state, rng.choice(list(numica.legal_actions(state))))
        longest = max(longest, len(state.history))
        assert len(state.history) <= 101
    assert longest > 1
