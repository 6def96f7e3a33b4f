"""Benchmark of the board renderers: `python bench/render.py [--game SLUG] [--locale en|es|all]`.

Boards: for each game (every hosted game by default, each player count where seats differ)
and each language, renders 100 varied states (random legal playouts, fixed seed) and prints
the median and p95 CPU time per board, state in to PNG bytes out (alt text included), beside
the time Pillow takes just to encode the same final image (the floor a board cannot go under),
and the median of each board's ratio to its own encoding, timed right after it (target ≤ 1.5×);
checks that the bytes are deterministic. With `--clocks`, every board carries the clocks strip
of a match with clocks (render/clocks.py), as a match's posts do: the clock of the seat to act
reads a new time on every board, the others the time their last turn left them.

Replays: a 300-action replay of every game (target ≤ 3 MB), and the longest match up to
1,000 actions the bench can play (target: one upload, ≤ the bot's REPLAY_BYTES_MAX, drawn in
one pass), with their CPU time and size. Matches are random legal playouts that steer clear of
ending the game; Numica's and Pikemen's quiet-move rules end every match well before 1,000.

Times are CPU time of the rendering thread (steadier than wall time on a shared machine);
caches are warmed first with 300 other boards, so the numbers are what a running bot pays per
board.
"""

from __future__ import annotations

import argparse
import io
import os
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

from PIL import Image  # noqa: E402

from engine import AnyGame, games, get_game  # noqa: E402
from engine.record import GameRecord, RecordEntry  # noqa: E402
from render import render_replay, render_state, warm_up  # noqa: E402
from render.encode import PNG_LEVEL  # noqa: E402
from render.seat_times import Clocks, SeatTime  # noqa: E402

POSITIONS = 100
WARM_UP = 300  # boards drawn first, not measured: a running bot has drawn many more
SHORT_REPLAY = 300
LONG_REPLAY = 1000
SEED = 20240607
RATIO_TARGET = 1.5
SHORT_REPLAY_BYTES = 3_000_000  # megabytes here are millions of bytes
UPLOAD_BYTES = 9_500_000  # bot/service/reading.py's REPLAY_BYTES_MAX: under Discord's 10 MB


def _cpu_ms(since: float) -> float:
    return (time.thread_time() - since) * 1000


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


def _lasting(game: AnyGame, state: Any, rng: random.Random) -> tuple[Any, Any]:
    """A random legal action that does not end the game, preferring one with the fewest events
    (a quiet move before a capture), so that random matches last; any action if all end it."""
    actions = list(game.legal_actions(state))
    rng.shuffle(actions)
    best: tuple[tuple[bool, int], Any] | None = None
    for action in actions:
        after, events = game.apply(state, action)
        key = (game.outcome(after) is not None, len(events))
        if best is None or key < best[0]:
            best = (key, action)
        if key == (False, 1):
            break
    assert best is not None
    return best[1], best[0]


def long_record(game: AnyGame, players: int, actions: int, seed: int, tries: int = 6) -> GameRecord:
    """A record of `actions` legal actions, or the longest of a few tries if the game's rules end
    it sooner."""
    longest: GameRecord | None = None
    for attempt in range(tries):
        rng = random.Random(seed + attempt)
        first, state, setup = _begin(game, players, seed + attempt, rng)
        record = GameRecord(game.slug, game.notation(first), players=players, seed=seed + attempt, setup=setup)
        while len(record.entries) < actions and game.outcome(state) is None:
            action, _ = _lasting(game, state, rng)
            record.entries.append(RecordEntry(game.to_act(state) or "", action.notation()))
            state, _ = game.apply(state, action)
        if longest is None or len(record.entries) > len(longest.entries):
            longest = record
        if len(record.entries) == actions:
            break
    assert longest is not None
    return longest


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def _encode_ms(png: bytes) -> float:
    """CPU time to encode the final image again as the renderer does: the floor of a board."""
    with Image.open(io.BytesIO(png)) as decoded:
        decoded.load()
        image = decoded.copy()
    start = time.thread_time()
    image.save(io.BytesIO(), "PNG", compress_level=PNG_LEVEL)
    return _cpu_ms(start)


def clocks_of(game: AnyGame, players: int, state: Any, index: int, times: dict[str, float]) -> Clocks:
    """A clock per seat, as a match's posts show them: the seat to act's runs and reads a new time
    on every board; the others stand with the time their last turn left them (`times`)."""
    acting = game.to_act(state)
    if acting is not None:
        times[acting] = (index * 3_700) % (30 * 86_400)
    seats = game.seats(players)
    return Clocks(tuple(SeatTime(s.slug, s.title, times.get(s.slug, 86_400.0), s.slug == acting) for s in seats))


