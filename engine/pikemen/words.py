"""The words Pikemen's messages are built from: seats as Terms, lists of seats, and the
outcome's summary, which stays a Message until someone reads it (in their language).

Seat titles are plain English in the engine ("Red"); the catalogue translates them as
Terms. Every sentence is one template (engine/i18n.py), so a list of seats is one too.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.i18n import M, Message, Term
from engine.pikemen.pieces import seat_title


def seat_term(slug: str) -> Term:
    """A seat's title, translated where it is read: "Red", "Rojo"."""
    return Term(seat_title(slug))


def listed(slugs: Sequence[str]) -> Term | Message:
    """'Red', 'Red and Blue', 'Red, Yellow and Blue' (a game has at most four seats)."""
    names = [seat_term(slug) for slug in slugs]
    if len(names) == 1:
        return names[0]
    if len(names) == 2:
        return M("{first} and {second}", first=names[0], second=names[1])
    if len(names) == 3:
        return M("{first}, {second} and {third}", first=names[0], second=names[1], third=names[2])
    first, second, third, fourth = names
    return M("{first}, {second}, {third} and {fourth}", first=first, second=second, third=third, fourth=fourth)
