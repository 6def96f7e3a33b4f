"""The match service: lobby, actions, undo, reading and ending matches.

It imports no Discord: the cogs, the local console and the tests all drive it with
plain ids. Every change is committed before the reply is built, and two changes that
race on one match are settled by the match version: exactly one applies.

Firing timers (`turn_timers`), settings (`match_settings`) and replays and standings
(`records_and_standings`) live in mixins beside this module.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import dataclass

import aiosqlite

from bot import texts
from bot.clock import Clock, SystemClock
from bot.errors import (
    BoardChanged,
    ChannelBusy,
    NoMatch,
    NotAllowed,
    NotInMatch,
    NotYourTurn,
    OutdatedBoard,
    ServiceError,
)
from bot.match import CITY_NAMES, Entry, MatchState, replay
from bot.match_settings import MatchSettings, check_deadline
from bot.records_and_standings import RecordsAndStandings
from bot.replies import Image, Reply
from bot.storage import ChannelHasMatch, Database, MatchRow, VersionConflict, timers
from bot.storage import matches as queries
from bot.turn_timers import DAY, HOUR, TurnTimers
from engine.errors import IllegalAction
from engine.nika import Action, City, Event, GameRecord, GameState, Position, Team
from engine.nika.actions import shown
from engine.nika.describe import describe_events

Renderer = Callable[[GameState, Sequence[Event]], Image]
HISTORY_PAGE_SIZE = 15
STATE_CACHE_SIZE = 512
REPLAY_ON_LOOP_MAX = 40  # log entries replayed on the event loop; longer logs go to a thread
RECORD_ACTIONS_MAX = 5000

SEAT_CHOICES: dict[str, tuple[str, ...]] = {
    **{name: (name,) for name in CITY_NAMES},
    "athens-messene": ("athens", "messene"),
    "sparta-thebes": ("sparta", "thebes"),
}


def default_renderer(state: GameState, events: Sequence[Event]) -> Image:
    from render import render_board

    board = render_board(state, events)
    return Image(board.png, "nika-board.png", board.alt_text)


def parse_seats(choice: str) -> tuple[str, ...]:
    cities = SEAT_CHOICES.get(choice.strip().lower().replace(" ", "-").replace("+", "-"))
    if cities is None:
        raise ServiceError(f"{shown(choice)} is not a seat: choose {', '.join(SEAT_CHOICES)}")
    return cities


@dataclass(frozen=True, slots=True)
class TurnInfo:
    """One of a user's matches where it is their turn."""

    match_id: int
    channel_id: int
    city: City
    actions_left: int
    board_message_id: int | None
    updated_at: float


