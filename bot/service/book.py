"""The match book: loading a match (its row, seats and log replayed into a MatchState),
a bounded cache of live states, and committing new log entries under the match version.

Shared by every part of the service. It knows no game: the rules come from the registry
by the match's game slug, and everything goes through the game interface.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from functools import partial
from typing import Any, Protocol

from bot import rating_gate
from bot.addressed import addressed_in
from bot.clock import Clock
from bot.errors import BoardChanged, MatchUnreadable, NoMatch, ServiceError
from bot.match import Entry, EntryKind, MatchState, Played, snapshot
from bot.match.played import PlayedLog, steps_from_log
from bot.replies import Image, Reply
from bot.storage import Connection, MatchRow, Storage, VersionConflict, forecasts, outbox
from bot.storage import matches as queries
from bot.storage.matches import LogRow, SeatRow
from engine.api import AnyGame, result_text
from engine.archive import ArchiveLookup
from engine.i18n import M, Term, Text, active
from engine.record import GameRecord
from engine.registry import get_game, installed_slugs
from render.seat_times import Clocks

log = logging.getLogger(__name__)

BACKUP_DELAY = 20.0  # seconds a front end has to post a reply itself before the outbox does
REPLAY_ON_LOOP_MAX = 40  # log entries replayed on the event loop; longer logs go to a thread
# The cache of live states has a byte budget: a long match costs its share, and thousands of
# short ones fit. A state's size is estimated from what bench/service.py measures: a few KB for
# the position and the host's fields, about 400 bytes per step kept in memory (PlayedLog's
# columns with the events of at most its 128 recent steps), and at most 8 bytes per step played
# for the repetition keys a game's draw rules count (a game may keep one per position, or only
# those since the last capture).
CACHE_BUDGET = 64 << 20
STATE_BYTES = 8 << 10
STEP_BYTES = 400
KEY_BYTES = 8


class Renderer(Protocol):
    def __call__(
        self,
        slug: str,
        state: Any,
        recent: Sequence[Sequence[Any]],
        perspective: str | None,
        locale: str,
        *,
        example: bool = False,
        clocks: Clocks | None = None,
    ) -> Image: ...


def default_renderer(
    slug: str,
    state: Any,
    recent: Sequence[Sequence[Any]],
    perspective: str | None = None,
    locale: str = "en",
    *,
    example: bool = False,
    clocks: Clocks | None = None,
) -> Image:
    """The board; an `example` for the rules is titled and named as one, not as a live board;
    with `clocks`, each seat's time drawn under it."""
    from render import board_filename, example_filename, render_example, render_state

    if example:
        board = render_example(slug, state, recent, locale=locale)
        return Image(board.png, example_filename(slug), board.alt_text)
    board = render_state(slug, state, recent, perspective=perspective, locale=locale, clocks=clocks)
    return Image(board.png, board_filename(slug), board.alt_text)


class Scheduler(Protocol):
    """Keeps a match's timers in step with its state, inside the committing transaction."""

    async def reschedule(
        self,
        db: Connection,
        row: MatchRow,
        before: MatchState,
        after: MatchState,
        now: float,
        *,
        activity: bool,
        new_turn: bool | None = None,
        fresh: bool = False,
        current: MatchRow | None = None,
    ) -> None: ...


@dataclass(frozen=True, slots=True)
class Logged:
    """A committed entry as the log keeps it."""

    seq: int
    entry: Entry
    seat: str | None
    text: str | None
    keys: tuple[tuple[int, int], ...] = ()  # (ply, repetition key) to store (engine/archive.py)


