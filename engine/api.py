"""The interface every hosted game implements, and its small value types.

The host (bot, console, renderer registry, search, command line) asks a game the
same few questions and never looks inside its states, actions or events:

    game.new(players, options, seed) -> state          chance resolved here
    game.to_act(state) -> seat | None                  None while setting up or when over
    game.legal_actions(state) -> [action]              typed actions with .notation()
    game.apply(state, action) -> (state, [event])      or IllegalAction with a reason
    game.outcome(state) -> Outcome | None
    game.end(state, Ending) -> (state, [event])        resignation, time-out, agreement, claims

A game's state is its own immutable value, of the game's own type: the functions
live on the game object, OpenSpiel-style, so every game keeps its native types
and the host stays generic. Notation is parsed into typed values at the edge,
as python-chess does.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, Generic, Protocol, TypeVar

from engine.errors import IllegalAction, NotationError
from engine.i18n import M, Term, Text, choices_shown, chosen


class ActionLike(Protocol):
    """A typed action; its notation is canonical and parses back to an equal action."""

    def notation(self) -> str: ...


class EventLike(Protocol):
    """What an action did; `to_dict` is its JSON form for the command line and tools."""

    def to_dict(self) -> dict[str, Any]: ...


@dataclass(frozen=True, slots=True)
class Seat:
    """One place at the table. `slug` is what notation, records and storage use."""

    slug: str  # "north", "x": letters, digits and dashes
    title: str  # "North", "X": English; players read it through the catalogue
    side: str  # the slug of the side it plays for (a team); its own slug in free-for-all


@dataclass(frozen=True, slots=True)
class Side:
    """Seats that win or lose together (a team; a single seat in a game without teams)."""

    slug: str
    title: str
    seats: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Choice:
    value: str
    label: str


@dataclass(frozen=True, slots=True)
class MatchOption:
    """An option of a match, chosen when it is created (a target score, who moves first).
    Not to be confused with a slash command's option (`bot.commands.spec.CommandOption`)."""

    name: str
    description: str
    choices: tuple[Choice, ...]
    default: str
    # Any whole number in this range is accepted too: the choices are then only the ones offered
    # (a game may narrow the range by the player count, `Game.check_options`).
    numbers: tuple[int, int] | None = None

    def parse(self, text: str) -> str:
        found = chosen([c.value for c in self.choices], text, [c.label for c in self.choices])
        if found is not None:
            return found
        allowed = choices_shown(c.value for c in self.choices)
        if self.numbers is not None:
            low, high = self.numbers
            typed = text.strip()
            if typed.isascii() and typed.isdigit() and len(typed) <= 6 and low <= int(typed) <= high:
                return str(int(typed))
            raise NotationError(M("{option} is a whole number from {low} to {high}, e.g. {allowed}",
                                  option=Term(self.name, "option"), low=low, high=high, allowed=allowed))  # fmt: skip
        raise NotationError(M("{option} is one of {allowed}", option=Term(self.name, "option"), allowed=allowed))


@dataclass(frozen=True, slots=True)
class Step:
    """One choice on the way to an action in a menu: `move` → `j6` → `w`.

    `order` sorts the choices offered at one step (lower first; ties keep the order of
    the legal actions), e.g. a game offering its largest groups of pieces first.
    """

    value: str  # what the choice is called in custom ids and command options; no ':' or spaces
    label: str  # what a menu shows
    order: int = 0


class UndoScope(Enum):
    """How far back the player who acted may take an action back (one action at most)."""

    TURN = "turn"  # only while their turn lasts: the action that ends a turn stands (turns of several actions)
    UNTIL_NEXT_ACTION = "until-next-action"  # until the next seat acts (one-action turns)


class EndingKind(Enum):
    RESIGNATION = "resignation"  # `seat` gives up (its side, in team games)
    TIMEOUT = "timeout"  # `seat` ran out of time on its turn
    AGREEMENT = "agreement"  # every player still in the game agreed to a draw
    CONCESSION = "concession"  # the opponents conceded the claim made for `side`


