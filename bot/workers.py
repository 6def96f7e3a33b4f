"""What a process that started worker pools stops before it exits, so nothing it started outlives it."""

from __future__ import annotations

import gc
import sys
from contextlib import suppress


def stop_resource_tracker() -> None:
    """Stop multiprocessing's resource tracker, if a worker pool (computer players, heavy reads)
    started it: left alone, it outlives the process that started it (it ends only once it sees
    that process gone), a stray process in its group. Call it last, when every pool is closed:
    the tracker unlinks the semaphores still registered, which live pools need."""
    if "multiprocessing.resource_tracker" not in sys.modules:
        return
    from multiprocessing import resource_tracker

    gc.collect()  # closed pools' queues and locks unregister their semaphores as they go
    stop = getattr(resource_tracker._resource_tracker, "_stop", None)  # CPython 3.8+; private
    if stop is not None:
        with suppress(Exception):
            stop()
