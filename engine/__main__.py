"""Command line: `python -m engine start | legal POS | apply POS ACTION... | serve`."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any, TextIO

from engine.errors import IllegalAction
from engine.nika import GameState, parse_action
from engine.nika.events import Event


def _play(position: str, actions: list[str]) -> tuple[GameState, list[Event]]:
    state = GameState.from_notation(position)
    events: list[Event] = []
    for text in actions:
        state, new = state.apply(parse_action(text))
        events.extend(new)
    return state, events


def answer(request: Any) -> dict[str, Any]:
    """One `serve` request to its answer; errors come back as {"error": ...}."""
    try:
        if not isinstance(request, dict) or not isinstance(request.get("position"), str):
            raise IllegalAction('a request is {"position": P, "actions": [...]} or {"position": P, "legal": true}')
        if request.get("legal"):
            state = GameState.from_notation(request["position"])
            return {"legal": [action.notation() for action in state.legal_actions()]}
        actions = request.get("actions", [])
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise IllegalAction('"actions" must be a list of action strings')
        state, events = _play(request["position"], actions)
        return {
            "position": state.notation(),
            "events": [event.to_dict() for event in events],
            "result": state.outcome.result if state.outcome else None,
        }
    except IllegalAction as error:
        return {"error": str(error)}


def serve(stdin: TextIO, stdout: TextIO) -> None:
    for line in stdin:
        if not line.strip():
            continue
        try:
            request = json.loads(line)
        except json.JSONDecodeError as error:
            reply: dict[str, Any] = {"error": f"invalid JSON: {error.msg}"}
        else:
            reply = answer(request)
        stdout.write(json.dumps(reply) + "\n")
        stdout.flush()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine", description="Nika rules engine")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("start", help="print the start position")
    legal = commands.add_parser("legal", help="print the legal actions, one per line")
    legal.add_argument("position")
    apply = commands.add_parser("apply", help="apply actions and print the position and events")
    apply.add_argument("position")
    apply.add_argument("actions", nargs="+")
    commands.add_parser("serve", help="answer JSON lines on stdin")
    args = parser.parse_args(argv)
    try:
        if args.command == "start":
            print(GameState.start().notation())
        elif args.command == "legal":
            for action in GameState.from_notation(args.position).legal_actions():
                print(action.notation())
        elif args.command == "apply":
            state, events = _play(args.position, args.actions)
            print(state.notation())
            for event in events:
                print(json.dumps(event.to_dict()))
            if state.outcome:
                print(f"result: {state.outcome.result} ({state.outcome.describe()})")
        else:
            serve(sys.stdin, sys.stdout)
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
