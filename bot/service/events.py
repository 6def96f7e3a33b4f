"""The tournament desk: events of any game run by the host (docs/tournaments.md).

An event is its rows (`bot/storage/events.py`); its state is rebuilt from them and handed to the
pure `bot.tournament.advance`, which says what to create next. Pairing a round is one transaction
that claims the event's next version, so two processes that see the last result at once pair it
once. Each game of a round becomes a match in a channel of its own (a thread under the event's
announcement), made by `open_tables` once the front end gave it a channel (`ThreadMaker`).
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from bot import texts
from bot.addressed import Addressed, addressing
from bot.commands.forms import event_command
from bot.errors import NotAllowed, ServiceError
from bot.match import MatchState
from bot.ratings import Rating
from bot.replies import Image, Reply
from bot.service.book import MatchBook, rules_of
from bot.service.lobby import check_deadline
from bot.service.notices import notice_json, notice_now
from bot.storage import Connection, MatchRow, outbox
from bot.storage import events as store
from bot.storage import matches as queries
from bot.storage.events import EventRow, NewEvent, TableRow
from bot.tournament import (
    Bye,
    Entrant,
    Event,
    EventState,
    Finished,
    Format,
    Plan,
    PodShape,
    Result,
    Round,
    Table,
    Waiting,
    advance,
    minimum_entrants,
    standings,
    suggested_swiss_rounds,
)
from bot.tournament.present import standings_lines, standings_table, subtitle
from engine.api import Outcome
from engine.i18n import M, P, Text

log = logging.getLogger(__name__)

HOUR = 3600.0
POD_ROUNDS = 3  # a pods event's rounds when the organiser names none
MAX_ENTRANTS = 256
CLAIM_TRIES = 20

# Makes the channel (a thread under the event's message) a game is played in: given the event
# and the game's table, returns the channel's id. Returns an existing thread of that name if
# one is there, so a retried opening makes no twin.
ThreadMaker = Callable[[EventRow, TableRow], Awaitable[int]]


@dataclass(frozen=True, slots=True)
class Loaded:
    row: EventRow
    state: EventState


# A format as `/tournament new format:` shows it (its value is stored).
FORMAT_NAMES = {"round-robin": M("round robin"), "swiss": M("Swiss"), "knockout": M("knockout"), "pods": M("pods")}

class EventDesk:
    def __init__(self, book: MatchBook, resign: Callable[[int, int], Awaitable[Reply]],
                 abort: Callable[[int, int], Awaitable[Reply]],
                 ratings: Callable[[int, str], Awaitable[dict[int, int]]] | None = None) -> None:  # fmt: skip
        self.book = book
        self._ratings = ratings  # (guild, game) → shown rating: seeds, taken when the event starts
        self._resign = resign  # (channel_id, user_id): a withdrawal resigns the running match
        self._abort = abort  # (channel_id, user_id): a cancelled event's running matches end, unrated
        self.thread_maker: ThreadMaker | None = None

    # --- opening and sign-up -------------------------------------------------------------
    async def new_event(
        self,
        guild_id: int,
        channel_id: int,
        user_id: int,
        *,
        game: str,
        format: str,
        title: str | None = None,
        players: int | None = None,
        options: Mapping[str, str] | None = None,
        deadline_days: int | None = None,
        rounds: int | None = None,
        double: bool = False,
        signup_hours: float | None = None,
        max_entrants: int | None = None,
        rated: bool = True,
        seed: int | None = None,
        name: str = "",
    ) -> Reply:
        rules = rules_of(game)
        try:
            chosen = Format(format.strip().lower())
        except ValueError:
            raise ServiceError(M("the format is round-robin, swiss, knockout or pods")) from None
        check_deadline(deadline_days)
        try:
            picked = rules.option_defaults(options)
        except Exception as error:  # IllegalAction: the game's own words
            raise ServiceError(error.args[0] if error.args else str(error)) from None
        pod: tuple[tuple[int, ...], tuple[tuple[int, ...], ...]] | None = None
        if chosen is Format.PODS:
            shape = pod_shape(rules, players)
            pod = (shape.sides, shape.fallbacks)
            players = shape.size
        else:
            if 2 not in rules.player_counts:
                raise ServiceError(M("{game} is not played one against one: choose format:pods", game=rules.title))
            players = 2
        if rounds is not None and not 1 <= rounds <= 30:
            raise ServiceError(M("an event has 1 to 30 rounds"))
        if rounds is not None and chosen not in (Format.SWISS, Format.PODS):
            raise ServiceError(M("only swiss and pods events take a number of rounds"))
        if double and chosen is not Format.ROUND_ROBIN:
            raise ServiceError(M("only a round robin can be double"))
        if max_entrants is not None and not 2 <= max_entrants <= MAX_ENTRANTS:
            raise ServiceError(M("an event takes 2 to {most} entrants", most=MAX_ENTRANTS))
        if signup_hours is not None and not 0 < signup_hours <= 24 * 30:
            raise ServiceError(M("sign-up lasts more than 0 and at most 720 hours"))
        now = self.book.clock.now()
        label = (title or "").strip()[:80] or f"{rules.title} {chosen.value}"
        new = NewEvent(
            guild_id=guild_id, channel_id=channel_id, game=rules.slug, format=chosen.value, title=label,
            creator_id=user_id, seed=secrets.randbelow(2**31) if seed is None else seed, now=now, players=players,
            options=picked, deadline_days=deadline_days, rounds=rounds, double=double, pod_shape=pod, rated=rated,
            max_entrants=max_entrants, signup_deadline=now + signup_hours * HOUR if signup_hours else None,
        )  # fmt: skip
        async with self.book.storage.transaction() as db:
            event_id = await store.insert_event(db, new)
            await store.add_entrant(db, event_id, user_id, now, name)
        self.book.timers_changed()
        async with self.book.storage.reading() as db:
            row = await store.event_by_id(db, event_id)
        assert row is not None
        return Reply(str(self.announcement(row, [user_id])), game=rules.slug, event_id=event_id)

    def announcement(self, row: EventRow, entrants: list[int]) -> Text:
        rules = rules_of(row.game)
        words: dict[str, Any] = {
            "who": texts.mention(row.creator_id), "title": row.title, "id": row.id, "format": row.format,
            "game": rules.title, "join": event_command(row.game, "join"),
            "count": len(entrants), "entrants": ", ".join(texts.mention(e) for e in entrants) or "—",
        }  # fmt: skip
        text = M("{who} opened the event **{title}** (#{id}, {format}, {game}). Join with the button below or "
                 "{join}. Entrants ({count}): {entrants}", **words)  # fmt: skip
        if row.signup_deadline is not None:
            return M("{text} Sign-up closes <t:{at}:R>.", text=text, at=int(row.signup_deadline))
        return text

    async def find(self, guild_id: int, game: str, event_id: int | None) -> EventRow:
        """The event a command names, or the server's one open event of the game."""
        async with self.book.storage.reading() as db:
            if event_id is not None:
                row = await store.event_by_id(db, event_id)
                if row is None or row.guild_id != guild_id or row.game != game:
                    raise ServiceError(M("there is no event #{id} of this game on this server", id=event_id))
                return row
            rows = [r for r in await store.events_of(db, guild_id, game) if r.status in store.OPEN_EVENT_STATUSES]
        if not rows:
            raise ServiceError(M("this server has no open event of this game: {new} opens one",
                                 new=event_command(game, "new")))  # fmt: skip
        if len(rows) > 1:
            raise ServiceError(M("this server has several open events: name one with {event}:<number> "
                                 "({list} shows them)", event=texts.option("event"),
                                 list=event_command(game, "list")))  # fmt: skip
        return rows[0]

    async def join(self, guild_id: int, game: str, user_id: int, event_id: int | None = None, *,
                   name: str = "") -> Reply:  # fmt: skip
        found = await self.find(guild_id, game, event_id)
        for _ in range(CLAIM_TRIES):  # members joining at once: each claim waits for the other's, then reads again
            async with self.book.storage.transaction() as db:
                row = await store.event_by_id(db, found.id)
                assert row is not None
                if row.status != "signup":
                    raise NotAllowed(M("sign-up for this event is closed"))
                entrants = [e.user_id for e in await store.entrants_of(db, row.id)]
                if user_id in entrants:
                    raise NotAllowed(M("you have already joined this event"))
                if row.max_entrants is not None and len(entrants) >= row.max_entrants:
                    raise NotAllowed(M("this event is full ({count} entrants)", count=row.max_entrants))
                if not await store.claim(db, row.id, row.version, self.book.clock.now()):
                    continue
                await store.add_entrant(db, row.id, user_id, self.book.clock.now(), name)
                break
        else:
            raise NotAllowed(M("the event changed, try again"))
        entrants.append(user_id)
        joined = M("{who} joined **{title}** ({count} entrants).", who=texts.mention(user_id), title=row.title,
                   count=len(entrants))  # fmt: skip
        return Reply(str(joined), game=row.game)

    async def leave(self, guild_id: int, game: str, user_id: int, event_id: int | None = None) -> Reply:
        row = await self.find(guild_id, game, event_id)
        loaded = await self.load(row.id)
        ids = {e.id for e in loaded.state.event.entrants}
        if user_id not in ids:
            raise NotAllowed(M("you are not an entrant of this event"))
        if row.status == "signup":
            async with self.book.storage.transaction() as db:
                if not await store.claim(db, row.id, row.version, self.book.clock.now()):
                    raise NotAllowed(M("the event changed, try again"))
                await store.remove_entrant(db, row.id, user_id)
            return Reply(str(M("{who} left **{title}**.", who=texts.mention(user_id), title=row.title)), game=row.game)
        if user_id in loaded.state.withdrawn:
            raise NotAllowed(M("you have already withdrawn from this event"))
        # Marked first, so that the pairing the resignation below may set off leaves them out; then
        # their running game is resigned (a played result). Their played results stand.
        async with self.book.storage.transaction() as db:
            await store.withdraw(db, row.id, user_id, len(await store.rounds_of(db, row.id)))
        async with self.book.storage.reading() as db:
            tables = await store.tables_of(db, row.id)
        for table in tables:
            if table.ranks is None and table.match_id is not None and any(user_id in s for s in table.sides):
                match = await self._match_row(table.match_id)
                if match is not None and match.status == "active":
                    try:
                        with addressing(Addressed(match.channel_id, match.id)):  # its channel may hold several
                            await self._resign(match.channel_id, user_id)
                    except ServiceError as error:  # already out of that game (a free-for-all)
                        log.info("withdrawal: resign refused", extra={"match": match.id, "error": str(error)})
        await self.pair(row.id)
        text = M("{who} withdrew from **{title}**: their played games stand; they are not paired again.",
                 who=texts.mention(user_id), title=row.title)  # fmt: skip
        return Reply(str(text), game=row.game)

    async def start(self, guild_id: int, game: str, user_id: int | None, event_id: int | None = None, *,
                    can_manage: bool = False) -> Reply:  # fmt: skip
        """Start the event (its creator or a moderator; `user_id` None: the sign-up deadline)."""
        row = await self.find(guild_id, game, event_id)
        if user_id is not None and user_id != row.creator_id and not can_manage:
            raise NotAllowed(M("only the event's creator or someone with Manage Channels can start it"))
        if row.status != "signup":
            raise NotAllowed(M("this event has already started"))
        return await self._start(row)

    async def _start(self, row: EventRow) -> Reply:
        loaded = await self.load(row.id)
        least = minimum_entrants(loaded.state.event)
        count = len(loaded.state.event.entrants)
        if count < least:
            raise NotAllowed(M("the event needs at least {least} entrants to start; it has {count}", least=least,
                               count=count))  # fmt: skip
        async with self.book.storage.transaction() as db:
            if not await store.claim(db, row.id, row.version, self.book.clock.now()):
                raise NotAllowed(M("the event changed, try again"))
            rounds = row.rounds
            if rounds is None and row.format == Format.SWISS:
                rounds = suggested_swiss_rounds(count)
            elif rounds is None and row.format == Format.PODS:
                rounds = POD_ROUNDS
            await store.update_event(db, row.id, status="running", rounds=rounds)
            shown = await self._ratings(row.guild_id, row.game) if self._ratings is not None else {}
            for entrant in loaded.state.event.entrants:
                await store.set_rating(db, row.id, entrant.id, float(shown.get(entrant.id, Rating().display)))
        await self.pair(row.id)
        started = M("**{title}** begins with {count} entrants: {entrants}", title=row.title, count=count,
                    entrants=", ".join(texts.mention(e.id) for e in loaded.state.event.entrants))  # fmt: skip
        return Reply(str(started), mentions=tuple(e.id for e in loaded.state.event.entrants), game=row.game)

    async def cancel(self, guild_id: int, game: str, user_id: int, event_id: int | None = None, *,
                     can_manage: bool = False) -> Reply:  # fmt: skip
        row = await self.find(guild_id, game, event_id)
        if user_id != row.creator_id and not can_manage:
            raise NotAllowed(M("only the event's creator or someone with Manage Channels can cancel it"))
        async with self.book.storage.transaction() as db:
            if not await store.claim(db, row.id, row.version, self.book.clock.now()):
                raise NotAllowed(M("the event changed, try again"))
            await store.update_event(db, row.id, status="cancelled")
            tables = await store.tables_of(db, row.id)
        for table in tables:  # running games end; the played ones stay recorded
            if table.match_id is not None and table.ranks is None:
                match = await self._match_row(table.match_id)
                if match is not None and match.status in ("lobby", "active"):
                    with addressing(Addressed(match.channel_id, match.id)):
                        await self._abort(match.channel_id, user_id)
        if not row.rated:
            async with self.book.storage.transaction() as db:
                for table in tables:
                    if table.match_id is not None:
                        await queries.update_match(db, table.match_id, rated=False)
        return Reply(str(M("{who} cancelled **{title}**.", who=texts.mention(user_id), title=row.title)), game=row.game)

    async def fire_deadlines(self) -> int:
        """Events whose sign-up closed: started when enough joined, else cancelled with a notice.
        Each fires once: the event's version is claimed by whichever process starts it."""
        now = self.book.clock.now()
        async with self.book.storage.reading() as db:
            due = await store.due_signups(db, now)
        for event_id in due:
            async with self.book.storage.reading() as db:
                row = await store.event_by_id(db, event_id)
            if row is None or row.status != "signup":
                continue
            try:
                reply = await self._start(row)
            except NotAllowed:
                async with self.book.storage.transaction() as db:
                    if not await store.claim(db, row.id, row.version, now):
                        continue
                    await store.update_event(db, row.id, status="cancelled")
                    reply = Reply(str(M("Sign-up for **{title}** closed with too few entrants; the event is "
                                        "cancelled.", title=row.title)), game=row.game)  # fmt: skip
                    await self._notice(db, row, reply)
                continue
            async with self.book.storage.transaction() as db:
                await self._notice(db, row, reply)
        return len(due)

    async def next_deadline(self) -> float | None:
        async with self.book.storage.reading() as db:
            return await store.next_signup_deadline(db)

    # --- state -------------------------------------------------------------------------
    async def load(self, event_id: int) -> Loaded:
        async with self.book.storage.reading() as db:
            return await self._load(db, event_id)

    async def _load(self, db: Connection, event_id: int) -> Loaded:
        row = await store.event_by_id(db, event_id)
        if row is None:
            raise ServiceError(M("there is no event #{id} of this game on this server", id=event_id))
        entrants = await store.entrants_of(db, event_id)
        pod = PodShape(row.pod_shape[0], row.pod_shape[1]) if row.pod_shape else None
        event = Event(Format(row.format), tuple(Entrant(e.user_id, e.rating or 0.0) for e in entrants), row.seed,
                      rounds=row.rounds or (1 if row.format in (Format.SWISS, Format.PODS) else None),
                      double=row.double, pod=pod, knockout_games=row.knockout_games)  # fmt: skip
        tables = await store.tables_of(db, event_id)
        byes = await store.byes_of(db, event_id)
        rounds = []
        results: dict[Table, Result] = {}
        for number in await store.rounds_of(db, event_id):
            made = []
            for t in tables:
                if t.round != number:
                    continue
                table = Table(t.round, t.board, t.sides, t.game)
                made.append(table)
                if t.ranks is not None:
                    results[table] = Result(t.ranks, t.forfeit)
            given = tuple(Bye(u, Fraction(p)) for r, u, p in byes if r == number)
            rounds.append(Round(number, tuple(made), given))
        withdrawn = {e.user_id: e.withdrawn_after for e in entrants if e.withdrawn_after is not None}
        return Loaded(row, EventState(event, tuple(rounds), results, withdrawn))

    # --- pairing exactly once --------------------------------------------------------------
    async def pair(self, event_id: int) -> None:
        """Store what `advance` says to create now, in one transaction that claims the event's
        version: of two processes seeing the last result at once, one pairs; the other's claim
        finds the version moved and it reads again (then there is nothing left to do)."""
        for _ in range(50):  # a plan may score games without play; advance again after it
            async with self.book.storage.transaction() as db:
                loaded = await self._load(db, event_id)
                row = loaded.row
                if row.status != "running":
                    return
                step = await asyncio.to_thread(advance, loaded.state)  # a big Swiss round takes a while
                if isinstance(step, Waiting):
                    break
                if not await store.claim(db, row.id, row.version, self.book.clock.now()):
                    continue  # another process paired it first: read again
                if isinstance(step, Finished):
                    await store.update_event(db, row.id, status="finished", winners=step.winners)
                    final = await self._final_post(db, loaded, step)
                    picture = await self._picture(db, row, loaded, finished=True)
                    await self._notice(db, row, replace(final, image=picture))
                    break
                await self._store_plan(db, loaded, step)
                if step.round > 1 and step.round not in {r.number for r in loaded.state.rounds}:
                    # A new round: the channel sees the standings so far (a knockout replay is no round).
                    text = M("Round {round} of **{title}** is paired; each game's first board pings its "
                             "players. The standings after round {last}:", round=step.round, title=row.title,
                             last=step.round - 1)  # fmt: skip
                    picture = await self._picture(db, row, loaded, finished=False)
                    await self._notice(db, row, Reply(str(text), image=picture, game=row.game))
        await self.open_tables()

    async def _picture(self, db: Connection, row: EventRow, loaded: Loaded, *, finished: bool,
                       names: Mapping[int, str] | None = None, viewer: int | None = None,
                       page: int = 1) -> Image:  # fmt: skip
        """The standings picture (with its alt text), drawn in a worker thread."""
        from render.tables import standings_image

        stored = {e.user_id: e.name for e in await store.entrants_of(db, row.id)}
        named = names or {}
        shown = {e.id: named.get(e.id) or stored.get(e.id) or f"#{e.id}" for e in loaded.state.event.entrants}
        heading = subtitle(rules_of(row.game).title, loaded.state.event, len(loaded.state.rounds), finished)
        picture = standings_table(row.title, heading, loaded.state.event, standings(loaded.state), shown,
                                  finished=finished, viewer=viewer, page=max(0, page - 1))  # fmt: skip
        drawn = await asyncio.to_thread(standings_image, picture)
        return Image(drawn.png, f"event-{row.id}-standings.png", drawn.alt_text[:1024])

    async def _store_plan(self, db: Connection, loaded: Loaded, plan: Plan) -> None:
        event_id = loaded.row.id
        now = self.book.clock.now()
        if plan.round not in {r.number for r in loaded.state.rounds}:
            await store.add_round(db, event_id, plan.round, now)
        for bye in plan.byes:
            await store.add_bye(db, event_id, plan.round, bye.entrant, str(bye.points))
        for table in plan.tables:
            await store.add_table(db, event_id, TableRow(table.round, table.board, table.game, table.sides,
                                                         None, None, False))  # fmt: skip
        for table, result in plan.forfeits:
            await store.add_table(db, event_id, TableRow(table.round, table.board, table.game, table.sides,
                                                         None, result.ranks, result.forfeit))  # fmt: skip

    async def resume(self) -> None:
        """On start: every running event gets what a result stored just before a crash asked for."""
        async with self.book.storage.reading() as db:
            running = await store.running_events(db)
        for event_id in running:
            await self.pair(event_id)

    # --- the games' matches ------------------------------------------------------------------
    async def open_tables(self) -> list[int]:
        """A match for every paired game that has none yet, in the channel the thread maker gives;
        returns the matches made. Without a thread maker (no front end yet) nothing is opened."""
        if self.thread_maker is None:
            return []
        async with self.book.storage.reading() as db:
            waiting = await store.tables_to_open(db)
        made = []
        for event_id, table in waiting:
            async with self.book.storage.reading() as db:
                row = await store.event_by_id(db, event_id)
            if row is None:
                continue
            channel_id = await self.thread_maker(row, table)
            match_id = await self._open_match(row, table, channel_id)
            if match_id is not None:
                made.append(match_id)
        return made

    async def _open_match(self, event: EventRow, table: TableRow, channel_id: int) -> int | None:
        rules = rules_of(event.game)
        players = sum(len(side) for side in table.sides)
        seed = random.Random(f"{event.seed}:{table.round}:{table.board}:{table.game}").randrange(2**31)
        position = rules.notation(rules.new(players, event.options, seed))
        state = MatchState.begin(rules, {}, position, players=players, options=event.options, seed=seed)
        seating = seats_of_table(state, table.sides)
        now = self.book.clock.now()
        try:
            match_id = await self._store_match(event, table, channel_id, rules, players, position, state, seed,
                                               seating, now)  # fmt: skip
        except _Opened:
            return None
        # The first board, pinging the players, posted by the dispatcher (at least once).
        row, begun = await self.book.load_match(match_id)
        async with self.book.storage.transaction() as db:
            if self.book.scheduler is not None:
                await self.book.scheduler.reschedule(db, row, begun, begun, now, activity=True, new_turn=True)
            if channel_id == event.channel_id:  # shared: the post is headed with the game's label when sent
                headline = f"**{event.title}**"  # (MatchService.labelled), so round and players are said once
            else:
                seated = " v ".join(" & ".join(texts.mention(e) for e in side) for side in table.sides)
                headline = str(M("**{title}**, round {round}, board {board}: {players}", title=event.title,
                                 round=table.round, board=table.board, players=seated))
            reply = await self._board(row, begun, headline)
            notice = notice_now(event.guild_id, channel_id, reply)
            await outbox.add(db, match_id, event.guild_id, channel_id, notice_json(notice), now)
        self.book.timers_changed()
        return match_id

    async def _store_match(self, event: EventRow, table: TableRow, channel_id: int, rules: Any, players: int,
                           position: str, state: MatchState, seed: int, seating: dict[int, list[str]],
                           now: float) -> int:  # fmt: skip
        async with self.book.storage.transaction() as db:
            match_id = await queries.insert_match(db, queries.NewMatch(
                game=rules.slug, guild_id=event.guild_id, channel_id=channel_id, creator_id=event.creator_id,
                players=players, start_position=position, to_act=rules.to_act(state.game), rated=event.rated,
                now=now, options=event.options, seed=seed, deadline_days=event.deadline_days,
                parent_channel_id=event.channel_id,  # the same as channel_id: played in the event's channel
            ))  # fmt: skip
            if not await store.set_table_match(db, event.id, table, match_id):
                raise _Opened  # another process opened it first: this transaction rolls back
            for user_id, seats in seating.items():
                await queries.take_seats(db, match_id, seats, user_id=user_id, computer=None)
            await queries.update_match(db, match_id, status="active", started_at=now)
        return match_id

    async def _board(self, row: MatchRow, state: MatchState, headline: str) -> Reply:
        from bot.service.play import Play

        return await Play(self.book).board_reply(row, state, headline, recent=[])

    async def _match_row(self, match_id: int) -> MatchRow | None:
        async with self.book.storage.reading() as db:
            return await queries.match_by_id(db, match_id)

    # --- results -----------------------------------------------------------------------------
    async def record_result(self, db: Connection, row: MatchRow, state: MatchState, outcome: Outcome) -> None:
        """In the transaction that finishes a match: its table's ranks, if it is an event's game."""
        found = await store.table_of_match(db, row.id)
        if found is None:
            return
        _, table = found
        await store.set_ranks(db, row.id, ranks_of(state, table.sides, outcome))

    async def after_result(self, match_id: int) -> None:
        """After a match finished: pair the next round of its event, if this was the last game."""
        async with self.book.storage.reading() as db:
            found = await store.table_of_match(db, match_id)
        if found is not None:
            await self.pair(found[0])

    # --- reading -------------------------------------------------------------------------------
    async def standings(self, guild_id: int, game: str, event_id: int | None, names: Mapping[int, str], *,
                        viewer: int | None = None, page: int = 1, as_text: bool = False) -> Reply:  # fmt: skip
        row = await self.find_any(guild_id, game, event_id)
        loaded = await self.load(row.id)
        table = standings(loaded.state)
        async with self.book.storage.reading() as db:
            stored = {e.user_id: e.name for e in await store.entrants_of(db, row.id)}
        shown = {e.id: names.get(e.id) or stored.get(e.id) or f"#{e.id}" for e in loaded.state.event.entrants}
        finished = row.status == "finished"
        heading = subtitle(rules_of(row.game).title, loaded.state.event, len(loaded.state.rounds), finished)
        lines = standings_lines(loaded.state.event, table, shown)
        if as_text or not table:
            return Reply(f"**{row.title}** — {heading}\n" + "\n".join(lines), game=row.game)
        async with self.book.storage.reading() as db:
            image = await self._picture(db, row, loaded, finished=finished, names=names, viewer=viewer, page=page)
        return Reply(f"**{row.title}** — {heading}", image=image, game=row.game)

    async def find_any(self, guild_id: int, game: str, event_id: int | None) -> EventRow:
        if event_id is not None:
            return await self.find(guild_id, game, event_id)
        async with self.book.storage.reading() as db:
            rows = await store.events_of(db, guild_id, game, limit=1)
        if not rows:
            raise ServiceError(M("this server has no event of this game yet"))
        return rows[0]

    async def list_events(self, guild_id: int, game: str) -> Reply:
        async with self.book.storage.reading() as db:
            rows = await store.events_of(db, guild_id, game)
            counts = {r.id: len(await store.entrants_of(db, r.id)) for r in rows}
        if not rows:
            return Reply(str(M("this server has no event of this game yet")), game=game)
        status = {"signup": M("sign-up"), "running": M("running"), "finished": M("finished"),
                  "cancelled": M("cancelled")}  # fmt: skip
        lines = [f"#{r.id} **{r.title}** · {FORMAT_NAMES.get(r.format, r.format)} · {status[r.status]} · "
                 + str(P("{count} entrant", "{count} entrants", count=counts[r.id])) for r in rows]  # fmt: skip
        return Reply("\n".join(lines), game=game)

    async def set_message(self, event_id: int, message_id: int) -> None:
        async with self.book.storage.transaction() as db:
            await store.update_event(db, event_id, message_id=message_id)

    async def _final_post(self, db: Connection, loaded: Loaded, done: Finished) -> Reply:
        row = loaded.row
        links = []
        for t in await store.tables_of(db, row.id):
            if t.match_id is None:
                continue
            match = await queries.match_by_id(db, t.match_id)
            if match is not None:
                # In a shared channel the link goes to the match's latest board, else to its thread.
                board = match.board_message_id if match.parent_channel_id == match.channel_id else None
                links.append(f"R{t.round}·B{t.board}: {texts.message_link(row.guild_id, match.channel_id, board)}")
        winners = ", ".join(texts.mention(w) for w in done.winners)
        text = str(M("**{title}** is over. Winner: {winners}. Every game:", title=row.title, winners=winners))
        return Reply(text + "\n" + "\n".join(links), mentions=done.winners, game=row.game)

    async def _notice(self, db: Connection, row: EventRow, reply: Reply) -> None:
        notice = notice_now(row.guild_id, row.channel_id, reply)
        await outbox.add(db, None, row.guild_id, row.channel_id, notice_json(notice), self.book.clock.now())
        self.book.timers_changed()


