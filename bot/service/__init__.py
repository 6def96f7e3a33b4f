"""The match service: the one place the front ends (Discord cogs, the local console, tests)
drive matches through, with plain ids and no Discord types.

It is composed of parts that share one `MatchBook` (loading, caching, committing):
the lobby, play, reading, settings, turn timers, computer seats and cooldowns. Every
change is committed before the reply is built, and two changes that race on one match
are settled by the match version: exactly one applies.

How calls are addressed: a match is the one in a channel, and Discord's channel ids are
unique across servers, so what a member does in a match takes `(channel_id, user_id, …)`.
What spans a server takes its `guild_id`: opening a match (stored with its server),
settings (a server's defaults), standings and a member's waiting matches.

A new part is a class over the `MatchBook` in a module of its own (`bot/service/<part>.py`),
made once in `__init__` below, with methods here for what the front ends call.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import cached_property
from typing import TYPE_CHECKING, Any

from bot import addressed, rating_gate
from bot.addressed import Addressed
from bot.clock import Clock, SystemClock
from bot.errors import MatchUnreadable, NoMatch, ServiceError
from bot.i18n import LocaleMemory, speaking
from bot.match import Entry, EntryKind, MatchState
from bot.replies import Image, Notice, Reply
from bot.service import addressing, clocks
from bot.service.agreed_pause import AgreedPause
from bot.service.book import MatchBook, Renderer, default_renderer
from bot.service.computer import ComputerPlayers
from bot.service.cooldowns import Cooldowns
from bot.service.digest import Digests
from bot.service.forecasts import Forecasts
from bot.service.heavy import HeavyReads
from bot.service.lobby import LEVELS, Lobby
from bot.service.notices import notice_from_json
from bot.service.paused import PausedMatches
from bot.service.play import Play, recent_actions
from bot.service.reading import Reading, TurnInfo
from bot.service.rematch import OpenThread, Rematches
from bot.service.settings import MatchSettings
from bot.service.timers import TurnTimers
from bot.service.vacations import Vacations
from bot.storage import Storage, matches, open_storage, outbox, timers
from bot.storage import events as event_rows
from bot.storage import ratings as rating_rows
from bot.storage.events import TableRow
from bot.storage.outbox import PendingNotice
from bot.storage.timers import TimerKind, TimerRow
from engine.i18n import M, Text

if TYPE_CHECKING:
    from bot.ratings import PlayerRating
    from bot.service.events import EventDesk, ThreadMaker

__all__ = ["LEVELS", "MatchService", "TurnInfo"]


class MatchService:
    def __init__(
        self,
        storage: Storage,
        *,
        renderer: Renderer = default_renderer,
        clock: Clock | None = None,
        render_threads: int = 2,
        computers: ComputerPlayers | None = None,
        lobby_days: float = 7.0,
        lobbies_per_member: int = 3,
        owner: str = "main",
    ) -> None:
        self.storage = storage
        self.db = storage  # the first release's name, which its tests use
        self.clock: Clock = clock or SystemClock()
        # `owner`: this process among those sharing the database (its shards), on its backups.
        self.book = MatchBook(storage, self.clock, renderer, render_threads, owner)
        self._adopted = False
        self.heavy = HeavyReads()  # replays and imports, queued per member, in a worker process
        self.lobby = Lobby(self.book, self.heavy, lobby_days=lobby_days, lobbies_per_member=lobbies_per_member)
        self.play = Play(self.book)
        self.reading = Reading(self.book, self.heavy)
        self.digests = Digests(self.book)
        self.match_settings = MatchSettings(self.book, self.digests)
        self.timers = TurnTimers(self.book, self.play)
        self.paused = PausedMatches(self.book)
        self.vacations = Vacations(self.book)
        self.agreed_pause = AgreedPause(self.book)
        self.rematches = Rematches(self.book)
        self.forecasts = Forecasts(self.book, self.play)
        self.computers = computers
        self.cooldowns = Cooldowns()
        self.locales = LocaleMemory()
        self._thread_maker: ThreadMaker | None = None
        self._tables: dict[int, TableRow | None] = {}  # a shared match's event table never changes
        self.book.on_finish = self._on_finish
        self.book.after_finish = lambda match_id: self.events.after_result(match_id)
        if computers is not None:
            self.timers.computer_move = computers.move

    @cached_property
    def events(self) -> EventDesk:
        """Tournaments: made (and the tournament code, Pillow's tables with it, imported) when
        first needed, a match's end or a tournament command, so the console starts sooner."""
        from bot.service.events import EventDesk

        desk = EventDesk(
            self.book,
            resign=lambda channel_id, user_id: self.play.resign(channel_id, user_id, confirmed=True),
            abort=lambda channel_id, user_id: self.lobby.abort(channel_id, user_id, can_manage=True),
            ratings=self._shown_ratings,
        )
        desk.thread_maker = self._thread_maker
        return desk

    def open_event_tables_with(self, maker: ThreadMaker) -> None:
        """How a front end gives an event's tables their channels (`EventDesk.thread_maker`),
        without making the desk before it is needed."""
        self._thread_maker = maker
        if "events" in self.__dict__:
            self.events.thread_maker = maker

    async def _on_finish(self, db: Any, row: matches.MatchRow, state: MatchState, outcome: Any) -> None:
        """In the finishing transaction: the stored rating table, then an event's table's result."""
        await rating_rows.rate_match(db, row.id)
        await self.events.record_result(db, row, state, outcome)

    @classmethod
    async def open(cls, location: str, **options: Any) -> MatchService:
        return cls(await open_storage(location), **options)

    async def close(self) -> None:
        """Close storage and threads. The computer players' pool belongs to whoever made it."""
        await self.reading.close()
        await self.book.close()
        await self.storage.close()

    @property
    def on_timers_changed(self) -> Callable[[], None] | None:
        return self.book.on_timers_changed

    @on_timers_changed.setter
    def on_timers_changed(self, callback: Callable[[], None] | None) -> None:
        self.book.on_timers_changed = callback

    # --- lobby ------------------------------------------------------------------------
    async def new_match(
        self, guild_id: int, channel_id: int, user_id: int, seats: str, *, game: str, **options: Any
    ) -> Reply:
        """Open a lobby of `game`; `options` are Lobby.new_match's (players, options, start, …)."""
        return await self.lobby.new_match(guild_id, channel_id, user_id, seats, game=game, **options)

    async def join(
        self, channel_id: int, user_id: int, seats: str, *, computer: str | None = None
    ) -> Reply:
        return await self.lobby.join(channel_id, user_id, seats, computer=computer)

    async def leave(self, channel_id: int, user_id: int, *, confirmed: bool = False) -> Reply:
        row, _ = await self.book.load(channel_id)
        if row.status == "active":  # leaving a started match is resigning
            return await self.play.resign(channel_id, user_id, confirmed=confirmed)
        return await self.lobby.leave(channel_id, user_id)

    async def start(self, channel_id: int, user_id: int) -> Reply:
        row, state = await self.book.load(channel_id)
        self.lobby.check_start(row, state, user_id)
        headline = str(M("The match begins! {seating}", seating=self._seating(state)))
        if await self.lobby.pair_cap_reached(row, state):
            headline += f"\n{rating_gate.cap_note()}"
        if state.in_setup():
            secret = M("First every side sets up in secret (the button below). Nobody sees another's choice until "
                       "all are made.")  # fmt: skip
            headline += f"\n{secret}"
        reply = await self.play.board_reply(row, state, headline, recent=[])
        kept = await self.lobby.start(row, state, user_id, backup=reply)
        return replace(reply, notice_ids=kept)

    @staticmethod
    def _seating(state: MatchState) -> str:
        from bot.texts import seating_text

        return seating_text(state)

    async def rematch(
        self, channel_id: int, user_id: int, *, match_id: int | None = None, open_thread: OpenThread | None = None
    ) -> Reply:
        """Accept a rematch of the channel's finished match (or of `match_id`, a button's); once every
        member has, it starts in the same channel, or in a new thread if the match was in one
        (`open_thread`, the front end's). A reply for elsewhere names its channel."""
        accepted = await self.rematches.accept(channel_id, user_id, match_id=match_id, open_thread=open_thread)
        if isinstance(accepted, Reply):
            return accepted
        reply = await self.start(accepted.channel_id, accepted.starter)
        headline = str(M("Rematch! Everyone accepted; the seats are rotated."))
        reply = replace(reply, text=f"{headline}\n{reply.text}")
        return replace(reply, channel_id=accepted.channel_id) if accepted.channel_id != channel_id else reply

    async def abort(self, channel_id: int, user_id: int, *, can_manage: bool = False, confirmed: bool = False) -> Reply:
        if can_manage and not confirmed:
            # A started match aborted is gone for its players, unrated: a moderator is asked too.
            # (A lobby holds no game yet; a damaged match, which cannot be played, is freed at once.)
            try:
                row, state = await self.book.load(channel_id)
            except MatchUnreadable:
                row = None
            if row is not None and row.status == "active":
                ends = M("Aborting ends this match for every player, unrated; it cannot be resumed.")
                async with self.book.storage.reading() as db:  # several share the channel: say which one
                    label = await addressing.label_of(db, row)
                if label is not None:
                    ends = M("Aborting ends {match} for every player, unrated; it cannot be resumed.",
                             match=f"**{label}**")  # fmt: skip
                self.play.ask_first(row, state, user_id, "abort", "", ends, confirmed)
        return await self.lobby.abort(channel_id, user_id, can_manage=can_manage)

    # --- playing ----------------------------------------------------------------------
    async def act(
        self,
        channel_id: int,
        user_id: int,
        action: Any,
        *,
        expected_version: int | None = None,
    ) -> Reply:
        reply = await self.play.act(channel_id, user_id, action, expected_version=expected_version)
        if reply.match_id is not None:  # the turn that just ended may be one a forecast answers
            answer = await self.forecasts.respond(reply.match_id)
            if answer is not None:  # one post: what they played (its headline), then the answer and its board
                reply = _joined(replace(reply, text=reply.text.split("\n")[0]), answer)
        return reply

    async def forecast(self, channel_id: int, user_id: int, lines: str | None) -> Reply:
        """Store, show (no lines) or clear (`clear`) a member's private forecast (bot/service/forecasts.py)."""
        return await self.forecasts.forecast(channel_id, user_id, lines)

    async def undo(self, channel_id: int, user_id: int, *, expected_version: int | None = None) -> Reply:
        return await self.play.undo(channel_id, user_id, expected_version=expected_version)

    async def posted(self, reply: Reply, message_id: int | None) -> None:
        """The front end posted a reply itself: its outbox backups are not needed, and a board is
        the match's latest. Front ends call this after every public post of a reply."""
        if not reply.notice_ids and not (message_id and reply.image is not None and reply.match_id is not None):
            return
        # Not worth a wait for the disk: lost (a power cut), the backup is posted again, nothing worse.
        # Both writes queued: on PostgreSQL one statement, without BEGIN and COMMIT.
        async with self.storage.transaction(durable=False) as db:
            await outbox.delivered(db, *reply.notice_ids)
            if message_id and reply.image is not None and reply.match_id is not None:
                await matches.update_match_later(db, reply.match_id, board_message_id=message_id)

    async def setup(self, channel_id: int, user_id: int, choice: str) -> Reply:
        return await self.play.setup(channel_id, user_id, choice)

    async def resign(self, channel_id: int, user_id: int, *, confirmed: bool = False) -> Reply:
        return await self.play.resign(channel_id, user_id, confirmed=confirmed)

    async def draw(self, channel_id: int, user_id: int, choice: str) -> Reply:
        return await self._with_computer_answers(channel_id, await self.play.draw(channel_id, user_id, choice))

    async def declare(
        self, channel_id: int, user_id: int, side: str, *, confirmed: bool = False
    ) -> Reply:
        reply = await self.play.declare(channel_id, user_id, side, confirmed=confirmed)
        return await self._with_computer_answers(channel_id, reply)

    async def concede(self, channel_id: int, user_id: int, *, confirmed: bool = False) -> Reply:
        reply = await self.play.concede(channel_id, user_id, confirmed=confirmed)
        return await self._with_computer_answers(channel_id, reply)

    async def challenge(self, channel_id: int, user_id: int) -> Reply:
        return await self.play.challenge(channel_id, user_id)

    async def answer(
        self, channel_id: int, match_id: int, question: int, user_id: int, kind: str
    ) -> Reply:
        reply = await self.play.answer(channel_id, match_id, question, user_id, kind)
        return await self._with_computer_answers(channel_id, reply)

    async def _with_computer_answers(self, channel_id: int, reply: Reply) -> Reply:
        """Computer seats answer an open proposal at once: a draw only when their side is clearly
        worse, a claim only when the loss is certain (the search decides). They never propose."""
        if self.computers is None:
            return reply
        while True:
            row, state = await self.book.load(channel_id, open_only=False)
            proposal = state.proposal
            if row.status != "active" or proposal is None:
                return reply
            waiting = [p for p in state.waiting_for(proposal) if isinstance(p, str)]
            if not waiting:
                return reply
            seat = waiting[0]
            if proposal.side is None:
                agree = await self.computers.accepts_draw(state, seat)
                kind = EntryKind.DRAW_ACCEPT if agree else EntryKind.DRAW_DECLINE
            else:
                agree = await self.computers.concedes(state, seat, proposal.side)
                kind = EntryKind.CONCEDE if agree else EntryKind.CHALLENGE
            answered = await self.play.propose(channel_id, Entry(kind, None, seat=seat))
            reply = _joined(reply, answered)

    async def legal_actions(self, channel_id: int, user_id: int) -> list[Any]:
        return await self.play.legal_actions(channel_id, user_id)

    async def panel_actions(self, channel_id: int, match_id: int, board_version: int, user_id: int) -> list[Any]:
        return await self.play.panel_actions(channel_id, match_id, board_version, user_id)

    # --- several matches in one channel (an event's, where threads are not allowed) -----
    async def address(self, channel_id: int, user_id: int, named: str | int | None = None,
                      naming: Text | None = None) -> Addressed | None:  # fmt: skip
        """Which open match of the channel a member's command means (bot/service/addressing.py);
        `naming`: the command typed, when it takes `match:` itself.

        Every command about a match asks this first: in a channel with one match (nearly all of
        them) it is a single statement, with no snapshot begun (on PostgreSQL 1 round trip, not 3)."""
        async with self.book.storage.reading(single=True) as db:
            rows = await matches.open_matches_in(db, channel_id)
        if not addressing.to_choose(rows, named):
            return None
        async with self.book.storage.reading() as db:
            return await addressing.choose(db, channel_id, user_id, named, naming)

    async def address_button(self, channel_id: int, match_id: int) -> Addressed | None:
        """A button's match, where the channel holds several open ones (None: its one match)."""
        async with self.book.storage.reading(single=True) as db:
            several = len(await matches.open_matches_in(db, channel_id)) > 1
        return Addressed(channel_id, match_id) if several else None

    async def labelled(self, reply: Reply, match_id: int | None = None) -> Reply:
        """A reply of an event's match sharing its channel, headed with the match's name."""
        match_id = reply.match_id if match_id is None else match_id
        if match_id is None:
            return reply
        if match_id not in self._tables:
            async with self.book.storage.reading() as db:
                row = await matches.match_by_id(db, match_id)
                if len(self._tables) > 10_000:  # a bounded memo, not a second copy of the matches table
                    self._tables.clear()
                self._tables[match_id] = await addressing.shared_table(db, row) if row is not None else None
        table = self._tables[match_id]
        label = None if table is None else addressing.table_label(table)
        if label is None or reply.text.startswith(f"**{label}**"):
            return reply
        announce = await self.labelled(reply.announce, match_id) if reply.announce is not None else None
        return replace(reply, text=f"**{label}**\n{reply.text}" if reply.text else f"**{label}**", announce=announce)

    async def open_matches_here(self, channel_id: int) -> list[tuple[int, TableRow | None]]:
        """The open matches of a channel with their event tables, for the `match:` suggestions."""
        async with self.book.storage.reading() as db:
            rows = await matches.open_matches_in(db, channel_id)
            return [(row.id, await addressing.shared_table(db, row)) for row in rows]

    async def event_board(self, channel_id: int, user_id: int, named: str | None) -> Reply:
        """`/tournament board [match:]`: the board of the match named, or of the invoker's own."""
        chosen = await self.address(channel_id, user_id, named)
        with addressed.addressing(chosen):
            return await self.labelled(await self.board(channel_id, user_id))

    # --- reading ----------------------------------------------------------------------
    async def state_of(self, channel_id: int) -> MatchState:
        return (await self.book.load(channel_id, open_only=False))[1]

    async def match_in(self, channel_id: int) -> tuple[matches.MatchRow, MatchState] | None:
        try:
            return await self.book.load(channel_id, open_only=False)
        except NoMatch:
            return None

    async def board(self, channel_id: int, user_id: int | None = None) -> Reply:
        return await self.reading.board(channel_id, user_id)

    async def status(self, channel_id: int) -> Reply:
        return await self.reading.status(channel_id)

    async def history(self, channel_id: int, page: int = 1, *, user_id: int | None = None) -> Reply:
        return await self.reading.history(channel_id, page, user_id)

    async def export(self, channel_id: int) -> Reply:
        return await self.reading.export(channel_id)

    async def replay(self, channel_id: int, last: int | None = None, *, user_id: int | None = None) -> Reply:
        return await self.reading.replay(channel_id, last, user_id)

    async def my_turns(self, guild_id: int, user_id: int) -> list[TurnInfo]:
        return await self.reading.my_turns(guild_id, user_id)

    async def standings(self, guild_id: int, game: str) -> list[PlayerRating]:
        return await self.reading.standings(guild_id, game)

    async def stats(self, guild_id: int, user_id: int, game: str, *, name: str | None = None) -> Reply:
        return await self.reading.stats(guild_id, user_id, game, name=name)

    async def leaderboard(self, guild_id: int, user_id: int | None, game: str) -> Reply:
        return await self.reading.leaderboard(guild_id, user_id, game)

    async def render(self, state: MatchState, recent: Any = ()) -> Image:
        return await self.book.render(state, recent)

    async def seen_locale(self, user_id: int, locale: str | None, guild_id: int, guild_locale: str | None) -> None:
        """Remember the language a member (and their server) was last seen using, for posts no
        interaction triggers (reminders, deadlines, computer moves). Written only when it changed."""
        writes = [("user_settings", "user_id", user_id, locale), ("guild_settings", "guild_id", guild_id, guild_locale)]
        changed = [w for w in writes if w[3] and self.locales.changed(w[0], w[2], w[3])]
        if changed:
            async with self.storage.transaction() as db:
                for table, key, value, seen in changed:
                    await timers.set_locale(db, table, key, value, seen or "")

    async def remember_board_message(self, match_id: int, message_id: int) -> None:
        async with self.storage.transaction() as db:
            await matches.update_match(db, match_id, board_message_id=message_id)

    # --- tournaments (bot/service/events.py) --------------------------------------------------
    async def _shown_ratings(self, guild_id: int, game: str) -> dict[int, int]:
        return {p.user_id: p.display for p in await self.reading.standings(guild_id, game)}

    async def tournament_new(self, guild_id: int, channel_id: int, user_id: int, *, game: str, format: str,
                             **options: Any) -> Reply:  # fmt: skip
        return await self.events.new_event(guild_id, channel_id, user_id, game=game, format=format, **options)

    async def tournament_join(self, guild_id: int, game: str, user_id: int, event_id: int | None = None, *,
                              name: str = "") -> Reply:  # fmt: skip
        return await self.events.join(guild_id, game, user_id, event_id, name=name)

    async def tournament_leave(self, guild_id: int, game: str, user_id: int, event_id: int | None = None) -> Reply:
        return await self.events.leave(guild_id, game, user_id, event_id)

    async def tournament_start(self, guild_id: int, game: str, user_id: int, event_id: int | None = None, *,
                               can_manage: bool = False) -> Reply:  # fmt: skip
        return await self.events.start(guild_id, game, user_id, event_id, can_manage=can_manage)

    async def tournament_cancel(self, guild_id: int, game: str, user_id: int, event_id: int | None = None, *,
                                can_manage: bool = False) -> Reply:  # fmt: skip
        return await self.events.cancel(guild_id, game, user_id, event_id, can_manage=can_manage)

    async def tournament_standings(self, guild_id: int, game: str, event_id: int | None = None, *,
                                   names: dict[int, str] | None = None, viewer: int | None = None, page: int = 1,
                                   as_text: bool = False) -> Reply:  # fmt: skip
        return await self.events.standings(guild_id, game, event_id, names or {}, viewer=viewer, page=page,
                                           as_text=as_text)  # fmt: skip

    async def tournament_list(self, guild_id: int, game: str) -> Reply:
        return await self.events.list_events(guild_id, game)

    # --- settings -----------------------------------------------------------------------
    async def settings(self, guild_id: int, channel_id: int, user_id: int, **changes: Any) -> Reply:
        return await self.match_settings.settings(guild_id, channel_id, user_id, **changes)

    # --- correspondence: vacations, pause by agreement, clocks ---------------------------
    async def vacation(self, guild_id: int, user_id: int, days: int | None = None) -> Reply:
        """Start, extend (`days`), end (`days=0`) or show (`None`) a member's vacation in a server."""
        return await self.vacations.vacation(guild_id, user_id, days)

    async def vacation_allowance(self, guild_id: int, days: int, *, can_manage: bool = False) -> Reply:
        return Reply(await self.vacations.set_allowance(guild_id, days, can_manage=can_manage))

    async def pause(self, channel_id: int, user_id: int, choice: str) -> Reply:
        return await self.agreed_pause.pause(channel_id, user_id, choice)

    async def resume(self, channel_id: int, user_id: int) -> Reply:
        return await self.agreed_pause.resume(channel_id, user_id)

    async def clock_text(self, match_id: int) -> str:
        """A match's clocks line as it stands ("⏱ First 2d 5h · Second 6d"; "" without clocks), e.g. for a digest."""
        row, state = await self.book.load_match(match_id)
        async with self.storage.reading() as db:
            return await clocks.clock_text(db, row, state, self.clock.now())

    async def seat_time_left(self, match_id: int, seat: str) -> str:
        """One seat's time left as players read it ("2d 5h"); "" when the match has no clock."""
        row, state = await self.book.load_match(match_id)
        async with self.storage.reading() as db:
            return await clocks.seat_time_left(db, row, state, seat, self.clock.now())

    # --- the timer dispatcher's look at events: the desk only when there is one to act on ------
    # (the tournament code is imported on first use, and a start with no event never needs it)
    async def resume_events(self) -> None:
        """On start: every running event gets what a result stored just before a crash asked for."""
        async with self.storage.reading() as db:
            running = await event_rows.running_events(db)
        if running:
            await self.events.resume()

    async def fire_event_deadlines(self) -> int:
        """Events whose sign-up closed: started or cancelled (EventDesk.fire_deadlines)."""
        async with self.storage.reading() as db:
            due = await event_rows.due_signups(db, self.clock.now())
        return await self.events.fire_deadlines() if due else 0

    async def next_event_deadline(self) -> float | None:
        async with self.storage.reading() as db:
            return await event_rows.next_signup_deadline(db)

    # --- timers and the outbox ----------------------------------------------------------
    async def next_timer(self) -> TimerRow | None:
        """The timer due first: a match's, or a member's daily digest."""
        timer = await self.timers.next_timer()
        digest = await self.digests.next_due()
        if digest is not None and (timer is None or digest.due < timer.due):
            return digest
        return timer

    async def fire_timer(self, timer: TimerRow) -> bool:
        if timer.kind is TimerKind.DIGEST:
            return await self.digests.fire(timer)
        fired = await self.timers.fire_timer(timer)
        if fired and timer.kind is TimerKind.COMPUTER:  # a computer's turn may be one a forecast answers
            fired = await self.forecasts.respond(timer.match_id, as_notice=True) is not None or fired
        return fired

    async def postpone_timer(self, timer_id: int, seconds: float, *, digest_of: int | None = None) -> None:
        """Try a timer again later (a digest's: `digest_of`, its member)."""
        if digest_of is not None:
            await self.digests.postpone(digest_of, seconds)
            return
        await self.timers.postpone_timer(timer_id, seconds)

    async def adopt_notices(self) -> int:
        """Once, when this process starts serving: the backups its previous life left behind (it
        died between a commit and its post) are posted now rather than when their time runs out."""
        if self._adopted:
            return 0
        self._adopted = True
        async with self.storage.transaction() as db:
            adopted = await outbox.adopt(db, self.book.owner, self.clock.now())
        if adopted:
            self.book.timers_changed()
        return adopted

    async def due_notices(self) -> list[tuple[PendingNotice, Notice]]:
        """The notices due now that this process claimed for posting, as they are to be posted now."""
        now = self.clock.now()
        async with self.storage.reading() as db:
            pending = await outbox.due(db, now)
        claimed = []
        for item in pending:
            async with self.storage.transaction() as db:
                if await outbox.claim(db, item.id, now):
                    claimed.append(item)
        found = []
        for item in claimed:
            notice = await self._as_now(notice_from_json(item.notice))
            if notice is None:  # nothing left to say (a paused match's probe after it resumed)
                await self.notice_delivered(item, None)
            else:
                found.append((item, notice))
        return found

    async def _as_now(self, notice: Notice) -> Notice | None:
        """A notice as it should read when it is posted. A backup posted late (its front end never
        posted it): its board drawn again if it is still the match's latest; else its text alone,
        without pings or buttons, marked as late, since a later post has taken over. A paused
        match's probe: its return, written now."""
        if notice.kind == "resume":
            return await self.paused.resume_post(notice)
        reply = notice.reply
        if reply.match_id is None or not (notice.draw_board or reply.answers):
            return notice
        current, state = False, None
        try:
            row, state = await self.book.load_match(reply.match_id)
        except ServiceError:  # gone, or its records damaged: its words alone
            pass
        else:
            asked = state.proposal is not None and state.proposal.seq == reply.question
            current = (row.status in ("active", "finished") and state.board_version == reply.version
                       and (asked or not reply.answers))  # fmt: skip
        if current and state is not None and notice.draw_board:
            # Drawn as it is posted: its clocks are those of now (its text's line is seconds older).
            timed = await clocks.board_clocks(self.book.storage, row, state, self.clock.now())
            with speaking(notice.locale):
                image = await self.book.render(state, recent_actions(state), locale=notice.locale, clocks=timed.picture)
            return replace(notice, reply=replace(reply, image=timed.describe(image)), draw_board=False)
        if current:
            return notice
        with speaking(notice.locale):
            late = str(M("(Posted late: the match has moved on since; its latest board is above.)"))
        text = f"{reply.text}\n{late}"
        return replace(notice, reply=Reply(text, match_id=reply.match_id, game=reply.game), draw_board=False)

    async def next_notice_at(self) -> float | None:
        async with self.storage.reading() as db:
            return await outbox.next_attempt(db)

    async def notice_delivered(self, item: PendingNotice, message_id: int | None, notice: Notice | None = None) -> None:
        """A notice was posted (as `notice`, its form at posting time): done with it; a board it
        carried is the match's latest."""
        notice = notice or notice_from_json(item.notice)
        async with self.storage.transaction(durable=False) as db:  # lost, it is posted again: its nonce dedupes
            await outbox.delivered(db, item.id)
            if message_id and notice.reply.image is not None and item.match_id is not None:
                await matches.update_match(db, item.match_id, board_message_id=message_id)
        if item.kind == "resume" and message_id is not None:
            await self.paused.resumed(item)  # the bot could post there again: the match goes on

    async def notice_failed(self, item: PendingNotice) -> bool:
        async with self.storage.transaction() as db:
            return await outbox.failed(db, item, self.clock.now())

    async def channel_gone(self, item: PendingNotice) -> None:
        """Discord says the match's channel no longer exists: the match ends, unrated, its timers
        stop, and its players are told (bot/service/paused.py)."""
        await self.paused.gone(item)

    async def channel_unreachable(self, item: PendingNotice) -> None:
        """Discord refused a notice for lack of access: its match is paused until it can post again."""
        await self.paused.unreachable(item)

    async def access_may_be_back(self, *, guild_id: int | None = None, channel_id: int | None = None) -> None:
        """A change that may have given the bot its access back (a channel, thread or role changed;
        a command came from the channel with the right to post): paused matches there try again now."""
        await self.paused.access_may_be_back(guild_id=guild_id, channel_id=channel_id)


def _joined(first: Reply, second: Reply) -> Reply:
    """Two replies as one post: both texts; the later one's board, pings and buttons; both backups
    (posting the joined reply delivers both)."""
    return replace(second, text=f"{first.text}\n{second.text}", image=second.image or first.image,
                   notice_ids=first.notice_ids + second.notice_ids)  # fmt: skip
