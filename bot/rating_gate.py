"""Which matches count for the standings: the host's guard against rating farming, the same
whatever rating system turns results into numbers (bot/ratings, OpenSkill).

A member with a second account could otherwise feed one account wins: open a match, resign at
once, again and again. Two rules stop that (docs/ratings.md says why these):

1. **A match must be played to count.** A match that ends off the board (a resignation, a
   timeout, an agreed draw, a conceded claim) before every side has made MIN_ACTIONS actions of
   its own (actions taken back do not count) is not rated.
2. **At most DAILY_PAIR_CAP rated matches a day between the same two members**, per game and
   server. A match whose players include a pair that already started that many rated matches
   in the past 24 hours starts unrated, and says so at its start.

A match made unrated keeps why (`matches.unrated_reason`), and its posts say it.
"""

from __future__ import annotations

from itertools import combinations

from bot.match import MatchState
from bot.storage import Connection, MatchRow
from bot.storage import matches as queries
from engine.i18n import M, P, Text

MIN_ACTIONS = 2  # each side's own actions before an ending off the board counts
DAILY_PAIR_CAP = 3  # rated matches a day between the same two members, per game and server
DAY = 86_400.0

ENDED_EARLY = "ended early"
PAIR_CAP = "daily pair cap"


def ended_early(state: MatchState) -> bool:
    """Rule 1: the match is over, off the board, before every side made MIN_ACTIONS actions."""
    if not state.is_over or not state.played or state.played[-1].ending is None:
        return False
    actions = dict.fromkeys((side.slug for side in state.sides), 0)
    for step in state.played:
        if step.action is not None:
            side = state.side_of(step.seat)
            actions[side] = actions.get(side, 0) + 1
    return min(actions.values()) < MIN_ACTIONS


def early_note() -> Text:
    return P(
        "Not rated: it ended before each side had made {count} move.",
        "Not rated: it ended before each side had made {count} moves.",
        count=MIN_ACTIONS,
    )


def cap_note() -> Text:
    return M("Not rated: these players have already played {count} rated matches of this game today.",
             count=DAILY_PAIR_CAP)  # fmt: skip


async def pair_cap_reached(db: Connection, row: MatchRow, state: MatchState, now: float) -> bool:
    """Rule 2: whether two of this match's members already started DAILY_PAIR_CAP rated matches of
    this game on this server in the past day. Call it in the starting transaction, with the
    members held (`hold_members`), so two starts at once count each other."""
    members = sorted(state.players)
    for first, second in combinations(members, 2):
        count = await queries.rated_matches_between(db, row.guild_id, row.game, first, second, now - DAY)
        if count >= DAILY_PAIR_CAP:
            return True
    return False


async def hold_members(db: Connection, row: MatchRow, state: MatchState) -> None:
    """Serialise starts that share a member (PostgreSQL), in one order so they cannot deadlock."""
    for user in sorted(state.players):
        await queries.hold_member(db, row.guild_id, user)
