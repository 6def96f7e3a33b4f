"""The match service: lobby, actions, undo, reading and ending matches.

It imports no Discord: the cogs, the local console and the tests all drive it with
plain ids. Every change is committed before the reply is built, and two changes that
race on one match are settled by the match version: exactly one applies.
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from bot.errors import BoardChanged, ChannelBusy, NoMatch, NotAllowed, NotInMatch, ServiceError
from bot.match import CITY_NAMES, Entry, MatchState, replay
from bot.replies import Image, Reply
from bot.storage import ChannelHasMatch, Database, MatchRow, VersionConflict
from bot.storage import matches as queries
from engine.errors import IllegalAction
from engine.nika import Action, City, Event, GameRecord, GameState, Team
from engine.nika.describe import describe_events

Renderer = Callable[[GameState, Sequence[Event]], Image]
HISTORY_PAGE_SIZE = 15
STATE_CACHE_SIZE = 512

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
        raise ServiceError(f"{choice!r} is not a seat: choose {', '.join(SEAT_CHOICES)}")
    return cities


def mention(user_id: int | None) -> str:
    return f"<@{user_id}>" if user_id is not None else "nobody"


@dataclass(frozen=True, slots=True)
class TurnInfo:
    """One of a user's matches where it is their turn."""

    match_id: int
    channel_id: int
    city: City
    actions_left: int
    board_message_id: int | None
    updated_at: float


