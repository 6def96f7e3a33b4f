"""The lobby: opening a match, taking and leaving seats (a member's, or the computer's),
starting, and aborting. Seats and sides come from the game interface."""

from __future__ import annotations

import random
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from bot import rating_gate, texts
from bot.commands.forms import event_command
from bot.errors import ChannelBusy, MatchUnreadable, NotAllowed, NotInMatch, ServiceError
from bot.match import MatchState
from bot.replies import Reply
from bot.service.book import MatchBook
from bot.service.heavy import HeavyReads
from bot.storage import ChannelHasMatch, MatchRow, timers
from bot.storage import events as event_store
from bot.storage import matches as queries
from bot.storage.matches import NewMatch
from bot.storage.timers import TimerKind
from engine.api import AnyGame
from engine.errors import IllegalAction
from engine.i18n import M, Message, P, choices_shown, chosen
from engine.record import GameRecord
from engine.registry import get_game

DAY = 86_400.0
RECORD_ACTIONS_MAX = 5000
LEVELS = ("easy", "normal", "hard")
DEADLINE_CHOICES = (0, 1, 2, 3, 7)  # days; 0 is none
BANK_MAX_DAYS = 30


def check_deadline(days: int | None) -> None:
    if days is not None and days not in DEADLINE_CHOICES:
        raise ServiceError(M("a turn deadline is none, 1, 2, 3 or 7 days"))


def check_bank(bank_days: int | None, deadline_days: int | None) -> None:
    """A time bank holds from one turn's time (the deadline) up to 30 days, and needs a deadline."""
    if bank_days is None:
        return
    if not deadline_days:
        raise ServiceError(M("a time bank needs a turn deadline: add deadline:1, 2, 3 or 7"))
    if not deadline_days <= bank_days <= BANK_MAX_DAYS:
        raise ServiceError(M("a time bank holds {deadline} to {most} days with a {deadline}-day deadline",
                             deadline=deadline_days, most=BANK_MAX_DAYS))  # fmt: skip


def seats_for_choice(state: MatchState, choice: str, rng: random.Random | None = None) -> list[str]:
    """The seats a choice names: a seat, a whole side, or `random` (a random free side)."""
    cleaned = choice.strip().lower().replace(" ", "-").replace("+", "-").replace("–", "-")
    table = state.table
    word = texts.option(state.rules.seat_word)
    if not cleaned:
        raise ServiceError(M("choose a {seat_word}: {choices}", seat_word=word, choices=choices_text(state)))
    names = [s.slug for s in table] + [s.slug for s in state.sides if len(s.seats) > 1] + ["random"]
    cleaned = chosen(names, cleaned) or cleaned  # `azar` as `random`: a seat typed in the reader's language
    for seat in table:
        if cleaned == seat.slug:
            return [seat.slug]
    for side in state.sides:
        if cleaned == side.slug and len(side.seats) > 1:
            return list(side.seats)
    if cleaned == "random":
        free = [side for side in state.sides if not any(_held(state, s) for s in side.seats)]
        if not free:
            raise NotAllowed(M("every side is taken"))
        return list((rng or random.Random()).choice(free).seats)
    shown = repr(choice.strip()[:30])
    raise ServiceError(M("{text} is not a {seat_word}: choose {choices}", text=shown, seat_word=word,
                         choices=choices_text(state)))  # fmt: skip


def free_seats(state: MatchState) -> list[str]:
    """What the computer takes when no seat is named: the first free seat in seat order, or its
    whole side when that side is free and a member holds a whole side (a team game for two)."""
    free = [seat.slug for seat in state.table if not _held(state, seat.slug)]
    if not free:
        raise NotAllowed(M("every seat is taken"))
    side = next(s for s in state.sides if free[0] in s.seats)
    whole_sides = any(
        len(s.seats) > 1 and state.seats.get(s.seats[0]) is not None
        and all(state.seats.get(x) == state.seats.get(s.seats[0]) for x in s.seats)
        for s in state.sides
    )  # fmt: skip
    if whole_sides and len(side.seats) > 1 and all(seat in free for seat in side.seats):
        return list(side.seats)
    return [free[0]]


def choices_text(state: MatchState) -> str:
    names = [s.slug for s in state.table] + [s.slug for s in state.sides if len(s.seats) > 1]
    return choices_shown(names)  # as the reader types them: `rojo, azul`


def _held(state: MatchState, seat: str) -> bool:
    return state.seats.get(seat) is not None or state.is_computer(seat)