class MatchBook:
    def __init__(
        self, storage: Storage, clock: Clock, renderer: Renderer, render_threads: int = 2, owner: str = "main"
    ) -> None:
        self.storage = storage
        self.clock = clock
        self.renderer = renderer
        # Names this process (its shards) on the backups of its front end's posts (bot/storage/outbox.py).
        self.owner = owner
        self.scheduler: Scheduler | None = None
        # Called after a commit that may have added a sooner timer (the dispatcher wakes up).
        self.on_timers_changed: Callable[[], None] | None = None
        # A match that ends: `on_finish` writes in the finishing transaction (an event's table's
        # result), `after_finish` runs once it committed (the event's next round).
        self.on_finish: Callable[[Connection, MatchRow, MatchState, Any], Awaitable[None]] | None = None
        self.after_finish: Callable[[int], Awaitable[None]] | None = None
        # Boards after actions have a pool of their own: a crowd asking for boards never makes a
        # player's move wait for its picture.
        self._render_pool = ThreadPoolExecutor(render_threads, thread_name_prefix="render")
        self._read_pool = ThreadPoolExecutor(1, thread_name_prefix="render-reads")
        self._states: OrderedDict[int, tuple[int, MatchState]] = OrderedDict()
        self._cached_weight = 0
        self._weights: dict[int, int] = {}  # match id: its weight when cached

    async def close(self) -> None:
        for pool in (self._render_pool, self._read_pool):
            await asyncio.to_thread(pool.shutdown, wait=True)

    # --- loading ----------------------------------------------------------------------
    async def load(self, channel_id: int, *, open_only: bool = True) -> tuple[MatchRow, MatchState]:
        chosen = addressed_in(channel_id)  # a channel holding several of an event's matches
        if chosen is not None:
            if chosen.refusal is not None:
                raise chosen.refusal
            match_id = chosen.match_id or 0
            return await self.load_where(lambda db: queries.match_in_channel(db, channel_id, match_id, open_only))
        find = queries.open_match_in if open_only else queries.latest_match_in
        return await self.load_where(lambda db: find(db, channel_id))

    async def load_match(self, match_id: int) -> tuple[MatchRow, MatchState]:
        return await self.load_where(lambda db: queries.match_by_id(db, match_id))

    async def load_where(self, find: Callable[[Connection], Awaitable[MatchRow | None]]) -> tuple[MatchRow, MatchState]:
        # The row alone first, in one statement (one round trip on PostgreSQL): its version says
        # whether the cached state is current, as it is for nearly every request.
        async with self.storage.reading(single=True) as db:
            row = await find(db)
        if row is None:
            raise NoMatch(M("there is no match in this channel"))
        cached = self._states.get(row.id)
        if cached is not None and cached[0] == row.version:
            self._states.move_to_end(row.id)
            return row, cached[1]
        async with self.storage.reading() as db:  # the row again, in the snapshot its log is read in
            row = await find(db)
            if row is None:
                raise NoMatch(M("there is no match in this channel"))
            seats = await queries.seats_of(db, row.id)
            saved = await queries.snapshot_before_tail(db, row.id, snapshot.TAIL)
            entries = await (queries.log_of(db, row.id) if saved is None else queries.log_after(db, row.id, saved[0]))
        if row.game not in installed_slugs():  # its package was uninstalled: say so, do not guess
            log.error("stored match's game is not installed", extra={"match": row.id, "game": row.game})
            raise MatchUnreadable(M("match #{id} is a match of {game}, which is not installed here: someone with "
                                    "Manage Channels can abort it, or the bot's owner can install the game again",
                                    id=row.id, game=row.game), row)  # fmt: skip
        try:
            state = await self._rebuild(row, seats, saved, entries)
            damaged = state.rules.notation(state.game) != row.position  # the log and the row disagree
        except (ValueError, RuntimeError) as error:  # a value that no longer parses, a log that does not replay
            log.error("stored match does not replay", extra={"match": row.id, "error": str(error)})
            damaged = True
        if damaged:
            raise MatchUnreadable(damaged_text(row), row)
        self.remember(row.id, row.version, state)
        return row, state

    async def _rebuild(
        self, row: MatchRow, seats: Sequence[SeatRow], saved: tuple[int, str] | None, entries: list[LogRow]
    ) -> MatchState:
        """The match from its newest usable snapshot and the log after it, or from its whole log."""
        rules = get_game(row.game)
        begun = MatchState.begin(
            rules,
            {s.seat: s.user_id for s in seats if s.user_id is not None},
            row.start_position,
            players=row.players,
            options=row.options,
            seed=row.seed,
            computers={s.seat: s.computer for s in seats if s.computer is not None},
        )
        if row.archives_keys:  # its older repetition keys leave memory (engine/archive.py)
            begun = replace(begun, game=rules.archiving(begun.game))
        memo: dict[tuple[int, int], int] = {}  # answers to ArchiveLookup, shared by the states loaded below
        rules.share_answers(begun.game, memo)
        state: MatchState | None = None
        if saved is not None:
            try:
                state = await self._from_snapshot(row, begun, saved, [_entry_of(e) for e in entries], memo)
            except (ValueError, RuntimeError) as error:  # unusable, or the log after it does not replay on it
                log.warning("match %s: snapshot %s not used (%s); replaying its whole log", row.id, saved[0], error)
                last = entries[-1].seq if entries else saved[0]
                async with self.storage.reading() as db:
                    entries = [e for e in await queries.log_of(db, row.id) if e.seq <= last]
        if state is None:
            state = await self._replayed(row, begun, [_entry_of(e) for e in entries])
        return state

    async def _from_snapshot(
        self, row: MatchRow, begun: MatchState, saved: tuple[int, str], entries: list[Entry],
        memo: dict[tuple[int, int], int],
    ) -> MatchState:  # fmt: skip
        """The match from a snapshot and the log entries after it; ValueError if it is unusable."""
        version, data = saved
        while True:
            try:
                start = snapshot.load(begun, data, memo)
                break
            except ArchiveLookup as need:  # its last action played again on its undo point
                await self.answer(row.id, need)
        if start.version != version:
            raise ValueError(f"a snapshot of version {start.version} stored as {version}")
        return await self._replayed(row, start, entries)

    async def _replayed(self, row: MatchRow, start: MatchState, entries: list[Entry]) -> MatchState:
        """`replay`, answering the engine's questions about archived keys as they come: it goes
        on from the entry that asked (never from the start again), so each answer is needed once."""
        state, done = start, 0
        while True:
            if len(entries) - done > REPLAY_ON_LOOP_MAX:  # a long log: in a thread
                state, done, need = await asyncio.to_thread(_replayed_until_asked, state, entries, done)
            else:
                state, done, need = _replayed_until_asked(state, entries, done)
            if need is None:
                return state
            await self.answer(row.id, need)

    async def steps(self, row: MatchRow, state: MatchState) -> list[Played]:
        """Every step of `state` (the match `row` at the version `state` has): from memory in a
        short match, else rebuilt from the log (memory keeps only the recent ones)."""
        if state.played.complete:
            return list(state.played)
        async with self.storage.reading() as db:
            rows = await queries.steps_log(db, row.id, state.version)
        try:  # thousands of steps: in a thread, so the event loop keeps serving the other matches
            return await asyncio.to_thread(_steps_of, rows, state.played)
        except ValueError as error:  # `state` came from a snapshot that disagrees with the log
            log.error("match %s: its snapshot disagrees with its log (%s); replaying the whole log", row.id, error)
        try:
            async with self.storage.reading() as db:
                entries = [e for e in await queries.log_of(db, row.id) if e.seq <= state.version]
                seats = await queries.seats_of(db, row.id)
            whole = await self._rebuild(row, seats, None, entries)
            found = await asyncio.to_thread(_steps_of, rows, whole.played)
        except (ValueError, RuntimeError) as error:
            log.error("stored match's steps do not rebuild", extra={"match": row.id, "error": str(error)})
            raise MatchUnreadable(damaged_text(row), row) from error
        if whole.version == state.version:  # the log decides: the cache holds the match it gives
            self.remember(row.id, row.version, whole)
        return found

    async def record(self, row: MatchRow, state: MatchState, steps: list[Played] | None = None) -> GameRecord:
        """The game record of the match `row` as `state` has it, every step included (`steps`, when
        the caller has already fetched them)."""
        steps = await self.steps(row, state) if steps is None else steps
        return state.record(steps) if len(steps) <= REPLAY_ON_LOOP_MAX else await asyncio.to_thread(state.record, steps)

    def remember(self, match_id: int, version: int, state: MatchState) -> None:
        self.forget(match_id)
        self._states[match_id] = (version, state)
        # Kept, so that what is taken off when it leaves is what was added (an archive's answers grow).
        self._weights[match_id] = weight = weight_of(state)
        self._cached_weight += weight
        while self._cached_weight > CACHE_BUDGET and len(self._states) > 1:
            dropped, _ = self._states.popitem(last=False)
            self._cached_weight -= self._weights.pop(dropped)

    def forget(self, match_id: int) -> None:
        cached = self._states.pop(match_id, None)
        if cached is not None:
            self._cached_weight -= self._weights.pop(match_id)

    # --- changing ---------------------------------------------------------------------
    @asynccontextmanager
    async def claim(self, row: MatchRow, conflict: Text | None = None) -> AsyncIterator[Connection]:
        """A transaction that first claims the match's next version, so of two racing
        changes one fails with BoardChanged. The cached state is dropped either way."""
        try:
            async with self.storage.transaction() as db:
                await queries.bump_version(db, row.id, row.version, self.clock.now())
                yield db
        except VersionConflict:
            raise BoardChanged(conflict if conflict is not None else M("the board changed, look again")) from None
        finally:
            self.forget(row.id)

    async def answer(self, match_id: int, need: ArchiveLookup, pending: Sequence[tuple[int, int]] = ()) -> None:
        """Answer the engine's question: how often `need.key` occurs among the match's first
        `need.archive.size` positions, from the stored keys and those of entries not yet
        committed (`pending`, as (ply, key) in order: a later one for a ply replaces an earlier)."""
        below = need.archive.size
        waiting = {ply: key for ply, key in pending if ply < below}
        stored_below = min(waiting, default=below)
        async with self.storage.reading() as db:
            newest, found = await queries.archived_count(db, match_id, need.key, stored_below)
        # Keys are stored with every action from the match's first, so the newest says none is missing.
        if newest != stored_below - 1 or set(waiting) != set(range(stored_below, below)):
            raise RuntimeError(f"match {match_id}: repetition keys stored up to ply {newest}, not {stored_below - 1}")
        need.archive.learn(need.key, found + sum(1 for key in waiting.values() if key == need.key))

    async def validated(
        self, row: MatchRow, state: MatchState, entries: Sequence[Entry]
    ) -> tuple[MatchState, tuple[Any, ...], list[Logged]]:
        """`validate`, answering the engine's questions about archived keys (engine/archive.py)."""
        new = state
        events: list[Any] = []
        logged: list[Logged] = []
        for entry in entries:
            if new.is_over and logged:
                break
            while True:
                try:
                    new, more, one = self.validate(new, [entry])
                    break
                except ArchiveLookup as need:
                    await self.answer(row.id, need, [key for item in logged for key in item.keys])
            events.extend(more)
            logged.extend(one)
        return new, tuple(events), logged

    def validate(self, state: MatchState, entries: Sequence[Entry]) -> tuple[MatchState, tuple[Any, ...], list[Logged]]:
        """The state after the entries, their events, and what the log keeps of each; pure.
        Stops early when the game ends (e.g. a deadline's first pass drew the game)."""
        new = state
        events: list[Any] = []
        logged: list[Logged] = []
        for entry in entries:
            if new.is_over and logged:
                break
            before = new
            new, more = new.with_entry(entry)
            events.extend(more)
            logged.append(_logged(before, new, entry))
        return new, tuple(events), logged

    async def commit(
        self,
        row: MatchRow,
        state: MatchState,
        new: MatchState,
        logged: Sequence[Logged],
        *,
        guard: Callable[[Connection], Awaitable[None]] | None = None,
        also: Callable[[Connection], Awaitable[None]] | None = None,
    ) -> None:
        """Append validated entries in one transaction guarded by the match version (and by
        `guard`, which may raise to abort); `also` adds more writes to the same transaction."""
        now = self.clock.now()
        rules = new.rules
        columns: dict[str, object] = {"position": rules.notation(new.game), "to_act": new.to_act}
        outcome = rules.outcome(new.game)
        if outcome is not None:
            result = result_text(rules, outcome, rules.state_seats(new.game))
            columns |= {"status": "finished", "result": result, "end_reason": outcome.reason}
            if row.rated and rating_gate.ended_early(new):  # not played enough to count (bot/rating_gate.py)
                columns |= {"rated": False, "unrated_reason": rating_gate.ENDED_EARLY}
        activity = any(item.entry.kind in (EntryKind.ACTION, EntryKind.UNDO, EntryKind.SETUP) for item in logged)
        # A long match is saved whole now and then, so loading it replays only a short tail.
        saved = await asyncio.to_thread(snapshot.dump, new) if snapshot.due(state.version, new.version) else None
        # Few round trips on PostgreSQL: the version claimed and the row changed in one statement
        # that returns it (the timers need it), the log and the timers' writes queued to go as one.
        try:
            async with self.storage.transaction() as db:
                current = await queries.claim_version(db, row.id, row.version, now, **columns)
                if guard is not None:
                    await guard(db)
                position = columns["position"]
                for item in logged:
                    await queries.append_log(
                        db, row.id, item.seq,
                        LogRow(item.seq, item.entry.kind.value, item.seat, item.entry.user_id, item.text, str(position),
                               now),
                    )  # fmt: skip
                for item in logged:
                    for ply, key in item.keys:  # queued with the log: no round trip of their own
                        await queries.store_key(db, row.id, ply, key)
                if saved is not None:
                    await queries.save_snapshot(db, row.id, new.version, saved, keep=snapshot.KEPT)
                if self.scheduler is not None:
                    await self.scheduler.reschedule(db, row, state, new, now, activity=activity, current=current)
                if outcome is not None or any(item.entry.kind is EntryKind.UNDO for item in logged):
                    await forecasts.remove(db, row.id)  # an undo or an ending clears every forecast
                if also is not None:
                    await also(db)
                if outcome is not None and self.on_finish is not None:
                    await self.on_finish(db, row, new, outcome)
        except VersionConflict:
            raise BoardChanged(M("the board changed, look again")) from None
        finally:
            self.forget(row.id)
        self.remember(row.id, row.version + 1, new)
        self.timers_changed()
        if outcome is not None and self.after_finish is not None:
            try:
                await self.after_finish(row.id)
            except Exception:  # the move stands; a running event is paired again at the next start
                log.exception("event after a result failed", extra={"match": row.id})

    async def keep_backup(self, db: Connection, row: MatchRow, reply: Reply) -> int:
        """Store, in the committing transaction, the post a front end is about to make, due a little
        later: if the front end never reports it posted (Discord refused, the process died), the
        dispatcher posts it. So every committed change reaches the channel at least once."""
        from bot.service.notices import backup_notice, notice_json

        now = self.clock.now()
        notice = notice_json(backup_notice(row.guild_id, row.channel_id, reply))
        return await outbox.add(db, row.id, row.guild_id, row.channel_id, notice, now, now + BACKUP_DELAY,
                                owner=self.owner)  # fmt: skip

    def timers_changed(self) -> None:
        if self.on_timers_changed is not None:
            self.on_timers_changed()

    # --- pictures -----------------------------------------------------------------------
    async def render(
        self,
        state: MatchState,
        recent: Sequence[Sequence[Any]] = (),
        *,
        perspective: str | None = None,
        locale: str | None = None,
        read: bool = False,
        clocks: Clocks | None = None,
    ) -> Image:
        """The board image, drawn in a worker thread so the event loop never waits on pixels.
        `read`: for someone looking (not after an action), drawn in the readers' own pool.
        `clocks`: the match's clocks as read now, drawn under the board. Nothing keeps a drawn
        board: each post draws afresh, so a board shown a day after the move shows the clocks of
        that day (the drawing caches below keep layers, and strips by the very times they show)."""
        loop = asyncio.get_running_loop()
        pool = self._read_pool if read else self._render_pool
        # Worker threads do not see this task's catalogue: the board's language goes with the call.
        language = locale or active().locale
        draw = partial(self.renderer, state.rules.slug, state.game, recent, perspective, language)
        if clocks is not None:  # a renderer of old (a test's) need not know clocks
            draw = partial(draw, clocks=clocks)
        return await loop.run_in_executor(pool, draw)

    async def render_example(self, slug: str, state: Any, recent: Sequence[Sequence[Any]]) -> Image:
        """A rules example's picture: titled as one rather than as a live board, and in a file
        named so. Drawn in the readers' pool, in the reader's language."""
        loop = asyncio.get_running_loop()
        draw = partial(self.renderer, slug, state, recent, None, active().locale, example=True)
        return await loop.run_in_executor(self._read_pool, draw)


