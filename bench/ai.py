"""Strength benchmark of the computer player (engine/search.py): whole games against
reference opponents, played on every core. Prints numbers; never part of the test run.

    /tmp/v/bin/python bench/ai.py [--game nika] [--games 100] [--level hard] [--budget-ms 1000]
                                  [--round-robin 6] [--workers 2] [--cap 400] [--seed 1]

`--budget-ms` is the level's time per action (default: its normal budget, search.BUDGET_MS);
`think` is given that times the actions left in the turn. `--round-robin 0` skips the short
tournament between the levels and the reference player; `--games 0` skips the main match.

Each game's section is its own module: Nika's in bench/ai_nika.py, Numica's and Pikemen's in
bench/ai_games.py; the matches, players and reports they share in bench/playing.py.
"""

from __future__ import annotations

import argparse
import platform
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.ai_games import numica, pikemen
from bench.ai_nika import nika
from engine.search import LEVELS

SECTIONS: dict[str, Callable[[argparse.Namespace], None]] = {"nika": nika, "numica": numica, "pikemen": pikemen}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--game", required=True, choices=sorted(SECTIONS))
    parser.add_argument("--games", type=int, default=100, help="games of the main match (0 skips it)")
    parser.add_argument("--level", default="hard", choices=LEVELS)
    parser.add_argument("--budget-ms", type=float, default=0, help="time per action (default: the level's own)")
    parser.add_argument("--round-robin", type=int, default=6, help="games per pairing of the round robin (0 skips)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--cap", type=int, default=400, help="actions before a game is called a draw")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    print(f"AI benchmark · Python {platform.python_version()} · {platform.machine()} · "
          f"{args.workers} workers · seed {args.seed}")  # fmt: skip
    SECTIONS[args.game](args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
