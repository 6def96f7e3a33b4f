"""One suite over every installed game (the built-ins, and tic-tac-toe from its own package):
over seeded random playouts, the interface keeps its promises. A game's author runs it on
their game from a checkout of the host, with the game installed: `python -m pytest
tests/conformance -k <slug>` (each case is named `<slug>-<players>`).

- every enumerated legal action applies, and actions that are not legal are refused
  without changing anything;
- position and action notation, and game records, round-trip exactly;
- every action's events describe in words;
- the board renders to a PNG that decodes, with alt text of at most 1024 characters;
- the menus built from action paths cover exactly the legal actions;
- outcomes, on the board and off it (resignation, agreement), name only the game's own seats.
"""

from __future__ import annotations

import io
import random
from typing import Any

import pytest
from PIL import Image

from bot import menus
from engine import AnyGame, Ending, EndingKind, IllegalAction, games
from engine.api import check_outcome
from engine.record import GameRecord, RecordEntry
from render import render_state

PLAYOUTS = 3
PLIES = 60
CASES = [
    pytest.param(game, players, id=f"{game.slug}-{players}")
    for game in games()
    for players in (game.player_counts if game.seat_sets_differ() else game.player_counts[-1:])
]


def new_game(game: AnyGame, players: int, seed: int, rng: random.Random) -> tuple[Any, dict[str, str]]:
    state = game.new(players, game.option_defaults(), seed)
    setup = {}
    pending = game.setup_pending(state)
    if pending:
        setup = {seat: rng.choice(list(game.setup_choices(state, seat))).value for seat in pending}
        state, _ = game.apply_setup(state, setup)
    return state, setup


def playout(game: AnyGame, players: int, seed: int) -> tuple[Any, dict[str, str], list[tuple[Any, Any, Any]]]:
    """(start state, setup, [(state before, action, events)]) of a random game."""
    rng = random.Random(seed)
    start, setup = new_game(game, players, seed, rng)
    state, steps = start, []
    while game.outcome(state) is None and len(steps) < PLIES:
        action = rng.choice(list(game.legal_actions(state)))
        after, events = game.apply(state, action)
        steps.append((state, action, events))
        state = after
    return start, setup, steps


@pytest.mark.parametrize(("game", "players"), CASES)
def test_legal_actions_apply_and_others_are_refused_without_change(game, players):
    seen_elsewhere: dict[str, Any] = {}
    for seed in range(PLAYOUTS):
        _, _, steps = playout(game, players, seed)
        for state, _, _ in steps[::5]:
            before = game.notation(state)
            legal = {a.notation() for a in game.legal_actions(state)}
            for action in game.legal_actions(state):
                game.apply(state, action)
            for text, action in list(seen_elsewhere.items())[:80]:
                if text not in legal:
                    with pytest.raises(IllegalAction):
                        game.apply(state, action)
            assert game.notation(state) == before
            for action in game.legal_actions(state):
                seen_elsewhere.setdefault(action.notation(), action)


@pytest.mark.parametrize(("game", "players"), CASES)
def test_notation_round_trips(game, players):
    for seed in range(PLAYOUTS):
        start, _, steps = playout(game, players, seed)
        for state in [start, *(s for s, _, _ in steps)]:
            text = game.notation(state)
            assert game.notation(game.load(text)) == text
        for _, action, _ in steps:
            again = game.parse_action(action.notation())
            assert again == action and again.notation() == action.notation()


@pytest.mark.parametrize(("game", "players"), CASES)
def test_records_round_trip_and_replay(game, players):
    for seed in range(PLAYOUTS):
        rng = random.Random(seed)
        first = game.new(players, game.option_defaults(), seed)
        start, setup, steps = playout(game, players, seed)
        final = game.apply(steps[-1][0], steps[-1][1])[0] if steps else start
        entries = [RecordEntry(game.to_act(s), a.notation(), player="p") for s, a, _ in steps]
        record = GameRecord(game.slug, game.notation(first), entries, players, game.option_defaults(), seed, setup)
        again = GameRecord.from_json(record.to_json())
        assert again == record
        assert game.notation(again.final_state()) == game.notation(final)
        del rng