class MatchService:
    def __init__(
        self,
        db: Database,
        *,
        renderer: Renderer = default_renderer,
        clock: Callable[[], float] = time.time,
        render_threads: int = 2,
    ) -> None:
        self.db = db
        self.renderer = renderer
        self.clock = clock
        self._render_pool = ThreadPoolExecutor(render_threads, thread_name_prefix="render")
        self._states: OrderedDict[int, tuple[int, MatchState]] = OrderedDict()

    @classmethod
    async def open(cls, path: str, **options: object) -> MatchService:
        return cls(await Database.open(path), **options)  # type: ignore[arg-type]

    async def close(self) -> None:
        self._render_pool.shutdown(wait=True)
        await self.db.close()

    # --- loading ----------------------------------------------------------------------
    async def _load(self, channel_id: int, *, open_only: bool = True) -> tuple[MatchRow, MatchState]:
        async with self.db.reading() as db:
            row = await (
                queries.open_match_in(db, channel_id) if open_only else queries.latest_match_in(db, channel_id)
            )
            if row is None:
                raise NoMatch("there is no match in this channel: start one with /nika new")
            cached = self._states.get(row.id)
            if cached is not None and cached[0] == row.version:
                self._states.move_to_end(row.id)
                return row, cached[1]
            seats = await queries.seats_of(db, row.id)
            log = await queries.log_of(db, row.id)
        state = replay(seats, row.start_position, [Entry(r.kind, r.user_id, r.city, r.action) for r in log])
        self._remember(row.id, row.version, state)
        return row, state

    def _remember(self, match_id: int, row_version: int, state: MatchState) -> None:
        """Cache a match's state under the row version it belongs to."""
        self._states[match_id] = (row_version, state)
        self._states.move_to_end(match_id)
        while len(self._states) > STATE_CACHE_SIZE:
            self._states.popitem(last=False)

    async def state_of(self, channel_id: int) -> MatchState:
        return (await self._load(channel_id, open_only=False))[1]

    async def render(self, state: GameState, events: Sequence[Event] = ()) -> Image:
        """The board image, drawn in a worker thread so the event loop never waits on pixels."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._render_pool, self.renderer, state, events)

    # --- the lobby --------------------------------------------------------------------
    async def new_match(
        self, guild_id: int, channel_id: int, user_id: int, seats: str, *, start: str | None = None
    ) -> Reply:
        cities = parse_seats(seats)
        rated = start is None
        if start is not None:
            start = self._start_from(start)
        position = start or GameState.start().notation()
        now = self.clock()
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
                )
                await queries.set_seats(db, match_id, user_id, list(cities))
        except ChannelHasMatch:
            raise ChannelBusy(
                "this channel already has a match: finish or abort it first, or use another channel"
            ) from None
        casual = "" if rated else " (casual, unrated: it starts from a shared position)"
        return Reply(
            f"{mention(user_id)} opened a Nika match{casual} and took {_seat_names(cities)}. "
            "Join with /nika join, then /nika start once all four cities are held.",
            match_id=match_id,
        )

    @staticmethod
    def _start_from(text: str) -> str:
        """A start position from a game record (JSON) or position notation."""
        try:
            if text.lstrip().startswith("{"):
                return GameRecord.from_json(text).final_state().notation()
            return GameState.from_notation(text).notation()
        except IllegalAction as error:
            raise ServiceError(f"I can't start from that: {error}") from error

    async def join(self, guild_id: int, channel_id: int, user_id: int, seats: str) -> Reply:
        cities = parse_seats(seats)
        row, state = await self._load(channel_id)
        if row.status != "lobby":
            raise NotAllowed("this match has already started")
        taken = [c for c in cities if state.seats.get(c) is not None]
        if taken:
            raise NotAllowed(f"{_seat_names(taken)} is already taken by {mention(state.seats[taken[0]])}")
        mine = state.cities_of(user_id)
        wanted = {City[c.upper()].team for c in cities} | {c.team for c in mine}
        if len(wanted) > 1:
            raise NotAllowed("a player holds cities of one team only: Athens–Messene or Sparta–Thebes")
        try:
            async with self.db.transaction() as db:
                await queries.bump_version(db, row.id, row.version, self.clock())
                await queries.set_seats(db, row.id, user_id, list(cities))
        except VersionConflict:
            raise BoardChanged("the lobby changed, look again") from None
        self._states.pop(row.id, None)
        _, state = await self._load(channel_id)
        return Reply(f"{mention(user_id)} took {_seat_names(cities)}.\n{_lobby_text(state)}", match_id=row.id)

    async def leave(self, guild_id: int, channel_id: int, user_id: int) -> Reply:
        row, state = await self._load(channel_id)
        if row.status != "lobby":
            raise NotAllowed("the match has started: use /nika resign to give up")
        if not state.cities_of(user_id):
            raise NotInMatch("you have no seat in this lobby")
        try:
            async with self.db.transaction() as db:
                await queries.bump_version(db, row.id, row.version, self.clock())
                await queries.remove_seats(db, row.id, user_id)
                remaining = await queries.seats_of(db, row.id)
                if not remaining:
                    await queries.update_match(db, row.id, status="aborted", end_reason="empty lobby")
        except VersionConflict:
            raise BoardChanged("the lobby changed, look again") from None
        self._states.pop(row.id, None)
        if not remaining:
            return Reply(f"{mention(user_id)} left; the lobby is empty and closed.", match_id=row.id)
        _, state = await self._load(channel_id)
        return Reply(f"{mention(user_id)} left.\n{_lobby_text(state)}", match_id=row.id)

    async def start(self, guild_id: int, channel_id: int, user_id: int) -> Reply:
        row, state = await self._load(channel_id)
        if row.status != "lobby":
            raise NotAllowed("this match has already started")
        if user_id not in state.players and user_id != row.creator_id:
            raise NotInMatch("only a seated player can start the match")
        empty = [c for c in CITY_NAMES if state.seats.get(c) is None]
        if empty:
            raise NotAllowed(f"{_seat_names(empty)} still needs a player: /nika join")
        if len(state.players) < 2:
            raise NotAllowed("Nika needs 2 to 4 players")
        async with self.db.transaction() as db:
            try:
                await queries.bump_version(db, row.id, row.version, self.clock())
            except VersionConflict:
                raise BoardChanged("the lobby changed, look again") from None
            await queries.update_match(db, row.id, status="active")
        self._states.pop(row.id, None)
        row, state = await self._load(channel_id)
        image = await self.render(state.game, ())
        actor = state.acting_user()
        return Reply(
            f"The match begins! {_seating_text(state)}\n{_next_text(state)}",
            image=image,
            mentions=(actor,) if actor else (),
            match_id=row.id,
            version=row.version,
        )

    async def abort(self, guild_id: int, channel_id: int, user_id: int, *, can_manage: bool = False) -> Reply:
        row, _ = await self._load(channel_id)
        if user_id != row.creator_id and not can_manage:
            raise NotAllowed("only the match's creator or someone with Manage Channels can abort it")
        async with self.db.transaction() as db:
            try:
                await queries.bump_version(db, row.id, row.version, self.clock())
            except VersionConflict:
                raise BoardChanged() from None
            await queries.update_match(db, row.id, status="aborted", end_reason=f"aborted by {user_id}")
        self._states.pop(row.id, None)
        return Reply(f"{mention(user_id)} aborted the match. The channel is free for a new one.", match_id=row.id)

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
        if expected_version is not None and expected_version != row.version:
            raise BoardChanged()
        if entry.user_id is not None and entry.user_id not in state.players:
            raise NotInMatch("you are not playing in this match")
        new, events = state.with_entry(entry)
        city = state.game.to_act.name.lower() if entry.kind == "action" else _first_city(state, entry.user_id)
        stored_action = new.played[-1].action if entry.kind == "action" else entry.action
        now = self.clock()
        game = new.game
        columns: dict[str, object] = {"position": game.notation(), "to_act": game.to_act.name.lower()}
        if game.outcome is not None:
            columns |= {"status": "finished", "result": game.outcome.result, "end_reason": game.outcome.reason.value}
        try:
            async with self.db.transaction() as db:
                version = await queries.bump_version(db, row.id, row.version, now)
                await queries.append_log(
                    db,
                    row.id,
                    new.version,
                    kind=entry.kind,
                    city=city,
                    user_id=entry.user_id,
                    action=stored_action,
                    position=game.notation(),
                    now=now,
                )
                await queries.update_match(db, row.id, **columns)
        except VersionConflict:
            raise BoardChanged() from None
        self._remember(row.id, version, new)
        return await self._reply_after(row.id, version, state, new, entry, events)

    async def _reply_after(
        self,
        match_id: int,
        version: int,
        before: MatchState,
        after: MatchState,
        entry: Entry,
        events: tuple[Event, ...],
    ) -> Reply:
        who = mention(entry.user_id)
        awaiting: tuple[int, ...] = ()
        if entry.kind == "action":
            headline = _sentence(describe_events(events))
        elif entry.kind == "undo":
            undone = before.played[-1]
            headline = f"{who} took back {undone.city.possessive} {undone.action}."
            events = after.played[-1].events if after.played else ()
        else:
            headline, awaiting = _offer_text(before, after, entry)
        if after.game.outcome is not None:
            text = f"{headline}\n**{after.game.outcome.describe()}.** {_seating_text(after)}"
            mentions = tuple(sorted(after.players))
            image = await self.render(after.game, events)
        elif entry.kind in ("action", "undo"):
            text = f"{headline}\n{_next_text(after, previous=entry.user_id)}"
            actor = after.acting_user()
            mentions = (actor,) if actor else ()
            image = await self.render(after.game, events)
        else:
            text, mentions, image = headline, awaiting, None
        return Reply(text, image=image, mentions=mentions, match_id=match_id, version=version, awaiting=awaiting)

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

    async def board(self, guild_id: int, channel_id: int) -> Reply:
        row, state = await self._load(channel_id, open_only=False)
        events = state.played[-1].events if state.played else ()
        if row.status == "lobby":
            return Reply(_lobby_text(state), image=await self.render(state.game, ()), match_id=row.id)
        return Reply(
            _status_text(row, state),
            image=await self.render(state.game, events),
            match_id=row.id,
            version=row.version,
        )

    async def status(self, guild_id: int, channel_id: int) -> Reply:
        row, state = await self._load(channel_id, open_only=False)
        return Reply(_lobby_text(state) if row.status == "lobby" else _status_text(row, state), match_id=row.id)

    async def history(self, guild_id: int, channel_id: int, page: int = 1) -> Reply:
        row, state = await self._load(channel_id, open_only=False)
        pages = max(1, -(-len(state.played) // HISTORY_PAGE_SIZE))
        page = min(max(page, 1), pages)
        chunk = state.played[(page - 1) * HISTORY_PAGE_SIZE : page * HISTORY_PAGE_SIZE]
        if not chunk:
            return Reply("No actions yet.", match_id=row.id)
        lines = [
            f"`{i:>3}` {describe_events(p.events)} — {mention(p.user_id)}"
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
                left = int(row.position.split()[-1][1:])
                found.append(
                    TurnInfo(
                        row.id, row.channel_id, City[row.to_act.upper()], left, row.board_message_id, row.updated_at
                    )
                )
        return found

    async def remember_board_message(self, match_id: int, message_id: int) -> None:
        async with self.db.transaction() as db:
            await queries.update_match(db, match_id, board_message_id=message_id)


# --- text ------------------------------------------------------------------------------
def _sentence(text: str) -> str:
    return text if text.endswith((".", "!", "?")) else text + "."


def _seat_names(cities: Sequence[str]) -> str:
    return " and ".join(City[c.upper()].title for c in cities)


def _first_city(state: MatchState, user_id: int | None) -> str | None:
    cities = state.cities_of(user_id) if user_id is not None else []
    return cities[0].name.lower() if cities else None


def _lobby_text(state: MatchState) -> str:
    lines = [
        f"{City[c.upper()].title} ({City[c.upper()].team.title}): {mention(uid) if uid else '*open*'}"
        for c, uid in ((c, state.seats.get(c)) for c in CITY_NAMES)
    ]
    return "**Lobby**\n" + "\n".join(lines)


def _seating_text(state: MatchState) -> str:
    return " · ".join(f"{city.title}: {mention(state.holder(city))}" for city in City)


def _next_text(state: MatchState, previous: int | None = None) -> str:
    game = state.game
    city = game.to_act
    user = state.holder(city)
    left = game.position.actions_left
    plural = "action" if left == 1 else "actions"
    if previous is not None and user == previous and state.played and state.played[-1].city != city:
        return f"{city.title} to act next ({left} {plural}) — {mention(user)}, you hold {city.title} too."
    return f"{city.title} to act ({left} {plural} left) — {mention(user)}"


def _status_text(row: MatchRow, state: MatchState) -> str:
    if state.game.outcome is not None:
        return f"Match #{row.id} is over: {state.game.outcome.describe()}. {_seating_text(state)}"
    if row.status == "aborted":
        return f"Match #{row.id} was aborted."
    lines = [f"Match #{row.id}, action {len(state.played)}. {_seating_text(state)}", _next_text(state)]
    if state.draw_offer:
        waiting = sorted(state.players - state.draw_offer.accepted)
        lines.append(f"Draw offered by {mention(state.draw_offer.by)}; waiting for {', '.join(map(mention, waiting))}")
    if state.declaration:
        waiting = sorted(state.team_players(state.declaration.team.opponent) - state.declaration.conceded)
        lines.append(
            f"Nika declared for {state.declaration.team.title} by {mention(state.declaration.by)}; "
            f"waiting for {', '.join(map(mention, waiting))} to concede or challenge"
        )
    return "\n".join(lines)


def _offer_text(before: MatchState, after: MatchState, entry: Entry) -> tuple[str, tuple[int, ...]]:
    """The headline for a move made away from the board, and who must now answer."""
    who = mention(entry.user_id)
    if entry.kind == "resign":
        return f"{who} resigned for {before.team_of(entry.user_id or 0).title}.", ()
    if entry.kind in ("draw_offer", "draw_accept") and after.draw_offer is not None:
        waiting = tuple(sorted(after.players - after.draw_offer.accepted))
        verb = "offers a draw" if entry.kind == "draw_offer" else "accepts the draw"
        return f"{who} {verb}. Waiting for {', '.join(map(mention, waiting))}: /nika draw accept or decline.", waiting
    if entry.kind == "draw_accept":
        return f"{who} accepts the draw. Everyone agreed.", ()
    if entry.kind == "draw_decline":
        return f"{who} declined the draw; play goes on.", ()
    if entry.kind in ("declare", "concede") and after.declaration is not None:
        team = after.declaration.team
        waiting = tuple(sorted(after.team_players(team.opponent) - after.declaration.conceded))
        verb = f"declares **Nika** for {team.title}!" if entry.kind == "declare" else "concedes."
        return (
            f"{who} {verb} {', '.join(map(mention, waiting))}: /nika concede, or /nika challenge to play on.",
            waiting,
        )
    if entry.kind == "declare":
        return f"{who} declares **Nika**, conceding for their own side.", ()
    if entry.kind == "concede":
        return f"{who} concedes.", ()
    return f"{who} challenges the Nika declaration: play goes on.", ()
