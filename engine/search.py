"""The computer player shared by every hosted game: levels, search and the `think` entry point.

The search sees a game only through `engine.api.Game` and the game's evaluation, which its
package names under the entry point group `boardgame_host.evaluations` (engine/plugins.py),
usually a module. It exposes

    evaluate(state, side) -> float          how good `state` is for `side` (0 is even)
    order(state, actions) -> [action]       the actions, most promising first    (optional)
    key(state) -> hashable                  what transpositions share   (optional: notation)
    focus(root) -> evaluate                 an `evaluate` for a search rooted at `root`, for
                                            what is worth computing once per search (optional)
    actions_to_win(state, side) -> int      a lower bound on the actions `side` still needs
                                            to win, to cut proofs of claims short (optional)
    DRAW_MARGIN: float                      how far behind "clearly worse" is   (optional)
    EASY_MARGIN: float                      how much worse than its best an easy choice may
                                            look, in the evaluation's points  (optional)

A game without one is searched with a neutral evaluation: only wins and losses count.

The contract of `evaluate`: a pure function of the state, deterministic, the same number for
the same position whichever seat is to act; positive when `side` stands better; antisymmetric
in a two-sided game (what one side gains the other loses); on the scale of about 100 points
for a clear but small advantage (a pawn in chess), and far below `WIN` (100,000), which the
search keeps for positions it has proved won or lost. It is asked only about games that go on
(the search scores finished ones itself), up to hundreds of thousands of times an action:
keep it to a few microseconds.

The search is alpha-beta over *sides*, not seats: a node maximises when the seat to act
plays for the searching side and minimises otherwise. A team of two seats with two actions a
turn each therefore needs nothing special: the plies of one side simply all maximise, and a
seat's two actions are searched as a sequence. With more than two sides the search
is "paranoid" (every other side plays against us), which is exact for two.

Effort is counted in nodes, so the same state, level, budget and seed always give the same
actions whatever the machine's load; the wall clock is only a safety cap. Nothing here is
global mutable state: `think` can run in a worker process, and its arguments and results
pickle. Computers never declare a claim and never offer a draw; they only answer them
(`accepts_draw`, `concedes_claim`).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from engine import plugins
from engine.api import AnyGame, seat_table

LEVELS = ("easy", "normal", "hard")

WIN = 100_000.0
_DECIDED = WIN - 10_000.0  # scores beyond this are wins or losses the search found


@dataclass(frozen=True, slots=True)
class Level:
    """How hard a level tries. `nodes` is the search effort per action at its normal budget,
    `normal_ms` that budget per action; a smaller budget scales the effort down in proportion
    (so a test can ask for a quick answer), a larger one does not raise it."""

    name: str
    nodes: int  # 0: no search, one action ahead only
    normal_ms: float
    max_depth: int
    greed: float = 1.0  # chance of playing the best choice rather than a random fair one
    fair_margin: float = 0.0  # a "fair" choice scores at most this much below the best
    noise: float = 0.0  # random points added to each choice at the root: games vary with the seed


LEVEL_SETTINGS: dict[str, Level] = {
    "easy": Level("easy", nodes=0, normal_ms=50, max_depth=1, greed=0.3, fair_margin=60.0),
    "normal": Level("normal", nodes=1_200, normal_ms=200, max_depth=3, noise=20.0),
    "hard": Level("hard", nodes=12_000, normal_ms=1_000, max_depth=16, noise=0.5),
}
# The time per action each level's normal effort takes on a small machine: what to pass.
BUDGET_MS: dict[str, float] = {name: level.normal_ms for name, level in LEVEL_SETTINGS.items()}

DRAW_NODES = 3_000  # effort of the look before answering a draw offer
CLAIM_NODES = 30_000  # effort of the proof before conceding a claim
DRAW_MARGIN = 200.0  # for games whose module names none


class _Exhausted(Exception):
    """The node budget (or the safety clock) ran out in the middle of a search."""


def _neutral(state: Any, side: str) -> float:
    return 0.0


@dataclass(frozen=True, slots=True)
class Evaluator:
    """A game's evaluation module, with defaults for what it leaves out."""

    evaluate: Callable[[Any, str], float]
    order: Callable[[Any, Sequence[Any]], list[Any]]
    key: Callable[[Any], Hashable]
    focus: Callable[[Any], Callable[[Any, str], float]] | None
    actions_to_win: Callable[[Any, str], int] | None
    draw_margin: float
    easy_margin: float | None = None  # the level's fair_margin when None


