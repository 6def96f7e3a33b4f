"""Settings from the environment, or a `.env` file beside the working directory.

The environment wins over `.env`. The token is never part of any repr or log line.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


def read_env_file(path: Path) -> dict[str, str]:
    """KEY=VALUE lines; blank lines and # comments are skipped, quotes are stripped."""
    values: dict[str, str] = {}
    if not path.is_file():
        return values
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.partition("=")
        key = key.strip().removeprefix("export ").strip()
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        values[key] = value
    return values


@dataclass(frozen=True)
class Settings:
    token: str | None = field(default=None, repr=False)
    database: str = "./nika.db"
    dev_guild: int | None = None
    log_level: str = "INFO"
    api_base: str | None = None  # only for tests: a Discord API double on 127.0.0.1
    boards_dir: str = "./boards"
    computer_workers: int = 1  # processes searching for computer seats (a core each while thinking)
    lobby_days: float = 7.0  # a lobby nobody starts expires after this long
    lobbies_per_member: int = 3  # open lobbies one member may hold per server
    # Sharding: this process holds `shard_ids` of `shard_count` shards (None: one process, no shards).
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None
    # Several processes may add timers: each looks at the database at least this often.
    timer_poll_seconds: float = 30.0

    @property
    def process_name(self) -> str:
        """This process among those sharing a database: the shards it holds (each is held by one
        process), so a restarted process recognises what its previous run left behind."""
        return "main" if self.shard_ids is None else "shards " + ",".join(map(str, self.shard_ids))

    @property
    def syncs_commands(self) -> bool:
        """Only the process holding shard 0 syncs the command tree (one sync, not one per process)."""
        return self.shard_ids is None or 0 in self.shard_ids

    @classmethod
    def load(cls, environ: Mapping[str, str] | None = None, env_file: Path | None = None) -> Settings:
        values = read_env_file(env_file or Path(".env"))
        values.update(os.environ if environ is None else environ)
        guild = values.get("NIKA_DEV_GUILD", "").strip()
        if guild and not (guild.isascii() and guild.isdigit()):
            raise ValueError("NIKA_DEV_GUILD must be a guild id (digits only)")
        return cls(
            token=values.get("DISCORD_TOKEN", "").strip() or None,
            database=values.get("NIKA_DATABASE", "").strip() or "./nika.db",
            dev_guild=int(guild) if guild else None,
            log_level=(values.get("NIKA_LOG_LEVEL", "").strip() or "INFO").upper(),
            api_base=values.get("DISCORD_API_BASE", "").strip() or None,
            boards_dir=values.get("NIKA_BOARDS_DIR", "").strip() or "./boards",
            computer_workers=_number(values, "NIKA_COMPUTER_WORKERS", 1, 1, 16),
            lobby_days=_number(values, "NIKA_LOBBY_DAYS", 7, 1, 365),
            lobbies_per_member=_number(values, "NIKA_LOBBIES_PER_MEMBER", 3, 1, 100),
            **_shards(values),
            timer_poll_seconds=_seconds(values, "NIKA_TIMER_POLL_SECONDS", 30.0),
        )


def _shards(values: Mapping[str, str]) -> dict[str, Any]:
    """NIKA_SHARD_COUNT=N with NIKA_SHARDS=0-3 or 4,5 (default: all N shards in this process)."""
    count_text = values.get("NIKA_SHARD_COUNT", "").strip()
    ids_text = values.get("NIKA_SHARDS", "").strip()
    if not count_text:
        if ids_text:
            raise ValueError("NIKA_SHARDS needs NIKA_SHARD_COUNT (how many shards there are in all)")
        return {}
    count = _number(values, "NIKA_SHARD_COUNT", 1, 1, 10_000)
    if not ids_text:
        return {"shard_count": count, "shard_ids": tuple(range(count))}
    ids: list[int] = []
    for part in ids_text.split(","):
        low, dash, high = part.strip().partition("-")
        if not (low.isascii() and low.isdigit()) or (dash and not (high.isascii() and high.isdigit())):
            raise ValueError("NIKA_SHARDS lists shard numbers like 0-3 or 4,5")
        ids.extend(range(int(low), int(high) + 1) if dash else [int(low)])
    if not ids or any(not 0 <= shard < count for shard in ids) or len(set(ids)) != len(ids):
        raise ValueError(f"NIKA_SHARDS must name distinct shards from 0 to {count - 1}")
    database = values.get("NIKA_DATABASE", "").strip().lower()
    if len(ids) < count and not database.startswith(("postgresql://", "postgres://")):
        raise ValueError(
            "several bot processes (NIKA_SHARDS names only some shards) must share a PostgreSQL database: "
            "set NIKA_DATABASE=postgresql://… (see docs/deploy.md)"
        )
    return {"shard_count": count, "shard_ids": tuple(sorted(ids))}


def _seconds(values: Mapping[str, str], name: str, default: float) -> float:
    text = values.get(name, "").strip()
    if not text:
        return default
    try:
        seconds = float(text)
    except ValueError:
        raise ValueError(f"{name} must be a number of seconds") from None
    if not 0.01 <= seconds <= 3600:
        raise ValueError(f"{name} must be between 0.01 and 3600 seconds")
    return seconds


def _number(values: Mapping[str, str], name: str, default: int, low: int, high: int) -> int:
    text = values.get(name, "").strip()
    if not text:
        return default
    if not (text.isascii() and text.isdigit()) or not low <= int(text) <= high:
        raise ValueError(f"{name} must be a whole number from {low} to {high}")
    return int(text)