class _Opened(Exception):
    pass


def pod_shape(rules: Any, players: int | None) -> PodShape:
    """The table of a pods event of this game: everyone for themselves when each seat is a side
    (3 or 4 players), two teams when the game's sides hold several seats (4 players)."""
    from bot.match import MatchState as _State

    counts = [n for n in rules.player_counts if n >= 3] if players is None else [players]
    for n in counts:
        if n not in rules.player_counts:
            break
        position = rules.notation(rules.new(n, rules.option_defaults(None), 1))
        sides = _State.begin(rules, {}, position, players=n, options=rules.option_defaults(None), seed=1).sides
        if len(sides) == n and n in (3, 4):
            return PodShape.free_for_all(n)
        if len(sides) == 2 and n % 2 == 0 and n >= 4:
            return PodShape.teams(n // 2)
    raise ServiceError(M("{game} has no pods table for that many players: free-for-all pods seat 3 or 4, team "
                         "pods two teams of two", game=rules.title))  # fmt: skip


def seats_of_table(state: MatchState, sides: tuple[tuple[int, ...], ...]) -> dict[int, list[str]]:
    """Each entrant's seats: a table's side i is the game's side i (the first moves first); a
    side with fewer entrants than seats has its entrants hold the seats in turn."""
    seating: dict[int, list[str]] = {}
    for side, entrants in zip(state.sides, sides, strict=True):
        for index, seat in enumerate(side.seats):
            seating.setdefault(entrants[index % len(entrants)], []).append(seat)
    return seating


def ranks_of(state: MatchState, sides: tuple[tuple[int, ...], ...], outcome: Outcome) -> tuple[int, ...]:
    """The table's result from the match's outcome: winners (or the seats sharing a draw) first,
    everyone else second."""
    first = outcome.winners | outcome.drawn
    return tuple(1 if set(side.seats) & first else 2 for side in state.sides[: len(sides)])
