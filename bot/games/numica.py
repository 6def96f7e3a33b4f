"""Numica's front end: `/numica move from: to:`, the help page, the rules digest with its
picture, the seat labels, and the select that arranges a back row in secret.

Words players read here are Messages, rendered in each reader's language. Command, option
and choice words are data the command translator looks up; the help and rules
name commands and options as `{name}`, which the host fills from the group's commands in the
reader's language, so they show what Discord shows the reader."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.commands.front_end import ActionCommand, FrontEnd, SetupPicker
from bot.commands.spec import CommandOption
from engine.i18n import M

FILES = "abcdefgh"
SQUARE_PIECES = 4  # per side; the other four pieces of a back row are round

HELP = M(
    """\
**Numica on Discord** — two players, 64 tiles: the tile under a piece says how it moves.
**Start:** `/numica {new} {side}:red` (or `blue`, `random`) opens a lobby here; the other player `/numica {join} {side}:…`; then `/numica {start}`. Red moves first.
**Back rows:** with `{setup_option}:choose` (the default) each side places its 4 square and 4 round pieces in secret: press **Set up (secret)** under the board and pick the files of your square pieces, or type `/numica {setup} {choice}:sosoosos` (files a to h, `s` square, `o` round). You may change it until the other side has chosen; then both rows appear at once. `{setup_option}:random` deals both rows.
**Your turn:** `/numica {move} {from}:c1 {to}:c4` (`{to}` lists that piece's targets, captures first), `/numica {play} {action}:c1-c4`, or **Play** under the latest board. `/numica {undo}` takes your move back until your opponent moves.
**Look:** `/numica {board}` · `/numica {history}` · `/numica {rules}` · `/numica {replay}` (animation, or `{format}:record` for the game record) · `/numica {mygames}`.
**Across days:** `/numica {new} {deadline}:1` (2, 3, 7): a turn that runs out loses on time; a row not chosen in time is drawn at random. `/numica {settings}` for reminders (`{dm}:on` by direct message).
**Standings:** `/numica {stats}` · `/numica {stats} {user}:@someone`.
**Analysis:** `/numica {new} {side}:… {from}:<position or game record>` starts a casual, unrated match there.
**End early:** `/numica {resign}` · `/numica {draw} {choice}:offer|accept|decline` · **Abort:** `/numica {abort}` (the creator, or Manage Channels).""",
)

RULES = M("""\
**Numica in one minute**
**Pieces:** each side has 4 square and 4 round pieces, arranged on its back row (Red rank 1, Blue rank 8). Shape never changes how a piece moves: it only counts for victory.
**Moving:** one piece a turn, no passing. The **tile under the piece** says how it moves:
• **1 2 3 4 5** — exactly that many squares in a straight line, any of the 8 ways, jumping over anything between.
• **K** — like a chess knight, jumping.
• **R** — like a rook: along its rank or file, any distance, never through a piece.
• **B** — like a bishop: diagonally, any distance, never through a piece.
• **X** — to any empty square of the board; it never captures.
**Capture** by landing on an enemy piece. **First-move rule:** a piece that has not moved yet (a gold seal) cannot capture an enemy that has not moved yet either.
**Win** at once when you have captured 2 square and 2 round pieces, or 3 of one shape. A side that cannot move on its turn loses.
**Draws:** the same position three times, 100 moves in a row without a capture, or both players agree.
*The picture: Red's round piece on b5 stands on a 3, so it moves exactly three squares. It jumps over the two Blue pieces on b6 and b7 and captures Blue's round piece on b8: Red has now taken 1 square and 2 round pieces, one square short of a win.*""")

# Red's piece on b5 (a 3 tile) jumps over b6 and b7 and captures on b8.
RULES_EXAMPLE = (
    "RK14R155/K13XK33R/X1223114/23243213/2BK55R21/1X1B344K/X4K34552/1X5BB422 "
    "red:c1s,d1o,g1s,h2o*,e3s*,b5o* blue:b6s*,f6s*,b7o*,b8o,d8s,e8o red/0",
    "b5xb8",
)


def _move(options: Mapping[str, str]) -> str:
    """`{from}-{to}`: the engine reads `-` for a capture too, and the host stores the canonical mark."""
    return f"{options.get('from', '')}-{options.get('to', '')}"


ACTIONS = (
    ActionCommand(
        "move", "Move one of your pieces as the tile under it allows",
        (CommandOption("from", "The square of your piece, e.g. c1", required=True, autocomplete=True),
         CommandOption("to", "Where it goes, e.g. c4 (captures are listed first)", required=True, autocomplete=True)),
        ("@from", "@to"),
        _move,
    ),
)  # fmt: skip


def back_row(picked: Sequence[str]) -> str:
    """The files picked for the square pieces as the row's notation: `s` there, `o` elsewhere.
    A wrong count still makes a row, which the engine refuses with its own explanation."""
    chosen = {value.strip().lower() for value in picked}
    return "".join("s" if file in chosen else "o" for file in FILES)


SETUP_PICKER = SetupPicker(
    placeholder=M("Pick the 4 files of your back row for your square pieces (the other 4 get round ones)"),
    options=tuple((M("file {file}", file=file), file) for file in FILES),
    picks=SQUARE_PIECES,
    choice=back_row,
)


def _question(chosen: tuple[str, ...]) -> str:
    """What the Play button's menus ask: the piece, then where it goes."""
    if not chosen:
        return str(M("Which piece moves?"))
    return str(M("Move {square} to…", square=chosen[0]))


FRONT_END = FrontEnd(
    slug="numica",
    description="Play Numica, the game of displacement on a board of 64 tiles",
    actions=ACTIONS,
    help=HELP,
    rules=RULES,
    rules_example=RULES_EXAMPLE,
    seat_labels={
        "red": "Red (moves first, back row on rank 1)",
        "blue": "Blue (moves second, back row on rank 8)",
    },
    play_example="c1-c4 · d2xf4",
    setup_picker=SETUP_PICKER,
    question=_question,
)
