"""A server owner chooses which installed games the bot hosts: BOARDGAME_GAMES=nika,numica (or
the first release's NIKA_GAMES), every installed game when empty. Only the chosen games get a
command group, on Discord and in the console; a name that is not installed is refused at
start-up, saying what is installed."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import Settings
from bot.console import Console
from bot.errors import ServiceError
from bot.service import MatchService
from bot.storage import matches as queries
from bot.storage import timers
from bot.storage.matches import NewMatch
from bot.storage.timers import TimerKind
from engine.registry import installed_slugs
from tests.bot.discord_harness import running
from tests.discord_double import DiscordDouble


def load(tmp_path: Path, **environ: str) -> Settings:
    return Settings.load(environ, env_file=tmp_path / "none")


def test_the_hosted_games_are_chosen_by_name_in_either_spelling(tmp_path: Path) -> None:
    assert load(tmp_path).games is None and load(tmp_path).hosted() == installed_slugs()
    assert "tictactoe" in installed_slugs()  # the game from outside the host is hosted by default
    assert load(tmp_path, NIKA_GAMES="nika,numica").hosted() == ("nika", "numica")
    assert load(tmp_path, BOARDGAME_GAMES=" Numica , nika ,").hosted() == ("numica", "nika")
    assert load(tmp_path, BOARDGAME_GAMES="nika", NIKA_GAMES="nika").hosted() == ("nika",)


@pytest.mark.parametrize(
    ("environ", "said"),
    [
        ({"BOARDGAME_GAMES": "nika,chess"}, "BOARDGAME_GAMES names chess: the installed games are nika, numica, "),
        ({"NIKA_GAMES": ","}, "NIKA_GAMES names no game"),
        ({"BOARDGAME_GAMES": "nika", "NIKA_GAMES": "numica"}, "BOARDGAME_GAMES and NIKA_GAMES are both set"),
        ({"BOARDGAME_DATABASE": "a.db", "NIKA_DATABASE": "b.db"}, "set only one"),
    ],
)
def test_a_choice_that_cannot_be_hosted_is_refused_at_start_up(tmp_path: Path, environ: dict[str, str],
                                                               said: str) -> None:  # fmt: skip
    with pytest.raises(ValueError, match=said):
        load(tmp_path, **environ)


def test_settings_read_the_neutral_names_and_the_first_releases(tmp_path: Path) -> None:
    neutral = load(tmp_path, BOARDGAME_DATABASE="x.db", BOARDGAME_LOBBY_DAYS="2", BOARDGAME_SHARD_COUNT="2")
    first = load(tmp_path, NIKA_DATABASE="x.db", NIKA_LOBBY_DAYS="2", NIKA_SHARD_COUNT="2")
    assert neutral == first and (neutral.database, neutral.lobby_days, neutral.shard_ids) == ("x.db", 2, (0, 1))
    with pytest.raises(ValueError, match="BOARDGAME_SHARDS needs BOARDGAME_SHARD_COUNT"):
        load(tmp_path, BOARDGAME_SHARDS="0")


async def test_only_the_chosen_games_get_a_command_group_on_discord(tmp_path: Path) -> None:
    async with DiscordDouble(token="cog-test-token.not-a-real-one") as double:
        async with running(double, str(tmp_path / "games.db"), games=("numica", "tictactoe")) as bot:
            assert sorted(bot.game_cogs) == ["numica", "tictactoe"]
        # The games' groups and the events' group (bot/commands/tournament.py).
        registered = sorted(command["name"] for command in double.registered_commands())
        assert registered == ["numica", "tictactoe", "tournament"]


async def test_the_console_offers_only_the_chosen_games(service: MatchService, tmp_path: Path) -> None:
    lines: list[str] = []
    console = Console(service, tmp_path / "boards", out=lines.append, games=("tictactoe",))
    await console.load_names()
    assert await console.handle("/nika new city:athens")
    assert lines[-1] == "✗ commands start with a game: /tictactoe (e.g. /tictactoe help)"
    assert await console.handle("/tictactoe new seat:x")
    assert "opened a Tic-tac-toe match" in lines[-1]


async def test_a_match_of_a_game_left_out_is_still_finished_or_aborted(service: MatchService, tmp_path: Path) -> None:
    """Leaving a game out takes away its commands, not its matches: the board's buttons still play
    (the service acts on the channel's match whatever the group), and a moderator aborts it."""
    await service.new_match(1, 5, 11, "x", game="tictactoe")
    await service.join(5, 22, "o")
    await service.start(5, 11)
    lines: list[str] = []
    console = Console(service, tmp_path / "boards", out=lines.append, games=("nika",))
    await console.load_names()
    assert await console.handle("channel 5") and await console.handle("manage on")
    assert await console.handle("/nika board")
    assert "Match #1 of Tic-tac-toe, action 0." in lines[-2]
    assert await console.handle("/nika abort")
    assert "Send the same command again within a minute to confirm" in lines[-1]  # a moderator is asked too
    assert await console.handle("/nika abort")
    assert "aborted the match. It is not rated." in lines[-1]


async def test_a_match_of_a_game_no_longer_installed_is_refused_politely_and_a_moderator_aborts_it(
    service: MatchService,
) -> None:
    """A game package uninstalled while its matches live on: every command in the channel says
    so (nothing breaks, nothing is guessed), its timers wait a day, and a moderator frees the
    channel; the member's other matches still show in /mygames."""
    async with service.storage.transaction() as db:
        gone = await queries.insert_match(db, NewMatch("chess", 1000, 7, 11, 2, "start", "white", True, 0.0))
        await queries.take_seats(db, gone, ["white"], user_id=11, computer=None)
        await queries.update_match(db, gone, status="active")
        await timers.schedule(db, gone, TimerKind.REMINDER, 0.0, 0.0)
    await service.new_match(1000, 8, 11, "x", game="tictactoe")
    said = "match #1 is a match of chess, which is not installed here: someone with Manage Channels can abort it"
    for attempt in (service.board(7, 11), service.act(7, 11, "e4"), service.abort(7, 11)):
        with pytest.raises(ServiceError, match=said):
            await attempt
    timer = await service.next_timer()
    assert timer is not None and timer.match_id == gone
    assert not await service.fire_timer(timer)
    later = await service.next_timer()
    assert later is not None and later.due >= service.clock.now() + 86_000  # tried again in a day, not every minute
    assert await service.my_turns(1000, 11) == []  # the tic-tac-toe lobby is not a turn; nothing failed
    aborted = await service.abort(7, 99, can_manage=True)
    assert "aborted the match. It is not rated." in aborted.text
    async with service.storage.reading() as db:
        row = await queries.match_by_id(db, gone)
    assert row is not None and row.status == "aborted" and not row.rated
    opened = await service.new_match(1000, 7, 11, "x", game="tictactoe")  # the channel is free again
    assert "opened a Tic-tac-toe match" in opened.text