@dataclass(frozen=True, slots=True)
class Opening:
    """A match `/new` asked for, checked and built, not stored yet (`Lobby.prepare`)."""

    rules: AnyGame
    state: MatchState  # the lobby's state: no seat held yet
    position: str  # where play starts: the game's start, or a shared position (a casual match)
    players: int
    options: dict[str, str]  # every match option, given or default
    seed: int
    rated: bool  # from the game's start; a shared position is casual
    taken: list[str]  # the creator's seats
    deadline_days: int | None
    bank_days: int | None = None  # the most a seat's clock holds (None: the deadline)


class Lobby:
    def __init__(
        self, book: MatchBook, heavy: HeavyReads, *, lobby_days: float = 7.0, lobbies_per_member: int = 3
    ) -> None:
        self.book = book
        self.heavy = heavy
        self.lobby_days = lobby_days
        self.lobbies_per_member = lobbies_per_member

    async def new_match(
        self,
        guild_id: int,
        channel_id: int,
        user_id: int,
        seats: str,
        *,
        game: str,
        players: int | None = None,
        options: Mapping[str, str] | None = None,
        start: str | None = None,
        deadline_days: int | None = None,
        parent_channel_id: int | None = None,
        seed: int | None = None,
        bank_days: int | None = None,
    ) -> Reply:
        """Open a lobby: check and build the match (nothing stored yet), store it with the
        creator's seat and its expiry timer, then say so."""
        opening = await self.prepare(game, seats, user_id, players=players, options=options, start=start,
                                     deadline_days=deadline_days, seed=seed, bank_days=bank_days)  # fmt: skip
        match_id = await self.store(opening, guild_id, channel_id, user_id, parent_channel_id)
        return Reply(str(self.announce(opening, user_id)), match_id=match_id, game=opening.rules.slug)

    async def prepare(
        self,
        game: str,
        seats: str,
        user_id: int,
        *,
        players: int | None = None,
        options: Mapping[str, str] | None = None,
        start: str | None = None,
        deadline_days: int | None = None,
        seed: int | None = None,
        bank_days: int | None = None,
    ) -> Opening:
        """The match a `/new` asks for, checked (game, player count, options, deadline, start
        position, the seats chosen) and built, with nothing written: a refusal changes nothing."""
        if start is not None:
            self.heavy.check(user_id)  # an import waits its turn with the member's other heavy reads
        rules = get_game(game)
        check_deadline(deadline_days)
        check_bank(bank_days, deadline_days)
        players = players or _players_for(rules, seats)
        if players not in rules.player_counts:
            raise ServiceError(M("{game} is for {counts} players", game=rules.title,
                                 counts=texts.joined([str(n) for n in rules.player_counts])))  # fmt: skip
        try:
            chosen = rules.option_defaults(options)
            rules.check_options(players, chosen)
        except IllegalAction as error:
            raise ServiceError(error.args[0] if error.args else str(error)) from None
        seed = secrets.randbelow(2**31) if seed is None else seed
        if start is not None:
            # A long record replays for a while: in turn with other members' heavy reads (bot/service/heavy.py).
            position = await self.heavy.run(user_id, start_position, rules.slug, start, small=len(start) < SMALL_IMPORT)
            players = len(rules.state_seats(rules.load(position)))
        else:
            position = rules.notation(rules.new(players, chosen, seed))
        state = MatchState.begin(rules, {}, position, players=players, options=chosen, seed=seed)
        taken = seats_for_choice(state, seats, random.Random(seed))
        return Opening(rules, state, position, players, chosen, seed, start is None, taken, deadline_days,
                       bank_days if bank_days != deadline_days else None)  # fmt: skip

    async def store(
        self, opening: Opening, guild_id: int, channel_id: int, user_id: int, parent_channel_id: int | None
    ) -> int:
        """The match stored in one transaction, with the creator's seats and the lobby's expiry;
        refused if the member holds too many open lobbies or the channel has a match."""
        rules, state = opening.rules, opening.state
        now = self.book.clock.now()
        try:
            async with self.book.storage.transaction() as db:
                await queries.hold_member(db, guild_id, user_id)  # the count and the insert, as one
                if await queries.open_lobbies_by(db, guild_id, user_id) >= self.lobbies_per_member:
                    raise NotAllowed(M(
                        "you already have {count} open lobbies on this server: start or abort one of them first",
                        count=self.lobbies_per_member,
                    ))  # fmt: skip
                match_id = await queries.insert_match(db, NewMatch(
                    game=rules.slug, guild_id=guild_id, channel_id=channel_id, creator_id=user_id,
                    players=opening.players, start_position=opening.position, to_act=rules.to_act(state.game),
                    rated=opening.rated, now=now, options=opening.options, seed=opening.seed,
                    deadline_days=opening.deadline_days or None, parent_channel_id=parent_channel_id,
                    bank_days=opening.bank_days,
                ))  # fmt: skip
                await queries.take_seats(db, match_id, opening.taken, user_id=user_id, computer=None)
                await timers.schedule(db, match_id, TimerKind.LOBBY, now + self.lobby_days * DAY, now)
        except ChannelHasMatch:
            raise ChannelBusy(
                M(
                    "this channel already has a match: finish or abort it first, use another channel, "
                    "or open it in a thread with /{game} {new} {thread}:true",
                    game=rules.slug,
                    new=texts.command("new"),
                    thread=texts.option("thread"),
                ),
                console=M("this channel already has a match: finish or abort it first, or switch to another "
                          "channel with `channel N` (channel 2, say)"),
            ) from None
        self.book.timers_changed()
        return match_id

    def announce(self, opening: Opening, user_id: int) -> Message:
        """What the channel reads: who opened which match, how it differs from the usual one,
        the seats taken, and how to join and start."""
        rules = opening.rules
        notes = []
        if rules.seat_sets_differ():
            notes.append(str(P("for {count} player", "for {count} players", count=opening.players)))
        for option in rules.options:
            value = opening.options[option.name]
            if value != option.default:
                label = next((c.label for c in option.choices if c.value == value), value)
                notes.append(f"{texts.option(option.name)} {texts.data_text(label)}")
        if not opening.rated:
            notes.append(str(M("casual, unrated: it starts from a shared position")))
        if opening.deadline_days:
            notes.append(str(P("with a {count}-day turn deadline", "with a {count}-day turn deadline",
                               count=opening.deadline_days)))  # fmt: skip
        if opening.bank_days:
            notes.append(str(P("a time bank of up to {count} day", "a time bank of up to {count} days",
                               count=opening.bank_days)))  # fmt: skip
        words: dict[str, Any] = {
            "who": texts.mention(user_id), "game": rules.title, "detail": f" ({'; '.join(notes)})" if notes else "",
            "seats": texts.seat_names(opening.state, opening.taken), "game_slug": rules.slug,
            "join": texts.command("join"), "start": texts.command("start"), "seat_word": texts.option(rules.seat_word),
        }  # fmt: skip
        if rules.title[:1].lower() in "aeiou":  # English says "an Othello match"
            return M("{who} opened an {game} match{detail} and took {seats}. Join with /{game_slug} {join}, then "
                     "/{game_slug} {start} once every {seat_word} is held.", **words)  # fmt: skip
        return M("{who} opened a {game} match{detail} and took {seats}. Join with /{game_slug} {join}, then "
                 "/{game_slug} {start} once every {seat_word} is held.", **words)  # fmt: skip

    async def join(
        self, channel_id: int, user_id: int, seats: str, *, computer: str | None = None
    ) -> Reply:
        row, state = await self.book.load(channel_id)
        if row.status != "lobby":
            raise NotAllowed(M("this match has already started"))
        no_seat = computer is not None and not seats.strip()  # the computer takes the free seat
        wanted = free_seats(state) if no_seat else seats_for_choice(state, seats)
        if computer is not None:
            return await self._seat_computer(row, state, user_id, wanted, computer)
        taken = [s for s in wanted if state.seats.get(s) is not None]
        if taken:
            holder = state.seats[taken[0]]
            if holder == user_id:
                raise NotAllowed(M("you already hold {seats}", seats=texts.seat_names(state, taken)))
            raise NotAllowed(M("{seats} is already taken by {who}", seats=texts.seat_names(state, taken),
                               who=texts.mention(holder)))  # fmt: skip
        mine = state.seats_of(user_id)
        sides = {state.side_of(s) for s in [*wanted, *mine]}
        if len(sides) > 1:
            if any(len(side.seats) > 1 for side in state.sides):
                teams = texts.either([state.side_title(side.slug) for side in state.sides])
                raise NotAllowed(M("a player holds {seat_word} of one team only: {teams}",
                                   seat_word=texts.option(state.rules.seat_word), teams=teams))  # fmt: skip
            raise NotAllowed(M("you already hold {seats}: each player holds one seat",
                               seats=texts.seat_names(state, mine)))  # fmt: skip
        took_over = any(s in state.computers for s in wanted)
        async with self.book.claim(row, M("the lobby changed, look again")) as db:
            await queries.take_seats(db, row.id, wanted, user_id=user_id, computer=None)
        _, state = await self.book.load(channel_id)
        who, names = texts.mention(user_id), texts.seat_names(state, wanted)
        took = (M("{who} took over from the computer {seats}.", who=who, seats=names) if took_over
                else M("{who} took {seats}.", who=who, seats=names))  # fmt: skip
        return Reply(f"{took}\n{texts.lobby_text(state)}", match_id=row.id, game=row.game)

    async def _seat_computer(
        self, row: MatchRow, state: MatchState, user_id: int, wanted: list[str], level: str
    ) -> Reply:
        level = level.strip().lower()
        if level not in LEVELS:
            raise ServiceError(M("the computer plays at easy, normal or hard"))
        if user_id != row.creator_id:
            raise NotAllowed(M("only the match's creator can seat the computer"))
        humans = [s for s in wanted if state.seats.get(s) is not None]
        if humans:
            holder = state.seats[humans[0]]
            raise NotAllowed(M("{seats} is held by {who}", seats=texts.seat_names(state, humans),
                               who=texts.mention(holder)))  # fmt: skip
        async with self.book.claim(row, M("the lobby changed, look again")) as db:
            await queries.take_seats(db, row.id, wanted, user_id=None, computer=level)
        _, state = await self.book.load(row.channel_id)
        seated = M("{seats}: computer ({level}). A member who joins may still take it over.",
                   seats=texts.seat_names(state, wanted), level=texts.level(level))  # fmt: skip
        return Reply(f"{seated}\n{texts.lobby_text(state)}", match_id=row.id, game=row.game)

    async def leave(self, channel_id: int, user_id: int) -> Reply:
        row, state = await self.book.load(channel_id)
        if row.status != "lobby":
            raise NotAllowed(M("the match has started: /{game} {resign} gives up", game=row.game,
                               resign=texts.command("resign")))  # fmt: skip
        if not state.seats_of(user_id):
            raise NotInMatch(M("you have no seat in this lobby"))
        remaining = sorted(state.players - {user_id})
        async with self.book.claim(row, M("the lobby changed, look again")) as db:
            await queries.remove_seats(db, row.id, user_id)
            if not remaining:
                await queries.update_match(db, row.id, status="aborted", end_reason="empty lobby")
                await timers.clear(db, row.id)
            elif user_id == row.creator_id:
                # The lobby's rights (start, abort, settings, seating the computer) pass on.
                await queries.update_match(db, row.id, creator_id=remaining[0])
        if not remaining:
            closed = M("{who} left; the lobby is empty and closed.", who=texts.mention(user_id))
            return Reply(str(closed), match_id=row.id, game=row.game)
        _, state = await self.book.load(channel_id)
        left = str(M("{who} left.", who=texts.mention(user_id)))
        if user_id == row.creator_id:
            left += " " + str(M("{who} now runs the lobby.", who=texts.mention(remaining[0])))
        return Reply(f"{left}\n{texts.lobby_text(state)}", match_id=row.id, game=row.game)

    async def pair_cap_reached(self, row: MatchRow, state: MatchState) -> bool:
        """Whether the match would start unrated by the daily cap between two of its members (the
        start itself decides again, in its transaction)."""
        if not row.rated or state.computers:
            return False
        async with self.book.storage.reading() as db:
            return await rating_gate.pair_cap_reached(db, row, state, self.book.clock.now())

    def check_start(self, row: MatchRow, state: MatchState, user_id: int) -> None:
        """Why this member cannot start this lobby now, if they cannot (ServiceError)."""
        if row.status != "lobby":
            raise NotAllowed(M("this match has already started"))
        if user_id not in state.players and user_id != row.creator_id:
            raise NotInMatch(M("only a seated player can start the match"))
        empty = [s.slug for s in state.table if not _held(state, s.slug)]
        if empty:
            raise NotAllowed(P(
                "{seats} still needs a player: /{game} {join} (the creator can seat the computer with "
                "/{game} {join} {computer}:easy|normal|hard)",
                "{seats} still need a player: /{game} {join} (the creator can seat the computer with "
                "/{game} {join} {computer}:easy|normal|hard)",
                count=len(empty), seats=texts.seat_names(state, empty), game=row.game, join=texts.command("join"),
                computer=texts.option("computer"),
            ))  # fmt: skip
        if not state.players:
            raise NotAllowed(M("a match needs at least one member playing"))

    async def start(self, row: MatchRow, state: MatchState, user_id: int, *, backup: Reply) -> tuple[int, ...]:
        """Start a lobby (checked as `check_start` does), with `backup` (the first board, built by
        the caller) kept until the front end posts it; returns the backup's notice id."""
        self.check_start(row, state, user_id)
        now = self.book.clock.now()
        async with self.book.claim(row, M("the lobby changed, look again")) as db:
            rated, reason = row.rated and not state.computers, None
            if rated:
                await rating_gate.hold_members(db, row, state)  # two starts sharing a member count each other
                if await rating_gate.pair_cap_reached(db, row, state, now):
                    rated, reason = False, rating_gate.PAIR_CAP
            await queries.update_match(db, row.id, status="active", rated=rated, unrated_reason=reason, started_at=now)
            await timers.clear(db, row.id, TimerKind.LOBBY)
            if self.book.scheduler is not None:
                await self.book.scheduler.reschedule(
                    db, row, state, state, self.book.clock.now(), activity=True, new_turn=True
                )
            kept = await self.book.keep_backup(db, row, backup)
        self.book.timers_changed()
        return (kept,)

    async def abort(self, channel_id: int, user_id: int, *, can_manage: bool = False) -> Reply:
        try:
            row, state = await self.book.load(channel_id)
        except MatchUnreadable as unreadable:  # damaged, or its game uninstalled: a moderator frees the channel
            if not can_manage or not isinstance(unreadable.row, MatchRow):
                raise
            row, state = unreadable.row, None
        if row.status == "lobby":
            if user_id != row.creator_id and not can_manage:
                raise NotAllowed(M("only the lobby's creator or someone with Manage Channels can abort it"))
        elif not can_manage:
            if state is not None and user_id in state.players:
                raise NotAllowed(M(
                    "the match has started: resign instead with /{game} {resign} (only someone with "
                    "Manage Channels can abort a started match)", game=row.game, resign=texts.command("resign"),
                ))  # fmt: skip
            raise NotAllowed(M("only someone with Manage Channels can abort a started match"))
        who = texts.mention(user_id)
        async with self.book.storage.reading() as db:  # an event's game: the event is told what follows
            found = await event_store.table_of_match(db, row.id)
            event = None if found is None else await event_store.event_by_id(db, found[0])
        if row.status == "lobby":
            aborted = M("{who} aborted the match. The channel is free for a new one.", who=who)
        elif found is None or event is None:
            aborted = M("{who} aborted the match. It is not rated. The channel is free for a new one.", who=who)
        elif event.status == "running":  # its table stays undecided (docs/tournaments.md, "Results")
            aborted = M("{who} aborted the match. It is not rated. Its game stays undecided in **{title}**, so "
                        "round {round} cannot end: the event's creator or a moderator may cancel the event with "
                        "{cancel}.", who=who, title=event.title, round=found[1].round,
                        cancel=event_command(event.game, "cancel"))  # fmt: skip
        else:  # the event is being cancelled, which is why its games end
            aborted = M("{who} aborted the match. It is not rated.", who=who)
        reply = Reply(str(aborted), match_id=row.id, game=row.game)
        async with self.book.claim(row) as db:
            # A started match aborted by a moderator counts for nobody's rating.
            await queries.update_match(db, row.id, status="aborted", end_reason=f"aborted by {user_id}", rated=False)
            await timers.clear(db, row.id)
            kept = await self.book.keep_backup(db, row, reply)
        return replace(reply, notice_ids=(kept,))


