"""The game record: start position, the actions with who played them, and any ending
decided away from the board. Replaying it reproduces every intermediate position."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.errors import NotationError
from engine.i18n import M
from engine.nika.actions import parse_action
from engine.nika.board import City, Team
from engine.nika.events import Event
from engine.nika.state import GameState, Outcome, Reason

FORMAT = "nika-record"
FORMAT_VERSION = 1


@dataclass(frozen=True, slots=True)
class RecordEntry:
    city: City
    action: str  # canonical notation
    player: str | None = None


@dataclass(frozen=True, slots=True)
class Ending:
    """An outcome from outside the board: agreement, concession or resignation."""

    reason: Reason
    winner: Team | None
    by: str | None = None


@dataclass(slots=True)
class GameRecord:
    start: str
    entries: list[RecordEntry] = field(default_factory=list)
    ending: Ending | None = None

    def replay(self) -> list[tuple[GameState, list[Event]]]:
        """Every state from the start, each with the events that led to it."""
        state = GameState.from_notation(self.start)
        states: list[tuple[GameState, list[Event]]] = [(state, [])]
        for number, entry in enumerate(self.entries, start=1):
            if entry.city != state.to_act:
                raise NotationError(
                    M("action {number} is by {city}, but {to_act} was to act", number=number, city=entry.city.term,
                      to_act=state.to_act.term)
                )  # fmt: skip
            state, events = state.apply(parse_action(entry.action))
            states.append((state, events))
        if self.ending is not None:
            final = state.conclude(Outcome(self.ending.winner, self.ending.reason))
            states[-1] = (final, states[-1][1])
        return states

    def final_state(self) -> GameState:
        return self.replay()[-1][0]

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "start": self.start,
            "actions": [
                {"city": e.city.name.lower(), "action": e.action, **({"player": e.player} if e.player else {})}
                for e in self.entries
            ],
        }
        if self.ending is not None:
            data["ending"] = {
                "reason": self.ending.reason.value,
                # Team.ATHENS_MESSENE is 0, so test for None, never for truth.
                "result": self.ending.winner.slug if self.ending.winner is not None else "draw",
                **({"by": self.ending.by} if self.ending.by else {}),
            }
        return data

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=1, ensure_ascii=False)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameRecord:
        if data.get("format") != FORMAT:
            raise NotationError(M("this is not a Nika game record"))
        if data.get("version") != FORMAT_VERSION:
            raise NotationError(
                M("record format version {version} is not supported (need {needed})", version=data.get("version"),
                  needed=FORMAT_VERSION)
            )  # fmt: skip
        try:
            entries = [
                RecordEntry(City[item["city"].upper()], parse_action(item["action"]).notation(), item.get("player"))
                for item in data["actions"]
            ]
            ending = None
            if "ending" in data:
                raw = data["ending"]
                winner = None if raw["result"] == "draw" else Team.from_slug(raw["result"])
                ending = Ending(Reason(raw["reason"]), winner, raw.get("by"))
            return cls(str(data["start"]), entries, ending)
        except (AttributeError, KeyError, TypeError, ValueError) as error:
            if isinstance(error, NotationError):
                raise
            raise NotationError(M("the game record is malformed: {error}", error=str(error))) from error

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise NotationError(M("the game record is not valid JSON: {error}", error=error.msg)) from error
        if not isinstance(data, dict):
            raise NotationError(M("the game record must be a JSON object"))
        return cls.from_dict(data)


def upgraded(data: Mapping[str, Any]) -> dict[str, Any]:
    """A first-release record (cities, actions, and an optional final ending) as a record of the
    shared `game-record` format, which the host then checks like any other record."""
    from engine.record import FORMAT as SHARED_FORMAT
    from engine.record import FORMAT_VERSION as SHARED_VERSION
    from engine.record import required_text, shown

    version = data.get("version")
    if version != FORMAT_VERSION:
        raise NotationError(M("record format version {version} is not supported (need {needed})",
                              version=shown(version), needed=FORMAT_VERSION))  # fmt: skip
    actions = data.get("actions", [])
    if not isinstance(actions, list):
        raise NotationError(M("the record's actions must be a list"))
    entries: list[dict[str, Any]] = []
    for item in actions:
        if not isinstance(item, dict):
            raise NotationError(M("each recorded action must be an object"))
        entry = {"seat": required_text(item, "city").lower(), "action": required_text(item, "action")}
        if isinstance(item.get("player"), str):
            entry["player"] = item["player"]
        entries.append(entry)
    raw = data.get("ending")
    if raw is not None:
        if not isinstance(raw, dict):
            raise NotationError(M("the record's ending must be an object"))
        reason, result = required_text(raw, "reason"), required_text(raw, "result")
        by = {"player": raw["by"]} if isinstance(raw.get("by"), str) else {}
        try:
            team = None if result == "draw" else Team.from_slug(result)
        except ValueError as error:
            raise NotationError(str(error)) from None
        if reason == "agreement" and team is None:
            entries.append({"seat": "", "end": "agreement", **by})
        elif reason == "concession" and team is not None:
            entries.append({"seat": "", "end": "concession", "side": team.slug, **by})
        elif reason == "resignation" and team is not None:
            entries.append({"seat": team.opponent.cities[0].name.lower(), "end": "resignation", **by})
        else:
            raise NotationError(M("the ending {reason} with result {result} is not one a record keeps",
                                  reason=shown(reason), result=shown(result)))  # fmt: skip
    return {"format": SHARED_FORMAT, "version": SHARED_VERSION, "game": "nika", "start": required_text(data, "start"),
            "actions": entries}  # fmt: skip
