"""Each game's front end: the few things about a game that only players see — its action
commands, the words of its help and rules digest, labels for seats, and the buttons
under a board. Built-in games have a module here; any other registered game gets the
generic front end (`/game play`, the shared commands, a plain help page).

Nothing else in bot/ names a game."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.commands.spec import OptionSpec
from engine.i18n import Text
from engine.registry import get_game


@dataclass(frozen=True, slots=True)
class ActionCommand:
    """A slash command that plays one kind of action, e.g. `/nika move piece: direction:`."""

    name: str
    description: str
    options: tuple[OptionSpec, ...]
    # The menu path the options fill: "@name" is an option, anything else a fixed step.
    path: tuple[str, ...]
    # The action's notation from the options (parsed by the game, which explains refusals).
    notation: Callable[[Mapping[str, str]], str]
    normalize: Mapping[str, Callable[[str], str]] = field(default_factory=dict)
    # The legal actions this command plays (its autocomplete offers only these); None: all.
    plays: Callable[[Any], bool] | None = None


@dataclass(frozen=True, slots=True)
class SetupPicker:
    """A select menu for a setup choice (Numica: pick the four files of the square pieces)."""

    placeholder: Text
    options: tuple[tuple[Text, str], ...]  # (label, value)
    picks: int  # how many to pick, exactly
    choice: Callable[[list[str]], str]  # the picked values as the setup notation


@dataclass(frozen=True, slots=True)
class FrontEnd:
    slug: str
    description: str  # the command group's description
    actions: tuple[ActionCommand, ...] = ()
    help: Text = ""
    rules: Text = ""
    rules_example: tuple[str, str] | None = None  # (position, action) drawn under the rules digest
    seat_labels: Mapping[str, Text] = field(default_factory=dict)  # choice labels for seats and sides
    # Buttons under a board, each the first step of an action path (Nika's verbs); empty: one
    # "Play" button that walks through the menu from its first step.
    panel: tuple[str, ...] = ()
    panel_labels: Mapping[str, Text] = field(default_factory=dict)
    play_example: str = ""
    setup_picker: SetupPicker | None = None
    # The question a menu asks after the steps chosen so far ("Which piece moves?").
    question: Callable[[tuple[str, ...]], str] | None = None

    def ask(self, chosen: tuple[str, ...]) -> str:
        if self.question is not None:
            return self.question(chosen)
        return "Choose your move" if not chosen else f"{' → '.join(chosen)} → …"


def generic(slug: str) -> FrontEnd:
    rules = get_game(slug)
    return FrontEnd(
        slug=slug,
        description=f"Play {rules.title}",
        help=(
            f"**{rules.title} on Discord**\n**Start:** `/{slug} new` opens a lobby here; others `/{slug} join`; "
            f"then `/{slug} start`.\n**Play:** `/{slug} play action:<move>` (it suggests legal moves as you type), "
            f"or the buttons under the latest board.\n**Look:** `/{slug} board` · `/{slug} history` · `/{slug} replay`."
        ),
        rules=f"**{rules.title}**: play through `/{slug} play`; every move it suggests is legal.",
    )


_FRONT_ENDS: dict[str, FrontEnd] = {}


def front_end(slug: str) -> FrontEnd:
    if slug not in _FRONT_ENDS:
        try:
            module: Any = importlib.import_module(f"bot.games.{slug}")
        except ModuleNotFoundError as error:
            if error.name != f"bot.games.{slug}":
                raise
            _FRONT_ENDS[slug] = generic(slug)
        else:
            _FRONT_ENDS[slug] = module.FRONT_END
    return _FRONT_ENDS[slug]
