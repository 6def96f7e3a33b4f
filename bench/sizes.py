"""The bytes an object keeps alive, for the benchmarks' memory figures."""

from __future__ import annotations

import gc
import sys
from enum import Enum
from types import BuiltinFunctionType, FunctionType, MethodType, ModuleType


def deep_size(root: object, shared: tuple[object, ...] = ()) -> int:
    """The bytes of every object reachable from `root` (sys.getsizeof each, once), stopping at
    what all matches share: classes, modules, functions, enum members and `shared` (a game's
    rules). Arrays and bytearrays count their buffers, so the archive's filter is included."""
    seen = {id(item) for item in shared}
    stack = [root]
    total = 0
    while stack:
        item = stack.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        if isinstance(item, (type, ModuleType, FunctionType, BuiltinFunctionType, MethodType, Enum)):
            continue
        total += sys.getsizeof(item)
        stack.extend(gc.get_referents(item))
    return total
