"""Benchmark of the board renderer: `python bench/render.py` from the project root.

Renders 100 varied positions (random legal playouts from the start, fixed
seed) and prints the median and p95 time per board, state in to PNG bytes out,
with the share spent encoding the PNG; then times a 150-action replay GIF.
Caches are warmed first: the numbers are what a running bot pays per board.
"""

from __future__ import annotations

import io
import random
import statistics
import sys
import time
from pathlib import Path

# This file is itself named render.py: put the project root first on the path in place of
# bench/, or `import render` below would import this script.
sys.path[0] = str(Path(__file__).resolve().parent.parent)

from engine.nika.actions import Pass  # noqa: E402
from engine.nika.events import Event  # noqa: E402
from engine.nika.record import GameRecord, RecordEntry  # noqa: E402
from engine.nika.state import GameState  # noqa: E402
from render import render_board, render_replay  # noqa: E402
from render.board import compose  # noqa: E402
from render.encode import PNG_LEVEL, to_palette  # noqa: E402

POSITIONS = 100
REPLAY_ACTIONS = 150
SEED = 20240607


def random_positions(count: int, seed: int) -> list[tuple[GameState, list[Event]]]:
    """Varied positions with the events that led to them, each after a random playout."""
    rng = random.Random(seed)
    found: list[tuple[GameState, list[Event]]] = []
    while len(found) < count:
        state, events = GameState.start(), []
        for _ in range(rng.randrange(1, 120)):
            actions = [a for a in state.legal_actions() if not isinstance(a, Pass)] or state.legal_actions()
            if not actions:
                break
            state, events = state.apply(rng.choice(actions))
            if state.is_over:
                break
        found.append((state, events))
    return found


def random_record(actions: int, seed: int) -> GameRecord:
    """A record of `actions` random legal actions; a game that ends early is thrown away
    and another seed tried, so the replay really has that many frames."""
    while True:
        rng = random.Random(seed)
        state = GameState.start()
        record = GameRecord(state.notation())
        while len(record.entries) < actions and not state.is_over:
            action = rng.choice(state.legal_actions())
            record.entries.append(RecordEntry(state.to_act, action.notation()))
            state, _ = state.apply(action)
        if len(record.entries) == actions:
            return record
        seed += 1


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def main() -> None:
    positions = random_positions(POSITIONS, SEED)
    for state, events in positions[:4]:  # warm the caches: empty boards, sprites, panels, palette
        render_board(state, events)

    totals: list[float] = []
    mappings: list[float] = []
    zlibs: list[float] = []
    sizes: list[int] = []
    for state, events in positions:
        start = time.perf_counter()
        rendered = render_board(state, events)
        totals.append((time.perf_counter() - start) * 1000)
        sizes.append(len(rendered.png))
        # The same board again in its stages, to see where the time goes.
        image = compose(state, events)
        start = time.perf_counter()
        indexed = to_palette(image)
        mapped = time.perf_counter()
        indexed.save(io.BytesIO(), "PNG", compress_level=PNG_LEVEL)
        mappings.append((mapped - start) * 1000)
        zlibs.append((time.perf_counter() - mapped) * 1000)

    median = statistics.median(totals)
    mapping, deflate = statistics.median(mappings), statistics.median(zlibs)
    print(f"boards rendered:          {len(totals)} (random playouts, seed {SEED}), state in -> PNG bytes out")
    print(f"per board, median:        {median:.2f} ms")
    print(f"per board, p95:           {percentile(totals, 0.95):.2f} ms")
    encoding = mapping + deflate
    print(f"PNG encoding, median:     {encoding:.2f} ms = {100 * encoding / median:.0f} % of a board")
    print(f"  of which:               palette mapping {mapping:.2f} ms, PNG write (zlib) {deflate:.2f} ms")
    print(f"PNG size, median / max:   {statistics.median(sizes) / 1024:.0f} KB / {max(sizes) / 1024:.0f} KB")

    record = random_record(REPLAY_ACTIONS, SEED)
    start = time.perf_counter()
    gif = render_replay(record)
    elapsed = time.perf_counter() - start
    print(f"replay of {len(record.entries)} actions:  {elapsed:.2f} s, {len(gif) / 1024 / 1024:.2f} MB GIF")


if __name__ == "__main__":
    main()
