"""The kinds of entry a match's append-only log holds, and one entry as stored."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class EntryKind(StrEnum):
    """Stored as their values: the first release's logs use the same words."""

    ACTION = "action"  # a move on the board (`text` is its notation)
    UNDO = "undo"  # the last action taken back
    SETUP = "setup"  # a seat's secret setup choice (`text`), replaceable until all are in
    RESIGN = "resign"
    TIMEOUT = "timeout"  # the seat to act ran out of time; the game says what that means
    DRAW_OFFER = "draw_offer"
    DRAW_ACCEPT = "draw_accept"
    DRAW_DECLINE = "draw_decline"
    DECLARE = "declare"  # a claim for a side (`text`), the game's `Game.claim`
    CONCEDE = "concede"
    CHALLENGE = "challenge"

    @property
    def changes_board(self) -> bool:
        """Whether a posted board (and its buttons) is out of date after this entry."""
        return self in (EntryKind.ACTION, EntryKind.UNDO, EntryKind.TIMEOUT)


PROPOSAL_KINDS = frozenset(
    {EntryKind.DRAW_OFFER, EntryKind.DRAW_ACCEPT, EntryKind.DRAW_DECLINE, EntryKind.DECLARE, EntryKind.CONCEDE,
     EntryKind.CHALLENGE}
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Entry:
    """One log entry. `user_id` is the member who made it; None when the host made it (a
    deadline, or a computer seat, named by `seat`)."""

    kind: EntryKind
    user_id: int | None
    seat: str | None = None
    text: str | None = None  # action notation, a setup choice, or the side a claim is for
