"""Numica: the rules, notation and setup of Lloyd Krassner's game of displacement on a board of tiles."""

from engine.numica.actions import Action, Move, parse_action
from engine.numica.board import COLOURS, SHAPES, TILE_COUNTS, TILE_SET, Colour, Shape, parse_square, square_name
from engine.numica.describe import describe_events
from engine.numica.events import Arranged, Captured, Ended, Event, Moved
from engine.numica.position import Piece, Position
from engine.numica.rules import has_legal_move, legal_moves, play
from engine.numica.setup import ARRANGEMENTS, deal, parse_arrangement
from engine.numica.state import GameState

__all__ = [
    "ARRANGEMENTS", "COLOURS", "SHAPES", "TILE_COUNTS", "TILE_SET", "Action", "Arranged", "Captured", "Colour",
    "Ended", "Event", "GameState", "Move", "Moved", "Piece", "Position", "Shape", "deal", "describe_events",
    "has_legal_move", "legal_moves", "parse_action", "parse_arrangement", "parse_square", "play", "square_name",
]  # fmt: skip
