"""A game's front end: the few things about a game that only players on Discord see — its
action commands, the words of its help and rules digest, labels for seats, the buttons under
a board and the questions its menus ask.

A game's package names its front end under the entry point group `boardgame_host.front_ends`
(engine/plugins.py); a game without one gets the generic front end: `/<game> play`, the
shared commands, a help page and rules digest made from its interface.

Help and rules are Messages whose placeholders may name any command or option of the game's
group, `{new}`, `{move}`, `{piece}` (an option that shares a command's name is
`{<name>_option}`): the host fills them from the group's command specs
(`bot.commands.group.names_of`, then `named`), so a page shows the names each reader's
client shows.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.commands.spec import CommandOption
from engine import plugins
from engine.i18n import M, Message, Term, Text
from engine.registry import get_game


@dataclass(frozen=True, slots=True)
class ActionCommand:
    """A slash command that plays one kind of action, e.g. `/<game> move piece: direction:`."""

    name: str
    description: str
    options: tuple[CommandOption, ...]
    # The menu path the options fill: "@name" is an option, anything else a fixed step.
    path: tuple[str, ...]
    # The action's notation from the options (parsed by the game, which explains refusals).
    notation: Callable[[Mapping[str, str]], str]
    normalize: Mapping[str, Callable[[str], str]] = field(default_factory=dict)
    # The legal actions this command plays (its autocomplete offers only these); None: all.
    plays: Callable[[Any], bool] | None = None


@dataclass(frozen=True, slots=True)
class SetupPicker:
    """A select menu for a setup choice (pick the files of a secret back row, say)."""

    placeholder: Text
    options: tuple[tuple[Text, str], ...]  # (label, value)
    picks: int  # how many to pick, exactly
    choice: Callable[[list[str]], str]  # the picked values as the setup notation


@dataclass(frozen=True, slots=True)
class FrontEnd:
    """Everything optional: a game that gives only `slug` and `description` is playable."""

    slug: str
    description: str  # the command group's description (100 characters at most on Discord)
    actions: tuple[ActionCommand, ...] = ()  # its own commands, listed after join/start
    help: Text = ""  # `/<game> help`: a Message naming commands as `{name}` (see above)
    rules: Text = ""  # `/<game> rules`: the rules in a minute, named the same way
    rules_example: tuple[str, str] | None = None  # (position, action) drawn under the rules digest
    seat_labels: Mapping[str, Text] = field(default_factory=dict)  # choice labels for seats and sides
    # Buttons under a board, each the first step of an action path (the game's verbs); empty: one
    # "Play" button that walks through the menu from its first step.
    panel: tuple[str, ...] = ()
    panel_labels: Mapping[str, Text] = field(default_factory=dict)
    play_example: str = ""  # actions in notation, " · " between them, for `/play`'s description
    setup_picker: SetupPicker | None = None
    # The question a menu asks after the steps chosen so far ("Which piece moves?").
    question: Callable[[tuple[str, ...]], str] | None = None

    def ask(self, chosen: tuple[str, ...]) -> str:
        if self.question is not None:
            return self.question(chosen)
        return str(M("Choose your move")) if not chosen else f"{' → '.join(chosen)} → …"


def named(text: Text, names: Mapping[str, Term]) -> str:
    """A front end's page with its command and option names filled in, in the active language."""
    if not isinstance(text, Message):
        return str(text)
    return Message(text.template, {**names, **text.params}, text.plural, text.context).render()


GENERIC_HELP = M(
    "**{game} on Discord**\n**Start:** `/{slug} {new}` opens a lobby here; others `/{slug} {join}`; then "
    "`/{slug} {start}`.\n**Play:** `/{slug} {play} {action}:<move>` (it suggests legal moves as you type), or the "
    "buttons under the latest board.\n**Look:** `/{slug} {board}` · `/{slug} {history}` · `/{slug} {replay}`."
)
GENERIC_RULES = M("**{game}**: play through `/{slug} {play}`; every move it suggests is legal.")


def generic(slug: str) -> FrontEnd:
    """The front end of a game whose package has none: made from its interface alone."""
    rules = get_game(slug)
    words = {"game": rules.title, "slug": slug}
    return FrontEnd(
        slug=slug,
        description=f"Play {rules.title}",
        help=M(GENERIC_HELP.template, **words),
        rules=M(GENERIC_RULES.template, **words),
    )


_FRONT_ENDS: dict[str, FrontEnd] = {}


def register(front: FrontEnd) -> FrontEnd:
    """Use `front` for its game (replacing what its package names), e.g. in a test."""
    _FRONT_ENDS[front.slug] = front
    return front


def front_end(slug: str) -> FrontEnd:
    if slug not in _FRONT_ENDS:
        found = plugins.load(plugins.FRONT_ENDS, slug)
        if found is None:
            found = generic(slug)
        elif not isinstance(found, FrontEnd) or found.slug != slug:
            raise plugins.PluginError(f"the entry point {plugins.FRONT_ENDS} {slug!r} must name a FrontEnd for it")
        _FRONT_ENDS[slug] = found
    return _FRONT_ENDS[slug]
