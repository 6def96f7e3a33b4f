"""Player-facing help and the rules digest. Plain text; the front ends add formatting."""

from __future__ import annotations

HELP = """\
**Nika on Discord** — a team game of Greek hoplites: Athens + Messene against Sparta + Thebes.
**Start:** `/nika new city:athens-messene` opens a lobby here; others `/nika join city:…`; then `/nika start`.
Two players take a team each; with three, one holds a team; with four, one city each.
**Your turn (2 actions):**
• `/nika move piece:j6 direction:w` — one piece steps one square and ends facing that way; it routs an enemy that is not facing it.
• `/nika rotate pieces:k5 facing:w` — turn a piece, or a phalanx (`j4,j5,j6`), in place.
• `/nika advance pieces:j4,j5,j6` — a phalanx steps the way it faces, pushing or routing enemies.
• `/nika rally square:k1 facing:n` — bring a routed piece back on your rally area.
• `/nika pass` · `/nika undo` (your last action, while your turn lasts) · `/nika play action:<notation>`.
Every option suggests only what is legal for you right now: start typing and pick.
Or press the buttons under the latest board: they walk you through legal choices only.
**Look:** `/nika board` · `/nika history` · `/nika rules` · `/nika replay` (animation, or `format:record` for the game record) · `/nika mygames`.
**Across days:** `/nika settings` — reminder interval, turn deadline (`/nika new deadline:`), and `dm:on` for reminders by direct message.
**Standings:** `/nika stats` (the leaderboard) · `/nika stats user:@someone`.
**Analysis:** `/nika new city:… from:<position or game record>` starts a casual, unrated match there.
**End early:** `/nika resign` · `/nika draw choice:offer|accept|decline` · `/nika declare team:…` then the opponents `/nika concede` or `/nika challenge`.
**Abort:** `/nika abort` (the creator, or anyone with Manage Channels)."""

RULES = """\
**Nika in one minute**
**Goal:** get one of your pieces onto your **victory area** — the three squares in your colour on the far side. If you or your ally does, your team wins at once.
**Turns:** Athens → Sparta → Messene → Thebes, two actions each.
**Move:** one piece, one square (no diagonals), ending **facing where it went**. Moving onto an enemy that is **not facing you** routs it (off the board, to be rallied later).
**Phalanx:** 2+ adjacent pieces of one city facing the same way. It can rotate together, or **advance** one square the way it faces. You choose exactly which pieces act.
**Push:** in each line of the advance, your pieces in that line are its weight. An enemy facing you is pushed back if your weight is greater than the enemy team's unbroken line there; a tie or less blocks the whole advance. Enemies not facing you are routed, never pushed. A pushed piece that would land on an enemy, an enemy's victory area, the central area or off the board is routed.
**Never:** enter an enemy victory area; rout or push your own team.
**Draws:** four city turns in a row of two passes, the same position three times, or everyone agrees.
**Nika!** Declare when victory is certain; if the opponents concede, it is won.
*The picture: an Athenian phalanx advances east. On rank 5, two Athenians outweigh the Spartan facing them and push it back; on rank 6 the Spartan faces away and is routed.*"""

# The picture for /nika rules: an Athenian phalanx facing east pushes in one line and routs in another.
RULES_EXAMPLE_POSITION = "A:h4e,h5e,h6e,i4e,i5e,i6e S:j5w,j6n,m5w M:l12s T:p9w A2"
RULES_EXAMPLE_ACTION = "advance h4,h5,h6,i4,i5,i6"
