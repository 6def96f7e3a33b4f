"""A match's state as the replay of its log: the game, who holds which seat, the undo
point, an open proposal (a draw offer or a claim) and secret setup choices. Pure and
synchronous, for any game, through the game interface alone. The service validates a
new entry with the same code that replays old ones, so the log and the live state
cannot disagree."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from bot.errors import IllegalMove, NotAllowed, NotInMatch, NotYourTurn, ServiceError
from bot.lists import joined
from bot.match.entries import Entry, EntryKind
from bot.match.played import Played, PlayedLog
from engine.api import AnyGame, Ending, EndingKind, Seat, Side, UndoScope, check_outcome, seat_table, sides_of
from engine.errors import IllegalAction
from engine.i18n import M, Message, Term
from engine.record import GameRecord, RecordEntry

# Who may agree to a proposal: a member (their user id) or a computer seat (its slug).
Party = int | str


class ProposalKind(StrEnum):
    DRAW = "draw"
    CLAIM = "claim"


@dataclass(frozen=True, slots=True)
class Proposal:
    """A draw offer, or a claim that `side` has won (the game's `Game.claim`), awaiting answers."""

    kind: ProposalKind
    by: int | None
    agreed: frozenset[Party]
    seq: int  # the log entry that made it: answer buttons name it
    side: str | None = None

    # The first release's names, which its tests and texts use.
    @property
    def accepted(self) -> frozenset[Party]:
        return self.agreed

    @property
    def conceded(self) -> frozenset[Party]:
        return self.agreed


@dataclass(frozen=True, slots=True)
class MatchState:
    rules: AnyGame
    seats: Mapping[str, int | None]  # seat → the member holding it (None: a computer seat)
    start: str  # the game's first position (before any setup)
    game: Any  # the game's own state
    player_count: int = 0  # the count the game was created for (in some games it decides the seats)
    options: Mapping[str, str] = field(default_factory=dict)
    seed: int = 0
    computers: Mapping[str, str] = field(default_factory=dict)  # seat → level
    version: int = 0  # log entries so far
    board_version: int = 0  # entries that changed the board: what a posted board shows
    played: PlayedLog = field(default_factory=PlayedLog)
    # The state before the last action, while its player may still take it back (see UndoScope).
    undo_point: Any | None = None
    undone: bool = False  # the last board entry was an undo: only one action can be taken back
    proposal: Proposal | None = None
    setup: Mapping[str, str] = field(default_factory=dict)  # secret choices not yet revealed
    revealed_setup: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def begin(
        cls,
        rules: AnyGame,
        seats: Mapping[str, int | None],
        start: str,
        *,
        players: int = 0,
        options: Mapping[str, str] | None = None,
        seed: int = 0,
        computers: Mapping[str, str] | None = None,
    ) -> MatchState:
        game = rules.load(start)
        return cls(rules, dict(seats), start, game, players or len(rules.state_seats(game)), dict(options or {}),
                   seed, dict(computers or {}))  # fmt: skip

    # --- who is who -------------------------------------------------------------------
    @property
    def table(self) -> tuple[Seat, ...]:
        return seat_table(self.rules, self.rules.state_seats(self.game))

    def table_slugs(self) -> tuple[str, ...]:
        return tuple(s.slug for s in self.table)

    @property
    def sides(self) -> tuple[Side, ...]:
        """The sides with the game's own titles ("North–South")."""
        titles = {side.slug: side.title for side in self.rules.sides(self.player_count)}
        return tuple(Side(s.slug, titles.get(s.slug, s.title), s.seats) for s in sides_of(self.table))

    def seat_title(self, seat: str) -> Term:
        """A seat's title in the reader's language ("North", "Norte")."""
        return Term(next((s.title for s in self.table if s.slug == seat), seat.title()))

    def side_of(self, seat: str) -> str:
        return next(s.side for s in self.table if s.slug == seat)

    def side_title(self, side: str) -> Term:
        return Term(next((s.title for s in self.rules.sides(self.player_count) if s.slug == side), side))

    @property
    def players(self) -> frozenset[int]:
        """The members holding a seat (computer seats are not members)."""
        return frozenset(uid for uid in self.seats.values() if uid is not None)

    def holder(self, seat: Any) -> int | None:
        return self.seats.get(_slug(seat))

    def seats_of(self, user_id: int) -> list[str]:
        return [s.slug for s in self.table if self.seats.get(s.slug) == user_id]

    def is_computer(self, seat: str) -> bool:
        return seat in self.computers

    def party_of(self, seat: str) -> Party:
        holder = self.seats.get(seat)
        return holder if holder is not None else seat

    def seats_in_play(self) -> tuple[str, ...]:
        return self.rules.seats_in_play(self.game)

    def parties_in_play(self) -> frozenset[Party]:
        return frozenset(self.party_of(seat) for seat in self.seats_in_play())

    @property
    def to_act(self) -> str | None:
        return self.rules.to_act(self.game)

    def acting_user(self) -> int | None:
        seat = self.to_act
        return None if seat is None else self.seats.get(seat)

    def acting_computer(self) -> str | None:
        """The computer seat to act now (a move, or a setup choice still owed), if any."""
        if self.is_over:
            return None
        seat = self.to_act
        if seat is not None:
            return seat if self.is_computer(seat) else None
        return next((s for s in self.setup_pending() if self.is_computer(s)), None)

    @property
    def is_over(self) -> bool:
        return self.rules.outcome(self.game) is not None

    def setup_pending(self) -> tuple[str, ...]:
        """Seats that still owe a setup choice (those that made one may still change it)."""
        return tuple(s for s in self.rules.setup_pending(self.game) if s not in self.setup)

    def in_setup(self) -> bool:
        return bool(self.rules.setup_pending(self.game))

    @property
    def draw_offer(self) -> Proposal | None:
        return self.proposal if self.proposal is not None and self.proposal.kind is ProposalKind.DRAW else None

    @property
    def declaration(self) -> Proposal | None:
        return self.proposal if self.proposal is not None and self.proposal.kind is ProposalKind.CLAIM else None

    def answerers(self, proposal: Proposal) -> frozenset[Party]:
        """Who must agree: every party still in the game for a draw; for a claim, every party
        holding a seat in play that is not on the claimed side."""
        if proposal.kind is ProposalKind.DRAW:
            return self.parties_in_play()
        return frozenset(self.party_of(s) for s in self.seats_in_play() if self.side_of(s) != proposal.side)

    def waiting_for(self, proposal: Proposal) -> frozenset[Party]:
        return self.answerers(proposal) - proposal.agreed

    def record(self, steps: Sequence[Played] | None = None) -> GameRecord:
        """The game record. `steps`: every step played, when memory does not keep them all (a
        long match: see `steps_from_log`); without them, NotKept is raised for a long match."""
        entries = [
            RecordEntry(p.seat, p.action, p.ending, p.side, str(p.user_id) if p.user_id is not None else None)
            for p in (self.played if steps is None else steps)
        ]
        return GameRecord(self.rules.slug, self.start, entries, self.player_count, dict(self.options), self.seed,
                          dict(self.revealed_setup))  # fmt: skip

    # --- applying entries -------------------------------------------------------------
    def with_entry(self, entry: Entry) -> tuple[MatchState, tuple[Any, ...]]:
        """The state after one more log entry, or a ServiceError saying why it is refused."""
        outcome = self.rules.outcome(self.game)
        if outcome is not None:
            raise NotAllowed(M("this match is over: {summary}", summary=outcome.summary))
        if entry.user_id is not None and entry.user_id not in self.players:
            raise NotInMatch(M("you are not playing in this match"))
        handler = _HANDLERS[EntryKind(entry.kind)]
        try:
            state, events = handler(self, entry)
        except IllegalAction as error:
            raise IllegalMove(error.args[0] if error.args else str(error)) from error
        # A game's outcome names whole seats of its own; anything else is the game's bug, and
        # the entry is not stored (the conformance suite finds such a bug first).
        check_outcome(self.rules, state.game, self.rules.outcome(state.game))
        board = self.board_version + (EntryKind(entry.kind).changes_board or _board_changed(self, state))
        return replace(state, version=self.version + 1, board_version=board), events

    def _acting_seat(self, entry: Entry) -> str:
        """The seat this entry acts for: the one to act, which its member (or the host) must hold."""
        seat = self.to_act
        if entry.user_id is not None and (left := self.left(entry.user_id)) is not None:
            raise NotInMatch(left)
        if seat is None:
            raise NotAllowed(self._not_playing_yet())
        if entry.user_id is not None and self.seats.get(seat) != entry.user_id:
            holder = self.seats.get(seat)
            title = self.seat_title(seat)
            if holder is None:
                raise NotYourTurn(M("it is {seat:poss} turn (the computer plays it)", seat=title))
            raise NotYourTurn(M("it is {seat:poss} turn ({who} plays it)", seat=title, who=f"<@{holder}>"))
        return seat

    def left(self, user_id: int) -> Message | None:
        """For a member whose every seat is out of play while the game goes on (they resigned
        from a free-for-all, say): that they have left, rather than whose turn it is."""
        mine = self.seats_of(user_id)
        if not mine or self.is_over or any(seat in self.seats_in_play() for seat in mine):
            return None
        return M("you have left this match ({seat} is out of the game): the others play on without you",
                 seat=joined([self.seat_title(seat) for seat in mine]))  # fmt: skip

    def _not_playing_yet(self) -> Message:

        titles = [self.seat_title(s) for s in self.setup_pending()]
        if not titles:
            return M("nobody is to act")
        return M("the game has not begun: {waiting} must still set up", waiting=joined(titles))

    def _action(self, entry: Entry) -> tuple[MatchState, tuple[Any, ...]]:
        seat = self._acting_seat(entry)
        rules = self.rules
        action = rules.parse_action(entry.text or "")
        action = rules.canonical(self.game, action)
        game, happened = rules.apply(self.game, action)
        events = tuple(happened)
        played = Played(self.version + 1, seat, entry.user_id, action.notation(), events)
        keep_undo = rules.outcome(game) is None and (
            rules.undo_scope is UndoScope.UNTIL_NEXT_ACTION or rules.to_act(game) == seat
        )
        state = replace(self, game=game, played=self.played.appended(played),
                        undo_point=self.game if keep_undo else None, undone=False)  # fmt: skip
        return state, events

    def _undo(self, entry: Entry) -> tuple[MatchState, tuple[Any, ...]]:
        if not self.played or self.played[-1].action is None:
            raise NotAllowed(M("there is no action to undo"))
        last = self.played[-1]
        if self.undone:
            raise NotAllowed(M("only one action can be taken back: play on from here"))
        if entry.user_id is not None and last.user_id != entry.user_id:
            if any(p.user_id == entry.user_id for p in self.played[-len(self.table) * 2 :]):
                raise NotAllowed(M("the next player has moved since, so your last action stands"))
            raise NotAllowed(M("you can only undo your own last action"))
        if self.undo_point is None:
            if self.rules.undo_scope is UndoScope.TURN:
                raise NotAllowed(M("{seat:poss} turn is over, so its actions stand", seat=self.seat_title(last.seat)))
            raise NotAllowed(M("the next player has moved since, so that action stands"))
        state = replace(self, game=self.undo_point, played=self.played.dropped_last(), undo_point=None, undone=True)
        return state, ()

    def _setup(self, entry: Entry) -> tuple[MatchState, tuple[Any, ...]]:
        seat = entry.seat or ""
        if seat not in self.rules.setup_pending(self.game):
            if not self.in_setup():
                raise NotAllowed(M("there is no setup to make now"))
            raise NotAllowed(M("{seat} has no setup to make", seat=self.seat_title(seat)))
        if entry.user_id is not None and self.seats.get(seat) != entry.user_id:
            raise NotYourTurn(M("{seat} is not your seat", seat=self.seat_title(seat)))
        choice = self.rules.parse_setup(self.game, seat, entry.text or "")
        setup = {**self.setup, seat: choice}
        if set(setup) < set(self.rules.setup_pending(self.game)):
            return replace(self, setup=setup), ()
        game, events = self.rules.apply_setup(self.game, setup)
        return replace(self, game=game, setup={}, revealed_setup={**self.revealed_setup, **setup}), tuple(events)

    def _end(self, ending: Ending, entry: Entry, seat: str) -> tuple[MatchState, tuple[Any, ...]]:
        game, happened = self.rules.end(self.game, ending)
        events = tuple(happened)
        played = Played(self.version + 1, seat, entry.user_id, None, events, ending.kind, ending.side)
        proposal = self.proposal if self.rules.outcome(game) is None else None
        state = replace(self, game=game, played=self.played.appended(played), undo_point=None, proposal=proposal)
        return state, events

    def _resign(self, entry: Entry) -> tuple[MatchState, tuple[Any, ...]]:
        user = _user(entry)
        mine = [s for s in self.seats_in_play() if self.seats.get(s) == user]
        if not mine:
            raise NotAllowed(M("you are already out of this game"))
        return self._end(Ending(EndingKind.RESIGNATION, mine[0]), entry, mine[0])

    def _timeout(self, entry: Entry) -> tuple[MatchState, tuple[Any, ...]]:
        seat = self._acting_seat(entry)
        return self._end(Ending(EndingKind.TIMEOUT, seat), entry, seat)

    def _party(self, entry: Entry) -> Party:
        if entry.user_id is not None:
            return entry.user_id
        if entry.seat is None or not self.is_computer(entry.seat):
            raise NotAllowed(M("only a player can do that"))
        return entry.seat

    def _propose(self, entry: Entry, kind: ProposalKind, side: str | None) -> tuple[MatchState, tuple[Any, ...]]:
        party = self._party(entry)
        if self.proposal is not None:
            raise NotAllowed(_pending_text(self, self.proposal))
        if party not in self.parties_in_play():
            raise NotAllowed(M("you are out of this game"))
        proposal = Proposal(kind, entry.user_id, frozenset({party}), self.version + 1, side)
        if kind is ProposalKind.CLAIM:
            # A player who claims the game for the other side concedes by saying so.
            proposal = replace(proposal, agreed=frozenset({party}) & self.answerers(proposal))
        return replace(self, proposal=proposal)._settle(entry)

    def _draw_offer(self, entry: Entry) -> tuple[MatchState, tuple[Any, ...]]:
        return self._propose(entry, ProposalKind.DRAW, None)

    def _declare(self, entry: Entry) -> tuple[MatchState, tuple[Any, ...]]:
        if self.rules.claim is None:
            raise NotAllowed(M("{game} has no claims", game=self.rules.title))
        side = (entry.text or "").strip().lower()
        if side not in {s.slug for s in self.sides}:
            raise ServiceError(M("{text} is not a side: choose {sides}", text=repr(side),
                                 sides=", ".join(s.slug for s in self.sides)))  # fmt: skip
        return self._propose(entry, ProposalKind.CLAIM, side)

    def _answer(self, entry: Entry, kind: ProposalKind, agree: bool) -> tuple[MatchState, tuple[Any, ...]]:
        party = self._party(entry)
        proposal = self.proposal
        if proposal is None or proposal.kind is not kind:
            if kind is ProposalKind.DRAW:
                raise NotAllowed(M("no draw is on offer: offer one first"))
            raise NotAllowed(M("nobody has declared {claim}", claim=self.rules.claim.title if self.rules.claim
                               else "a claim"))  # fmt: skip
        if party not in self.answerers(proposal):
            if kind is ProposalKind.CLAIM:

                others = joined([self.side_title(s.slug) for s in self.sides if s.slug != proposal.side])
                raise NotAllowed(M("only {sides} answer this declaration", sides=others))
            raise NotAllowed(M("you are out of this game"))
        if not agree:
            return replace(self, proposal=None), ()
        if party in proposal.agreed:
            if kind is ProposalKind.DRAW:
                raise NotAllowed(M("you have already agreed to this draw; waiting for the others"))
            raise NotAllowed(M("you have already conceded; waiting for your ally"))
        return replace(self, proposal=replace(proposal, agreed=proposal.agreed | {party}))._settle(entry)

    def _settle(self, entry: Entry) -> tuple[MatchState, tuple[Any, ...]]:
        """End the game once every answerer agreed to the open proposal."""
        proposal = self.proposal
        assert proposal is not None
        if self.waiting_for(proposal):
            return self, ()
        seat = _first(self.seats_of(entry.user_id) if entry.user_id is not None else [entry.seat or ""])
        if proposal.kind is ProposalKind.DRAW:
            return self._end(Ending(EndingKind.AGREEMENT), entry, seat)
        by_seat = _first(self.seats_of(proposal.by)) if proposal.by is not None else seat
        settled = replace(entry, user_id=proposal.by)
        return self._end(Ending(EndingKind.CONCESSION, seat=by_seat or None, side=proposal.side), settled, by_seat)

    def _draw_accept(self, entry: Entry) -> tuple[MatchState, tuple[Any, ...]]:
        return self._answer(entry, ProposalKind.DRAW, True)

    def _draw_decline(self, entry: Entry) -> tuple[MatchState, tuple[Any, ...]]:
        return self._answer(entry, ProposalKind.DRAW, False)

    def _concede(self, entry: Entry) -> tuple[MatchState, tuple[Any, ...]]:
        return self._answer(entry, ProposalKind.CLAIM, True)

    def _challenge(self, entry: Entry) -> tuple[MatchState, tuple[Any, ...]]:
        return self._answer(entry, ProposalKind.CLAIM, False)


def _board_changed(before: MatchState, after: MatchState) -> bool:
    """A setup that revealed the rows, or an off-board ending, changes what a board shows."""
    return after.game is not before.game


def _pending_text(state: MatchState, proposal: Proposal) -> Message:
    if proposal.kind is ProposalKind.DRAW:
        if proposal.by is None:
            return M("the computer already offered a draw: accept or decline it")
        return M("{who} already offered a draw: accept or decline it", who=f"<@{proposal.by}>")
    title = state.rules.claim.title if state.rules.claim else "a claim"
    return M("{claim} was already declared for {side}: it awaits an answer", claim=title,
             side=state.side_title(proposal.side or ""))  # fmt: skip


def _slug(seat: Any) -> str:
    """A seat slug from a slug or an enum member (a game's own seat type), for the first release's callers."""
    name = getattr(seat, "name", seat)
    return str(name).lower()


def _first(seats: list[str]) -> str:
    return seats[0] if seats else ""


def _user(entry: Entry) -> int:
    if entry.user_id is None:
        raise NotAllowed(M("only a player can do that"))
    return entry.user_id


_HANDLERS = {
    EntryKind.ACTION: MatchState._action,
    EntryKind.UNDO: MatchState._undo,
    EntryKind.SETUP: MatchState._setup,
    EntryKind.RESIGN: MatchState._resign,
    EntryKind.TIMEOUT: MatchState._timeout,
    EntryKind.DRAW_OFFER: MatchState._draw_offer,
    EntryKind.DRAW_ACCEPT: MatchState._draw_accept,
    EntryKind.DRAW_DECLINE: MatchState._draw_decline,
    EntryKind.DECLARE: MatchState._declare,
    EntryKind.CONCEDE: MatchState._concede,
    EntryKind.CHALLENGE: MatchState._challenge,
}


def replay(start: MatchState, entries: list[Entry]) -> MatchState:
    """Rebuild a match from its log. A log that does not replay is corrupt: fail loudly."""
    state = start
    for number, entry in enumerate(entries, start=1):
        try:
            state, _ = state.with_entry(entry)
        except ServiceError as error:
            raise RuntimeError(f"log entry {number} ({entry}) does not replay: {error}") from error
    return state
