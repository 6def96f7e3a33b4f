"""Storage: aiosqlite over a real SQLite file, with numbered migrations."""

from bot.storage.database import Database
from bot.storage.matches import ChannelHasMatch, LogRow, MatchRow, VersionConflict

__all__ = ["ChannelHasMatch", "Database", "LogRow", "MatchRow", "VersionConflict"]
