"""The host names no game. No module of engine/, render/ or bot/ outside a game's own files
(where its entry points live: `engine.plugins.source_paths`) names an installed game or its
words — its slug and title, its seats' and sides' slugs and titles, its claim — in code,
strings or comments. The words come from the installed games themselves, so a game
installed tomorrow is checked too, and a list of games written into the host fails here.

A few files must keep one word, each for a stated reason (ALLOWED); nothing else may.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from engine import plugins
from engine.registry import games

ROOT = Path(__file__).resolve().parents[2]
HOST = ("engine", "render", "bot")
ALLOWED: dict[str, tuple[frozenset[str], str]] = {
    # Migrations replay history: the first release's tables held one game's matches, and said so.
    "bot/storage/migrations.py": (
        frozenset({"nika", "athens", "sparta", "messene", "thebes", "athens-messene", "sparta-thebes"}),
        "the first release's schema, which held Nika's matches only, is rebuilt by the migrations after it",
    ),
    "bot/config.py": (frozenset({"nika"}), "the default database file keeps its first name, so an upgrade finds it"),
}
SHORTEST = 3  # one- and two-letter seats ("x", "o") are letters, not names


def words_of_games() -> dict[str, str]:
    """Every word that names an installed game or a thing of it, lower case → the game's slug."""
    found: dict[str, str] = {}
    for game in games():
        words = {game.slug, game.title}
        for players in game.player_counts:
            for seat in game.seats(players):
                words |= {seat.slug, seat.title}
            for side in game.sides(players):
                words |= {side.slug, side.title}
        if game.claim is not None:
            words.add(game.claim.title)
        for word in words:
            if len(word) >= SHORTEST:
                found.setdefault(word.lower(), game.slug)
    return found


def pattern(words: dict[str, str]) -> re.Pattern[str]:
    # Longest first, so "athens-messene" is reported whole; letters or digits may not touch a word.
    alternatives = "|".join(re.escape(word) for word in sorted(words, key=len, reverse=True))
    return re.compile(rf"(?<!\w)({alternatives})(?!\w)", re.IGNORECASE)


def games_own_files() -> list[Path]:
    return [path.resolve() for slug in plugins.names(plugins.GAMES) for path in plugins.source_paths(slug)]


def host_modules() -> Iterator[Path]:
    own = games_own_files()
    for package in HOST:
        for path in sorted((ROOT / package).rglob("*.py")):
            resolved = path.resolve()
            if not any(resolved == mine or mine in resolved.parents for mine in own):
                yield path


def names_in(text: str, words: dict[str, str]) -> list[tuple[int, str]]:
    """(line number, word) of every game word in `text`."""
    found = pattern(words)
    return [(number, match.group(1)) for number, line in enumerate(text.splitlines(), start=1)
            for match in found.finditer(line)]  # fmt: skip


def test_no_host_module_names_a_game() -> None:
    words = words_of_games()
    modules = list(host_modules())
    assert len(modules) > 60  # the whole host was read, not one corner of it
    wrong = []
    for path in modules:
        where = path.relative_to(ROOT).as_posix()
        allowed = ALLOWED.get(where, (frozenset(), ""))[0]
        for number, word in names_in(path.read_text(encoding="utf-8"), words):
            if word.lower() not in allowed:
                wrong.append(f"{where}:{number} names {words[word.lower()]}: {word!r}")
    assert wrong == []


def test_the_check_sees_every_installed_game_and_would_catch_a_list_of_them() -> None:
    words = words_of_games()
    slugs = [game.slug for game in games()]
    assert len(slugs) >= 4 and "tictactoe" in slugs  # the built-in games and the one from outside
    assert {words[slug] for slug in slugs} == set(slugs)
    planted = "BUILT_IN = (" + ", ".join(repr(slug) for slug in slugs) + ")  # " + games()[0].title
    assert [word.lower() for _, word in names_in(planted, words)] == [*slugs, games()[0].title.lower()]
    assert names_in("NIKA_DATABASE, BOARDGAME_GAMES, redraw, x and o", words) == []


def test_the_allow_list_stays_short_and_each_entry_is_still_needed() -> None:
    assert len(ALLOWED) <= 3
    words = words_of_games()
    for where, (allowed, reason) in ALLOWED.items():
        named = {word.lower() for _, word in names_in((ROOT / where).read_text(encoding="utf-8"), words)}
        assert allowed <= named and reason, where  # an entry no longer needed must go


def test_each_games_own_files_are_found_from_its_entry_points() -> None:
    own = {slug: plugins.source_paths(slug) for slug in plugins.names(plugins.GAMES)}
    for slug, paths in own.items():
        assert paths, slug
        for other, theirs in own.items():
            if other != slug:
                assert not set(paths) & set(theirs)
    assert all(ROOT / "tests" / "plugins" in path.parents for path in own["tictactoe"])