def evaluator_for(game: AnyGame) -> Evaluator:
    """The game's evaluation (its `boardgame_host.evaluations` entry point), or a neutral one."""
    module = plugins.load(plugins.EVALUATIONS, game.slug)
    return Evaluator(
        evaluate=getattr(module, "evaluate", _neutral),
        order=getattr(module, "order", lambda state, actions: list(actions)),
        key=getattr(module, "key", game.notation),
        focus=getattr(module, "focus", None),
        actions_to_win=getattr(module, "actions_to_win", None),
        draw_margin=float(getattr(module, "DRAW_MARGIN", DRAW_MARGIN)),
        easy_margin=None if module is None or not hasattr(module, "EASY_MARGIN") else float(module.EASY_MARGIN),
    )


def _seat_sides(game: AnyGame, state: Any) -> dict[str, str]:
    return {seat.slug: seat.side for seat in seat_table(game, game.state_seats(state))}


def _side_to_act(game: AnyGame, state: Any) -> str:
    seat = game.to_act(state)
    assert seat is not None
    return _seat_sides(game, state)[seat]


# Transposition-table bound kinds.
_EXACT, _LOWER, _UPPER = 0, 1, 2


class _Search:
    """Alpha-beta for one side, with a transposition table and killer actions, bounded by nodes."""

    def __init__(self, game: AnyGame, evaluator: Evaluator, side: str, budget: int, deadline: float) -> None:
        self.game = game
        self.ev = evaluator
        self.side = side
        self.budget = budget
        self.deadline = deadline
        self.nodes = 0
        self.seat_sides: dict[str, str] = {}
        self.evaluate = evaluator.evaluate
        self.table: dict[Hashable, tuple[int, float, int, Any]] = {}
        self.killers: dict[int, list[Any]] = {}

    def prepare(self, state: Any) -> None:
        self.seat_sides = _seat_sides(self.game, state)
        self.evaluate = self.ev.evaluate if self.ev.focus is None else self.ev.focus(state)

    def restart(self, deadline: float) -> None:
        """A fresh budget for the next action; the transposition table is kept."""
        self.nodes = 0
        self.deadline = deadline
        self.killers.clear()

    def _tick(self) -> None:
        self.nodes += 1
        if self.nodes >= self.budget or (self.nodes & 127 == 0 and time.perf_counter() > self.deadline):
            raise _Exhausted

    def _finished(self, state: Any, ply: int) -> float:
        """A finished game's value: quicker wins and slower losses are better."""
        outcome = self.game.outcome(state)
        assert outcome is not None
        if not outcome.winners:
            return 0.0
        ours = any(self.seat_sides[seat] == self.side for seat in outcome.winners)
        return WIN - ply if ours else -WIN + ply

    def _children(self, state: Any, ply: int, first: Any) -> list[Any]:
        actions = self.ev.order(state, list(self.game.legal_actions(state)))
        front = [a for a in (first, *self.killers.get(ply, ())) if a is not None]
        if not front:
            return actions
        # The listed instance, not the remembered one: an action equal to a legal one may still
        # be written differently here (a capture's mark), and only the listed form applies.
        listed = {action: action for action in actions}
        lead = [listed[a] for a in dict.fromkeys(front) if a in listed]
        chosen = set(lead)
        return lead + [a for a in actions if a not in chosen]

    def value(self, state: Any, depth: int, alpha: float, beta: float, ply: int) -> float:
        """The state's value for `self.side`, looking `depth` more actions ahead."""
        self._tick()
        seat = self.game.to_act(state)
        if seat is None:
            return self._finished(state, ply)
        if depth <= 0:
            return self.evaluate(state, self.side)
        key = self.ev.key(state)
        entry = self.table.get(key)
        hint = None
        if entry is not None:
            stored_depth, stored, kind, hint = entry
            if stored_depth >= depth:
                stored = _from_table(stored, ply)
                if kind == _EXACT or (kind == _LOWER and stored >= beta) or (kind == _UPPER and stored <= alpha):
                    return stored
        maximizing = self.seat_sides[seat] == self.side
        low, high = alpha, beta
        best = -math.inf if maximizing else math.inf
        best_action = None
        children = self._children(state, ply, hint)
        if not children:  # a game that leaves a seat to act without actions: nothing to look at
            return self.evaluate(state, self.side)
        for action in children:
            child, _ = self.game.apply(state, action)
            score = self.value(child, depth - 1, alpha, beta, ply + 1)
            if maximizing and score > best:
                best, best_action, alpha = score, action, max(alpha, score)
            elif not maximizing and score < best:
                best, best_action, beta = score, action, min(beta, score)
            if alpha >= beta:
                killers = self.killers.setdefault(ply, [])
                if action not in killers:
                    killers.insert(0, action)
                    del killers[2:]
                break
        kind = _UPPER if best <= low else _LOWER if best >= high else _EXACT
        self.table[key] = (depth, _to_table(best, ply), kind, best_action)
        return best

    def root(self, state: Any, level: Level, rng: random.Random) -> tuple[Any, int]:
        """The best action here and the depth fully searched: iterative deepening until the
        budget runs out. Root choices carry a little seeded noise so games vary."""
        actions = list(self.game.legal_actions(state))
        if len(actions) == 1:
            return actions[0], 0
        rng.shuffle(actions)  # choices the ordering cannot tell apart are then broken by the seed
        actions = self.ev.order(state, actions)
        noise = [rng.random() * level.noise for _ in actions]
        children = [self.game.apply(state, action)[0] for action in actions]
        scores = [0.0] * len(actions)
        best, completed = 0, 0
        for depth in range(1, level.max_depth + 1):
            alpha = -math.inf
            leader: int | None = None
            try:
                for index in sorted(range(len(actions)), key=lambda i: -scores[i]):
                    bonus = noise[index]
                    scores[index] = self.value(children[index], depth - 1, alpha - bonus, math.inf, 1) + bonus
                    if leader is None or scores[index] > alpha:
                        alpha, leader = scores[index], index
            except _Exhausted:
                # The previous best is searched first: a choice that beat it at this depth is better.
                if leader is not None:
                    best = leader
                    if scores[leader] < -_DECIDED:
                        # This depth proved the old choice loses: any other, judged by the last
                        # depth that reached it, is better than a known loss.
                        best = max(range(len(actions)), key=lambda i: scores[i])
                break
            assert leader is not None
            best, completed = leader, depth
            if abs(alpha) > _DECIDED:
                break  # a forced result: deeper search cannot change it
        return actions[best], completed


