"""A match's state as the replay of its log: the game, undo stack, draw offers and Nika
declarations. Pure and synchronous; the service validates new entries with the same
code that replays old ones, so the log and the live state cannot disagree."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from bot.errors import IllegalMove, NotAllowed, NotInMatch, NotYourTurn, ServiceError
from engine.errors import IllegalAction
from engine.nika import City, Event, GameRecord, GameState, Outcome, Reason, RecordEntry, Team, parse_action
from engine.nika.record import Ending

CITY_NAMES = tuple(city.name.lower() for city in City)


@dataclass(frozen=True, slots=True)
class Entry:
    """One log entry, as stored."""

    kind: str
    user_id: int | None
    city: str | None = None
    action: str | None = None


@dataclass(frozen=True, slots=True)
class Played:
    """An effective board action (not undone)."""

    seq: int
    city: City
    user_id: int | None
    action: str
    events: tuple[Event, ...]


@dataclass(frozen=True, slots=True)
class DrawOffer:
    by: int
    accepted: frozenset[int]
    seq: int = 0  # the log entry that made the offer: answer buttons name it


@dataclass(frozen=True, slots=True)
class Declaration:
    team: Team
    by: int
    conceded: frozenset[int]
    seq: int = 0  # the log entry that declared: answer buttons name it


@dataclass(frozen=True, slots=True)
class MatchState:
    seats: dict[str, int | None]
    start: str
    game: GameState
    version: int = 0  # log entries so far
    board_version: int = 0  # board actions and undos so far: what a posted board shows
    played: tuple[Played, ...] = ()
    # The state before the current turn's first action: only that action can be undone,
    # since a city's second action ends its turn.
    undo_point: GameState | None = None
    draw_offer: DrawOffer | None = None
    declaration: Declaration | None = None
    ending: Ending | None = field(default=None)

    @classmethod
    def begin(cls, seats: dict[str, int | None], start: str) -> MatchState:
        return cls(dict(seats), start, GameState.from_notation(start))

    # --- who is who -------------------------------------------------------------------
    @property
    def players(self) -> frozenset[int]:
        return frozenset(uid for uid in self.seats.values() if uid is not None)

    def holder(self, city: City) -> int | None:
        return self.seats.get(city.name.lower())

    def cities_of(self, user_id: int) -> list[City]:
        return [city for city in City if self.holder(city) == user_id]

    def team_of(self, user_id: int) -> Team:
        cities = self.cities_of(user_id)
        if not cities:
            raise NotInMatch("you are not playing in this match")
        return cities[0].team

    def team_players(self, team: Team) -> frozenset[int]:
        return frozenset(uid for c in team.cities if (uid := self.holder(c)) is not None)

    def acting_user(self) -> int | None:
        return None if self.game.is_over else self.holder(self.game.to_act)

    def record(self) -> GameRecord:
        entries = [RecordEntry(p.city, p.action, str(p.user_id) if p.user_id else None) for p in self.played]
        return GameRecord(self.start, entries, self.ending)

    # --- applying entries -------------------------------------------------------------
    def with_entry(self, entry: Entry) -> tuple[MatchState, tuple[Event, ...]]:
        """The state after one more log entry, or a ServiceError saying why it is refused."""
        if self.game.is_over:
            raise NotAllowed(f"this match is over: {self.game.outcome.describe()}")  # type: ignore[union-attr]
        if entry.user_id is not None and entry.user_id not in self.players:
            raise NotInMatch("you are not playing in this match")
        handler = _HANDLERS.get(entry.kind)
        if handler is None:
            raise ServiceError(f"unknown log entry {entry.kind!r}")
        state, events = handler(self, entry)
        board = self.board_version + (entry.kind in ("action", "undo"))
        return replace(state, version=self.version + 1, board_version=board), events

    def _action(self, entry: Entry) -> tuple[MatchState, tuple[Event, ...]]:
        city = self.game.to_act
        if entry.user_id is not None and self.holder(city) != entry.user_id:
            holder = self.holder(city)
            raise NotYourTurn(f"it is {city.possessive} turn" + (f" (<@{holder}> plays it)" if holder else ""))
        try:
            action = parse_action(entry.action or "")
            game, events = self.game.apply(action)
        except IllegalAction as error:
            raise IllegalMove(str(error)) from error
        played = Played(self.version + 1, city, entry.user_id, action.notation(), tuple(events))
        undo_point = self.game if game.to_act == city and not game.is_over else None
        return replace(self, game=game, played=(*self.played, played), undo_point=undo_point), played.events

    def _undo(self, entry: Entry) -> tuple[MatchState, tuple[Event, ...]]:
        if not self.played:
            raise NotAllowed("there is no action to undo")
        last = self.played[-1]
        if entry.user_id is not None and last.user_id != entry.user_id:
            raise NotAllowed("you can only undo your own last action")
        if self.undo_point is None:
            raise NotAllowed(f"{last.city.possessive} turn is over, so its actions stand")
        return replace(self, game=self.undo_point, played=self.played[:-1], undo_point=None), ()

    def _end(self, outcome: Outcome, by: int | None) -> MatchState:
        ending = Ending(outcome.reason, outcome.winner, str(by) if by is not None else None)
        return replace(self, game=self.game.conclude(outcome), ending=ending, draw_offer=None, declaration=None)

    def _resign(self, entry: Entry) -> tuple[MatchState, tuple[Event, ...]]:
        team = self.team_of(_user(entry))
        return self._end(Outcome(team.opponent, Reason.RESIGNATION), entry.user_id), ()

    def _draw_offer(self, entry: Entry) -> tuple[MatchState, tuple[Event, ...]]:
        user = _user(entry)
        if self.draw_offer is not None:
            raise NotAllowed(f"<@{self.draw_offer.by}> already offered a draw: accept or decline it")
        return replace(self, draw_offer=DrawOffer(user, frozenset({user}), self.version + 1)), ()

    def _draw_accept(self, entry: Entry) -> tuple[MatchState, tuple[Event, ...]]:
        user = _user(entry)
        if self.draw_offer is None:
            raise NotAllowed("no draw is on offer: offer one first")
        if user in self.draw_offer.accepted:
            raise NotAllowed("you have already agreed to this draw; waiting for the others")
        accepted = self.draw_offer.accepted | {user}
        if accepted >= self.players:
            return self._end(Outcome(None, Reason.AGREEMENT), None), ()
        return replace(self, draw_offer=replace(self.draw_offer, accepted=accepted)), ()

    def _draw_decline(self, entry: Entry) -> tuple[MatchState, tuple[Event, ...]]:
        _user(entry)
        if self.draw_offer is None:
            raise NotAllowed("no draw is on offer")
        return replace(self, draw_offer=None), ()

    def _declare(self, entry: Entry) -> tuple[MatchState, tuple[Event, ...]]:
        user = _user(entry)
        if self.declaration is not None:
            raise NotAllowed(f"Nika was already declared for {self.declaration.team.title}: it awaits an answer")
        team = Team.from_slug(entry.action or "")
        # A player who declares Nika for the other team has conceded by saying so.
        conceded = frozenset({user}) & self.team_players(team.opponent)
        declaration = Declaration(team, user, conceded, self.version + 1)
        state = replace(self, declaration=declaration)
        if conceded >= self.team_players(team.opponent):
            return state._end(Outcome(team, Reason.CONCESSION), user), ()
        return state, ()

    def _answer_declaration(self, entry: Entry) -> Declaration:
        user = _user(entry)
        if self.declaration is None:
            raise NotAllowed("nobody has declared Nika")
        if user not in self.team_players(self.declaration.team.opponent):
            raise NotAllowed(f"only {self.declaration.team.opponent.title} answer this declaration")
        if user in self.declaration.conceded:
            raise NotAllowed("you have already conceded; waiting for your ally")
        return self.declaration

    def _concede(self, entry: Entry) -> tuple[MatchState, tuple[Event, ...]]:
        declaration = self._answer_declaration(entry)
        conceded = declaration.conceded | {_user(entry)}
        if conceded >= self.team_players(declaration.team.opponent):
            return self._end(Outcome(declaration.team, Reason.CONCESSION), declaration.by), ()
        return replace(self, declaration=replace(declaration, conceded=conceded)), ()

    def _challenge(self, entry: Entry) -> tuple[MatchState, tuple[Event, ...]]:
        self._answer_declaration(entry)
        return replace(self, declaration=None), ()


def _user(entry: Entry) -> int:
    if entry.user_id is None:
        raise NotAllowed("only a player can do that")
    return entry.user_id


_HANDLERS = {
    "action": MatchState._action,
    "undo": MatchState._undo,
    "resign": MatchState._resign,
    "draw_offer": MatchState._draw_offer,
    "draw_accept": MatchState._draw_accept,
    "draw_decline": MatchState._draw_decline,
    "declare": MatchState._declare,
    "concede": MatchState._concede,
    "challenge": MatchState._challenge,
}


def replay(seats: dict[str, int | None], start: str, entries: list[Entry]) -> MatchState:
    """Rebuild a match from its log. A log that does not replay is corrupt: fail loudly."""
    state = MatchState.begin(seats, start)
    for number, entry in enumerate(entries, start=1):
        try:
            state, _ = state.with_entry(entry)
        except ServiceError as error:
            raise RuntimeError(f"log entry {number} ({entry}) does not replay: {error}") from error
    return state
