"""Settings from the environment, or a `.env` file beside the working directory.

The environment wins over `.env`. The token is never part of any repr or log line.

Every setting has a neutral name, `BOARDGAME_<NAME>` (`BOARDGAME_DATABASE`, `BOARDGAME_GAMES`),
and the first release's `NIKA_<NAME>`, which keeps working; setting both to different values
is refused rather than guessed. Messages name the variable the owner set.
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


# The first release's file name, kept so an upgraded bot finds its matches where they are.
DEFAULT_DATABASE = "./nika.db"
PREFIXES = ("BOARDGAME_", "NIKA_")  # the neutral name first; the first release's still read


def setting(values: Mapping[str, str], name: str) -> tuple[str, str]:
    """(the variable's name as set, its value stripped) for setting `name` (e.g. "DATABASE"),
    read under either prefix; ("BOARDGAME_<name>", "") when neither is set."""
    named = [(prefix + name, values.get(prefix + name, "").strip()) for prefix in PREFIXES]
    given = [(variable, value) for variable, value in named if value]
    if len({value for _, value in given}) > 1:
        raise ValueError(f"{given[0][0]} and {given[1][0]} are both set, to different values: set only one")
    return given[0] if given else (PREFIXES[0] + name, "")


@dataclass(frozen=True)
class Settings:
    token: str | None = field(default=None, repr=False)
    database: str = DEFAULT_DATABASE
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
    # The installed games this bot hosts (their slugs); None: every installed game.
    games: tuple[str, ...] | None = None

    def hosted(self) -> tuple[str, ...]:
        """The slugs of the games that get a command group, in the order given (else by slug)."""
        from engine.registry import installed_slugs

        return self.games if self.games is not None else installed_slugs()

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
        name, guild = setting(values, "DEV_GUILD")
        if guild and not (guild.isascii() and guild.isdigit()):
            raise ValueError(f"{name} must be a guild id (digits only)")
        return cls(
            token=values.get("DISCORD_TOKEN", "").strip() or None,
            database=setting(values, "DATABASE")[1] or DEFAULT_DATABASE,
            dev_guild=int(guild) if guild else None,
            log_level=(setting(values, "LOG_LEVEL")[1] or "INFO").upper(),
            api_base=values.get("DISCORD_API_BASE", "").strip() or None,
            boards_dir=setting(values, "BOARDS_DIR")[1] or "./boards",
            computer_workers=_number(values, "COMPUTER_WORKERS", 1, 1, 16),
            lobby_days=_number(values, "LOBBY_DAYS", 7, 1, 365),
            lobbies_per_member=_number(values, "LOBBIES_PER_MEMBER", 3, 1, 100),
            **_shards(values),
            timer_poll_seconds=_seconds(values, "TIMER_POLL_SECONDS", 30.0),
            games=_games(values),
        )


def _games(values: Mapping[str, str]) -> tuple[str, ...] | None:
    """BOARDGAME_GAMES=<slug>,<slug>: the installed games to host (empty: all of them)."""
    name, text = setting(values, "GAMES")
    if not text:
        return None
    from engine.registry import installed_slugs

    installed = installed_slugs()
    chosen = tuple(dict.fromkeys(part.strip().lower() for part in text.split(",") if part.strip()))
    unknown = [slug for slug in chosen if slug not in installed]
    if unknown or not chosen:
        raise ValueError(f"{name} names {', '.join(unknown) or 'no game'}: the installed games are "
                         f"{', '.join(installed) or 'none'} (leave {name} empty to host them all)")  # fmt: skip
    return chosen


def _shards(values: Mapping[str, str]) -> dict[str, Any]:
    """SHARD_COUNT=N with SHARDS=0-3 or 4,5 (default: all N shards in this process)."""
    _, count_text = setting(values, "SHARD_COUNT")
    ids_name, ids_text = setting(values, "SHARDS")
    if not count_text:
        if ids_text:
            raise ValueError(f"{ids_name} needs {ids_name.removesuffix('SHARDS')}SHARD_COUNT (how many shards there "
                             "are in all)")  # fmt: skip
        return {}
    count = _number(values, "SHARD_COUNT", 1, 1, 10_000)
    if not ids_text:
        return {"shard_count": count, "shard_ids": tuple(range(count))}
    ids: list[int] = []
    for part in ids_text.split(","):
        low, dash, high = part.strip().partition("-")
        if not (low.isascii() and low.isdigit()) or (dash and not (high.isascii() and high.isdigit())):
            raise ValueError(f"{ids_name} lists shard numbers like 0-3 or 4,5")
        ids.extend(range(int(low), int(high) + 1) if dash else [int(low)])
    if not ids or any(not 0 <= shard < count for shard in ids) or len(set(ids)) != len(ids):
        raise ValueError(f"{ids_name} must name distinct shards from 0 to {count - 1}")
    database_name, database = setting(values, "DATABASE")
    if len(ids) < count and not database.lower().startswith(("postgresql://", "postgres://")):
        raise ValueError(
            f"several bot processes ({ids_name} names only some shards) must share a PostgreSQL database: "
            f"set {database_name}=postgresql://… (see docs/deploy.md)"
        )
    return {"shard_count": count, "shard_ids": tuple(sorted(ids))}


def _seconds(values: Mapping[str, str], key: str, default: float) -> float:
    name, text = setting(values, key)
    if not text:
        return default
    try:
        seconds = float(text)
    except ValueError:
        raise ValueError(f"{name} must be a number of seconds") from None
    if not 0.01 <= seconds <= 3600:
        raise ValueError(f"{name} must be between 0.01 and 3600 seconds")
    return seconds


def _number(values: Mapping[str, str], key: str, default: int, low: int, high: int) -> int:
    name, text = setting(values, key)
    if not text:
        return default
    if not (text.isascii() and text.isdigit()) or not low <= int(text) <= high:
        raise ValueError(f"{name} must be a whole number from {low} to {high}")
    return int(text)
