"""Repetition keys a long Nika line keeps in memory, with and without the archive
(engine/archive.py), and the CPU time of its actions: `python -m bench.keys`.

A line of 20,000 random legal actions (passes and winning moves aside) is played twice from the start: once keeping
every key (as matches made before migration 24 do), once archiving (the store played by a dict
here, as the service's table is). At 100, 5,000 and 20,000 actions it prints the bytes the
line's history keeps alive (tracemalloc, after a collection) and the CPU time per action over the
last stretch, and how many counts the store had to answer. Archiving, it also prints the
largest deep size of a state and the state before it together, at the actions that grew the
archive: what a match's cached state holds then (its undo point keeps the line before)."""

from __future__ import annotations

import os
import random
import time
from array import array

from bench.sizes import deep_size
from engine.archive import ArchiveLookup
from engine.nika.actions import Action
from engine.nika.state import GameState

MARKS = (100, 5_000, 20_000)


def key_bytes(state: GameState) -> int:
    """Bytes of repetition keys the state's history holds: its segments' arrays, the settled
    part, the archive's filter and answers (History.held_bytes, what the service's cache weighs)."""
    assert state.history is not None
    return state.history.held_bytes()


def play(archiving: bool, seed: int) -> list[tuple[int, int, float, int]]:
    rng = random.Random(seed)
    state = GameState.start()
    if archiving:
        state = state.archiving()
    stored = array("q", [state.newest_key[1]])  # the host's store: the key of every ply
    lookups = 0
    rows: list[tuple[int, int, float, int]] = []
    started = time.process_time()
    stretch = 0
    for done in range(1, MARKS[-1] + 1):
        legal: list[Action] = [a for a in state.legal_actions() if a.notation() != "pass"]
        rng.shuffle(legal)
        bare = GameState.from_position(state.position)  # tried without touching the line's history
        action = next(a for a in legal if bare.apply(a)[0].outcome is None)
        before = state
        while True:
            try:
                state, _ = state.apply(action)
                break
            except ArchiveLookup as need:  # the host's answer, from the keys of plies below the archive
                lookups += 1
                need.archive.learn(need.key, stored[: need.archive.size].count(need.key))
        assert state.history is not None and before.history is not None
        if state.history.root().archived > before.history.root().archived:  # the archive grew
            global LARGEST
            LARGEST = max(LARGEST, (deep_size((state, before)), deep_size(state)))
        del stored[state.length - 1 :]
        stored.append(state.newest_key[1])
        if state.outcome is not None:
            raise SystemExit(f"the line ended at {done}: {state.outcome}")
        if done in MARKS:
            cpu = (time.process_time() - started) / (done - stretch) * 1000
            rows.append((done, key_bytes(state), cpu, lookups))
            started, stretch = time.process_time(), done
    return rows


LARGEST = (0, 0)  # (a state and the one before it, that state alone) at an archive's growth


def main() -> None:
    print(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f}")
    for archiving in (False, True):
        for done, held, cpu, lookups in play(archiving, seed=3):
            label = "archiving" if archiving else "in memory"
            print(f"{label:9} {done:6} actions: keys {held / 1024:6.1f} KiB, "
                  f"{cpu:.3f} ms CPU/action, {lookups} look-ups")  # fmt: skip
    both, alone = LARGEST
    print(f"at the actions that grew the archive: the state {alone / 1024:.1f} KiB, with the state before it "
          f"{both / 1024:.1f} KiB (deep sizes)")


if __name__ == "__main__":
    main()
