"""Structured logs: one JSON object a line on stdout, with the token scrubbed."""

from __future__ import annotations

import json
import logging
import sys
import time
from typing import ClassVar


class JsonFormatter(logging.Formatter):
    # Attributes every LogRecord has; anything else was passed in `extra` and is logged as a field.
    _standard: ClassVar[set[str]] = set(vars(logging.LogRecord("", 0, "", 0, "", (), None))) | {"message", "asctime"}

    def __init__(self, secrets: tuple[str, ...] = ()) -> None:
        super().__init__()
        self.secrets = tuple(s for s in secrets if s)

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, object] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)) + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key, value in vars(record).items():
            if key not in self._standard and not key.startswith("_"):
                entry[key] = value if isinstance(value, int | float | bool | str | None) else repr(value)
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        line = json.dumps(entry, ensure_ascii=False)
        for secret in self.secrets:
            line = line.replace(secret, "[redacted]")
        return line


def setup_logging(level: str, secrets: tuple[str, ...] = ()) -> None:
    handler = logging.StreamHandler(sys.stdout)
    handler.setFormatter(JsonFormatter(secrets))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    logging.getLogger("discord.gateway").setLevel(max(logging.getLevelName(level), logging.INFO))
