"""Refusals from the match service, each with a message written for players: a Message,
so str(error) renders in the language of whoever reads it."""

from __future__ import annotations

from engine.i18n import M, Term, Text


class ServiceError(Exception):
    """A refusal; str(error) is shown to the player, privately. Where the advice differs in the
    local console (no buttons, no threads there), `console` holds what is said there instead."""

    def __init__(self, *args: object, console: Text | None = None) -> None:
        super().__init__(*args)
        self.console = console

    def in_console(self) -> str:
        """The refusal as the local console says it."""
        return str(self) if self.console is None else str(self.console)


class NoMatch(ServiceError):
    """No match where one was asked for. The service does not know which game's command asked;
    the command layer says how to start one of that game (`for_game`)."""

    def for_game(self, game: str) -> NoMatch:
        return NoMatch(M("there is no match in this channel: start one with /{game} {new}", game=game,
                         new=Term("new", "command")))  # fmt: skip


class MatchUnreadable(ServiceError):
    """A stored match that cannot be rebuilt: its records are damaged, or its game is no longer
    installed. Nothing can be played in it; a moderator may still abort it (`row` is its row)."""

    def __init__(self, message: Text, row: object) -> None:
        super().__init__(message)
        self.row = row


class ChannelBusy(ServiceError):
    pass


class NotInMatch(ServiceError):
    pass


class NotYourTurn(ServiceError):
    pass


class NotAllowed(ServiceError):
    pass


class BoardChanged(ServiceError):
    def __init__(self, message: Text | None = None) -> None:
        super().__init__(message if message is not None else M("the board changed, look again"))


class IllegalMove(ServiceError):
    """The engine refused the action; the message is the engine's reason."""


class OutdatedBoard(BoardChanged):
    """A button under an older board was pressed; says where the latest board is."""

    def __init__(self, guild_id: int, channel_id: int, message_id: int | None) -> None:
        super().__init__(M("this board is out of date: play from the latest one"))
        self.guild_id = guild_id
        self.channel_id = channel_id
        self.message_id = message_id


class ConfirmFirst(ServiceError):
    """An action that ends the game against the player's own side (resigning, conceding,
    declaring for the opponents) asks for confirmation: the front end offers a button, and
    the same command repeated within a minute confirms too."""

    def __init__(self, message: Text, *, match_id: int, version: int, kind: str, argument: str = "") -> None:
        # Said on Discord, with a Confirm button under it; the console says `in_console` instead.
        # Rendered now, in the language of whoever asked (the message may be read after that).
        super().__init__(str(M("{question} Press Confirm, or send the same command again within a minute.",
                               question=message)))  # fmt: skip
        self.question = message
        self.match_id = match_id
        self.version = version
        self.kind = kind
        self.argument = argument
        self.console = str(M("{question} Send the same command again within a minute to confirm.", question=message))


class TooSoon(ServiceError):
    """A per-user cooldown on an expensive read (board, replay, history, stats)."""
