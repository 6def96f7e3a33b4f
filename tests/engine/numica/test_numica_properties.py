"""Properties over random legal games (seeded, so every run plays the same games).

Each state is checked against a plain reading of the rules written here from scratch, so
the precomputed move tables and the refusals are tested against an independent oracle.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.api import EndingKind
from engine.errors import IllegalAction, NotationError
from engine.numica import ARRANGEMENTS, COLOURS, SHAPES, Captured, GameState, Move, Moved, has_legal_move, parse_action
from engine.numica.board import file_of, rank_of, square_name
from engine.numica.game import GAME
from engine.record import GameRecord, RecordEntry

GAMES = 12
CI = settings(derandomize=True, max_examples=150, deadline=None, database=None)


def setup_for(seed: int) -> dict[str, str]:
    rng = random.Random(seed)
    return {colour.slug: rng.choice(list(ARRANGEMENTS)) for colour in COLOURS}


def random_game(seed: int) -> Iterator[tuple[GameState, Move | None, list]]:
    """(state, the move played from it, its events) along one random game, ending with the final state."""
    rng = random.Random(seed + 1)
    state, _ = GAME.apply_setup(GAME.new(2, {}, seed), setup_for(seed))
    while GAME.outcome(state) is None:
        move = rng.choice(list(GAME.legal_actions(state)))
        after, happened = GAME.apply(state, move)
        yield state, move, list(happened)
        state = after
    yield state, None, []


def oracle(state: GameState) -> set[str]:
    """The legal moves by the rules' words, square by square."""
    position, side, found = state.position, state.to_act, set()
    for piece in position.pieces(side):
        tile, frm = position.tiles[piece.square], piece.square
        for to in range(64):
            df, dr = file_of(to) - file_of(frm), rank_of(to) - rank_of(frm)
            straight = (df == 0) != (dr == 0) or (df != 0 and abs(df) == abs(dr))
            steps = max(abs(df), abs(dr))
            between = [frm + (step * _sign(dr)) * 8 + step * _sign(df) for step in range(1, steps)] if straight else []
            clear = all(position.piece_at(sq) is None for sq in between)
            if tile in "12345":
                reaches = straight and steps == int(tile)
            elif tile == "K":
                reaches = {abs(df), abs(dr)} == {1, 2}
            elif tile == "R":
                reaches = (df == 0) != (dr == 0) and clear
            elif tile == "B":
                reaches = df != 0 and abs(df) == abs(dr) and clear
            else:
                reaches = to != frm
            other = position.piece_at(to)
            if not reaches or (other is not None and (other.colour == side or tile == "X")):
                continue
            if other is not None and not (piece.moved or other.moved):
                continue
            found.add(f"{square_name(frm)}{'x' if other else '-'}{square_name(to)}")
    return found


def _sign(n: int) -> int:
    return (n > 0) - (n < 0)


@pytest.mark.parametrize("seed", range(GAMES))
def test_enumeration_agrees_with_the_rules_and_with_apply(seed):
    rng = random.Random(1000 + seed)
    for state, _, _ in random_game(seed):
        listed = [move.notation() for move in GAME.legal_actions(state)]
        if GAME.outcome(state) is not None:
            assert listed == []
            continue
        assert set(listed) == oracle(state) and len(listed) == len(set(listed))
        assert has_legal_move(state.position)
        for move in GAME.legal_actions(state):
            GAME.apply(state, move)
        for _ in range(30):
            move = Move(rng.randrange(64), rng.randrange(64))
            canonical = GAME.canonical(state, move).notation()
            if canonical in listed:
                assert GAME.notation(GAME.apply(state, move)[0]) == GAME.notation(
                    GAME.apply(state, parse_action(canonical))[0]
                )
            else:
                with pytest.raises(IllegalAction):
                    GAME.apply(state, move)


@pytest.mark.parametrize("seed", range(GAMES))
def test_pieces_are_only_ever_lost_to_the_other_side(seed):
    for state, move, happened in random_game(seed):
        for colour in COLOURS:
            for shape in SHAPES:
                on_board = sum(1 for p in state.position.pieces(colour) if p.shape == shape)
                assert on_board == 4 - state.position.captured(colour, shape)
        if move is None:
            continue
        moved = happened[0]
        assert isinstance(moved, Moved) and moved.colour == state.to_act
        captured = [e for e in happened if isinstance(e, Captured)]
        assert all(e.colour != moved.colour for e in captured)
        assert bool(captured) == move.capture
        after = GAME.apply(state, move)[0]
        lost = sum(state.position.captured(c, s) for c in COLOURS for s in SHAPES)
        assert sum(after.position.captured(c, s) for c in COLOURS for s in SHAPES) == lost + len(captured)


@pytest.mark.parametrize("seed", range(GAMES))
def test_notation_round_trips(seed):
    for state, move, _ in random_game(seed):
        text = GAME.notation(state)
        assert GAME.notation(GAME.load(text)) == text
        if move is not None:
            assert parse_action(move.notation()) == move and parse_action(move.notation()).notation() == move.notation()


@pytest.mark.parametrize("seed", range(0, GAMES, 3))
def test_records_replay_every_position(seed):
    steps = list(random_game(seed))
    first = GAME.new(2, {}, seed)
    setup = setup_for(seed)
    entries = [RecordEntry(s.to_act.slug, m.notation(), player="p") for s, m, _ in steps if m is not None]
    record = GameRecord("numica", GAME.notation(first), entries, 2, GAME.option_defaults(), seed, setup)
    again = GameRecord.from_json(record.to_json())
    assert again == record
    assert [GAME.notation(s) for s, _ in again.replay()] == [GAME.notation(s) for s, _, _ in steps]
    resigning = [*entries[:5], RecordEntry("red", ending=EndingKind.RESIGNATION)]
    resigned = GameRecord("numica", GAME.notation(first), resigning, 2, {}, seed, setup)
    assert GAME.outcome(GameRecord.from_json(resigned.to_json()).final_state()).reason == "resignation"


@CI
@given(st.text(max_size=20))
def test_any_text_is_a_move_or_a_reason(text):
    try:
        move = parse_action(text)
    except NotationError as refused:
        assert str(refused)
    else:
        assert parse_action(move.notation()) == move


@CI
@given(st.text(alphabet="12345KRBXkrbx/ :-,*soredbluRB0123456789abcdefgh", max_size=120))
def test_any_text_is_a_position_or_a_reason(text):
    try:
        state = GAME.load(text)
    except NotationError as refused:
        assert str(refused)
    else:
        assert GAME.notation(GAME.load(GAME.notation(state))) == GAME.notation(state)