def bench_boards(game: AnyGame, players: int, locale: str, *, with_clocks: bool = False) -> bool:
    states = random_states(game, players, POSITIONS, SEED)
    counter = iter(range(10**9))
    times: dict[str, float] = {}

    def timed(state: Any) -> Clocks | None:
        return clocks_of(game, players, state, next(counter), times) if with_clocks else None

    # Warm the caches (empty boards, sprites, panels, the palette and the pastes composed in it)
    # as the bot does at start-up, then with other boards, as a running bot's are: it has drawn
    # many before this one.
    warm_up([game.slug])
    for state, events in random_states(game, players, WARM_UP, SEED + 1):
        render_state(game.slug, state, [events], locale=locale, clocks=timed(state))
    boards: list[float] = []
    encodes: list[float] = []
    sizes: list[int] = []
    deterministic = True
    for state, events in states:  # interleaved: a board, then the encoding of that same image
        clocks = timed(state)
        start = time.thread_time()
        rendered = render_state(game.slug, state, [events], locale=locale, clocks=clocks)
        boards.append(_cpu_ms(start))
        encodes.append(_encode_ms(rendered.png))
        sizes.append(len(rendered.png))
        deterministic &= render_state(game.slug, state, [events], locale=locale, clocks=clocks) == rendered
    board, encode = statistics.median(boards), statistics.median(encodes)
    # Each board's own ratio, its encoding timed right after it: a busy machine slows both alike.
    ratio = statistics.median(b / e for b, e in zip(boards, encodes, strict=True))
    ok = ratio <= RATIO_TARGET and deterministic
    verdict = "ok" if ratio <= RATIO_TARGET else "MISSED"
    same = "yes" if deterministic else "NO"
    kind = "boards with clocks" if with_clocks else "boards"
    print(f"  {kind}, {locale}: median {board:.2f} ms, p95 {percentile(boards, 0.95):.2f} ms; "
          f"encoding the same image {encode:.2f} ms; ratio {ratio:.2f}× (target ≤ {RATIO_TARGET:g}×: {verdict}); "
          f"PNG median {statistics.median(sizes) / 1024:.0f} KB; same bytes twice: {same}")  # fmt: skip
    return ok


def _replay(record: GameRecord, locale: str) -> tuple[bytes, float, float]:
    start, wall = time.thread_time(), time.perf_counter()
    gif = render_replay(record, locale=locale)
    return gif, time.thread_time() - start, time.perf_counter() - wall


def bench_replays(game: AnyGame, players: int, locale: str) -> bool:
    ok = True
    for wanted, limit in ((SHORT_REPLAY, SHORT_REPLAY_BYTES), (LONG_REPLAY, UPLOAD_BYTES)):
        record = long_record(game, players, wanted, SEED)
        gif, cpu, wall = _replay(record, locale)
        frames = len(record.entries) + 1
        fits = len(gif) <= limit
        ok &= fits
        note = "" if len(record.entries) == wanted else " (the longest the rules allowed in 6 playouts)"
        target = f"≤ {limit / 1e6:.1f} MB" if wanted == SHORT_REPLAY else f"≤ {limit / 1e6:.1f} MB, one pass"
        print(f"  replay of {len(record.entries)} actions{note}: {len(gif) / 1e6:.2f} MB "
              f"({len(gif) / frames / 1024:.1f} KB a frame), {cpu:.2f} s CPU, {wall:.2f} s wall, {locale} "
              f"(target {target}: {'ok' if fits else 'MISSED'})")  # fmt: skip
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--game", help="one game's slug (default: every hosted game)")
    parser.add_argument("--locale", default="all", help="the language boards are lettered in: en, es or all")
    parser.add_argument("--only", choices=("boards", "replays"), help="run one half of the benchmark")
    parser.add_argument("--clocks", action="store_true", help="boards of matches with clocks: the strip under each")
    args = parser.parse_args(argv)
    locales = ["en", "es"] if args.locale == "all" else [args.locale]
    load = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    print(f"{os.cpu_count()} cores, load average {load}; Python {sys.version.split()[0]}")
    ok = True
    for game in [get_game(args.game)] if args.game else list(games()):
        counts = game.player_counts if game.seat_sets_differ() else game.player_counts[-1:]
        for players in counts:
            print(f"{game.title}, {players} players ({POSITIONS} boards from random playouts, seed {SEED})")
            if args.only != "replays":
                for locale in locales:
                    ok = bench_boards(game, players, locale, with_clocks=args.clocks) and ok
            if args.only != "boards":
                for locale in locales:
                    ok = bench_replays(game, players, locale) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