def _to_table(score: float, ply: int) -> float:
    """Wins are stored as distance from the node, not the root, so they transpose."""
    if score > _DECIDED:
        return score + ply
    if score < -_DECIDED:
        return score - ply
    return score


def _from_table(score: float, ply: int) -> float:
    if score > _DECIDED:
        return score - ply
    if score < -_DECIDED:
        return score + ply
    return score


def _easy_action(game: AnyGame, state: Any, level: Level, rng: random.Random) -> Any:
    """One action ahead: a win or, with chance `greed`, the best-looking action; otherwise a
    random one among those that do not look much worse (so it rarely throws a piece away)."""
    evaluator = evaluator_for(game)
    search = _Search(game, evaluator, _side_to_act(game, state), 1 << 62, math.inf)
    search.prepare(state)
    # Points differ by game: each may say how loose "not much worse" is for a beginner's opponent.
    margin = level.fair_margin if evaluator.easy_margin is None else evaluator.easy_margin
    scored = []
    for action in game.legal_actions(state):
        child, _ = game.apply(state, action)
        scored.append((search.value(child, 0, -math.inf, math.inf, 1), action))
    best = max(score for score, _ in scored)
    if best > _DECIDED or rng.random() < level.greed:
        return rng.choice([action for score, action in scored if score == best])
    return rng.choice([action for score, action in scored if score >= best - margin])


