"""Tic-tac-toe on Discord: `/tictactoe mark square:`, its help and rules pages, seat labels, and
the question its menu asks. Words players read are Messages or data the host translates
through the catalogue; pages name commands and options as `{name}`, which the host fills in
the reader's language.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.commands.front_end import ActionCommand, FrontEnd
from bot.commands.spec import CommandOption
from engine.i18n import M

HELP = M(
    """\
**Tic-tac-toe on Discord** — two players mark a grid of nine squares in turn; three in a row wins.
**Start:** `/tictactoe {new} {seat}:x` opens a lobby here; the other player `/tictactoe {join} {seat}:o` (or the creator seats the computer: `/tictactoe {join} {seat}:o {computer}:hard`); then `/tictactoe {start}`.
**Your turn:** `/tictactoe {mark} {square}:b2`, `/tictactoe {play} {action}:b2`, or **Play** under the latest board. `/tictactoe {undo}` takes your mark back until the other player marks.
**Look:** `/tictactoe {board}` · `/tictactoe {history}` · `/tictactoe {replay}`.
**End early:** `/tictactoe {resign}` · `/tictactoe {draw} {choice}:offer|accept|decline`.""",
)

RULES = M("""\
**Tic-tac-toe in one minute**
Two players, X and O, mark one empty square each turn (X first, unless the match says otherwise).
**Win** with three of your marks in a row, a column or a diagonal. A full grid with no line is a draw.
*The picture: X marks c1 and completes the diagonal a3–b2–c1.*""")

ACTIONS = (
    ActionCommand(
        "mark", "Mark an empty square",
        (CommandOption("square", "An empty square, a1 to c3", required=True, autocomplete=True),),
        ("@square",),
        lambda options: options.get("square", ""),
    ),
)  # fmt: skip


def _question(chosen: tuple[str, ...]) -> str:
    return str(M("Which square do you mark?"))


def _labels() -> Mapping[str, str]:
    return {"x": "X (marks first)", "o": "O"}


FRONT_END = FrontEnd(
    slug="tictactoe",
    description="Play tic-tac-toe: three in a row on a grid of nine squares",
    actions=ACTIONS,
    help=HELP,
    rules=RULES,
    rules_example=("x.o/.x./o.. x", "c1"),
    seat_labels=_labels(),
    play_example="b2 · a3",
    question=_question,
)