@dataclass(frozen=True, slots=True)
class Ending:
    """Something decided away from the board, for `Game.end`."""

    kind: EndingKind
    seat: str | None = None
    side: str | None = None


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended. Exactly one of `winners` and `drawn` is non-empty.

    `drawn` names the seats that share a draw: all seats still in the game for a full
    draw, or some of them (a tie on points); seats in neither set lost.

    Build one with `Outcome.win(seats, …)` or `Outcome.draw(seats, …)`, which take one seat
    slug or several. Both sets hold whole seat slugs: a bare string is refused, since
    `frozenset("north")` would be the letters n, o, r, t and h. The host also refuses an outcome that
    names a seat the game does not have (`check_outcome`).
    """

    winners: frozenset[str]
    drawn: frozenset[str]
    reason: str  # "victory", "repetition", "agreement", "resignation", "timeout", …
    summary: Text  # one line for players: "South reached the far row"
    scores: tuple[tuple[str, int], ...] = ()  # (seat, points) in seat order, where the game scores

    def __post_init__(self) -> None:
        for name in ("winners", "drawn"):
            seats: Any = getattr(self, name)
            if isinstance(seats, str) or not all(isinstance(seat, str) for seat in seats):
                raise TypeError(f"an outcome's {name} is a set of seat slugs, not {seats!r}: use Outcome.win(seat, …)")
            object.__setattr__(self, name, frozenset(seats))
        if bool(self.winners) == bool(self.drawn):
            raise ValueError("an outcome has winners or drawn seats, not both and not neither")

    @classmethod
    def win(
        cls, seats: str | Iterable[str], reason: str, summary: Text, scores: tuple[tuple[str, int], ...] = ()
    ) -> Outcome:
        """`seats` (one slug, or the slugs of a winning side) won."""
        return cls(_seat_set(seats), frozenset(), reason, summary, scores)

    @classmethod
    def draw(
        cls, seats: str | Iterable[str], reason: str, summary: Text, scores: tuple[tuple[str, int], ...] = ()
    ) -> Outcome:
        """`seats` share a draw (every seat still in the game, or the tied ones)."""
        return cls(frozenset(), _seat_set(seats), reason, summary, scores)

    def score_of(self, seat: str) -> float:
        """1 for a win, ½ for a share of a draw, 0 for a loss: what ratings count."""
        return 1.0 if seat in self.winners else 0.5 if seat in self.drawn else 0.0


def _seat_set(seats: str | Iterable[str]) -> frozenset[str]:
    return frozenset((seats,)) if isinstance(seats, str) else frozenset(seats)


@dataclass(frozen=True, slots=True)
class ClaimSpec:
    """A claim a player may make for a side, which the other sides concede or challenge
    (a declaration that a side's victory is certain). Draw offers use the same host mechanism."""

    verb: str  # the command: "declare"
    concede_verb: str  # "concede"
    challenge_verb: str  # "challenge"
    title: str  # what the claim is called, e.g. "Checkmate"
    option: str = "side"  # what the command's option is called ("team", "side")


S = TypeVar("S")  # the game's state
A = TypeVar("A", bound=ActionLike)  # its actions
E = TypeVar("E", bound=EventLike)  # its events


class Game(ABC, Generic[S, A, E]):
    """A hosted game over its own states `S`, actions `A` and events `E` (a game of marks on a
    grid might be a `Game[Board, Mark, Marked]`). Subclasses set the class attributes and implement the
    abstract methods; the rest have defaults for games without setup, claims or scores.

    The host holds states, actions and events it cannot type (`AnyGame`): it only passes
    back to a game what that game gave it."""

    slug: str
    title: str
    player_counts: tuple[int, ...]
    options: tuple[MatchOption, ...] = ()
    actions_per_turn: int = 1
    undo_scope: UndoScope = UndoScope.UNTIL_NEXT_ACTION
    claim: ClaimSpec | None = None
    # How players name a seat in commands ("city", "side", "seat").
    seat_word: str = "seat"
    # Whether games may begin with setup choices (a secret arrangement of pieces): the host then offers them.
    has_setup: bool = False

    # --- the table ------------------------------------------------------------------
    @abstractmethod
    def seats(self, players: int) -> tuple[Seat, ...]:
        """The seats, in turn order, of a game for this many players."""

    def sides(self, players: int) -> tuple[Side, ...]:
        return sides_of(self.seats(players))

    def seat_sets_differ(self) -> bool:
        """True when the player count decides the seats (2 or 4 colours), so `new` asks for it."""
        return len({self.seats(n) for n in self.player_counts}) > 1

    def check_options(self, players: int, options: Mapping[str, str]) -> None:
        """Refuse (NotationError) parsed options that this many players cannot have; by default all may."""

    def option_defaults(self, given: Mapping[str, str] | None = None) -> dict[str, str]:
        """Every option, with `given` values checked and the rest at their defaults."""
        given = dict(given or {})
        unknown = set(given) - {o.name for o in self.options}
        if unknown:
            raise NotationError(M("{game} has no option {option}", game=self.title, option=repr(sorted(unknown)[0])))
        return {o.name: o.parse(given[o.name]) if o.name in given else o.default for o in self.options}

    # --- states -------------------------------------------------------------------------
    @abstractmethod
    def new(self, players: int, options: Mapping[str, str], seed: int) -> S:
        """A new game. Chance (a tile deal) is resolved here from `seed` and written into the
        state, so its notation and every record made from it are self-contained."""

    @abstractmethod
    def load(self, position: str) -> S:
        """A state from position notation; NotationError says what is wrong."""

    @abstractmethod
    def notation(self, state: S) -> str: ...

    def snapshot(self, state: S) -> str | None:
        """The whole state as text, with the history its rules count (repetitions), so that
        `restore` gives a state that plays on exactly alike; None if the game keeps none (the
        host then rebuilds a match by replaying its log from the start). Not for players."""
        return None

    def restore(self, text: str) -> S:
        """The state a `snapshot` was taken of; NotationError if the text is not one (a
        snapshot written by an incompatible version: the host replays the log instead)."""
        raise NotationError(f"{self.title} keeps no snapshots")  # for the host's logs, not players

    def archiving(self, state: S) -> S:
        """`state` (a game's first) on a line whose old repetition keys leave memory: the host
        then stores `newest_key` after every action and answers `engine.archive.ArchiveLookup`
        (raised by `apply`) from them. Games that keep few keys return `state`."""
        return state

    def newest_key(self, state: S) -> tuple[int, int] | None:
        """(ply, repetition key) of `state`'s position on an archiving line, else None."""
        return None

    def new_keys(self, before: S, after: S) -> tuple[tuple[int, int], ...]:
        """(ply, repetition key) of every position `after` reached since `before` (an action, or
        a step of several, such as a timeout's passes), for the host to store; () unless `after`
        is on an archiving line."""
        return ()

    def share_answers(self, state: S, memo: dict[tuple[int, int], int]) -> None:
        """Let `state`'s archive keep the host's answers in `memo` (one per match), so that a
        state rebuilt after an ArchiveLookup finds the answer (engine/archive.py)."""

    def detached(self, state: S) -> S:
        """`state` for searches and what-ifs: it never raises ArchiveLookup (an archived
        position it has no count for counts as absent: an estimate, never a ruling)."""
        return state

    def held_key_bytes(self, state: S) -> int | None:
        """About how many bytes the repetition keys `state` holds in memory take (an archive's
        filter and answers included), for a host's cache budget; None: not known (the host then
        assumes 8 bytes per action played)."""
        return None

    @abstractmethod
    def state_seats(self, state: S) -> tuple[str, ...]:
        """The seat slugs of this state's game, in turn order."""

    def seats_in_play(self, state: S) -> tuple[str, ...]:
        """Seats still in the game (in a free-for-all a seat that resigned is out)."""
        return self.state_seats(state)

    @abstractmethod
    def to_act(self, state: S) -> str | None:
        """The seat to act; None during setup and once the game is over."""

    def actions_left(self, state: S) -> int:
        """Actions the seat to act has left in its turn (2 or 1 in a game of two actions a turn; else 1)."""
        return 1

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None: ...

    @abstractmethod
    def legal_actions(self, state: S) -> Sequence[A]:
        """Every legal action once, in canonical form; none when the game is over."""

    @abstractmethod
    def apply(self, state: S, action: A) -> tuple[S, Sequence[E]]:
        """The state after the seat to act plays `action`, with its events, or IllegalAction.
        The host passes only actions this game parsed, but a game checks them anyway."""

    @abstractmethod
    def parse_action(self, text: str) -> A:
        """Tolerant parsing of action notation into a typed action; NotationError otherwise."""

    def canonical(self, state: S, action: A) -> A:
        """The action as the legal-action list writes it in this state, for games whose canonical
        notation depends on the position (an `x` marking a capture, a turn to the facing a
        piece already has left out). The host stores this form. Returns
        `action` itself when it is not legal here: `apply` then says why."""
        return action

    @abstractmethod
    def end(self, state: S, ending: Ending) -> tuple[S, Sequence[E]]:
        """Apply an ending decided off the board. What it means is the game's: an expired turn
        may be passed, or lose the game, or take one seat out of a free-for-all. IllegalAction if
        the game does not allow it (e.g. a claim in a game without claims)."""

    # --- words and menus ----------------------------------------------------------------
    @abstractmethod
    def describe(self, events: Sequence[E]) -> str:
        """One line for the channel: "X marked b2"."""

    @abstractmethod
    def action_path(self, action: A) -> tuple[Step, ...]:
        """The action as a short sequence of menu choices; every legal action's path is
        distinct, and no path is a prefix of another."""

    def score(self, state: S) -> tuple[tuple[str, int], ...]:
        """Points per seat where the game keeps score; empty otherwise."""
        return ()

    # --- records of an older format ------------------------------------------------------
    # Formats of records this game wrote before the shared `game-record` format ("format"
    # values); `upgrade_record` turns one into the shared format's JSON object, which the
    # host then reads and checks like any record.
    record_formats: tuple[str, ...] = ()

    def upgrade_record(self, data: Mapping[str, Any]) -> dict[str, Any]:
        """A record in one of `record_formats`, as a `game-record` object; NotationError if it
        is not one this game can read."""
        raise NotationError(M("this is not a game record"))

    # --- setup before the first move ------------------------------------------------
    def setup_pending(self, state: S) -> tuple[str, ...]:
        """Seats that still owe a setup choice; empty once play has begun."""
        return ()

    def setup_secret(self) -> bool:
        """True when setup choices stay hidden from the other players until all are made."""
        return False

    def setup_choices(self, state: S, seat: str) -> Sequence[Choice]:
        """The legal setup choices of `seat` (for menus)."""
        return ()

    def parse_setup(self, state: S, seat: str, text: str) -> str:
        """A setup choice in canonical form, or NotationError."""
        raise IllegalAction(M("{game} has no setup step", game=self.title))

    def apply_setup(self, state: S, choices: Mapping[str, str]) -> tuple[S, Sequence[E]]:
        """Every seat's setup choice at once (so none is ever visible before the others): the
        state in which play begins."""
        raise IllegalAction(M("{game} has no setup step", game=self.title))


AnyGame = Game[Any, Any, Any]  # a game whose types the holder does not know: the host's view


def check_outcome(game: AnyGame, state: Any, outcome: Outcome | None) -> Outcome | None:
    """`outcome`, if it names only seats of `state`'s game; ValueError otherwise (a game that
    built its winners from the letters of a seat's name, say)."""
    if outcome is not None:
        unknown = (outcome.winners | outcome.drawn) - set(game.state_seats(state))
        if unknown:
            raise ValueError(f"{game.slug}'s outcome names seats it does not have: {sorted(unknown)}")
    return outcome


def sides_of(seats: Sequence[Seat]) -> tuple[Side, ...]:
    """The sides of a table, in the order their first seat comes."""
    found: dict[str, list[Seat]] = {}
    for seat in seats:
        found.setdefault(seat.side, []).append(seat)
    return tuple(
        Side(slug, " and ".join(s.title for s in members) if len(members) > 1 else members[0].title,
             tuple(s.slug for s in members))
        for slug, members in found.items()
    )  # fmt: skip


def seat_table(game: AnyGame, seats: Sequence[str]) -> tuple[Seat, ...]:
    """The Seat values of a state's seat slugs (its table for some player count)."""
    for players in game.player_counts:
        table = game.seats(players)
        if tuple(s.slug for s in table) == tuple(seats):
            return table
    raise KeyError(f"{game.slug} has no table with the seats {list(seats)}")


def result_text(game: AnyGame, outcome: Outcome, seats: Sequence[str]) -> str:
    """The result as the command line and storage write it: the winning side's slug (a seat
    in free-for-all), `draw`, or `draw:<seat>,<seat>` for a draw between some seats only."""
    if outcome.winners:
        for side in sides_of(seat_table(game, seats)):
            if frozenset(side.seats) == outcome.winners:
                return side.slug
        return ",".join(s for s in seats if s in outcome.winners)
    if set(outcome.drawn) >= set(seats):
        return "draw"
    return "draw:" + ",".join(s for s in seats if s in outcome.drawn)
