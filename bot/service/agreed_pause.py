"""Pause by agreement: every clock of a match stops once every player still in has agreed (as a
draw is agreed), and any player resumes it, each seat with the time it had.

The clocks themselves stop and restart as they do for a match whose channel is unreachable
(bot/service/paused.py): the match row says the clocks stand (`clocks_paused_at`), and
`bot/service/clocks.py` settles them and their timers from it. While paused, nobody moves.
"""

from __future__ import annotations

from typing import Any

from bot import texts
from bot.commands.forms import typed
from bot.errors import NotAllowed, NotInMatch, ServiceError
from bot.match import MatchState
from bot.replies import Reply
from bot.service import clocks
from bot.service.book import MatchBook
from bot.storage import Connection, MatchRow
from bot.storage import matches as queries
from engine.i18n import M, Message, choice_name

CHOICES = ("offer", "accept", "decline")


def humans_still_in(state: MatchState) -> frozenset[int]:
    """The members whose agreement a pause needs (computer seats agree at once)."""
    return frozenset(p for p in state.parties_in_play() if isinstance(p, int))


def agreed_of(row: MatchRow) -> set[int]:
    return {int(u) for u in row.pause_agreed.split(",") if u}


class AgreedPause:
    def __init__(self, book: MatchBook) -> None:
        self.book = book

    async def _locked(self, db: Connection, match_id: int) -> MatchRow:
        # The row locked first, so two answers at once (on two shards) are counted one after the other.
        await db.execute("UPDATE matches SET updated_at = updated_at WHERE id = ?", match_id)
        row = await queries.match_by_id(db, match_id)
        assert row is not None
        return row

    async def _player(self, channel_id: int, user_id: int) -> tuple[MatchRow, MatchState]:
        row, state = await self.book.load(channel_id)
        if row.status != "active" or state.is_over:
            raise NotAllowed(M("the match has not started: there is no clock to pause"))
        if user_id not in state.players:
            raise NotInMatch(M("only the players of this match can pause or resume it"))
        return row, state

    async def pause(self, channel_id: int, user_id: int, choice: str) -> Reply:
        if choice not in CHOICES:
            raise ServiceError(M("choose offer, accept or decline"))
        row, state = await self._player(channel_id, user_id)
        needed = humans_still_in(state)
        now = self.book.clock.now()
        async with self.book.storage.transaction() as db:
            current = await self._locked(db, row.id)
            if current.clocks_paused_at is not None:
                raise NotAllowed(M("the clocks are already paused: {resume} restarts them",
                                   **_words(row)))  # fmt: skip
            agreed = agreed_of(current)
            if choice != "offer" and not agreed:
                raise NotAllowed(M("nobody has offered a pause: {offer} proposes one",
                                   **_words(row)))  # fmt: skip
            if choice == "decline":
                await queries.update_match(db, row.id, pause_agreed="")
                return Reply(str(M("{who} declined the pause; the clocks run on.", who=texts.mention(user_id))),
                             match_id=row.id, game=row.game, mentions=tuple(sorted(agreed - {user_id})))  # fmt: skip
            agreed.add(user_id)
            waiting = tuple(sorted(needed - agreed))
            if waiting:
                await queries.update_match(db, row.id, pause_agreed=",".join(str(u) for u in sorted(agreed)))
                words: dict[str, Any] = {
                    "who": texts.mention(user_id), "waiting": ", ".join(texts.mention(u) for u in waiting),
                    **_words(row),
                }  # fmt: skip
                said: Message = (
                    M("⏸ {who} offers to pause every clock of this match. Waiting for {waiting}: {accept} or "
                      "decline.", **words) if choice == "offer"
                    else M("⏸ {who} agrees to pause the clocks. Waiting for {waiting}: {accept} or decline.",
                           **words))  # fmt: skip
                return Reply(str(said), match_id=row.id, game=row.game, mentions=waiting)
            await queries.update_match(db, row.id, pause_agreed="", clocks_paused_at=now)
            await self._resettle(db, row.id, state, now)
        self.book.timers_changed()
        return Reply(str(M("⏸ Everyone agreed: the match is paused and every clock stands still. Any player restarts "
                           "it with {resume}, each clock with the time it had.",
                           **_words(row))), match_id=row.id, game=row.game,
                     mentions=tuple(sorted(needed - {user_id})))  # fmt: skip

    async def resume(self, channel_id: int, user_id: int) -> Reply:
        row, state = await self._player(channel_id, user_id)
        now = self.book.clock.now()
        async with self.book.storage.transaction() as db:
            current = await self._locked(db, row.id)
            if current.clocks_paused_at is None:
                raise NotAllowed(M("the match is not paused"))
            await queries.update_match(db, row.id, clocks_paused_at=None)
            await self._resettle(db, row.id, state, now)
        self.book.timers_changed()
        line = ""
        async with self.book.storage.reading() as db:
            fresh = await queries.match_by_id(db, row.id)
            if fresh is not None:
                line = await clocks.clock_text(db, fresh, state, now)
        text = str(M("▶ {who} resumed the match: the clocks run again.", who=texts.mention(user_id)))
        next_line = texts.next_text(state)
        return Reply("\n".join(x for x in (text, line, next_line) if x), match_id=row.id, game=row.game,
                     mentions=tuple(sorted(state.players - {user_id})))  # fmt: skip

    async def _resettle(self, db: Connection, match_id: int, state: MatchState, now: float) -> None:
        """Clocks and timers as the row now says (paused: everything stands; resumed: they run)."""
        row = await queries.match_by_id(db, match_id)
        if row is not None and self.book.scheduler is not None:
            await self.book.scheduler.reschedule(db, row, state, state, now, activity=True, new_turn=False)


def refuse_while_paused(row: MatchRow) -> None:
    """No move while the players agreed to pause (resuming first keeps every clock honest)."""
    if row.clocks_paused_at is not None:
        raise NotAllowed(M("the match is paused by agreement: {resume} restarts it first",
                           **_words(row)))  # fmt: skip


def _words(row: MatchRow) -> dict[str, Any]:
    """How a pause is typed in this game's group: `/<game> pause choice:offer`, or folded into
    settings where the group has no room (`settings pause:offer`; bot/commands/forms.py)."""
    return {verb: typed(row.game, "resume" if verb == "resume" else "pause", choice_name(verb))
            for verb in ("offer", "accept", "resume")}  # fmt: skip
