"""Vacations: a member's allowance of days per server and year, during which the clocks of all
their seats, in every match of that server and every game, stand still (bot/service/clocks.py).

The allowance (a server setting, 14 days a year by default) counts what was booked this UTC
calendar year, each vacation to the started hour; ending one early gives the rest back. One
vacation lasts at most 30 days, and none may start while its member owes a turn with less than
12 hours left (a vacation pauses a clock; it does not rescue one).
"""

from __future__ import annotations

import calendar
import math
import time

from bot import texts
from bot.errors import NotAllowed, ServiceError
from bot.replies import Reply
from bot.service import clocks
from bot.service.book import MatchBook
from bot.service.notices import notice_json, notice_now
from bot.storage import Connection, MatchRow, outbox, seat_clocks, vacations
from bot.storage import matches as queries
from bot.time_bank import DAY, FINAL_WARNING, format_left, format_moment
from engine.i18n import M, P

MAX_STRETCH_DAYS = 30
MAX_ALLOWANCE_DAYS = 365


def year_start(now: float) -> float:
    return float(calendar.timegm((time.gmtime(now).tm_year, 1, 1, 0, 0, 0)))


class Vacations:
    def __init__(self, book: MatchBook) -> None:
        self.book = book

    async def vacation(self, guild_id: int, user_id: int, days: int | None) -> Reply:
        """Start (or extend) a vacation of `days`; 0 ends it now; None shows where it stands."""
        if days is not None and not 0 <= days <= MAX_STRETCH_DAYS:
            raise ServiceError(M("a vacation is 1 to {most} days (0 ends yours now)", most=MAX_STRETCH_DAYS))
        now = self.book.clock.now()
        async with self.book.storage.transaction() as db:
            # One member's vacation changes are made one at a time (the count and the change, as one).
            await queries.hold_member(db, guild_id, user_id)
            current = await vacations.current(db, guild_id, user_id, now)
            allowance = await vacations.allowance_days(db, guild_id) * DAY
            booked = await vacations.used_seconds(db, guild_id, user_id, year_start(now), math.inf)
            if days is None:
                return Reply(_standing(current.ends_at if current else None, allowance - booked, allowance))
            mine = [m for m, _ in await queries.open_matches_of(db, guild_id, user_id) if m.status == "active"]
            if days == 0:
                if current is None:
                    raise NotAllowed(M("you are not on vacation in this server"))
                await vacations.move_end(db, current.id, now)
                ends = None
            else:
                start = current.started_at if current else now
                ends = (current.ends_at if current else now) + days * DAY
                if ends - start > MAX_STRETCH_DAYS * DAY:
                    raise NotAllowed(M("a vacation lasts at most {most} days at a stretch; yours would last {days}",
                                       most=MAX_STRETCH_DAYS, days=format_left(ends - start)))  # fmt: skip
                if booked + days * DAY > allowance:
                    raise NotAllowed(M("that is more vacation than you have left in this server this year: {left} "
                                       "of {allowance} days", left=format_left(allowance - booked),
                                       allowance=round(allowance / DAY)))  # fmt: skip
                if current is None:
                    await self._refuse_a_dodge(db, mine, user_id, now)
                    await vacations.start(db, guild_id, user_id, now, ends)
                else:
                    await vacations.move_end(db, current.id, ends)
            for match in mine:
                await clocks.sync_match(db, match.id, now)
                await self._tell(db, match, user_id, ends, now)
            booked = await vacations.used_seconds(db, guild_id, user_id, year_start(now), math.inf)
        self.book.timers_changed()
        return Reply(_standing(ends, allowance - booked, allowance, matches=len(mine)))

    async def _refuse_a_dodge(self, db: Connection, matches: list[MatchRow], user_id: int, now: float) -> None:
        for match in matches:
            holders = {s.seat: s.user_id for s in await queries.seats_of(db, match.id)}
            for seat, clock in (await seat_clocks.of_match(db, match.id)).items():
                if holders.get(seat) == user_id and clock.on_turn and clock.left(now) < FINAL_WARNING:
                    raise NotAllowed(M(
                        "you owe a turn with less than 12 hours left (in <#{channel}>): a vacation cannot start "
                        "now. Play that turn first, then take your vacation.", channel=match.channel_id,
                    ))  # fmt: skip

    async def _tell(self, db: Connection, match: MatchRow, user_id: int, ends: float | None, now: float) -> None:
        """Say in each match's channel that a player's clocks stand still (or run again)."""
        if ends is None:
            text = M("🏖 {who} is back from vacation: their clocks in this match run again.", who=texts.mention(user_id))
        else:
            text = M("🏖 {who} is on vacation until {date}: their clocks in this match stand still meanwhile.",
                     who=texts.mention(user_id), date=format_moment(ends))  # fmt: skip
        reply = Reply(str(text), match_id=match.id, game=match.game)
        await outbox.add(db, match.id, match.guild_id, match.channel_id,
                         notice_json(notice_now(match.guild_id, match.channel_id, reply)), now)  # fmt: skip

    async def set_allowance(self, guild_id: int, days: int, *, can_manage: bool) -> str:
        if not can_manage:
            raise NotAllowed(M("changing the server's vacation allowance needs Manage Channels"))
        if not 0 <= days <= MAX_ALLOWANCE_DAYS:
            raise ServiceError(M("a vacation allowance is 0 to {most} days a year", most=MAX_ALLOWANCE_DAYS))
        async with self.book.storage.transaction() as db:
            await vacations.set_allowance_days(db, guild_id, days)
        return str(P("Vacation allowance on this server: {count} day a year for each member.",
                     "Vacation allowance on this server: {count} days a year for each member.",
                     count=days))  # fmt: skip


def _standing(ends: float | None, left: float, allowance: float, *, matches: int | None = None) -> str:
    lines = []
    if ends is not None:
        lines.append(str(M("🏖 You are on vacation in this server until {date}: your clocks stand still in all your "
                           "matches here, in every game.", date=format_moment(ends))))  # fmt: skip
    elif matches is not None:
        lines.append(str(M("Your vacation has ended: your clocks run again.")))
    else:
        lines.append(str(M("You are not on vacation in this server.")))
    lines.append(str(M("Vacation left this year: {left} of {allowance} days (counted to the hour; unused days are "
                       "kept).", left=format_left(max(0.0, left)) if left >= 3600 else "0h",
                       allowance=round(allowance / DAY))))  # fmt: skip
    return "\n".join(lines)
