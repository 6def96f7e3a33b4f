"""Render a board from the command line: python -m render "<position>" -o board.png"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from engine.errors import IllegalAction
from engine.nika.actions import parse_action
from engine.nika.board import City
from engine.nika.events import Event
from engine.nika.state import GameState
from render import alt_text, render_board

_EPILOG = """\
examples:
  python -m render start -o board.png
  python -m render "A:j4w,j5w,j6w,k4n,k5n,l4e S:d7s,d8e,d9n,e8e,e9n,f9n M:j12w,k11s,k12s,l10e,l11e,l12e \
T:p7s,q7s,q8w,r7s,r8w,r9n A2" -o board.png --last "move j6 w" --perspective sparta

"""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m render",
        description="Draw a Nika position as the PNG the bot posts, and print its alt text.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("position", help='position notation (five fields, e.g. "A:j4w,… S:… M:… T:… A2"), or "start"')
    parser.add_argument("-o", "--output", type=Path, required=True, help="where to write the PNG")
    parser.add_argument(
        "--last",
        metavar="ACTION",
        help='an action for the city to act (e.g. "advance j4,j5,j6"): it is applied to the position '
        "and the resulting position is drawn with that action highlighted",
    )
    parser.add_argument(
        "--perspective",
        choices=[city.name.lower() for city in City],
        help="turn the board so this city's forward direction points up (default: north up)",
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        state = (
            GameState.start() if args.position.strip().lower() == "start" else GameState.from_notation(args.position)
        )
        events: list[Event] = []
        if args.last:
            state, events = state.apply(parse_action(args.last))
    except IllegalAction as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    perspective = City[args.perspective.upper()] if args.perspective else None
    rendered = render_board(state, events, perspective=perspective)
    args.output.write_bytes(rendered.png)
    print(alt_text(state, events))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
