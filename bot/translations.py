"""Every English message the project shows players, collected from the code, so that each
language's catalogue can be checked (and its template written) against it: the host's words
against the host's catalogue, and each installed game's words against its own catalogue (with
the host's, whose words a game may use).

    python -m bot.translations                         writes render/locales/messages.pot (the host's)
    python -m bot.translations --check es              lists what Spanish lacks, host and every game
    python -m bot.translations --game SLUG --check es  lists what a game's Spanish lacks
    python -m bot.translations --game SLUG --template es.pot
                                                       writes the game's messages the host does not
                                                       translate, for its translators

It lives in bot/ because the words come from every layer, the command surface included.

Sources: calls of `M(...)`, `P(..., ...)` and `T(..., context)` (found by Babel's extractor)
in the host's packages for the host, and in a game's own files (its entry points' packages,
`engine.plugins.source_paths`) for a game; and the words that come from data rather than
calls: every command, option and choice of a game's command group, its seats, sides and
options, and its front end's description.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog as PoFile
from babel.messages.extract import extract_from_dir, extract_from_file
from babel.messages.pofile import write_po

from engine import plugins
from engine.i18n import placeholders

ROOT = Path(__file__).resolve().parents[1]
# Messages (M, P) and Terms (T), collected in separate passes: a Term written without a
# context has the context "term", which Babel cannot know.
KEYWORDS: dict[str, Any] = {"M": None, "P": (1, 2)}
TERMS: dict[str, Any] = {"T": {1: (1,), 2: ((2, "c"), 1)}}
HOST_PACKAGES = ("engine", "render", "bot")
Key = tuple[str | None, str]  # (context, English text)
Found = Iterator[tuple[Key, str | None]]  # each message with its English plural, if any


def from_code(paths: Iterable[Path], skip: Iterable[Path] = ()) -> Found:
    """(context, English) of every M/P/T call with literal text in these files and folders
    (leaving out `skip`), with a plural form if any."""
    skipped = [path.resolve() for path in skip]
    for path in paths:
        for keywords, default in ((KEYWORDS, None), (TERMS, "term")):
            if path.is_dir():
                found = (
                    (text, context)
                    for file, _, text, _, context in extract_from_dir(
                        path, method_map=[("**.py", "python")], keywords=keywords, comment_tags=()
                    )
                    if not _under(path / file, skipped)
                )
            else:
                found = (
                    (text, context)
                    for _, text, _, context in extract_from_file("python", path, keywords=keywords, comment_tags=())
                )
            for text, context in found:
                if isinstance(text, tuple):
                    yield (context or default, text[0]), text[1]
                else:
                    yield (context or default, text), None


def _under(file: Path, folders: list[Path]) -> bool:
    resolved = file.resolve()
    return any(resolved == folder or folder in resolved.parents for folder in folders)


def game_paths() -> list[Path]:
    return [path for slug in plugins.names(plugins.GAMES) for path in plugins.source_paths(slug)]


def from_data(slug: str) -> Found:
    """Words that live in data: a game's command group, seats, sides and options."""
    from bot.commands.front_end import front_end
    from bot.commands.group import commands_for
    from engine.registry import get_game

    game = get_game(slug)
    yield (None, front_end(slug).description), None
    for spec in commands_for(slug).values():
        yield ("command", spec.name), None
        yield (None, spec.description), None
        for command_option in spec.options:
            yield ("option", command_option.name), None
            yield (None, command_option.description), None
            for choice in command_option.choices:
                yield (None, choice.label), None
                yield from _choice_name(choice.value)
    for players in game.player_counts:
        for seat in game.seats(players):
            yield ("term", seat.title), None
        for side in game.sides(players):
            yield ("term", side.title), None
    for option in game.options:
        yield (None, option.description), None
        for choice in option.choices:
            yield (None, choice.label), None
            yield from _choice_name(choice.value)


def _choice_name(value: str) -> Found:
    """A choice's name as a reader types it (`engine.i18n.choice_name`); numbers need none."""
    if not value.isdigit():
        yield ("choice", value), None


def _collected(found: Iterable[tuple[Key, str | None]]) -> dict[Key, str | None]:
    messages: dict[Key, str | None] = {}
    for key, plural in found:
        if key[1].strip():
            messages.setdefault(key, plural)
    return messages


