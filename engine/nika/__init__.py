"""Nika: the rules, notation and records of the hoplite team game."""

from engine.nika.actions import (
    Action,
    Advance,
    Move,
    Pass,
    Rally,
    Rotate,
    parse_action,
    parse_direction,
    parse_square,
)
from engine.nika.board import City, Direction, Square, Team, square_name
from engine.nika.describe import describe_events
from engine.nika.events import (
    Advanced,
    Drawn,
    Event,
    Moved,
    Passed,
    Pushed,
    Rallied,
    Rotated,
    Routed,
    Won,
)
from engine.nika.position import Piece, Position
from engine.nika.record import Ending, GameRecord, RecordEntry
from engine.nika.rules import legal_actions, play
from engine.nika.state import GameState, Outcome, Reason

__all__ = [
    "Action", "Advance", "Advanced", "City", "Direction", "Drawn", "Ending", "Event", "GameRecord",
    "GameState", "Move", "Moved", "Outcome", "Pass", "Passed", "Piece", "Position", "Pushed",
    "Rallied", "Rally", "Reason", "RecordEntry", "Rotate", "Rotated", "Routed", "Square", "Team",
    "Won", "describe_events", "legal_actions", "parse_action", "parse_direction", "parse_square", "play", "square_name",
]  # fmt: skip