class MatchService(TurnTimers, MatchSettings, RecordsAndStandings):
    def __init__(
        self,
        db: Database,
        *,
        renderer: Renderer = default_renderer,
        clock: Clock | None = None,
        render_threads: int = 2,
    ) -> None:
        self.db = db
        self.renderer = renderer
        self.clock: Clock = clock or SystemClock()
        # Called after a commit that may have added a sooner timer (the dispatcher wakes up).
        self.on_timers_changed: Callable[[], None] | None = None
        self._render_pool = ThreadPoolExecutor(render_threads, thread_name_prefix="render")
        # Replays are long jobs: their own thread, so boards never queue behind them.
        self._replay_pool = ThreadPoolExecutor(1, thread_name_prefix="replay")
        self._states: OrderedDict[int, tuple[int, MatchState]] = OrderedDict()

    @classmethod
    async def open(cls, path: str, **options: object) -> MatchService:
        return cls(await Database.open(path), **options)  # type: ignore[arg-type]

    async def close(self) -> None:
        for pool in (self._render_pool, self._replay_pool):
            await asyncio.to_thread(pool.shutdown, wait=True)
        await self.db.close()

    # --- loading ----------------------------------------------------------------------
    async def _load(self, channel_id: int, *, open_only: bool = True) -> tuple[MatchRow, MatchState]:
        find = queries.open_match_in if open_only else queries.latest_match_in
        return await self._load_where(lambda db: find(db, channel_id))

    async def _load_match(self, match_id: int) -> tuple[MatchRow, MatchState]:
        return await self._load_where(lambda db: queries.match_by_id(db, match_id))

    async def _load_where(
        self, find: Callable[[aiosqlite.Connection], Awaitable[MatchRow | None]]
    ) -> tuple[MatchRow, MatchState]:
        async with self.db.reading() as db:
            row = await find(db)
            if row is None:
                raise NoMatch("there is no match in this channel: start one with /nika new")
            cached = self._states.get(row.id)
            if cached is not None and cached[0] == row.version:
                self._states.move_to_end(row.id)
                return row, cached[1]
            seats = await queries.seats_of(db, row.id)
            log = await queries.log_of(db, row.id)
        entries = [Entry(r.kind, r.user_id, r.city, r.action) for r in log]
        if len(entries) > REPLAY_ON_LOOP_MAX:  # rebuilding a long match takes milliseconds: not on the loop
            state = await asyncio.to_thread(replay, seats, row.start_position, entries)
        else:
            state = replay(seats, row.start_position, entries)
        self._remember(row.id, row.version, state)
        return row, state

    def _remember(self, match_id: int, row_version: int, state: MatchState) -> None:
        """Cache a match's state under the row version it belongs to."""
        self._states[match_id] = (row_version, state)
        self._states.move_to_end(match_id)
        while len(self._states) > STATE_CACHE_SIZE:
            self._states.popitem(last=False)

    @asynccontextmanager
    async def _claim(
        self, row: MatchRow, conflict: str = "the board changed, look again"
    ) -> AsyncIterator[aiosqlite.Connection]:
        """A transaction that first claims the match's next version, so of two racing
        changes one fails with BoardChanged. The cached state is dropped either way."""
        try:
            async with self.db.transaction() as db:
                await queries.bump_version(db, row.id, row.version, self.clock.now())
                yield db
        except VersionConflict:
            raise BoardChanged(conflict) from None
        finally:
            self._states.pop(row.id, None)

    async def state_of(self, channel_id: int) -> MatchState:
        return (await self._load(channel_id, open_only=False))[1]

    async def render(self, state: GameState, events: Sequence[Event] = ()) -> Image:
        """The board image, drawn in a worker thread so the event loop never waits on pixels."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._render_pool, self.renderer, state, events)

    # --- the lobby --------------------------------------------------------------------
    async def new_match(
        self,
        guild_id: int,
        channel_id: int,
        user_id: int,
        seats: str,
        *,
        start: str | None = None,
        deadline_days: int | None = None,
    ) -> Reply:
        cities = parse_seats(seats)
        check_deadline(deadline_days)
        rated = start is None
        if start is not None:
            start = await asyncio.to_thread(self._start_from, start)  # a long record replays for a while
        position = start or GameState.start().notation()
        now = self.clock.now()
        try:
            async with self.db.transaction() as db:
                match_id = await queries.insert_match(
                    db,
                    guild_id=guild_id,
                    channel_id=channel_id,
                    creator_id=user_id,
                    start_position=position,
                    to_act=GameState.from_notation(position).to_act.name.lower(),
                    rated=rated,
                    now=now,
                    deadline_days=deadline_days or None,
                )
                await queries.set_seats(db, match_id, user_id, list(cities))
        except ChannelHasMatch:
            raise ChannelBusy(
                "this channel already has a match: finish or abort it first, or use another channel"
            ) from None
        casual = "" if rated else " (casual, unrated: it starts from a shared position)"
        if deadline_days:
            casual += f" with a {deadline_days}-day turn deadline"
        return Reply(
            f"{texts.mention(user_id)} opened a Nika match{casual} and took {texts.seat_names(cities)}. "
            "Join with /nika join, then /nika start once all four cities are held.",
            match_id=match_id,
        )

    @staticmethod
    def _start_from(text: str) -> str:
        """A start position from a game record (JSON) or position notation."""
        try:
            if text.lstrip().startswith("{"):
                record = GameRecord.from_json(text)
                if len(record.entries) > RECORD_ACTIONS_MAX:
                    raise ServiceError(f"that record is longer than {RECORD_ACTIONS_MAX} actions")
                state = record.final_state()
            else:
                state = GameState.from_notation(text)
        except IllegalAction as error:
            raise ServiceError(f"I can't start from that: {error}") from error
        if state.is_over:
            raise ServiceError("that game is already over: start from a position where it goes on")
        return state.notation()

    async def join(self, guild_id: int, channel_id: int, user_id: int, seats: str) -> Reply:
        cities = parse_seats(seats)
        row, state = await self._load(channel_id)
        if row.status != "lobby":
            raise NotAllowed("this match has already started")
        taken = [c for c in cities if state.seats.get(c) is not None]
        if taken:
            raise NotAllowed(f"{texts.seat_names(taken)} is already taken by {texts.mention(state.seats[taken[0]])}")
        mine = state.cities_of(user_id)
        wanted = {City[c.upper()].team for c in cities} | {c.team for c in mine}
        if len(wanted) > 1:
            raise NotAllowed("a player holds cities of one team only: Athens–Messene or Sparta–Thebes")
        async with self._claim(row, "the lobby changed, look again") as db:
            await queries.set_seats(db, row.id, user_id, list(cities))
        _, state = await self._load(channel_id)
        return Reply(
            f"{texts.mention(user_id)} took {texts.seat_names(cities)}.\n{texts.lobby_text(state)}", match_id=row.id
        )

    async def leave(self, guild_id: int, channel_id: int, user_id: int) -> Reply:
        row, state = await self._load(channel_id)
        if row.status != "lobby":
            raise NotAllowed("the match has started: use /nika resign to give up")
        if not state.cities_of(user_id):
            raise NotInMatch("you have no seat in this lobby")
        async with self._claim(row, "the lobby changed, look again") as db:
            await queries.remove_seats(db, row.id, user_id)
            remaining = await queries.seats_of(db, row.id)
            if not remaining:
                await queries.update_match(db, row.id, status="aborted", end_reason="empty lobby")
        if not remaining:
            return Reply(f"{texts.mention(user_id)} left; the lobby is empty and closed.", match_id=row.id)
        _, state = await self._load(channel_id)
        return Reply(f"{texts.mention(user_id)} left.\n{texts.lobby_text(state)}", match_id=row.id)

    async def start(self, guild_id: int, channel_id: int, user_id: int) -> Reply:
        row, state = await self._load(channel_id)
        if row.status != "lobby":
            raise NotAllowed("this match has already started")
        if user_id not in state.players and user_id != row.creator_id:
            raise NotInMatch("only a seated player can start the match")
        empty = [c for c in CITY_NAMES if state.seats.get(c) is None]
        if empty:
            raise NotAllowed(f"{texts.seat_names(empty)} still needs a player: /nika join")
        if len(state.players) < 2:
            raise NotAllowed("Nika needs 2 to 4 players")
        async with self._claim(row, "the lobby changed, look again") as db:
            await queries.update_match(db, row.id, status="active")
            await self._reschedule(db, row, state, self.clock.now(), new_turn=True, activity=True)
        self._timers_changed()
        image = await self.render(state.game, ())  # starting changes the status, not the state
        actor = state.acting_user()
        return Reply(
            f"The match begins! {texts.seating_text(state)}\n{texts.next_text(state)}",
            image=image,
            mentions=(actor,) if actor else (),
            match_id=row.id,
            version=state.board_version,
            actionable=True,
        )

    async def abort(self, guild_id: int, channel_id: int, user_id: int, *, can_manage: bool = False) -> Reply:
        row, _ = await self._load(channel_id)
        if user_id != row.creator_id and not can_manage:
            raise NotAllowed("only the match's creator or someone with Manage Channels can abort it")
        async with self._claim(row) as db:
            await queries.update_match(db, row.id, status="aborted", end_reason=f"aborted by {user_id}")
            await timers.clear(db, row.id)
        return Reply(f"{texts.mention(user_id)} aborted the match. The channel is free for a new one.", match_id=row.id)

    # --- playing ----------------------------------------------------------------------
    async def act(
        self, guild_id: int, channel_id: int, user_id: int, action: str, *, expected_version: int | None = None
    ) -> Reply:
        return await self._append(channel_id, Entry("action", user_id, action=action), expected_version)

    async def undo(self, guild_id: int, channel_id: int, user_id: int, *, expected_version: int | None = None) -> Reply:
        return await self._append(channel_id, Entry("undo", user_id), expected_version)

    async def resign(self, guild_id: int, channel_id: int, user_id: int) -> Reply:
        return await self._append(channel_id, Entry("resign", user_id))

    async def draw(self, guild_id: int, channel_id: int, user_id: int, choice: str) -> Reply:
        kinds = {"offer": "draw_offer", "accept": "draw_accept", "decline": "draw_decline"}
        if choice not in kinds:
            raise ServiceError("choose offer, accept or decline")
        return await self._append(channel_id, Entry(kinds[choice], user_id))

    async def declare(self, guild_id: int, channel_id: int, user_id: int, team: str) -> Reply:
        try:
            slug = Team.from_slug(team).slug
        except ValueError as error:
            raise ServiceError(str(error)) from error
        return await self._append(channel_id, Entry("declare", user_id, action=slug))

    async def concede(self, guild_id: int, channel_id: int, user_id: int) -> Reply:
        return await self._append(channel_id, Entry("concede", user_id))

    async def challenge(self, guild_id: int, channel_id: int, user_id: int) -> Reply:
        return await self._append(channel_id, Entry("challenge", user_id))

    async def _append(self, channel_id: int, entry: Entry, expected_version: int | None = None) -> Reply:
        row, state = await self._load(channel_id)
        if row.status != "active":
            raise NotAllowed("the match has not started yet: /nika start once all four cities are held")
        if expected_version is not None and expected_version != state.board_version:
            raise BoardChanged()
        new, events = await self._commit(row, state, [entry])
        return await self._reply_after(row.id, state, new, entry, events)

    async def _commit(
        self,
        row: MatchRow,
        state: MatchState,
        entries: Sequence[Entry],
        *,
        guard: Callable[[aiosqlite.Connection], Awaitable[None]] | None = None,
    ) -> tuple[MatchState, tuple[Event, ...]]:
        """Validate entries, then append them in one transaction guarded by the match
        version (and by `guard`, which may raise to abort)."""
        new, events, logged = state, [], []
        for entry in entries:
            if new.game.is_over and logged:  # e.g. a deadline's first pass drew the game
                break
            before = new
            new, more = new.with_entry(entry)
            events.extend(more)
            city = before.game.to_act.name.lower() if entry.kind == "action" else _first_city(before, entry.user_id)
            action = new.played[-1].action if entry.kind == "action" else entry.action
            logged.append((new.version, entry, city, action, new.game.notation()))
        now = self.clock.now()
        game = new.game
        columns: dict[str, object] = {"position": game.notation(), "to_act": game.to_act.name.lower()}
        if game.outcome is not None:
            columns |= {"status": "finished", "result": game.outcome.result, "end_reason": game.outcome.reason.value}
        on_board = any(entry.kind in ("action", "undo") for entry in entries)
        async with self._claim(row) as db:
            if guard is not None:
                await guard(db)
            for seq, entry, city, action, position in logged:
                await queries.append_log(
                    db, row.id, seq, kind=entry.kind, city=city, user_id=entry.user_id, action=action,
                    position=position, now=now,
                )  # fmt: skip
            await queries.update_match(db, row.id, **columns)
            await self._reschedule(db, row, new, now, new_turn=game.to_act != state.game.to_act, activity=on_board)
        self._remember(row.id, row.version + 1, new)
        self._timers_changed()
        return new, tuple(events)

    # --- timers -----------------------------------------------------------------------
    async def _reschedule(
        self, db: aiosqlite.Connection, row: MatchRow, after: MatchState, now: float, *, new_turn: bool, activity: bool
    ) -> None:
        """Keep the match's timers in step with its turn, inside the caller's transaction."""
        if after.game.is_over:
            await timers.clear(db, row.id)
            return
        if new_turn:
            await timers.clear(db, row.id)
            await queries.update_match(db, row.id, turn_started_at=now, turn_reminders=0)
            if row.deadline_days:
                await timers.schedule(db, row.id, "deadline", now + row.deadline_days * DAY, now)
        if new_turn or activity:
            await timers.clear(db, row.id, "reminder")
            hours = await timers.reminder_hours(db, row.guild_id, row.reminder_hours)
            await timers.schedule(db, row.id, "reminder", now + hours * HOUR, now)

    def _timers_changed(self) -> None:
        if self.on_timers_changed is not None:
            self.on_timers_changed()

    async def _reply_after(
        self, match_id: int, before: MatchState, after: MatchState, entry: Entry, events: tuple[Event, ...]
    ) -> Reply:
        if entry.kind == "action":
            headline = texts.sentence(describe_events(events))
            return await self._board_reply(match_id, after, headline, events, previous=entry.user_id)
        if entry.kind == "undo":
            undone = before.played[-1]
            headline = f"{texts.mention(entry.user_id)} took back {undone.city.possessive} {undone.action}."
            still_shown = after.played[-1].events if after.played else ()
            return await self._board_reply(match_id, after, headline, still_shown, previous=entry.user_id)
        headline, awaiting = texts.offer_text(before, after, entry)
        if after.game.is_over:
            return await self._board_reply(match_id, after, headline, ())
        answers: tuple[str, ...] = ()
        question = None
        if after.draw_offer is not None and entry.kind.startswith("draw"):
            answers, question = ("draw_accept", "draw_decline"), after.draw_offer.seq
        elif after.declaration is not None and entry.kind in ("declare", "concede"):
            answers, question = ("concede", "challenge"), after.declaration.seq
        return Reply(
            headline,
            mentions=awaiting,
            match_id=match_id,
            version=after.board_version,
            answers=answers,
            question=question,
        )

    async def _board_reply(
        self,
        match_id: int,
        after: MatchState,
        headline: str,
        events: Sequence[Event],
        *,
        previous: int | None = None,
    ) -> Reply:
        """A board post: what happened, then who acts next (or the result), pinging them."""
        if after.game.outcome is not None:
            text = f"{headline}\n**{after.game.outcome.describe()}.** {texts.seating_text(after)}"
            mentions = tuple(sorted(after.players))
        else:
            text = f"{headline}\n{texts.next_text(after, previous=previous)}"
            actor = after.acting_user()
            mentions = (actor,) if actor else ()
        return Reply(
            text,
            image=await self.render(after.game, events),
            mentions=mentions,
            match_id=match_id,
            version=after.board_version,
            actionable=not after.game.is_over,
        )

    # --- reading ----------------------------------------------------------------------
    async def legal_actions(self, channel_id: int, user_id: int) -> list[Action]:
        """What this user may play right now (nothing when it is not their turn)."""
        try:
            row, state = await self._load(channel_id)
        except NoMatch:
            return []
        if row.status != "active" or state.acting_user() != user_id:
            return []
        return list(state.game.legal_actions())

    async def panel_actions(self, channel_id: int, match_id: int, board_version: int, user_id: int) -> list[Action]:
        """The legal actions behind a board's buttons, if that board is current and it is the user's turn."""
        try:
            row, state = await self._load(channel_id)
        except NoMatch:
            row = None
        if row is None or row.id != match_id or state.board_version != board_version or state.game.is_over:
            latest = row if row is not None and row.id == match_id else None
            raise OutdatedBoard(
                latest.guild_id if latest else 0, channel_id, latest.board_message_id if latest else None
            )
        actor = state.acting_user()
        if actor != user_id:
            if user_id not in state.players:
                raise NotInMatch("you are not playing in this match")
            raise NotYourTurn(f"it is not your turn: {state.game.to_act.title} is played by {texts.mention(actor)}")
        return list(state.game.legal_actions())

    async def answer(
        self, guild_id: int, channel_id: int, match_id: int, question: int, user_id: int, kind: str
    ) -> Reply:
        """A press on a draw-offer or declaration button; `question` is the log entry that asked."""
        if kind not in ("draw_accept", "draw_decline", "concede", "challenge"):
            raise ServiceError(f"unknown answer {kind!r}")
        row, state = await self._load(channel_id)
        pending = state.draw_offer if kind.startswith("draw") else state.declaration
        if row.id != match_id or pending is None or pending.seq != question:
            raise NotAllowed("that question has been settled already: only the latest one can be answered")
        return await self._append(channel_id, Entry(kind, user_id))

    async def board(self, guild_id: int, channel_id: int) -> Reply:
        row, state = await self._load(channel_id, open_only=False)
        events = state.played[-1].events if state.played else ()
        if row.status == "lobby":
            return Reply(texts.lobby_text(state), image=await self.render(state.game, ()), match_id=row.id)
        return Reply(
            texts.status_text(row, state),
            image=await self.render(state.game, events),
            match_id=row.id,
            version=state.board_version,
            actionable=row.status == "active" and not state.game.is_over,
        )

    async def status(self, guild_id: int, channel_id: int) -> Reply:
        row, state = await self._load(channel_id, open_only=False)
        return Reply(
            texts.lobby_text(state) if row.status == "lobby" else texts.status_text(row, state), match_id=row.id
        )

    async def history(self, guild_id: int, channel_id: int, page: int = 1) -> Reply:
        row, state = await self._load(channel_id, open_only=False)
        pages = max(1, -(-len(state.played) // HISTORY_PAGE_SIZE))
        page = min(max(page, 1), pages)
        chunk = state.played[(page - 1) * HISTORY_PAGE_SIZE : page * HISTORY_PAGE_SIZE]
        if not chunk:
            return Reply("No actions yet.", match_id=row.id)
        lines = [
            f"`{i:>3}` {describe_events(p.events)} — {texts.mention(p.user_id)}"
            for i, p in enumerate(chunk, start=(page - 1) * HISTORY_PAGE_SIZE + 1)
        ]
        return Reply(f"**History**, page {page} of {pages}\n" + "\n".join(lines), match_id=row.id)

    async def export(self, guild_id: int, channel_id: int) -> Reply:
        row, state = await self._load(channel_id, open_only=False)
        data = state.record().to_json().encode()
        return Reply(
            f"The game record of match #{row.id}: {len(state.played)} actions. "
            "Start a casual copy with /nika new from:<record>.",
            file=Image(data, f"nika-match-{row.id}.json", "Nika game record (JSON)"),
            match_id=row.id,
        )

    async def my_turns(self, guild_id: int, user_id: int) -> list[TurnInfo]:
        async with self.db.reading() as db:
            rows = await queries.open_matches_of(db, guild_id, user_id)
        found = []
        for row, cities in rows:
            if row.status == "active" and row.to_act in cities:
                left = Position.from_notation(row.position).actions_left
                found.append(
                    TurnInfo(
                        row.id, row.channel_id, City[row.to_act.upper()], left, row.board_message_id, row.updated_at
                    )
                )
        return found

    async def remember_board_message(self, match_id: int, message_id: int) -> None:
        async with self.db.transaction() as db:
            await queries.update_match(db, match_id, board_message_id=message_id)


def _first_city(state: MatchState, user_id: int | None) -> str | None:
    cities = state.cities_of(user_id) if user_id is not None else []
    return cities[0].name.lower() if cities else None
