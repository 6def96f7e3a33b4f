"""Tic-tac-toe's evaluation for the host's computer players (engine/search.py).

`evaluate(state, side)` is asked only about games that go on, and answers in the search's
points: about 100 is a clear but small advantage, and the search keeps ±100,000 for the
wins and losses it proves itself. Here a line one side could still complete is worth 10
with one of its marks in it and 60 with two; the other side's lines count against it.
"""

from __future__ import annotations

from collections.abc import Sequence

from tictactoe.game import LINES, Board, Mark

WORTH = {1: 10.0, 2: 60.0}
# Centre, then corners, then edges: the order that finds good moves first (a faster search).
PREFERENCE = {4: 0, 0: 1, 2: 1, 6: 1, 8: 1, 1: 2, 3: 2, 5: 2, 7: 2}


def evaluate(state: Board, side: str) -> float:
    other = "o" if side == "x" else "x"
    score = 0.0
    for line in LINES:
        marks = [state.cells[i] for i in line]
        if other not in marks:
            score += WORTH.get(marks.count(side), 0.0)
        if side not in marks:
            score -= WORTH.get(marks.count(other), 0.0)
    return score


def order(state: Board, actions: Sequence[Mark]) -> list[Mark]:
    return sorted(actions, key=lambda action: PREFERENCE[action.square])