def tournament_surface() -> Found:
    """The `/tournament` group's words (bot/commands/tournament.py), but for the games' own options."""
    from bot.commands.tournament import EVENTS_OF_A_GAME, GROUP, tournament_commands
    from engine.registry import games

    theirs = {option.name for game in games() for option in game.options}
    yield ("command", GROUP), None
    yield (None, "Events for every game: round robin, Swiss, knockout, pods"), None
    yield (None, EVENTS_OF_A_GAME), None
    for spec in tournament_commands().values():
        yield ("command", spec.name), None
        yield (None, spec.description), None
        for command_option in spec.options:
            if command_option.name in theirs or command_option.name == "game":
                continue
            yield ("option", command_option.name), None
            yield (None, command_option.description), None
            for choice in command_option.choices:
                yield (None, choice.label), None
    yield ("option", "game"), None
    yield (None, "The game"), None


def host_messages() -> dict[Key, str | None]:
    """What the host itself says, in any game."""
    code = from_code([ROOT / package for package in HOST_PACKAGES], skip=game_paths())
    return _collected([*code, *tournament_surface()])


def game_messages(slug: str) -> dict[Key, str | None]:
    """What players of one game read that the game itself says: its code and its command group."""
    return _collected([*from_code(plugins.source_paths(slug)), *from_data(slug)])


def english_messages() -> dict[Key, str | None]:
    """Everything: the host's words and every installed game's."""
    found = dict(host_messages())
    for slug in plugins.names(plugins.GAMES):
        for key, plural in game_messages(slug).items():
            found.setdefault(key, plural)
    return found


def problems(language: str, game: str | None = None) -> list[str]:
    """What a language's catalogue lacks, or gets wrong (placeholders that differ): the host's
    words in the host's catalogue, and each game's (or only `game`'s) in its own and the host's."""
    from render.words import game_po_file, host_po_file

    host = host_po_file(language)
    wrong: list[str] = [] if game is not None else _checked(host_messages(), [host])
    for slug in (game,) if game is not None else plugins.names(plugins.GAMES):
        own = [game_po_file(slug, language), host]
        wrong += [f"{slug}: {problem}" for problem in _checked(game_messages(slug), own)]
    return wrong


def _checked(messages: dict[Key, str | None], catalogues: list[PoFile]) -> list[str]:
    wrong = []
    for (context, text), plural in sorted(messages.items(), key=lambda item: (item[0][0] or "", item[0][1])):
        msgid = text if plural is None else (text, plural)
        entry = next((e for po in catalogues if (e := po.get(msgid, context=context)) is not None and e.string), None)
        where = f"[{context}] " if context else ""
        if entry is None or (isinstance(entry.string, tuple | list) and not all(entry.string)):
            wrong.append(f"missing: {where}{text!r}")
            continue
        wanted = placeholders(text) | (placeholders(plural) if plural else set())
        forms = tuple(entry.string) if isinstance(entry.string, tuple | list) else (str(entry.string),)
        for form in forms:
            if placeholders(form) - wanted or (wanted - {"count"}) - placeholders(form):
                wrong.append(f"placeholders differ: {where}{text!r} → {form!r}")
    return wrong


def write_template(path: Path, game: str | None = None) -> int:
    """A template of the host's messages, or of a game's that the host does not translate (its
    code's, and the words of its command group that are its own)."""
    if game is None:
        messages = host_messages()
    else:
        from render.words import LANGUAGES, host_po_file

        host = set(host_messages())
        for language in LANGUAGES[1:]:
            host |= {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in host_po_file(language) if m.id}
        messages = {key: plural for key, plural in game_messages(game).items() if key not in host}
    pot = PoFile(project="Board-game host" if game is None else game, fuzzy=False)
    for (context, text), plural in messages.items():
        pot.add(text if plural is None else (text, plural), context=context)
    with path.open("wb") as handle:
        write_po(handle, pot, width=0, sort_output=True, omit_header=False)
    return len(pot)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--check", metavar="LANGUAGE", help="list what a catalogue lacks")
    parser.add_argument("--game", metavar="SLUG", choices=plugins.names(plugins.GAMES), help="one game's words only")
    parser.add_argument("--template", metavar="PATH", type=Path, help="where to write the template")
    args = parser.parse_args(argv)
    if args.check:
        found = problems(args.check, args.game)
        print("\n".join(found) or f"the {args.check} catalogue is complete")
        return 1 if found else 0
    path = args.template or ROOT / "render" / "locales" / "messages.pot"
    count = write_template(path, args.game)
    print(f"{count} messages written to {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
