"""Pikemen's front end: its action commands, help page, rules digest and seat labels.

The menus follow `PikemenGame.action_path`: a charge is piece → square → orientation (or
"keep"), a turn in place is piece → "turn" → orientation. The commands fill those paths
and write the move in the notation the engine reads; the host puts it in canonical form.

Words players read are Messages, rendered in each reader's language. Command, option and
choice words are data the command translator looks up; the help and rules name commands and
options as `{name}`, which the host fills from the group's commands in the reader's language,
so they show what Discord shows the reader.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.commands.front_end import ActionCommand, FrontEnd
from bot.commands.spec import CommandOption
from engine.i18n import M
from engine.pikemen.actions import Charge, Reorient

HELP = M(
    """\
**Pikemen on Discord** — 2, 3 or 4 players charge pyramid pikemen across a chessboard; first to the target score wins.
**Start:** `/pikemen {new} {players}:3 {target}:12 {seat}:red` opens a lobby here; others `/pikemen {join} {seat}:yellow` …; then `/pikemen {start}`.
Seats: red and blue with 2 players; red, yellow, blue with 3; red, yellow, green, blue with 4. **Red moves first**: the rules say the tallest player starts, so the tallest takes red.
**Your turn (one move):**
• `/pikemen {charge} {piece}:a6 {to}:a3` — a flat piece runs the way it points, over empty squares, and may capture the first piece in its path; add `{facing}:ne` (or `u`, upright) to turn it afterwards.
• `/pikemen {turn} {piece}:b7 {facing}:se` — turn a piece where it stands (`u` stands it upright, on guard).
• `/pikemen {undo}` (until the next player moves) · `/pikemen {play} {action}:a6xa3 ne` (any move in notation).
Every option suggests only what is legal for you right now: start typing and pick.
Or press **Play** under the latest board: it walks you through your legal moves.
**Look:** `/pikemen {board}` · `/pikemen {history}` · `/pikemen {rules}` · `/pikemen {replay}` (animation, or `{format}:record`) · `/pikemen {mygames}`.
**Across days:** `/pikemen {new} {deadline}:` sets a turn deadline (a seat whose time runs out leaves the game); `/pikemen {settings}` for reminders and `{dm}:on`.
**Standings:** `/pikemen {stats}` (the leaderboard) · `/pikemen {stats} {user}:@someone`.
**Analysis:** `/pikemen {new} {seat}:red {from}:<position or game record>` starts a casual, unrated match there.
**End early:** `/pikemen {resign}` (with 3–4 players you leave and the others play on) · `/pikemen {draw} {choice}:offer|accept|decline` (everyone still in must agree).
**Abort:** `/pikemen {abort}` (the creator, or anyone with Manage Channels).""",
)

RULES = M("""\
**Pikemen in one minute**
**Goal:** capture pieces worth the target in points (12, or more if the match says so: 15, 20, up to 30, 48 or 54 with 2, 3 or 4 players): small 1, medium 2, large 3. First there wins.
**Pieces** lie **flat**, pointing one of eight ways (ready to attack), or stand **upright** (on guard). All start upright, so your first moves are turns.
**Each turn, one move:**
• **Charge:** a flat piece moves any number of empty squares the way it points — no jumping. It may stop on the first piece in its path and capture it if that piece is an enemy lying flat (any size), or standing upright and strictly **smaller** than the charger. A large upright piece can never be taken. After the charge it may turn to any orientation, or keep pointing the way it went.
• **Turn:** point a piece a new way, or stand it upright, where it stands. Turning to the same way is not a move: there is no passing.
**Turn order:** clockwise, red first (the tallest player). A player with no pieces left is skipped but keeps their points.
**Leaving:** with 3–4 players, a player who resigns or runs out of time leaves: their pieces go, nobody scores them, the rest play on.
**Stalled games** end on points: when nobody can reach the target any more, when a position occurs a third time, or after 100 moves without a capture. Highest score wins; a tie is a draw between the tied players. A draw by agreement needs everyone still in.
**Notation:** `a6-a3` charge · `a6xa3` a capture · `a6-a3 u` charge, then stand upright · `b7 se` turn in place.
*The picture: Red's medium pikeman on c6, pointing south-east, charges two squares and captures Blue's small upright pikeman on e4 (+1, now 7 points): an upright piece falls only to a larger charger, and the large upright one beside it, on f4, can never be taken.*""")

# A medium charger takes a small upright piece; the large upright piece beside it is safe.
RULES_EXAMPLE = ("R6:c6Mse,a7Mu,a8Lu,b8Lu B4:g1Mu,h1Lu,g2Mne,e4Su,f4Lu R/12/0", "c6xe4")


def _charge(options: Mapping[str, str]) -> str:
    """`a6-a3`, or `a6-a3 ne` when a facing is chosen; "keep" (the menu's choice) turns nothing."""
    move = f"{options.get('piece', '').strip()}-{options.get('to', '').strip()}"
    facing = options.get("facing", "").strip()
    return move if facing.lower() in ("", "keep") else f"{move} {facing}"


def _turn(options: Mapping[str, str]) -> str:
    return f"{options.get('piece', '').strip()} {options.get('facing', '').strip()}"


ACTIONS = (
    ActionCommand(
        "charge", "Charge a flat piece the way it points, maybe capturing; it may turn afterwards",
        (CommandOption("piece", "Square of your flat piece, e.g. a6", required=True, autocomplete=True),
         CommandOption("to", "Where it stops: an empty square, or the piece it captures", required=True,
                    autocomplete=True),
         CommandOption("facing", "Turn it afterwards (leave empty to keep pointing the same way)",
                    autocomplete=True)),
        ("@piece", "@to", "@facing"),
        _charge,
        plays=lambda action: isinstance(action, Charge),  # so `to:` offers squares, not "turn in place"
    ),
    ActionCommand(
        "turn", "Turn one of your pieces where it stands, or stand it upright",
        (CommandOption("piece", "Square of your piece, e.g. b7", required=True, autocomplete=True),
         CommandOption("facing", "The new orientation: n ne e se s sw w nw, or u for upright", required=True,
                    autocomplete=True)),
        ("@piece", "turn", "@facing"),
        _turn,
        plays=lambda action: isinstance(action, Reorient),
    ),
)  # fmt: skip


def _question(chosen: tuple[str, ...]) -> str:
    """What the Play button's menus ask, step by step (the steps of `action_path`)."""
    if not chosen:
        return str(M("Which of your pieces? You can charge it or turn it."))
    piece = chosen[0]
    if len(chosen) == 1:
        return str(M("Charge {piece} to which square — or turn it in place?", piece=piece))
    if chosen[1] == "turn":
        return str(M("Turn {piece} to point which way (or stand it upright)?", piece=piece))
    return str(M("{piece} charges to {square}. Which way does it point then?", piece=piece, square=chosen[1]))


FRONT_END = FrontEnd(
    slug="pikemen",
    description="Play Pikemen, pyramid pikemen charging on a chessboard (2–4 players)",
    actions=ACTIONS,
    help=HELP,
    rules=RULES,
    rules_example=RULES_EXAMPLE,
    seat_labels={
        "red": "Red — moves first (the tallest player)",
        "yellow": "Yellow — with 3 or 4 players",
        "green": "Green — with 4 players",
        "blue": "Blue",
    },
    panel=(),
    play_example="a6-a3 · a6xa3 ne · a6-a3 u · b7 se",
    question=_question,
)
