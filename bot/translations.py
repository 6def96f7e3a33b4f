"""Every English message the project shows players, collected from the code, so that each
language's catalogue can be checked (and its template written) against it.

    python -m bot.translations            writes render/locales/messages.pot (for translators)
    python -m bot.translations --check es lists what es.po lacks or gets wrong

It lives in bot/ because the words come from every layer, the command surface included.

Sources: calls of `M(...)`, `P(..., ...)` and `T(..., context)` in engine/, render/ and bot/
(found by Babel's extractor), and the words that come from data rather than calls: every
command, option and choice of every game's command group, and each game's seats, sides
and options.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog as PoFile
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import write_po

from engine.i18n import placeholders

ROOT = Path(__file__).resolve().parents[1]
# Messages (M, P) and Terms (T), collected in separate passes: a Term written without a
# context has the context "term", which Babel cannot know.
KEYWORDS: dict[str, Any] = {"M": None, "P": (1, 2)}
TERMS: dict[str, Any] = {"T": {1: (1,), 2: ((2, "c"), 1)}}
PACKAGES = ("engine", "render", "bot")
Key = tuple[str | None, str]  # (context, English text)


def from_code() -> Iterator[tuple[Key, str | None]]:
    """(context, English) of every M/P/T call with literal text, with a plural form if any."""
    for package in PACKAGES:
        for keywords, default in ((KEYWORDS, None), (TERMS, "term")):
            for _, _, text, _, context in extract_from_dir(
                ROOT / package, method_map=[("**.py", "python")], keywords=keywords, comment_tags=()
            ):
                if isinstance(text, tuple):
                    yield (context or default, text[0]), text[1]
                else:
                    yield (context or default, text), None


def from_data() -> Iterator[tuple[Key, str | None]]:
    """Words that live in data: the command surface of every game, seats, sides and options."""
    from bot.commands.shared import commands_for
    from engine.registry import games

    for game in games():
        if game.slug not in ("nika", "numica", "pikemen"):
            continue  # games registered only by the tests are not translated
        for spec in commands_for(game.slug).values():
            yield ("command", spec.name), None
            yield (None, spec.description), None
            for command_option in spec.options:
                yield ("option", command_option.name), None
                yield (None, command_option.description), None
                for choice in command_option.choices:
                    yield (None, choice.label), None
        for players in game.player_counts:
            for seat in game.seats(players):
                yield ("term", seat.title), None
            for side in game.sides(players):
                yield ("term", side.title), None
        for option in game.options:
            yield (None, option.description), None
            for choice in option.choices:
                yield (None, choice.label), None


def english_messages() -> dict[Key, str | None]:
    found: dict[Key, str | None] = {}
    for key, plural in [*from_code(), *from_data()]:
        if key[1].strip():
            found.setdefault(key, plural)
    return found


def problems(language: str) -> list[str]:
    """What a language's catalogue lacks, or gets wrong (placeholders that differ)."""
    from render.words import po_file

    po = po_file(language)
    wrong = []
    for (context, text), plural in sorted(english_messages().items(), key=lambda item: (item[0][0] or "", item[0][1])):
        entry = po.get(text if plural is None else (text, plural), context=context)
        where = f"[{context}] " if context else ""
        if entry is None or not entry.string or (isinstance(entry.string, tuple) and not all(entry.string)):
            wrong.append(f"missing: {where}{text!r}")
            continue
        wanted = placeholders(text) | (placeholders(plural) if plural else set())
        forms = tuple(entry.string) if isinstance(entry.string, tuple | list) else (str(entry.string),)
        for form in forms:
            if placeholders(form) - wanted or (wanted - {"count"}) - placeholders(form):
                wrong.append(f"placeholders differ: {where}{text!r} → {form!r}")
    return wrong


def write_template(path: Path) -> int:
    pot = PoFile(project="Board-game host", fuzzy=False)
    for (context, text), plural in english_messages().items():
        pot.add(text if plural is None else (text, plural), context=context)
    with path.open("wb") as handle:
        write_po(handle, pot, width=0, sort_output=True, omit_header=False)
    return len(pot)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--check", metavar="LANGUAGE", help="list what a catalogue lacks")
    args = parser.parse_args(argv)
    if args.check:
        found = problems(args.check)
        print("\n".join(found) or f"{args.check}.po is complete")
        return 1 if found else 0
    count = write_template(ROOT / "render" / "locales" / "messages.pot")
    print(f"{count} messages written to render/locales/messages.pot")
    return 0


if __name__ == "__main__":
    sys.exit(main())
