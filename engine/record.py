"""Game records for every hosted game: which game, its options and seed, the position play
started from, any setup choices, and every action or off-board ending with who made it.
Replaying a record reproduces every intermediate state.

Records come from players (an uploaded file, a pasted text), so their shape is checked
before anything walks them: size, nesting, types and lengths.

Records a game wrote in a format of its own before this one still load: the game lists
such formats (`Game.record_formats`) and turns one into this format (`Game.upgrade_record`).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.api import AnyGame, Ending, EndingKind, EventLike
from engine.errors import IllegalAction, NotationError
from engine.i18n import M
from engine.registry import games, get_game

FORMAT = "game-record"
FORMAT_VERSION = 2
RECORD_BYTES_MAX = 2_000_000
ENTRIES_MAX = 20_000
TEXT_MAX = 2_000  # one position, action, seat or player field
DEPTH_MAX = 6  # the deepest a record nests: record → actions → entry → value
NUMBER_DIGITS_MAX = 19  # a seed or a count; 2**63 has 19 digits


@dataclass(frozen=True, slots=True)
class RecordEntry:
    """One step of the game: an action by `seat`, or an ending decided off the board."""

    seat: str
    action: str | None = None  # canonical notation; None for an ending
    ending: EndingKind | None = None
    side: str | None = None  # for a conceded claim: the side it was made for
    player: str | None = None  # who did it (a user id, a name), for people reading the record

    def as_ending(self) -> Ending:
        assert self.ending is not None
        return Ending(self.ending, self.seat or None, self.side)


@dataclass(slots=True)
class GameRecord:
    game: str
    start: str
    entries: list[RecordEntry] = field(default_factory=list)
    players: int | None = None
    options: dict[str, str] = field(default_factory=dict)
    seed: int | None = None
    setup: dict[str, str] = field(default_factory=dict)

    @property
    def rules(self) -> AnyGame:
        return get_game(self.game)

    def steps(self) -> Iterator[tuple[Any, Sequence[EventLike]]]:
        """The state where play starts (after any setup), then the state after each entry,
        each with the events that led to it. Raises NotationError if an entry does not apply."""
        game = self.rules
        state = game.load(self.start)
        events: Sequence[EventLike] = ()
        if self.setup:
            state, events = game.apply_setup(state, self.setup)
        yield state, events
        for number, entry in enumerate(self.entries, start=1):
            try:
                if entry.ending is not None:
                    state, events = game.end(state, entry.as_ending())
                else:
                    seat = game.to_act(state)
                    if entry.seat != seat:
                        raise NotationError(M("it was {seat:poss} turn, not {other:poss}", seat=seat, other=entry.seat))
                    state, events = game.apply(state, game.parse_action(entry.action or ""))
            except IllegalAction as error:
                raise NotationError(
                    M(
                        "entry {number} of the record does not apply: {reason}",
                        number=number,
                        reason=error.args[0] if error.args else "",
                    )
                ) from None
            yield state, events

    def replay(self) -> list[tuple[Any, Sequence[EventLike]]]:
        return list(self.steps())

    def final_state(self) -> Any:
        *_, (state, _) = self.steps()
        return state

    # --- JSON -------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"format": FORMAT, "version": FORMAT_VERSION, "game": self.game}
        if self.players is not None:
            data["players"] = self.players
        if self.options:
            data["options"] = dict(self.options)
        if self.seed is not None:
            data["seed"] = self.seed
        data["start"] = self.start
        if self.setup:
            data["setup"] = dict(self.setup)
        data["actions"] = [_entry_dict(entry) for entry in self.entries]
        return data

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=1, ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        if len(text) > RECORD_BYTES_MAX:
            raise NotationError(M("that game record is too large"))
        try:
            # Numbers are read by hooks that refuse what no record holds, before int() or
            # float() sees them: int() of 5,000 digits raises ValueError, and NaN is no count.
            data = json.loads(text, parse_int=_whole_number, parse_float=_no_fraction, parse_constant=_no_constant)
        except json.JSONDecodeError as error:
            raise NotationError(M("the game record is not valid JSON: {reason}", reason=error.msg)) from None
        except RecursionError:
            raise NotationError(M("the game record is nested far too deeply")) from None
        return cls.from_dict(data)

    @classmethod
    def from_dict(cls, data: Any) -> GameRecord:
        _check_shape(data)
        if not isinstance(data, dict):
            raise NotationError(M("a game record is a JSON object"))
        kind = data.get("format")
        older = _game_reading(kind)
        if older is not None:
            data = older.upgrade_record(data)
            _check_shape(data)
            kind = data.get("format")
        if kind != FORMAT:
            raise NotationError(M("this is not a game record"))
        version = data.get("version")
        if version != FORMAT_VERSION:
            raise NotationError(
                M(
                    "record format version {version} is not supported (need {needed})",
                    version=shown(version),
                    needed=FORMAT_VERSION,
                )
            )
        slug = required_text(data, "game")
        try:
            game = get_game(slug)
        except KeyError:
            raise NotationError(M("this record is of a game I do not host ({game})", game=shown(slug))) from None
        players = data.get("players")
        if players is not None and type(players) is not int:
            raise NotationError(M("the record's players must be a whole number"))
        if players is not None and players not in game.player_counts:
            raise NotationError(M("{game} is not played by {count} players", game=game.title, count=shown(players)))
        seed = data.get("seed")
        if seed is not None and (type(seed) is not int or not 0 <= seed < 2**63):
            raise NotationError(M("the record's seed is not a whole number"))
        options = _strings(data.get("options", {}), "options")
        setup = _strings(data.get("setup", {}), "setup")
        actions = data.get("actions", [])
        if not isinstance(actions, list):
            raise NotationError(M("the record's actions must be a list"))
        entries = [_entry_from(item, game) for item in actions]
        return cls(slug, required_text(data, "start"), entries, players, options, seed, setup)


def _game_reading(kind: Any) -> AnyGame | None:
    """The game that wrote records of format `kind` before the shared format, if any."""
    if not isinstance(kind, str) or kind == FORMAT:
        return None
    return next((game for game in games() if kind in game.record_formats), None)


def _entry_dict(entry: RecordEntry) -> dict[str, Any]:
    item: dict[str, Any] = {"seat": entry.seat}
    if entry.ending is not None:
        item["end"] = entry.ending.value
        if entry.side is not None:
            item["side"] = entry.side
    else:
        item["action"] = entry.action
    if entry.player:
        item["player"] = entry.player
    return item


def _entry_from(item: Any, game: AnyGame) -> RecordEntry:
    if not isinstance(item, dict):
        raise NotationError(M("each recorded action must be an object"))
    seat = required_text(item, "seat")
    player = item.get("player")
    if player is not None and (not isinstance(player, str) or len(player) > TEXT_MAX):
        raise NotationError(M("a recorded player must be a short text"))
    if "end" in item:
        try:
            kind = EndingKind(item["end"])
        except (ValueError, TypeError):
            raise NotationError(M("{value} is not an ending", value=shown(item["end"]))) from None
        side = item.get("side")
        if side is not None and not isinstance(side, str):
            raise NotationError(M("a recorded side must be a text"))
        return RecordEntry(seat, ending=kind, side=side, player=player)
    action = game.parse_action(required_text(item, "action")).notation()
    return RecordEntry(seat, action, player=player)


def required_text(data: Mapping[str, Any], key: str) -> str:
    """A text field of a record, or NotationError saying what is wrong (for upgraders too)."""
    value = data.get(key)
    if not isinstance(value, str):
        raise NotationError(M("the game record needs {key} as a text", key=repr(key)))
    if len(value) > TEXT_MAX:
        raise NotationError(M("the record's {key} is too long", key=repr(key)))
    return value


def _strings(value: Any, what: str) -> dict[str, str]:
    if not isinstance(value, dict) or not all(
        isinstance(k, str) and isinstance(v, str) and len(k) <= TEXT_MAX and len(v) <= TEXT_MAX
        for k, v in value.items()
    ):
        raise NotationError(M("the record's {what} must map names to texts", what=what))
    return dict(value)


def shown(value: Any) -> str:
    """A value from a record, safe to put in a message (a huge number is not printed)."""
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, int):
        return str(value) if abs(value) < 10**12 else "(a huge number)"
    if isinstance(value, str):
        return repr(value if len(value) <= 40 else value[:39] + "…")
    return f"(a {type(value).__name__})"


def _whole_number(text: str) -> int:
    if len(text.lstrip("-")) > NUMBER_DIGITS_MAX:
        raise NotationError(M("the game record holds a number far too large for a game"))
    return int(text)


def _no_fraction(text: str) -> float:
    if len(text) > NUMBER_DIGITS_MAX * 2:
        raise NotationError(M("the game record holds a number far too long for a game"))
    return float(text)


def _no_constant(text: str) -> float:
    raise NotationError(M("the game record holds {value}, which is not a number a game uses", value=text))


def _check_shape(data: Any) -> None:
    """Refuse records deeper than any real one, or with more entries, before walking them."""
    stack: list[tuple[Any, int]] = [(data, 1)]
    seen = 0
    while stack:
        value, depth = stack.pop()
        if depth > DEPTH_MAX:
            raise NotationError(M("the game record is nested too deeply"))
        seen += 1
        if seen > ENTRIES_MAX * 8:
            raise NotationError(M("the game record has too many entries"))
        if isinstance(value, dict):
            stack.extend((v, depth + 1) for v in value.values())
        elif isinstance(value, list):
            if len(value) > ENTRIES_MAX:
                raise NotationError(M("the game record has more than {count} entries", count=ENTRIES_MAX))
            stack.extend((v, depth + 1) for v in value)
