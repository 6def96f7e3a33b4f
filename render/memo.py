"""Build-once caches for pictures that are drawn once per process and then reused.

`functools.cache` alone lets two of the bot's worker threads draw the same
empty board or sprite at the same time on a cold start (wasted work, and text
drawing must not run concurrently). One re-entrant lock makes every such build
happen once; a cache hit holds it only for a dictionary lookup.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")

# Held while drawing on a Canvas: builds happen once, and the shared fonts serve one thread at a time.
DRAWING = threading.RLock()


def built_once(function: Callable[P, R]) -> Callable[P, R]:
    cached = functools.cache(function)

    @functools.wraps(function)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        with DRAWING:
            return cached(*args, **kwargs)  # type: ignore[arg-type]  # cache keys are hashable by design

    return wrapper
