"""A match as the replay of its append-only log, for any hosted game."""

from bot.match.entries import Entry, EntryKind
from bot.match.played import Played
from bot.match.state import MatchState, Party, Proposal, ProposalKind, replay

__all__ = ["Entry", "EntryKind", "MatchState", "Party", "Played", "Proposal", "ProposalKind", "replay"]
