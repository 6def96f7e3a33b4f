"""Menus from the games' action paths: what autocomplete and the button panel offer.

Every legal action is a short path of choices (`move` → `j6` → `w`, see
`Game.action_path`). The choices at one step are the next steps of the legal paths
that start with what was chosen so far; a complete path names exactly one action.
Derived once here for every game, so no front end knows a game's actions.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from engine.api import AnyGame, Step

LIMIT = 25  # Discord shows at most 25 choices in a menu or an autocomplete list


def paths(game: AnyGame, actions: Iterable[Any]) -> list[tuple[tuple[Step, ...], Any]]:
    return [(game.action_path(action), action) for action in actions]


def next_steps(game: AnyGame, actions: Iterable[Any], chosen: Sequence[str | None]) -> list[Step]:
    """The distinct choices after `chosen` (step values; None matches any step, for an option
    not filled in yet), in the game's order: by each step's `order`, then as the legal
    actions first offer them."""
    depth = len(chosen)
    found: dict[str, tuple[int, int, Step]] = {}
    for index, (path, _) in enumerate(paths(game, actions)):
        if len(path) > depth and all(
            value is None or step.value == value for step, value in zip(path, chosen, strict=False)
        ):
            step = path[depth]
            found.setdefault(step.value, (step.order, index, step))
    return [step for _, _, step in sorted(found.values(), key=lambda item: item[:2])]


def action_at(game: AnyGame, actions: Iterable[Any], chosen: Sequence[str]) -> Any | None:
    """The action whose whole path is `chosen`, if one is legal."""
    for path, action in paths(game, actions):
        if len(path) == len(chosen) and all(step.value == value for step, value in zip(path, chosen, strict=True)):
            return action
    return None


def is_complete(game: AnyGame, actions: Iterable[Any], chosen: Sequence[str]) -> bool:
    return action_at(game, actions, chosen) is not None


def matching(steps: Sequence[Step], typed: str, limit: int = LIMIT) -> list[Step]:
    """Autocomplete: the steps whose value or label contains what was typed, those starting
    with it first, keeping the game's order otherwise."""
    typed = _norm(typed)
    hits = [s for s in steps if typed in _norm(s.value) or typed in _norm(s.label)]
    hits.sort(key=lambda s: not (_norm(s.value).startswith(typed) or _norm(s.label).startswith(typed)))
    return hits[:limit]


def _norm(text: str) -> str:
    return text.lower().replace(" ", "")
