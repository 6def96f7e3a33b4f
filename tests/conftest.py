"""Registers the test-only game, so every suite sees it among the hosted games."""

from engine.registry import register
from tests.games.tictactoe import GAME as TICTACTOE

register(TICTACTOE)
