"""Lists of words as a sentence says them, in the reader's language: "A, B and C", "A or B".
Low in the bot's layers, so that match states and the texts about them both use it."""

from __future__ import annotations

from collections.abc import Sequence

from engine.i18n import M, Text


def joined(words: Sequence[Text]) -> str:
    """'A', 'A and B', 'A, B and C', in the active language."""
    items = [str(word) for word in words]
    if len(items) <= 1:
        return "".join(items)
    if len(items) == 2:
        return str(M("{first} and {second}", first=items[0], second=items[1]))
    return str(M("{items} and {last}", items=", ".join(items[:-1]), last=items[-1]))


def either(words: Sequence[Text]) -> str:
    """'A', 'A or B', 'A, B or C', in the active language."""
    items = [str(word) for word in words]
    if len(items) <= 1:
        return "".join(items)
    if len(items) == 2:
        return str(M("{first} or {second}", first=items[0], second=items[1]))
    return str(M("{items} or {last}", items=", ".join(items[:-1]), last=items[-1]))
