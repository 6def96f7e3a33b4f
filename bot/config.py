"""Settings from the environment, or a `.env` file beside the working directory.

The environment wins over `.env`. The token is never part of any repr or log line.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path


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
        )


def _number(values: Mapping[str, str], name: str, default: int, low: int, high: int) -> int:
    text = values.get(name, "").strip()
    if not text:
        return default
    if not (text.isascii() and text.isdigit()) or not low <= int(text) <= high:
        raise ValueError(f"{name} must be a whole number from {low} to {high}")
    return int(text)