def damaged_text(row: MatchRow) -> Text:
    return M("match #{id}'s records are damaged: a moderator can abort it with /{game} {abort}, or restore the "
             "database from a backup", id=row.id, game=row.game, abort=Term("abort", "command"))  # fmt: skip


def rules_of(slug: str) -> AnyGame:
    return get_game(slug)


def _replayed_until_asked(
    state: MatchState, entries: list[Entry], done: int
) -> tuple[MatchState, int, ArchiveLookup | None]:
    """`replay` of `entries[done:]` until one asks for an archived key: (the state before it, its
    index, the question), or (the end state, len(entries), None)."""
    for index in range(done, len(entries)):
        try:
            state, _ = state.with_entry(entries[index])
        except ArchiveLookup as need:
            return state, index, need
        except ServiceError as error:  # as `replay` says it: a log that does not replay is corrupt
            raise RuntimeError(f"log entry {index + 1} ({entries[index]}) does not replay: {error}") from error
    return state, len(entries), None


def _steps_of(rows: Sequence[Sequence[Any]], played: PlayedLog) -> list[Played]:
    """`steps_from_log` over `queries.steps_log`'s rows."""
    return steps_from_log(((int(r[0]), str(r[1]), r[2], r[3], r[4]) for r in rows), played)


def _entry_of(row: LogRow) -> Entry:
    return Entry(EntryKind(row.kind), row.user_id, seat=row.seat, text=row.action)