@pytest.mark.parametrize(("game", "players"), CASES)
def test_events_describe(game, players):
    for seed in range(PLAYOUTS):
        _, _, steps = playout(game, players, seed)
        for _, _, events in steps:
            text = game.describe(events)
            assert isinstance(text, str) and text.strip()
            assert all(isinstance(e.to_dict(), dict) for e in events)


@pytest.mark.parametrize(("game", "players"), CASES)
def test_boards_render_to_png_with_alt_text(game, players):
    start, _, steps = playout(game, players, 0)
    samples = [(start, ())] + [(game.apply(s, a)[0], (e,)) for s, a, e in steps[:: max(1, len(steps) // 4)]]
    for state, recent in samples:
        board = render_state(game.slug, state, recent)
        image = Image.open(io.BytesIO(board.png))
        image.load()
        assert image.format == "PNG" and image.width >= 200
        assert 0 < len(board.alt_text) <= 1024


@pytest.mark.parametrize(("game", "players"), CASES)
def test_menus_cover_exactly_the_legal_actions(game, players):
    _, _, steps = playout(game, players, 1)
    for state, _, _ in steps[::4]:
        legal = list(game.legal_actions(state))
        reached: list[str] = []
        pending: list[tuple[str, ...]] = [()]
        while pending:
            chosen = pending.pop()
            action = menus.action_at(game, legal, chosen)
            if action is not None:
                reached.append(action.notation())
                continue
            following = menus.next_steps(game, legal, chosen)
            assert following, f"a dead end in the menu at {chosen}"
            pending.extend((*chosen, step.value) for step in following)
        assert sorted(reached) == sorted(a.notation() for a in legal)


@pytest.mark.parametrize(("game", "players"), CASES)
def test_a_restored_snapshot_plays_on_exactly_like_the_state_it_was_taken_of(game, players):
    """A game that keeps snapshots (so the host need not replay a long log) restores a state
    that takes the same actions to the same positions and outcomes, and snapshots again alike."""
    taken = 0
    for seed in range(PLAYOUTS):
        _, _, steps = playout(game, players, seed)
        for index in range(0, len(steps), 7):
            state = steps[index][0]
            text = game.snapshot(state)
            if text is None:
                continue
            taken += 1
            restored = game.restore(text)
            for _, action, _ in steps[index:]:
                assert game.notation(restored) == game.notation(state)
                assert {a.notation() for a in game.legal_actions(restored)} == {
                    a.notation() for a in game.legal_actions(state)
                }
                state, _ = game.apply(state, action)
                restored, _ = game.apply(restored, action)
                assert game.outcome(restored) == game.outcome(state)
            assert game.snapshot(restored) == game.snapshot(state)
    if game.slug in ("nika", "numica", "pikemen"):
        assert taken > 0  # the built-in games keep snapshots


@pytest.mark.parametrize(("game", "players"), CASES)
def test_outcomes_name_only_seats_of_the_game(game, players):
    """Whole seat slugs, never the letters of one (`frozenset("north")`): the host refuses others."""
    for seed in range(PLAYOUTS):
        _, _, steps = playout(game, players, seed)
        if not steps:
            continue
        final = game.apply(steps[-1][0], steps[-1][1])[0]
        check_outcome(game, final, game.outcome(final))
        middle = steps[len(steps) // 2][0]
        seat = game.to_act(middle)
        for ending in (Ending(EndingKind.RESIGNATION, seat), Ending(EndingKind.AGREEMENT)):
            try:
                ended, _ = game.end(middle, ending)
            except IllegalAction:
                continue
            outcome = check_outcome(game, ended, game.outcome(ended))
            if ending.kind is EndingKind.RESIGNATION and outcome is not None:
                assert seat not in outcome.winners
