"""Render a board from the command line: python -m render --game SLUG "<position>" -o board.png
(--game may be left out when only one game is installed)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from engine.__main__ import new_playable
from engine.errors import IllegalAction
from engine.plugins import PluginError
from engine.registry import get_game, installed_slugs
from render import render_state

DEFAULT_FOLDER = Path("boards")

_EPILOG = """\
examples:
  python -m render --game SLUG start                     (writes boards/SLUG-start.png)
  python -m render --game SLUG start --seed 3 --players 4 -o start.png
  python -m render --game SLUG "$(python -m engine --game SLUG start --seed 3)" -o same.png  (the same picture)
  python -m render --game SLUG "<position>" --last "<action>" --perspective SEAT -o board.png
"""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m render",
        description="Draw a position as the PNG the bot posts, and print its alt text.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    slugs = list(installed_slugs())
    only = slugs[0] if len(slugs) == 1 else None
    parser.add_argument("--game", default=only, required=only is None, choices=slugs,
                        help="which game" + (f" (default: {only})" if only else ""))  # fmt: skip
    parser.add_argument("position", help='position notation, or "start": the position `python -m engine start` '
                        "prints for the same --seed and --players (where play begins; secret setups drawn at random)")
    parser.add_argument("-o", "--output", type=Path,
                        help="where to write the PNG (default: boards/SLUG-start.png or boards/SLUG-board.png)")
    parser.add_argument(
        "--last",
        metavar="ACTION",
        help="an action for the seat to act, in the game's notation: it is applied to the position "
        "and the resulting position is drawn with that action highlighted",
    )
    parser.add_argument("--perspective", metavar="SEAT", help="turn the board for this seat's view (a seat's slug)")
    parser.add_argument("--players", type=int, help="with start: how many players")
    parser.add_argument("--seed", type=int, default=0, help="with start: the seed for chance (a tile deal)")
    return parser


def main(argv: list[str] | None = None) -> int:
    try:
        args = _parser().parse_args(argv)
        game = get_game(args.game)
    except PluginError as error:  # an installed game package that cannot be used
        print(f"error: {error}", file=sys.stderr)
        return 2
    try:
        starting = args.position.strip().lower() == "start"
        if starting:
            players = args.players or min(game.player_counts)
            if players not in game.player_counts:
                raise IllegalAction(f"{game.title} is for {', '.join(map(str, game.player_counts))} players")
            # The same start as `python -m engine start`: where play begins, setup choices (if the
            # game has any) drawn at random from the seed.
            state: Any = new_playable(game, players, {}, args.seed)
        else:
            state = game.load(args.position)
        recent: list[Any] = []
        if args.last:
            state, events = game.apply(state, game.parse_action(args.last))
            recent.append(events)
        if args.perspective and args.perspective.lower() not in game.state_seats(state):
            raise IllegalAction(f"{args.perspective} is not a seat: use {', '.join(game.state_seats(state))}")
    except IllegalAction as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    perspective = args.perspective.lower() if args.perspective else None
    rendered = render_state(game.slug, state, recent, perspective=perspective)
    try:
        if args.output is None:  # into ./boards, as the console's boards (ignored by git)
            args.output = DEFAULT_FOLDER / f"{game.slug}-{'start' if starting else 'board'}.png"
            DEFAULT_FOLDER.mkdir(exist_ok=True)
        args.output.write_bytes(rendered.png)
    except OSError as error:
        print(f"error: cannot write {args.output}: {error.strerror or error}", file=sys.stderr)
        return 2
    print(rendered.alt_text)
    print(f"written to {args.output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
