"""The daily digest: once a day at the hour a member chose (UTC), one direct message listing
every match, in every server, where it is their turn, with each clock and a link to the latest
board. Members who chose it get no reminder DMs (channel pings are unchanged). Fired by the one
timer task like every timer; its schedule lives in the database (bot/storage/digests.py)."""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta
from typing import Any

from bot import texts
from bot.errors import ServiceError
from bot.i18n import speaking
from bot.replies import Notice, Reply
from bot.service.book import MatchBook
from bot.service.notices import notice_json
from bot.service.remaining import remaining_text, seat_remaining
from bot.storage import digests, outbox, timers
from bot.storage import matches as queries
from bot.storage.timers import TimerKind, TimerRow
from engine.i18n import M, Message, P
from engine.registry import get_game

log = logging.getLogger(__name__)
DEFAULT_HOUR = 8  # UTC, when a member turns the digest on without an hour


def next_at(hour: int, after: float) -> float:
    """The first time strictly after `after` that is `hour`:00 UTC."""
    moment = datetime.fromtimestamp(after, UTC)
    due = moment.replace(hour=hour, minute=0, second=0, microsecond=0)
    if due.timestamp() <= after:
        due += timedelta(days=1)
    return due.timestamp()


class Digests:
    def __init__(self, book: MatchBook) -> None:
        self.book = book

    async def choose(self, user_id: int, on: bool | None, hour: int | None) -> Message:
        """Turn the digest on or off, or move its hour; what was done, in words."""
        if hour is not None and not 0 <= hour <= 23:
            raise ServiceError(M("the digest's hour is 0 to 23 (UTC)"))
        now = self.book.clock.now()
        async with self.book.storage.transaction() as db:
            current = await digests.digest_hour(db, user_id)
            if on is False:
                await digests.set_digest(db, user_id, None, None)
            else:
                if on is None and current is None:
                    raise ServiceError(M("turn the digest on with {digest}:on (and an {hour} from 0 to 23, UTC)",
                                         digest=texts.option("digest"), hour=texts.option("hour")))  # fmt: skip
                chosen = hour if hour is not None else current if current is not None else DEFAULT_HOUR
                await digests.set_digest(db, user_id, chosen, next_at(chosen, now))
        self.book.timers_changed()
        if on is False:
            return M("no daily digest for you; reminders by DM follow your dm setting again")
        return M("your daily digest comes by direct message at {hour}:00 UTC, instead of reminders by DM",
                 hour=f"{chosen:02d}")  # fmt: skip

    async def status(self, user_id: int) -> Message:
        async with self.book.storage.reading() as db:
            hour = await digests.digest_hour(db, user_id)
        if hour is None:
            return M("Daily digest for you: off.")
        return M("Daily digest for you: every day at {hour}:00 UTC.", hour=f"{hour:02d}")

    async def next_due(self) -> TimerRow | None:
        async with self.book.storage.reading() as db:
            found = await digests.next_digest(db)
        return None if found is None else TimerRow(0, found[1], TimerKind.DIGEST, 0, user_id=found[0])

    async def postpone(self, user_id: int, seconds: float) -> None:
        async with self.book.storage.transaction() as db:
            await digests.postpone(db, user_id, self.book.clock.now() + seconds)

    async def fire(self, timer: TimerRow) -> bool:
        """Send a due digest once (the schedule moves on to the next day in the same transaction);
        a day with no match waiting for the member sends nothing."""
        assert timer.user_id is not None
        user_id, now = timer.user_id, self.book.clock.now()
        async with self.book.storage.reading() as db:
            hour = await digests.digest_hour(db, user_id)
            locale = await timers.locale_for(db, (user_id,), 0)
        if hour is None:
            return False
        with speaking(locale):
            text = await self.text(user_id, now)
        notice = Notice(0, 0, Reply(text or ""), (user_id,), locale or "en", kind="dm")
        async with self.book.storage.transaction() as db:
            if not await digests.take(db, user_id, timer.due, next_at(hour, max(now, timer.due))):
                return False
            if text is not None:
                await outbox.add(db, None, 0, 0, notice_json(notice), now, kind="dm")
        self.book.timers_changed()
        return text is not None

    async def text(self, user_id: int, now: float) -> str | None:
        """The digest's words: one line per match waiting for the member; None when none is."""
        async with self.book.storage.reading() as db:
            found = await queries.active_matches_of_member(db, user_id)
        lines = []
        for row, seats in found:
            try:
                _, state = await self.book.load_match(row.id)
            except ServiceError:  # damaged, or its game uninstalled: the others are still listed
                log.error("a match in a digest does not load", extra={"match": row.id})
                continue
            if state.is_over:
                continue
            owed = [s for s in state.setup_pending() if s in seats]
            seat = owed[0] if owed else row.to_act if row.to_act in seats else None
            if seat is None:
                continue
            words: dict[str, Any] = {
                "game": get_game(row.game).title, "seat": state.seat_title(seat), "channel": f"<#{row.channel_id}>",
                "clock": remaining_text(seat_remaining(row, seat, now)),
                "link": texts.message_link(row.guild_id, row.channel_id, row.board_message_id),
            }  # fmt: skip
            line = (M("{game}, {seat} in {channel}: your secret setup; {clock} left. {link}", **words) if owed
                    else M("{game}, {seat} in {channel}: your turn; {clock} left. {link}", **words))  # fmt: skip
            if seat_remaining(row, seat, now) is None:
                line = (M("{game}, {seat} in {channel}: your secret setup (no deadline). {link}", **words) if owed
                        else M("{game}, {seat} in {channel}: your turn (no deadline). {link}", **words))  # fmt: skip
            lines.append(f"• {line}")
        if not lines:
            return None
        head = P("Your daily digest: {count} match is waiting for you.",
                 "Your daily digest: {count} matches are waiting for you.", count=len(lines))  # fmt: skip
        return "\n".join([str(head), *lines])
