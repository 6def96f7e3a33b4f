"""Errors shared by every hosted game. Messages are written for players."""


class IllegalAction(ValueError):
    """An action the rules refuse; the message says why in a player's words."""


class NotationError(IllegalAction):
    """Text that does not parse as an action or a position."""


class GameOver(IllegalAction):
    """An action offered after the game has ended."""