def _players_for(rules: AnyGame, choice: str) -> int:
    """The player count when none was given: the smallest table that has the chosen seat."""
    wanted = choice.strip().lower()
    for players in sorted(rules.player_counts):
        if any(wanted in (s.slug, s.side) for s in rules.seats(players)):
            return players
    return min(rules.player_counts)


SMALL_IMPORT = 20_000  # characters: a record this short is replayed in a thread, not worth a process


def start_position(slug: str, text: str) -> str:
    """A start position from a game record (JSON) or position notation (run in a worker process
    for a long record: a module-level function of plain arguments)."""
    rules = get_game(slug)
    try:
        if text.lstrip().startswith("{"):
            record = GameRecord.from_json(text)
            if record.game != rules.slug:
                other = get_game(record.game)
                raise ServiceError(M("that is a {game} record: start it with /{game_slug} {new}", game=other.title,
                                     game_slug=other.slug, new=texts.command("new")))  # fmt: skip
            if len(record.entries) > RECORD_ACTIONS_MAX:
                raise ServiceError(M("that record is longer than {count} actions", count=RECORD_ACTIONS_MAX))
            state = record.final_state()
        else:
            state = rules.load(text)
    except IllegalAction as error:
        reason = error.args[0] if error.args else ""
        raise ServiceError(M("I can't start from that: {reason}", reason=reason)) from error
    except RecursionError:
        raise ServiceError(M("I can't start from that: it is nested far too deeply")) from None
    if rules.outcome(state) is not None:
        raise ServiceError(M("that game is already over: start from a position where it goes on"))
    return rules.notation(state)
