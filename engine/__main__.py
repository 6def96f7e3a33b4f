"""Command line for every installed game (--game may be left out when only one is installed):

python -m engine [--game SLUG] start [--players N] [--seed N] [--option NAME=VALUE]
python -m engine [--game SLUG] legal POSITION
python -m engine [--game SLUG] apply POSITION|start ACTION...
python -m engine [--game SLUG] serve
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from engine.api import AnyGame, result_text
from engine.errors import IllegalAction, NotationError
from engine.plugins import PluginError
from engine.registry import get_game, installed_slugs

SERVE_HELP = """\
Answers one JSON request per line on stdin with one JSON line on stdout:

  {"position": P, "actions": [A, ...]}  ->  {"position": P2, "events": [...], "result": R}
  {"position": P, "legal": true}        ->  {"legal": [A, ...]}
  {"position": P, "think": {"ms": N, "level": "hard"}}
                                        ->  {"actions": [A, ...]}  the computer's actions for
                                            the rest of the turn, chosen within about N ms
  anything wrong                        ->  {"error": "..."}

P is position notation ("start" for the start position), A action notation. R is null
while the game goes on; otherwise the winning side's slug (a seat's in free-for-all), "draw",
or "draw:<seat>,<seat>" for a draw between some seats only."""


def new_playable(game: AnyGame, players: int, options: dict[str, str], seed: int) -> Any:
    """A new game where play can begin: setup choices, if the game has any, are drawn at
    random from the seed (a secret arrangement of pieces, say)."""
    state = game.new(players, game.option_defaults(options), seed)
    pending = game.setup_pending(state)
    if pending:
        rng = random.Random(seed)
        choices = {seat: rng.choice(list(game.setup_choices(state, seat))).value for seat in pending}
        state, _ = game.apply_setup(state, choices)
    return state


def _state(game: AnyGame, position: str) -> Any:
    if position.strip().lower() == "start":
        return new_playable(game, min(game.player_counts), {}, 0)
    return game.load(position)


def _play(game: AnyGame, position: str, actions: Sequence[str]) -> tuple[Any, list[Any]]:
    state = _state(game, position)
    events: list[Any] = []
    for text in actions:
        state, new = game.apply(state, game.parse_action(text))
        events.extend(new)
    return state, events


def result_of(game: AnyGame, state: Any) -> str | None:
    outcome = game.outcome(state)
    return None if outcome is None else result_text(game, outcome, game.state_seats(state))


def _think(game: AnyGame, state: Any, request: dict[str, Any]) -> dict[str, Any]:
    from engine.search import LEVELS, think

    spec = request["think"]
    if not isinstance(spec, dict):
        raise IllegalAction('"think" is an object: {"ms": N, "level": "hard"}')
    ms = spec.get("ms", 1000)
    if isinstance(ms, bool) or not isinstance(ms, int | float) or not math.isfinite(ms) or not 1 <= ms <= 60_000:
        raise IllegalAction('"ms" is a number of milliseconds from 1 to 60000')
    level = spec.get("level", "hard")
    if level not in LEVELS:
        raise IllegalAction(f'"level" is one of {", ".join(LEVELS)}')
    seed = spec.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise IllegalAction('"seed" is a whole number')
    actions = think(game, state, level=level, budget_ms=float(ms), seed=seed)
    return {"actions": [action.notation() for action in actions]}


def answer(request: Any, game: AnyGame) -> dict[str, Any]:
    """One `serve` request to its answer; errors come back as {"error": ...}."""
    try:
        if not isinstance(request, dict) or not isinstance(request.get("position"), str):
            raise IllegalAction('a request is {"position": P, "actions": [A, ...]}, {"position": P, "legal": true} '
                                'or {"position": P, "think": {"ms": N, "level": "hard"}}')
        if request.get("legal"):
            state = _state(game, request["position"])
            return {"legal": [action.notation() for action in game.legal_actions(state)]}
        if "think" in request:
            return _think(game, _state(game, request["position"]), request)
        actions = request.get("actions", [])
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise IllegalAction('"actions" must be a list of action strings')
        state, events = _play(game, request["position"], actions)
        return {
            "position": game.notation(state),
            "events": [event.to_dict() for event in events],
            "result": result_of(game, state),
        }
    except IllegalAction as error:
        return {"error": str(error)}
    except RecursionError:
        return {"error": "that request is nested too deeply"}


def serve(stdin: TextIO, stdout: TextIO, game: AnyGame) -> None:
    for line in stdin:
        if not line.strip():
            continue
        try:
            request = json.loads(line)
        except json.JSONDecodeError as error:
            reply: dict[str, Any] = {"error": f"invalid JSON: {error.msg}"}
        except RecursionError:
            reply = {"error": "that request is nested too deeply"}
        else:
            reply = answer(request, game)
        stdout.write(json.dumps(reply) + "\n")
        stdout.flush()


def _options(pairs: Sequence[str]) -> dict[str, str]:
    options = {}
    for pair in pairs:
        name, equals, value = pair.partition("=")
        if not equals or not name.strip():
            raise NotationError(f"--option takes NAME=VALUE, not {pair!r}")
        options[name.strip()] = value.strip()
    return options


def _parser() -> argparse.ArgumentParser:
    slugs = list(installed_slugs())
    only = slugs[0] if len(slugs) == 1 else None
    parser = argparse.ArgumentParser(prog="python -m engine", description="Rules engine of the installed games")
    parser.add_argument("--game", default=only, required=only is None, choices=slugs,
                        help="which game" + (f" (default: {only})" if only else ""))  # fmt: skip
    commands = parser.add_subparsers(dest="command", required=True)
    start = commands.add_parser(
        "start", help="print a start position (setup choices, if the game has any, at random from the seed)"
    )
    start.add_argument("--players", type=int, help="how many players (default: the fewest the game allows)")
    start.add_argument("--seed", type=int, default=0, help="seed for chance, e.g. a tile deal (default 0)")
    start.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="a match option")
    legal = commands.add_parser("legal", help="print the legal actions, one per line")
    legal.add_argument("position")
    apply = commands.add_parser("apply", help="apply actions and print the position, the events and any result")
    apply.add_argument("position", help='position notation, or "start"')
    apply.add_argument("actions", nargs="+")
    commands.add_parser(
        "serve", help="answer JSON lines on stdin", description=SERVE_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )  # fmt: skip
    return parser


def main(argv: list[str] | None = None) -> int:
    try:
        args = _parser().parse_args(argv)
        game = get_game(args.game)
    except PluginError as error:  # an installed game package that cannot be used
        print(f"error: {error}", file=sys.stderr)
        return 2
    try:
        if args.command == "start":
            players = args.players or min(game.player_counts)
            if players not in game.player_counts:
                raise IllegalAction(f"{game.title} is for {', '.join(map(str, game.player_counts))} players")
            print(game.notation(new_playable(game, players, _options(args.option), args.seed)))
        elif args.command == "legal":
            for action in game.legal_actions(_state(game, args.position)):
                print(action.notation())
        elif args.command == "apply":
            state, events = _play(game, args.position, args.actions)
            print(game.notation(state))
            for event in events:
                print(json.dumps(event.to_dict()))
            outcome = game.outcome(state)
            if outcome is not None:
                print(f"result: {result_of(game, state)} ({outcome.summary})")
        else:
            serve(sys.stdin, sys.stdout, game)
    except IllegalAction as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:  # the reader left early, as `legal ... | head` does: not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(0)
    except KeyboardInterrupt:
        sys.exit(130)