def think(game: AnyGame, state: Any, *, level: str, budget_ms: float, seed: int) -> list[Any]:
    """The computer's actions for the rest of the current turn, in order, each legal when
    applied after the ones before it; fewer if the game ends first, none if it is over.

    `budget_ms` is the time for the whole rest of the turn, shared by its actions; a level
    never spends more effort than its normal budget (BUDGET_MS per action). The same state,
    level, budget and seed always give the same actions.
    """
    if level not in LEVEL_SETTINGS:
        raise ValueError(f"level is one of {', '.join(LEVELS)}, not {level!r}")
    settings = LEVEL_SETTINGS[level]
    seat = game.to_act(state)
    if seat is None:
        return []
    rng = random.Random(f"{seed}:{level}:{game.notation(state)}")
    state = game.detached(state)  # a search never waits for the host's archive
    remaining = game.actions_left(state)
    per_action_ms = budget_ms / max(1, remaining)
    nodes = max(50, int(settings.nodes * min(1.0, per_action_ms / settings.normal_ms)))
    # One search for the whole turn: what it learnt for the first action serves the next.
    search = _Search(game, evaluator_for(game), _side_to_act(game, state), nodes, math.inf)
    search.prepare(state)
    chosen: list[Any] = []
    while len(chosen) < remaining and game.to_act(state) == seat:
        if settings.nodes == 0:
            action = _easy_action(game, state, settings, rng)
        else:
            # A safety cap only: the node budget ends the search well before it on a normal day.
            search.restart(time.perf_counter() + 3.0 * max(per_action_ms, settings.normal_ms) / 1000.0)
            action, _ = search.root(state, settings, rng)
        state, _ = game.apply(state, action)  # raises if it were illegal: never proposed
        chosen.append(action)
    return chosen


# --- answering draw offers and claims ------------------------------------------------------


def position_value(game: AnyGame, state: Any, side: str, nodes: int = DRAW_NODES) -> float:
    """How good the state is for `side` after a search of about `nodes` nodes (±WIN: decided)."""
    search = _Search(game, evaluator_for(game), side, nodes, time.perf_counter() + 30.0)
    state = game.detached(state)
    search.prepare(state)
    value = search.value(state, 0, -math.inf, math.inf, 0)
    for depth in range(1, 32):
        try:
            value = search.value(state, depth, -math.inf, math.inf, 0)
        except _Exhausted:
            break
        if abs(value) > _DECIDED:
            break
    return value


def accepts_draw(game: AnyGame, state: Any, seat: str) -> bool:
    """Whether the computer playing `seat` accepts a draw offer: only when its side is clearly
    worse (by the game's DRAW_MARGIN) or lost by force."""
    if game.outcome(state) is not None:
        return False
    if game.setup_pending(state):  # nothing on the board to judge yet: play it out
        return False
    side = _seat_sides(game, state)[seat]
    return position_value(game, state, side) < -evaluator_for(game).draw_margin


class _Proof:
    """Does `claimed` win by force before its next turn is over? Every action of the other
    sides is tried, one winning action of `claimed` suffices; a proof that runs out of nodes
    is no proof."""

    def __init__(self, game: AnyGame, state: Any, claimed: str, budget: int) -> None:
        self.game = game
        self.ev = evaluator_for(game)
        self.claimed = claimed
        self.seat_sides = _seat_sides(game, state)
        self.budget = budget
        self.nodes = 0
        self.known: dict[tuple[Hashable, bool], bool] = {}

    def wins(self, state: Any, started: bool) -> bool:
        self.nodes += 1
        if self.nodes >= self.budget:
            raise _Exhausted
        outcome = self.game.outcome(state)
        if outcome is not None:
            return any(self.seat_sides[seat] == self.claimed for seat in outcome.winners)
        seat = self.game.to_act(state)
        assert seat is not None
        ours = self.seat_sides[seat] == self.claimed
        if not ours and started:
            return False  # the claimed side's turn passed without the win
        need = self.ev.actions_to_win
        if ours and need is not None and need(state, self.claimed) > self.game.actions_left(state):
            return False  # too far from a win to finish it this turn
        key = (self.ev.key(state), started or ours)
        if key in self.known:
            return self.known[key]
        actions = self.ev.order(state, list(self.game.legal_actions(state)))
        results = (self.wins(self.game.apply(state, action)[0], started or ours) for action in actions)
        won = any(results) if ours else all(results)
        self.known[key] = won
        return won


def concedes_claim(game: AnyGame, state: Any, seat: str, claimed_side: str) -> bool:
    """Whether the computer playing `seat` concedes a claim (`Game.claim`) that `claimed_side` has
    won: only when a search proves that side wins by force before its next turn ends, whatever
    this side does first. Otherwise it challenges, and play goes on."""
    if game.outcome(state) is not None:
        return False
    sides = _seat_sides(game, state)
    if claimed_side not in sides.values() or sides[seat] == claimed_side:
        return False  # a claim for its own side is for the opponents to answer
    state = game.detached(state)
    try:
        return _Proof(game, state, claimed_side, CLAIM_NODES).wins(state, started=False)
    except _Exhausted:
        return False
