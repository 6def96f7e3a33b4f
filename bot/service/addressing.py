"""Which match a command means in a channel that holds several.

Where the bot may not open threads, an event's matches are played in the event's channel
itself (docs/tournaments.md, "Matches in the event's channel"). Such a match is stored with
`parent_channel_id = channel_id`, which no other match has, and is left out of the rule of one
open match per channel. Every service call still names a channel; which of its matches is meant
is settled once, before the command runs, and held in a context variable for that command's
task: the invoker's own open match there (a player has at most one per round), the match the
`/tournament board match:` names, or, when neither says, a private refusal that lists the
matches. The
refusal is raised only if the command reads a match at all (`/<game> rules` still answers).
Buttons and menus carry their match in their custom ids and address it the same way.
"""

from __future__ import annotations

from bot import texts
from bot.addressed import Addressed
from bot.commands.forms import event_command
from bot.errors import NotAllowed
from bot.storage import Connection, MatchRow
from bot.storage import events as event_store
from bot.storage import matches as queries
from bot.storage.events import TableRow
from engine.i18n import M, Text

MATCH_OPTION = "match"


def is_shared(row: MatchRow) -> bool:
    """An event's match played in the event's channel beside others."""
    return row.parent_channel_id is not None and row.parent_channel_id == row.channel_id


def to_choose(rows: list[MatchRow], named: str | int | None) -> bool:
    """Whether a command in a channel holding these open matches needs `choose`: a match is named,
    or the channel is shared by an event's matches. Else it means the channel's one match (or none)."""
    return (named is not None and bool(str(named).strip())) or any(is_shared(row) for row in rows)


async def choose(db: Connection, channel_id: int, user_id: int, named: str | int | None,
                 naming: Text | None = None) -> Addressed | None:  # fmt: skip
    """Which open match of the channel a member's command means (None: there is at most one).
    `naming`: the command typed, when it takes `match:` itself (`/<game> abort`): the refusal's
    list then says to name one there."""
    rows = await queries.open_matches_in(db, channel_id)
    if named is not None and str(named).strip():
        wanted = str(named).strip().lstrip("#")
        found = next((r for r in rows if str(r.id) == wanted), None)
        if found is not None:
            return Addressed(channel_id, found.id)
        listing = await listing_text(db, rows, naming)
        text = M("there is no open match #{id} in this channel.", id=wanted[:12])
        return Addressed(channel_id, refusal=NotAllowed(M("{text}\n{listing}", text=text, listing=listing)))
    if not any(is_shared(row) for row in rows):
        return None  # the channel's one match (or none): as everywhere else
    mine = []
    for row in rows:
        seats = await queries.seats_of(db, row.id)
        if any(seat.user_id == user_id for seat in seats):
            mine.append(row)
    if len(mine) == 1:
        return Addressed(channel_id, mine[0].id)
    if not mine:  # their game here may have ended while others go on: that one is theirs to look at
        latest = await db.fetchone(
            "SELECT m.id FROM matches m JOIN seats s ON s.match_id = m.id WHERE m.channel_id = ? AND s.user_id = ? "
            "AND m.parent_channel_id = m.channel_id ORDER BY m.id DESC LIMIT 1", channel_id, user_id,
        )  # fmt: skip
        if latest is not None:
            return Addressed(channel_id, int(latest[0]))
    if len(rows) == 1 and not mine:
        return None
    text = M("several matches are played in this channel and none of them is yours alone, so I cannot tell "
             "which one you mean.")  # fmt: skip
    listing = await listing_text(db, mine or rows, naming)
    return Addressed(channel_id, refusal=NotAllowed(M("{text}\n{listing}", text=text, listing=listing)))


async def listing_text(db: Connection, rows: list[MatchRow], naming: Text | None = None) -> Text:
    lines = []
    for row in rows:
        label = await label_of(db, row) or str(M("match #{id}", id=row.id))
        link = texts.message_link(row.guild_id, row.channel_id, row.board_message_id)
        lines.append(f"• #{row.id} · {label} · {link}")
    # The command as the reader's client shows it: `/<game> torneo tablero`, or `/tournament tablero game:<game>`.
    board = event_command(rows[0].game, "board") if rows else texts.command("board")
    how = M("Players' commands reach their own match. To look at one: {board} with {match}:<number> (it "
            "suggests the open matches as you type), e.g. `{match}:{id}`.",
            board=board, match=texts.option(MATCH_OPTION), id=rows[0].id if rows else 1)  # fmt: skip
    if naming is not None:
        how = M("Name one with {command} {match}:<number> (it suggests the open matches as you type), e.g. "
                "`{match}:{id}`.", command=naming, match=texts.option(MATCH_OPTION), id=rows[0].id if rows else 1)
    return M("{matches}\n{how}", matches="\n".join(lines), how=how)


async def label_of(db: Connection, row: MatchRow) -> str | None:
    """"Round 2 · board 1 · @Ana vs @Luis" for an event's match sharing its channel, else None."""
    table = await shared_table(db, row)
    return None if table is None else table_label(table)


async def shared_table(db: Connection, row: MatchRow) -> TableRow | None:
    """The event table of a match sharing its event's channel (None for any other match)."""
    if not is_shared(row):
        return None
    found = await event_store.table_of_match(db, row.id)
    return None if found is None else found[1]


def table_label(table: TableRow) -> str:
    players = " vs ".join(" & ".join(texts.mention(user) for user in side) for side in table.sides)
    replay = str(M(" · game {game}", game=table.game)) if table.game > 1 else ""
    return str(M("Round {round} · board {board}{replay} · {players}", round=table.round, board=table.board,
                 replay=replay, players=players))  # fmt: skip