def _logged(before: MatchState, after: MatchState, entry: Entry) -> Logged:
    """The seat and text the log keeps: an action in its canonical notation, by the seat that
    acted; other entries by the seat given, or the member's first seat."""
    logged = _logged_text(before, after, entry)
    keys = after.rules.new_keys(before.game, after.game)  # every new position's (two for a timeout's passes)
    return replace(logged, keys=keys) if keys else logged


def _logged_text(before: MatchState, after: MatchState, entry: Entry) -> Logged:
    if entry.kind is EntryKind.ACTION:
        played = after.played[-1]
        return Logged(after.version, entry, played.seat, played.action)
    seat = entry.seat
    if seat is None and entry.user_id is not None:
        mine = before.seats_of(entry.user_id)
        seat = mine[0] if mine else None
    if entry.kind is EntryKind.TIMEOUT and seat is None:
        seat = before.to_act
    if entry.kind is EntryKind.SETUP and seat is not None:  # kept in the game's canonical form
        canonical = {**after.setup, **after.revealed_setup}.get(seat, entry.text)
        return Logged(after.version, entry, seat, canonical)
    return Logged(after.version, entry, seat, entry.text)


def weight_of(state: MatchState) -> int:
    """An estimate (on the high side) of the bytes a cached state keeps alive: the game's own
    count of its repetition keys' bytes where it gives one (an archiving line holds a bounded
    part of them; the undo point's counted too, as it may hold a root the newest state has
    left), else 8 bytes per action played."""
    played = state.played
    rules = state.rules
    states = [state.game] if state.undo_point is None else [state.game, state.undo_point]
    held = [rules.held_key_bytes(game) for game in states]
    keys = KEY_BYTES * len(played) if None in held else sum(b or 0 for b in held)
    return STATE_BYTES + STEP_BYTES * (len(played) - played.first_kept) + keys
