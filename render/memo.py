"""Build-once caches for pictures that are drawn once per process and then reused.

`functools.cache` alone lets two of the bot's worker threads draw the same
empty board or sprite at the same time on a cold start (wasted work, and text
drawing must not run concurrently). One re-entrant lock makes every such build
happen once; a cache hit is a dictionary lookup without it.

A picture may hold words, and words are drawn in the active language (and with the
font that language needs), so each language has its own cache.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

from engine.i18n import active

P = ParamSpec("P")
R = TypeVar("R")

# Held while drawing on a Canvas: builds happen once, and the shared fonts serve one thread at a time.
DRAWING = threading.RLock()


def built_once(function: Callable[P, R]) -> Callable[P, R]:
    built: dict[Any, R] = {}

    @functools.wraps(function)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        key = (active().locale, args, tuple(kwargs.items()))  # hashable by design
        if key in built:  # a hit needs no lock: boards ask for dozens per picture
            return built[key]
        with DRAWING:
            if key not in built:
                built[key] = function(*args, **kwargs)
            return built[key]

    return wrapper
