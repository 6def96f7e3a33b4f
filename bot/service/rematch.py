"""Rematches: once every member of a finished match has accepted (within a day of their
acceptance), a new match of the same game, options and players opens, with the seats rotated
(each side moves to the next side's seats: colours swap, and in a team game the teams swap sides
together), rated if the first was meant to be. Computer seats accept at once."""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot import rating_gate, texts
from bot.commands.forms import typed
from bot.errors import ChannelBusy, NotAllowed, NotInMatch
from bot.match import MatchState
from bot.replies import Reply
from bot.service.book import MatchBook
from bot.storage import ChannelHasMatch, MatchRow, rematches, timers
from bot.storage import matches as queries
from bot.storage.matches import NewMatch
from bot.storage.timers import TimerKind
from engine.i18n import M

DAY = 86_400.0
# Opens a new thread next to the finished match's one (the Discord front end); returns its id.
OpenThread = Callable[[], Awaitable[int | None]]


@dataclass(frozen=True, slots=True)
class Agreed:
    """Every member accepted: the rematch's lobby is stored, full, in `channel_id`, to be started."""

    channel_id: int
    starter: int


def rotated(state: MatchState) -> dict[str, str]:
    """Old seat → new seat: every seat moves to the same place in the next side. With sides of
    unequal sizes, every seat moves one place round the table instead."""
    sides = state.sides
    if len(sides) > 1 and len({len(side.seats) for side in sides}) == 1:
        return {seat: sides[(k + 1) % len(sides)].seats[i] for k, side in enumerate(sides)
                for i, seat in enumerate(side.seats)}  # fmt: skip
    order = state.table_slugs()
    return {seat: order[(i + 1) % len(order)] for i, seat in enumerate(order)}


class Rematches:
    def __init__(self, book: MatchBook) -> None:
        self.book = book

    async def accept(
        self, channel_id: int, user_id: int, *, match_id: int | None = None, open_thread: OpenThread | None = None
    ) -> Reply | Agreed:
        """A member accepts a rematch of the channel's last match (or the match a button names)."""
        if match_id is not None:
            row, state = await self.book.load_match(match_id)
        else:
            row, state = await self.book.load(channel_id, open_only=False)
        if row.status != "finished":
            raise NotAllowed(M("a rematch can be asked for once the match has finished"))
        if user_id not in state.players:
            raise NotInMatch(M("only the players of the finished match can ask for a rematch"))
        now = self.book.clock.now()
        async with self.book.storage.transaction() as db:
            started = await rematches.rematch_of(db, row.id)
            if started is None:
                await rematches.lapse(db, row.id, now - DAY)
                await rematches.accept(db, row.id, user_id, now)
                agreed = await rematches.accepted(db, row.id, now - DAY)
        if started is not None:
            raise NotAllowed(M("the rematch has already begun: {channel}", channel=f"<#{started[1]}>"))
        waiting = sorted(state.players - agreed)
        if waiting:
            said = M("{who} wants a rematch. Waiting for {others} (within a day): press Rematch, or {rematch}.",
                     who=texts.mention(user_id), others=", ".join(texts.mention(u) for u in waiting),
                     rematch=typed(row.game, "rematch"))  # fmt: skip
            return Reply(str(said), mentions=tuple(waiting), match_id=row.id, game=row.game, rematch=True)
        target = row.channel_id
        if row.parent_channel_id is not None and open_thread is not None:
            target = await open_thread() or target
        await self._open(row, state, target, user_id, now)
        return Agreed(target, user_id)

    async def _open(self, row: MatchRow, state: MatchState, channel_id: int, user_id: int, now: float) -> None:
        """The rematch's lobby, every seat held as rotated, stored with its origin (once)."""
        rules = state.rules
        seed = secrets.randbelow(2**31)
        position = rules.notation(rules.new(row.players, dict(row.options), seed))
        moved = rotated(state)
        rated = row.rated or row.unrated_reason in (rating_gate.ENDED_EARLY, rating_gate.PAIR_CAP)
        try:
            async with self.book.storage.transaction() as db:
                new_id = await queries.insert_match(db, NewMatch(
                    game=row.game, guild_id=row.guild_id, channel_id=channel_id, creator_id=user_id,
                    players=row.players, start_position=position, to_act=rules.to_act(rules.load(position)),
                    rated=rated, now=now, options=row.options, seed=seed, deadline_days=row.deadline_days,
                    bank_days=row.bank_days,
                    # A rematch of an event's match in a shared channel is an ordinary match there.
                    parent_channel_id=None if row.parent_channel_id == channel_id else row.parent_channel_id,
                ))  # fmt: skip
                await rematches.mark_rematch(db, new_id, row.id)
                for seat in state.table_slugs():
                    level, holder = state.computers.get(seat), state.seats.get(seat)
                    await queries.take_seats(db, new_id, [moved[seat]], user_id=holder if level is None else None,
                                             computer=level)  # fmt: skip
                await timers.schedule(db, new_id, TimerKind.LOBBY, now + DAY, now)
        except ChannelHasMatch:
            raise ChannelBusy(M("this channel has a match open again: finish or abort it first")) from None
