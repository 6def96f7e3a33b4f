"""The command surface as data: every command of every game's group, with its options and
their types, written once (the families in `bot/commands/families/`, assembled by
`bot/commands/group.py`). The Discord cogs build slash commands from it, the console parses
text against it, and the hostile-input tests walk it."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Any

from engine.api import AnyGame, Choice
from engine.i18n import Term
from engine.registry import get_game

if TYPE_CHECKING:
    from bot.commands.front_end import FrontEnd
    from bot.replies import Reply
    from bot.service import MatchService


class OptionKind(Enum):
    TEXT = "text"
    INTEGER = "integer"
    NUMBER = "number"
    BOOLEAN = "boolean"
    USER = "user"  # a member: an id once parsed
    ATTACHMENT = "attachment"  # a file: its text once read


@dataclass(frozen=True, slots=True)
class CommandOption:
    """An option of a slash command (`piece:`, `deadline:`). Not to be confused with a match's
    option (`engine.api.MatchOption`), which a `/new` command offers as one of these."""

    name: str
    description: str
    kind: OptionKind = OptionKind.TEXT
    required: bool = False
    choices: tuple[Choice, ...] = ()
    min_value: int | None = None
    max_value: int | None = None
    max_length: int | None = None
    autocomplete: bool = False  # offered from the legal actions (or seats) as the player types


@dataclass(frozen=True, slots=True)
class Invoker:
    """Who typed a command, and where."""

    guild_id: int
    channel_id: int
    user_id: int
    can_manage: bool = False  # holds Manage Channels here, as the front end reports
    locale: str = "en"
    parent_channel_id: int | None = None  # the channel a thread belongs to, when in a thread
    rate_limited: bool = True  # expensive reads are rate-limited (not in the local console)
    console: bool = False  # typed in the local console, not on Discord (help words differ)
    display_name: str = ""  # the member's name as the server shows it (an event's standings picture)
    names: tuple[tuple[int, str], ...] = ()  # the members named in the command's options, as the server shows them
    # Opens a new thread beside this one (Discord, in a thread): where a rematch of a thread's match goes.
    open_thread: Callable[[], Awaitable[int | None]] | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Context:
    service: MatchService
    who: Invoker
    game: str  # the slug of the group the command was typed in
    front: FrontEnd  # that game's front end
    # Every command and option name of the group as the reader's client shows it, for pages
    # that name them (`bot.commands.front_end.named`).
    names: Mapping[str, Term] = field(default_factory=dict)

    @property
    def rules(self) -> AnyGame:
        return get_game(self.game)


Runner = Callable[[Context, Mapping[str, Any]], Awaitable["Reply"]]


def on_service(method: str) -> Runner:
    """A command that is one service call for the invoker in their channel (`/<game> leave` →
    `service.leave(channel_id, user_id)`)."""

    async def run(ctx: Context, options: Mapping[str, Any]) -> Reply:
        call = getattr(ctx.service, method)
        reply: Reply = await call(ctx.who.channel_id, ctx.who.user_id)
        return reply

    return run


@dataclass(frozen=True, slots=True)
class CommandSpec:
    name: str
    description: str
    run: Runner
    options: tuple[CommandOption, ...] = ()
    private: bool = False  # the reply is for the invoker only
    cooldown: bool = False  # an expensive read, rate-limited per member on Discord
    # For action commands: the menu path the options fill, e.g. ("move", "@piece", "@direction");
    # "@name" is an option, anything else a fixed step. Autocomplete reads the menus from it.
    path: tuple[str, ...] = ()
    normalize: Mapping[str, Callable[[str], str]] = field(default_factory=dict)
    plays: Callable[[Any], bool] | None = None  # the legal actions an action command plays
    game: str = ""  # the group it belongs to, set when the group is assembled
    group: str = ""  # the subcommand group it is in (`tournament`), or "" for a command of the group itself

    def option(self, name: str) -> CommandOption | None:
        return next((o for o in self.options if o.name == name), None)
