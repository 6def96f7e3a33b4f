"""Nika's front end: its action commands, help page, rules digest and board buttons.

Words players read here are Messages, rendered in each reader's language. Command, option
and choice words are data the command translator looks up; the help and rules
name commands and options as `{name}`, which the host fills from the group's commands in the
reader's language, so they show what Discord shows the reader.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.commands.front_end import ActionCommand, FrontEnd
from bot.commands.spec import CommandOption
from engine.api import Choice
from engine.errors import IllegalAction
from engine.i18n import M, english
from engine.nika.actions import Rotate, parse_action, squares_text
from engine.nika.game import DIRECTION_LABELS, VERB_LABELS

HELP = M(
    """\
**Nika on Discord** — a team game of Greek hoplites: Athens + Messene against Sparta + Thebes.
**Start:** `/nika {new} {city}:athens-messene` opens a lobby here; others `/nika {join} {city}:…`; then `/nika {start}`.
Two players take a team each; with three, one holds a team; with four, one city each.
**Your turn (2 actions):**
• `/nika {move} {piece}:j6 {direction}:w` — one piece steps one square and ends facing that way; it routs an enemy that is not facing it.
• `/nika {rotate} {pieces}:k5 {facing}:w` — turn a piece, or a phalanx (`j4,j5,j6`), in place.
• `/nika {advance} {pieces}:j4,j5,j6` — a phalanx steps the way it faces, pushing or routing enemies.
• `/nika {rally} {square}:k1 {facing}:n` — bring a routed piece back on your rally area.
• `/nika {pass}` · `/nika {undo}` (your last action, while your turn lasts) · `/nika {play} {action}:<notation>`.
**Look:** `/nika {board}` · `/nika {history}` · `/nika {rules}` · `/nika {replay}` (animation, or `{format}:record` for the game record) · `/nika {mygames}`.
**Across days:** `/nika {settings}` — reminder interval, turn deadline (`/nika {new} {deadline}:`), and `{dm}:on` for reminders by direct message.
**Standings:** `/nika {stats}` (the leaderboard) · `/nika {stats} {user}:@someone`.
**Analysis:** `/nika {new} {city}:… {from}:<position or game record>` starts a casual, unrated match there.
**End early:** `/nika {resign}` · `/nika {draw} {choice}:offer|accept|decline` · `/nika {declare} {team}:…` then the opponents `/nika {concede}` or `/nika {challenge}`.
**Abort:** `/nika {abort}` (the creator, or anyone with Manage Channels).""",
)

RULES = M("""\
**Nika in one minute**
**Goal:** get one of your pieces onto your **victory area** — the three squares in your colour on the far side. If you or your ally does, your team wins at once.
**Turns:** Athens → Sparta → Messene → Thebes, two actions each.
**Move:** one piece, one square (no diagonals), ending **facing where it went**. Moving onto an enemy that is **not facing you** routs it (off the board, to be rallied later).
**Phalanx:** 2+ adjacent pieces of one city facing the same way. It can rotate together, or **advance** one square the way it faces. You choose exactly which pieces act.
**Push:** in each line of the advance, your pieces in that line are its weight. An enemy facing you is pushed back if your weight is greater than the enemy team's unbroken line there; a tie or less blocks the whole advance. Enemies not facing you are routed, never pushed. A pushed piece that would land on an enemy, an enemy's victory area, the central area or off the board is routed.
**Never:** enter an enemy victory area; rout or push your own team.
**Draws:** four city turns in a row of two passes, the same position three times, or everyone agrees.
**Nika!** Declare when victory is certain; if the opponents concede, it is won.
*The picture: an Athenian phalanx advances east. On rank 5, two Athenians outweigh the Spartan facing them and push it back; on rank 6 the Spartan faces away and is routed.*""")

# The command's choices carry the English label; Discord shows each reader its translation.
DIRECTIONS = tuple(Choice(letter, english(label)) for letter, label in zip("nesw", DIRECTION_LABELS, strict=True))


def _group(text: str) -> str:
    """Squares as typed ("j6, j5", "j4-j6") in the canonical form menus use ("j4,j5,j6")."""
    try:
        action = parse_action(f"rotate {text} n")
    except IllegalAction:
        return text.strip().lower()
    return squares_text(action.squares) if isinstance(action, Rotate) else text


def _need(options: Mapping[str, str], name: str) -> str:
    return options.get(name, "")


ACTIONS = (
    ActionCommand(
        "move", "Move one piece one square; it ends facing that way",
        (CommandOption("piece", "Square of your piece, e.g. j6", required=True, autocomplete=True),
         CommandOption("direction", "Where it steps", required=True, autocomplete=True)),
        ("move", "@piece", "@direction"),
        lambda o: f"move {_need(o, 'piece')} {_need(o, 'direction')}",
    ),
    ActionCommand(
        "rotate", "Turn one piece, or a phalanx, to face a new way",
        (CommandOption("pieces", "Square(s), e.g. k5 or j4,j5,j6", required=True, autocomplete=True),
         CommandOption("facing", "The new facing", required=True, autocomplete=True)),
        ("rotate", "@pieces", "@facing"),
        lambda o: f"rotate {_need(o, 'pieces')} {_need(o, 'facing')}",
        {"pieces": _group},
    ),
    ActionCommand(
        "advance", "Advance a phalanx one square the way it faces",
        (CommandOption("pieces", "The phalanx's squares, e.g. j4,j5,j6", required=True, autocomplete=True),),
        ("advance", "@pieces"),
        lambda o: f"advance {_need(o, 'pieces')}",
        {"pieces": _group},
    ),
    ActionCommand(
        "rally", "Bring a routed piece back on your rally area",
        (CommandOption("square", "An empty square of your rally area", required=True, autocomplete=True),
         CommandOption("facing", "Which way it faces", required=True, choices=DIRECTIONS)),
        ("rally", "@square", "@facing"),
        lambda o: f"rally {_need(o, 'square')} {_need(o, 'facing')}",
    ),
    ActionCommand("pass", "Spend one action doing nothing", (), ("pass",), lambda o: "pass"),
)  # fmt: skip


_FIRST_QUESTIONS = {
    "move": M("Which piece moves?"),
    # Largest formations first: a menu holds 25 choices, and big phalanxes matter most.
    "rotate": M("Which piece or phalanx turns?"),
    "advance": M("Which phalanx advances?"),
    "rally": M("Rally onto which square?"),
}


def _question(chosen: tuple[str, ...]) -> str:
    """What the board's menus ask, step by step, in the language of whoever opens them."""
    if len(chosen) <= 1:
        return str(_FIRST_QUESTIONS.get(chosen[0] if chosen else "", M("What do you do?")))
    verb, where = chosen[0], chosen[1]
    if verb == "move":
        return str(M("Move {square} which way?", square=where))
    if verb == "rotate":
        return str(M("Turn {square} to face…", square=where))
    if verb == "rally":
        return str(M("The piece rallied on {square} faces…", square=where))
    return str(M("Choose"))


FRONT_END = FrontEnd(
    slug="nika",
    description="Play Nika, the Greek hoplite team game",
    actions=ACTIONS,
    help=HELP,
    rules=RULES,
    # An Athenian phalanx facing east pushes in one line and routs in another.
    rules_example=("A:h4e,h5e,h6e,i4e,i5e,i6e S:j5w,j6n,m5w M:l12s T:p9w A2", "advance h4,h5,h6,i4,i5,i6"),
    seat_labels={
        "athens": "Athens (white, south)",
        "sparta": "Sparta (red, west)",
        "messene": "Messene (blue, north)",
        "thebes": "Thebes (black, east)",
        "athens-messene": "Athens + Messene (a whole team)",
        "sparta-thebes": "Sparta + Thebes (a whole team)",
    },
    panel=("move", "rotate", "advance", "rally", "pass"),
    panel_labels=VERB_LABELS,
    play_example="move j6 w · rotate k5 w · advance j4,j5,j6 · rally k1 n · pass",
    question=_question,
)
