"""Choosing shards: NIKA_SHARD_COUNT with NIKA_SHARDS (a range or a list), and which process
syncs the commands."""

from __future__ import annotations

import pytest

from bot.client import BoardGameBot, ShardedBot, make_bot
from bot.config import Settings

PG = "postgresql://bot@127.0.0.1/nika"


def settings(**values: str) -> Settings:
    return Settings.load(environ={"NIKA_DATABASE": PG, **values}, env_file=None)


def test_one_process_without_shards_syncs() -> None:
    plain = settings(NIKA_DATABASE="./nika.db")
    assert (plain.shard_count, plain.shard_ids, plain.syncs_commands) == (None, None, True)
    assert type(make_bot(plain)) is BoardGameBot


def test_a_range_or_a_list_of_shards() -> None:
    assert settings(NIKA_SHARD_COUNT="8", NIKA_SHARDS="0-3").shard_ids == (0, 1, 2, 3)
    assert settings(NIKA_SHARD_COUNT="8", NIKA_SHARDS="4,5").shard_ids == (4, 5)
    assert settings(NIKA_SHARD_COUNT="8", NIKA_SHARDS="6-7,5").shard_ids == (5, 6, 7)
    assert settings(NIKA_SHARD_COUNT="2").shard_ids == (0, 1)  # every shard in this one process
    assert settings(NIKA_SHARD_COUNT="2", NIKA_DATABASE="./nika.db").shard_ids == (0, 1)  # SQLite: one process


def test_only_the_process_holding_shard_0_syncs_commands() -> None:
    assert settings(NIKA_SHARD_COUNT="4", NIKA_SHARDS="0,1").syncs_commands
    assert not settings(NIKA_SHARD_COUNT="4", NIKA_SHARDS="2-3").syncs_commands
    bot = make_bot(settings(NIKA_SHARD_COUNT="4", NIKA_SHARDS="2-3", DISCORD_TOKEN="t"))
    assert isinstance(bot, ShardedBot) and bot.shard_count == 4 and bot.shard_ids == [2, 3]


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"NIKA_SHARDS": "0"}, "needs NIKA_SHARD_COUNT"),
        ({"NIKA_SHARD_COUNT": "2", "NIKA_SHARDS": "2"}, "distinct shards from 0 to 1"),
        ({"NIKA_SHARD_COUNT": "2", "NIKA_SHARDS": "0,0"}, "distinct shards"),
        ({"NIKA_SHARD_COUNT": "2", "NIKA_SHARDS": "one"}, "like 0-3 or 4,5"),
        ({"NIKA_SHARD_COUNT": "²"}, "whole number"),
        # Several processes on one SQLite file would fight over its lock: PostgreSQL is needed.
        ({"NIKA_SHARD_COUNT": "2", "NIKA_SHARDS": "1", "NIKA_DATABASE": "./nika.db"}, "share a PostgreSQL database"),
    ],
)
def test_bad_shard_settings_are_refused(values: dict[str, str], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        settings(**values)
