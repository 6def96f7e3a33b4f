"""`python -m engine serve` as outside tools run it: a real process, one JSON request per line."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

PROJECT = Path(__file__).resolve().parents[2]


def serve_over_a_pipe(requests: Sequence[Any], game: str | None = None) -> list[Any]:
    """The replies, one per request: a string is sent as the line it is (to send what is not
    JSON), anything else as its JSON."""
    argv = [sys.executable, "-m", "engine", *(["--game", game] if game else []), "serve"]
    lines = "".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in requests)
    done = subprocess.run(argv, input=lines, capture_output=True, text=True, cwd=PROJECT, timeout=60, check=True)
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(replies) == len(requests)
    return replies
