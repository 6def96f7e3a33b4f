"""Benchmark of the board renderers: `python bench/render.py [--game SLUG]` from the project root.

For each game (every hosted game by default, each player count where seats differ),
renders 100 varied states (random legal playouts, fixed seed) and prints the median and
p95 time per board, state in to PNG bytes out, with the share spent encoding the PNG;
checks that the bytes are deterministic; then times a 150-action replay GIF.
Caches are warmed first: the numbers are what a running bot pays per board.
"""

from __future__ import annotations

import argparse
import io
import random
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

# This file is itself named render.py: put the project root first on the path in place of
# bench/, or `import render` below would import this script.
sys.path[0] = str(Path(__file__).resolve().parent.parent)

from engine import AnyGame, games, get_game  # noqa: E402
from engine.i18n import using  # noqa: E402
from engine.record import GameRecord, RecordEntry  # noqa: E402
from render import render_replay, render_state  # noqa: E402
from render.encode import PNG_LEVEL, to_palette  # noqa: E402
from render.registry import artist_for  # noqa: E402
from render.words import catalog, language_of  # noqa: E402

POSITIONS = 100
REPLAY_ACTIONS = 150
SEED = 20240607
TARGET_MS = 15.0


def _begin(game: AnyGame, players: int, seed: int, rng: random.Random) -> tuple[Any, Any, dict[str, str]]:
    """(the new state, the state where play begins, setup choices)."""
    first = game.new(players, game.option_defaults(), seed)
    setup = {seat: rng.choice(list(game.setup_choices(first, seat))).value for seat in game.setup_pending(first)}
    state = game.apply_setup(first, setup)[0] if setup else first
    return first, state, setup


def random_states(game: AnyGame, players: int, count: int, seed: int) -> list[tuple[Any, list[Any]]]:
    """Varied states with the events that led to them, each after a random playout."""
    rng = random.Random(seed)
    found: list[tuple[Any, list[Any]]] = []
    while len(found) < count:
        _, state, _ = _begin(game, players, len(found), rng)
        events: Sequence[Any] = []
        for _ in range(rng.randrange(1, 120)):
            actions = list(game.legal_actions(state))
            if not actions:
                break
            state, events = game.apply(state, rng.choice(actions))
            if game.outcome(state) is not None:
                break
        found.append((state, list(events)))
    return found


def random_record(game: AnyGame, players: int, actions: int, seed: int) -> GameRecord:
    """A record of `actions` random legal actions; a game that ends early is thrown away
    and another seed tried, so the replay really has that many frames."""
    while True:
        rng = random.Random(seed)
        first, state, setup = _begin(game, players, seed, rng)
        record = GameRecord(game.slug, game.notation(first), players=players, seed=seed, setup=setup)
        while len(record.entries) < actions and game.outcome(state) is None:
            action = rng.choice(list(game.legal_actions(state)))
            record.entries.append(RecordEntry(game.to_act(state) or "", action.notation()))
            state, _ = game.apply(state, action)
        if len(record.entries) == actions:
            return record
        seed += 1


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def bench(game: AnyGame, players: int, locale: str = "en") -> bool:
    artist = artist_for(game.slug)
    states = random_states(game, players, POSITIONS, SEED)
    for state, events in states[:4]:  # warm the caches: empty boards, sprites, panels, palette
        render_state(game.slug, state, [events], locale=locale)

    totals: list[float] = []
    mappings: list[float] = []
    zlibs: list[float] = []
    sizes: list[int] = []
    deterministic = True
    for state, events in states:
        start = time.perf_counter()
        rendered = render_state(game.slug, state, [events], locale=locale)
        totals.append((time.perf_counter() - start) * 1000)
        sizes.append(len(rendered.png))
        deterministic &= render_state(game.slug, state, [events], locale=locale) == rendered
        # The same board again in its stages, to see where the time goes.
        with using(catalog(locale)):
            image = artist.picture(state, [events], locale=language_of(locale))
        start = time.perf_counter()
        indexed = to_palette(image, artist.palette())
        mapped = time.perf_counter()
        indexed.save(io.BytesIO(), "PNG", compress_level=PNG_LEVEL)
        mappings.append((mapped - start) * 1000)
        zlibs.append((time.perf_counter() - mapped) * 1000)

    median = statistics.median(totals)
    mapping, deflate = statistics.median(mappings), statistics.median(zlibs)
    ok = median <= TARGET_MS and deterministic
    print(f"{game.title}, {players} players: {len(totals)} boards (random playouts, seed {SEED})")
    verdict = "ok" if median <= TARGET_MS else "MISSED"
    print(f"  per board, median:      {median:.2f} ms  (target ≤ {TARGET_MS:g} ms: {verdict})")
    print(f"  per board, p95:         {percentile(totals, 0.95):.2f} ms")
    encoding = mapping + deflate
    print(f"  PNG encoding, median:   {encoding:.2f} ms = {100 * encoding / median:.0f} % of a board")
    print(f"    of which:             palette mapping {mapping:.2f} ms, PNG write (zlib) {deflate:.2f} ms")
    print(f"  PNG size, median / max: {statistics.median(sizes) / 1024:.0f} KB / {max(sizes) / 1024:.0f} KB")
    print(f"  same bytes twice:       {'yes' if deterministic else 'NO'}")
    print(f"  alt text (last board): {rendered.alt_text[:70]}…")

    record = random_record(game, players, REPLAY_ACTIONS, SEED)
    start = time.perf_counter()
    gif = render_replay(record)
    elapsed = time.perf_counter() - start
    print(f"  replay of {len(record.entries)} actions: {elapsed:.2f} s, {len(gif) / 1024 / 1024:.2f} MB GIF")
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--game", help="one game's slug (default: every hosted game)")
    parser.add_argument("--locale", default="en", help="the language boards are lettered in (en, es)")
    args = parser.parse_args(argv)
    ok = True
    if args.locale != "en":
        print(f"Boards in {args.locale}")
    for game in [get_game(args.game)] if args.game else list(games()):
        counts = game.player_counts if game.seat_sets_differ() else game.player_counts[-1:]
        for players in counts:
            ok = bench(game, players, args.locale) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
