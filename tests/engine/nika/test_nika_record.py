"""The game record: start, actions with who played them, endings; JSON with a format version."""

from __future__ import annotations

import json

import pytest
from nika_scenarios import START

from engine.errors import GameOver, NotationError
from engine.nika import City, Ending, GameRecord, GameState, Outcome, Reason, RecordEntry, Team, parse_action

ACTIONS = [
    ("athens", "advance k4,k5", "ana"),
    ("athens", "move j6 w", "ana"),
    ("sparta", "rotate d7 e", "ben"),
    ("sparta", "pass", "ben"),
    ("messene", "move k11 s", None),
]


def recorded(ending: Ending | None = None) -> GameRecord:
    return GameRecord(START, [RecordEntry(City[c.upper()], a, p) for c, a, p in ACTIONS], ending)


def test_replay_reproduces_every_intermediate_position():
    state = GameState.from_notation(START)
    expected = [state.notation()]
    for _, action, _ in ACTIONS:
        state, _ = state.apply(parse_action(action))
        expected.append(state.notation())
    replayed = recorded().replay()
    assert [s.notation() for s, _ in replayed] == expected
    assert replayed[0][1] == []
    assert [e.to_dict()["event"] for e in replayed[1][1]] == ["advanced"]


def test_json_round_trip_keeps_players_and_format_version():
    record = recorded()
    data = json.loads(record.to_json())
    assert data["format"] == "nika-record" and data["version"] == 1
    assert data["actions"][0] == {"city": "athens", "action": "advance k4,k5", "player": "ana"}
    assert data["actions"][4] == {"city": "messene", "action": "move k11 s"}
    assert GameRecord.from_json(record.to_json()) == record


def test_actions_are_stored_in_canonical_notation():
    data = recorded().to_dict()
    data["actions"][2]["action"] = "ROTATE D7 EAST"
    assert GameRecord.from_dict(data).entries[2].action == "rotate d7 e"


@pytest.mark.parametrize(
    "ending",
    [
        Ending(Reason.AGREEMENT, None),
        Ending(Reason.CONCESSION, Team.ATHENS_MESSENE, by="ben"),
        Ending(Reason.RESIGNATION, Team.SPARTA_THEBES, by="ana"),
    ],
)
def test_an_ending_decided_off_the_board_is_recorded_and_replayed(ending):
    record = recorded(ending)
    again = GameRecord.from_json(record.to_json())
    assert again == record
    final = again.final_state()
    assert final.outcome == Outcome(ending.winner, ending.reason)
    assert final.notation() == recorded().final_state().notation()


def test_a_game_won_on_the_board_replays_to_its_win():
    record = GameRecord("A:k12n S:- M:- T:- A2", [RecordEntry(City.ATHENS, "move k12 n")])
    assert record.final_state().outcome == Outcome(Team.ATHENS_MESSENE, Reason.VICTORY)
    with pytest.raises(GameOver):
        GameRecord(record.start, record.entries, Ending(Reason.AGREEMENT, None)).replay()


def test_an_action_by_the_wrong_city_is_refused():
    record = GameRecord(START, [RecordEntry(City.SPARTA, "pass")])
    with pytest.raises(NotationError, match="action 1 is by Sparta, but Athens was to act"):
        record.replay()


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("not json", "not valid JSON"),
        ("[1, 2]", "must be a JSON object"),
        ('{"format": "chess"}', "not a Nika game record"),
        ('{"format": "nika-record", "version": 99}', "version 99 is not supported"),
        ('{"format": "nika-record", "version": 1, "start": "x"}', "malformed"),
        ('{"format": "nika-record", "version": 1, "start": "x", "actions": [{"city": "rome", "action": "pass"}]}',
         "malformed"),
    ],
)  # fmt: skip
def test_bad_records_get_a_reason(text, reason):
    with pytest.raises(NotationError, match=reason):
        GameRecord.from_json(text)


def test_a_record_with_values_of_the_wrong_type_is_refused_not_crashed() -> None:
    hostile = '{"format": "nika-record", "version": 1, "start": "x", "actions": [{"city": 5, "action": 3}]}'
    with pytest.raises(NotationError, match="malformed"):
        GameRecord.from_json(hostile)


def test_a_first_release_record_loads_through_the_generic_record():
    from engine.record import GameRecord as AnyGameRecord

    first = {
        "format": "nika-record", "version": 1, "start": START,
        "actions": [{"city": "athens", "action": "move j6 w", "player": "11"}, {"city": "athens", "action": "pass"}],
        "ending": {"reason": "resignation", "result": "athens-messene", "by": "22"},
    }  # fmt: skip
    record = AnyGameRecord.from_dict(first)
    assert record.game == "nika" and [e.action for e in record.entries[:2]] == ["move j6 w", "pass"]
    final = record.final_state()
    assert final.outcome.result == "athens-messene" and final.outcome.reason.value == "resignation"
    assert AnyGameRecord.from_json(record.to_json()) == record  # and it is written in today's format
