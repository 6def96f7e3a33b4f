"""Abuse of lobbies and ratings, notices that must not be lost, and load from one member:
points 10–18 of the hardening issue, each as the rule a player or an operator relies on."""

from __future__ import annotations

import asyncio
import os
import random
import select
import signal
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.client import BoardGameBot
from bot.clock import ManualClock
from bot.commands.dispatch import Invoker, dispatch
from bot.config import Settings
from bot.dispatcher import ChannelGone, TimerDispatcher
from bot.errors import BoardChanged, ConfirmFirst, NotAllowed, NotInMatch, ServiceError, TooSoon
from bot.replies import Notice
from bot.service import MatchService
from bot.storage import StorageUnavailable, open_storage, outbox, timers
from bot.storage import matches as queries
from bot.storage.matches import NewMatch
from bot.storage.sqlite import SAVE_FAILED, SQLiteStorage
from bot.storage.timers import TimerKind
from tests.bot.conftest import FrontEnd
from tests.bot.discord_harness import Players, running, service_of, slash
from tests.bot.hostile_storage import lock_held_elsewhere
from tests.bot.hostile_surface import stub_renderer
from tests.bot.test_across_days import answered, press
from tests.discord_double import DiscordDouble, StoredMessage

ROOT = Path(__file__).resolve().parents[2]
GUILD, OTHER_GUILD = 1000, 2000
ALICE, BOB, CAROL, EVE, MOD = 11, 22, 33, 55, 66
GAME = "tictactoe"
HOUR, DAY = 3600.0, 86_400.0
SAVED_NOTHING = "The bot cannot save right now; nothing was changed, try again shortly."


class Posts:
    """A service on a hand-moved clock, with the timer task posting into a list."""

    def __init__(self, service: MatchService, clock: ManualClock) -> None:
        self.service = FrontEnd(service)  # every reply posted, as the bot's front ends do
        self.clock = clock
        self.posted: list[tuple[Notice, str]] = []
        self.failures: list[Exception] = []  # raised by the next posts, one each
        self.dispatcher = TimerDispatcher(service, self.announce)

    async def announce(self, notice: Notice, nonce: str) -> int | None:
        if self.failures:
            raise self.failures.pop(0)
        self.posted.append((notice, nonce))
        return 900_000 + len(self.posted)

    async def after(self, seconds: float) -> list[str]:
        seen = len(self.posted)
        await self.clock.advance(seconds)
        await self.dispatcher.settled()
        return [str(notice.reply.text) for notice, _ in self.posted[seen:]]


async def open_service(path: str, clock: ManualClock | None = None, **options: Any) -> MatchService:
    return MatchService(await open_storage(path), renderer=stub_renderer, clock=clock or ManualClock(),
                        **options)  # fmt: skip


@pytest.fixture
async def posts(tmp_path: Path) -> AsyncIterator[Posts]:
    clock = ManualClock()
    service = await open_service(str(tmp_path / "hardening.db"), clock)
    harness = Posts(service, clock)
    harness.dispatcher.start()
    yield harness
    await harness.dispatcher.stop()
    await service.close()


def who(user: int, channel: int = 1, *, guild: int = GUILD, manage: bool = False, limited: bool = True) -> Invoker:
    return Invoker(guild, channel, user, can_manage=manage, rate_limited=limited)


async def lobby(service: MatchService, channel: int, creator: int = ALICE, *, guild: int = GUILD) -> None:
    await service.new_match(guild, channel, creator, "x", game=GAME)


async def started(service: MatchService, channel: int, **options: Any) -> None:
    await service.new_match(GUILD, channel, ALICE, "x", game=GAME, **options)
    await service.join(channel, BOB, "o")
    await service.posted(await service.start(channel, ALICE), None)  # its board posted


async def status(service: MatchService, channel: int) -> tuple[str, bool]:
    row, _ = await service.match_in(channel) or (None, None)
    assert row is not None
    return row.status, row.rated


# --- 10. lobby squatting --------------------------------------------------------------------
async def test_a_lobby_nobody_starts_expires_after_seven_days_and_frees_the_channel(posts: Posts) -> None:
    await lobby(posts.service, 1)
    assert await posts.after(7 * DAY - 60) == []
    [said] = await posts.after(60)
    assert "lobby expired after 7 days without a start" in said
    assert await status(posts.service, 1) == ("aborted", True)
    await lobby(posts.service, 1, BOB)  # the channel is free again


async def test_the_lobby_lifetime_and_the_lobby_cap_are_settings(tmp_path: Path) -> None:
    settings = Settings.load({"NIKA_LOBBY_DAYS": "2", "NIKA_LOBBIES_PER_MEMBER": "1"}, env_file=tmp_path / "none")
    assert (settings.lobby_days, settings.lobbies_per_member) == (2, 1)
    with pytest.raises(ValueError, match="NIKA_LOBBY_DAYS must be a whole number from 1 to 365"):
        Settings.load({"NIKA_LOBBY_DAYS": "²"}, env_file=tmp_path / "none")
    clock = ManualClock()
    service = await open_service(str(tmp_path / "short.db"), clock, lobby_days=2, lobbies_per_member=1)
    harness = Posts(service, clock)
    harness.dispatcher.start()
    try:
        await lobby(service, 1)
        with pytest.raises(NotAllowed, match="you already have 1 open lobbies"):
            await lobby(service, 2)
        [said] = await harness.after(2 * DAY)
        assert "expired after 2 days" in said
        await lobby(service, 2)  # the expired lobby no longer counts
    finally:
        await harness.dispatcher.stop()
        await service.close()


async def test_a_started_match_never_expires_as_a_lobby(posts: Posts) -> None:
    await lobby(posts.service, 1)
    await posts.service.join(1, BOB, "o")
    await posts.after(6 * DAY)
    await posts.service.start(1, ALICE)
    said = await posts.after(3 * DAY)
    assert not any("expired" in text for text in said)
    assert await status(posts.service, 1) == ("active", True)


async def test_a_member_holds_at_most_three_open_lobbies_per_server(posts: Posts) -> None:
    for channel in (1, 2, 3):
        await lobby(posts.service, channel)
    before = await timers_and_matches(posts.service)
    with pytest.raises(NotAllowed, match="you already have 3 open lobbies on this server: start or abort one"):
        await dispatch(posts.service, who(ALICE, 4), GAME, "new", {"seat": "x"})
    assert await timers_and_matches(posts.service) == before
    await lobby(posts.service, 5, guild=OTHER_GUILD)  # another server counts apart
    await lobby(posts.service, 6, BOB)  # and so does another member
    await posts.service.abort(1, ALICE)
    await lobby(posts.service, 4)


async def test_a_member_with_manage_channels_clears_any_lobby(posts: Posts) -> None:
    await lobby(posts.service, 1)
    with pytest.raises(NotAllowed, match="only the lobby's creator or someone with Manage Channels"):
        await dispatch(posts.service, who(EVE), GAME, "abort", {})
    cleared = await dispatch(posts.service, who(MOD, manage=True), GAME, "abort", {})
    assert "aborted the match" in str(cleared.text)
    assert (await status(posts.service, 1))[0] == "aborted"
    async with posts.service.storage.reading() as db:
        row = await queries.latest_match_in(db, 1)
        assert row is not None and await timers.of_match(db, row.id) == []  # no expiry left to fire


async def timers_and_matches(service: MatchService) -> tuple[Any, ...]:
    async with service.storage.reading() as db:
        return (await db.fetchall("SELECT * FROM matches"), await db.fetchall("SELECT kind, due FROM timers"))


# --- 11. dodging a rated loss ------------------------------------------------------------------
async def test_a_player_cannot_abort_a_started_match_resign_instead(posts: Posts) -> None:
    await started(posts.service, 1)
    await posts.service.act(1, ALICE, "a1")
    for player in (ALICE, BOB):
        with pytest.raises(NotAllowed, match="the match has started: resign instead"):
            await dispatch(posts.service, who(player), GAME, "abort", {})
    with pytest.raises(NotAllowed, match="only someone with Manage Channels can abort a started match"):
        await dispatch(posts.service, who(EVE), GAME, "abort", {})
    assert await status(posts.service, 1) == ("active", True)


async def test_a_moderator_aborts_a_started_match_unrated(posts: Posts) -> None:
    await started(posts.service, 1)
    with pytest.raises(ConfirmFirst, match="Aborting ends this match for every player"):  # a moderator is asked too
        await dispatch(posts.service, who(MOD, manage=True), GAME, "abort", {})
    assert await status(posts.service, 1) == ("active", True)
    aborted = await dispatch(posts.service, who(MOD, manage=True), GAME, "abort", {})  # again: confirmed
    assert "It is not rated" in str(aborted.text)
    assert await status(posts.service, 1) == ("aborted", False)
    assert await posts.service.standings(GUILD, GAME) == []


async def test_a_player_who_leaves_a_started_match_resigns_and_loses(posts: Posts) -> None:
    await started(posts.service, 1)
    for user, square in ((ALICE, "a1"), (BOB, "b1"), (ALICE, "c3"), (BOB, "b3")):  # played enough to be rated
        await posts.service.act(1, user, square)
    with pytest.raises(ConfirmFirst, match="Resigning ends the match as a loss for O"):
        await dispatch(posts.service, who(BOB), GAME, "leave", {})
    left = await dispatch(posts.service, who(BOB), GAME, "leave", {})  # again within a minute: confirmed
    assert "resigned" in str(left.text)
    assert await status(posts.service, 1) == ("finished", True)
    table = {s.user_id: s for s in await posts.service.standings(GUILD, GAME)}
    assert (table[ALICE].wins, table[BOB].losses) == (1, 1)


# --- 12. the creator who left ---------------------------------------------------------------------
async def test_creator_rights_pass_to_a_seated_player_when_the_creator_leaves(posts: Posts) -> None:
    await lobby(posts.service, 1)
    await posts.service.join(1, BOB, "o")
    left = await dispatch(posts.service, who(ALICE), GAME, "leave", {})
    assert f"<@{BOB}> now runs the lobby" in str(left.text)
    await posts.service.join(1, CAROL, "x")
    with pytest.raises(NotInMatch, match="only a seated player can start"):
        await dispatch(posts.service, who(ALICE), GAME, "start", {})
    with pytest.raises(NotAllowed, match="only the lobby's creator"):
        await dispatch(posts.service, who(ALICE), GAME, "abort", {})
    with pytest.raises(NotInMatch, match="only this match's players can change its settings"):
        await dispatch(posts.service, who(ALICE), GAME, "settings", {"deadline": "3"})
    with pytest.raises(ServiceError):
        await posts.service.join(1, ALICE, "x", computer="easy")
    await dispatch(posts.service, who(BOB), GAME, "settings", {"deadline": "1"})
    await dispatch(posts.service, who(BOB), GAME, "start", {})
    assert await status(posts.service, 1) == ("active", True)


# --- 13. settings racing the start -------------------------------------------------------------
async def test_the_deadline_timer_follows_the_settings_in_every_order_of_events(tmp_path: Path) -> None:
    """Two services on one file (two processes, as far as SQLite can tell): one changes the
    deadline while the other starts, in random orders. Whatever wins, an active match has a
    deadline timer exactly when its settings have a deadline, due a deadline after its turn began."""
    path = str(tmp_path / "race.db")
    clock = ManualClock()
    first = await open_service(path, clock, lobbies_per_member=1000)
    second = await open_service(path, clock, lobbies_per_member=1000)
    rng = random.Random(13)
    outcomes: dict[str, int] = {}
    try:
        for trial in range(120):
            channel = 100 + trial
            await first.new_match(GUILD, channel, ALICE, "x", game=GAME, deadline_days=rng.choice([None, 1, 2]))
            await first.join(channel, BOB, "o")
            deadline = rng.choice(["none", "1", "3", "7"])
            changing, starting = rng.choice([first, second]), rng.choice([first, second])
            delays = (rng.random() * 0.003, rng.random() * 0.003)
            results = await asyncio.gather(
                change_deadline(changing, channel, deadline, delays[0]), start_match(starting, channel, delays[1])
            )
            outcomes[" + ".join(results)] = outcomes.get(" + ".join(results), 0) + 1
            async with first.storage.reading() as db:
                row = await queries.latest_match_in(db, channel)
                assert row is not None and row.status == "active"
                due = [t.due for t in await timers.of_match(db, row.id) if t.kind is TimerKind.DEADLINE]
            expected = [row.turn_started_at + row.deadline_days * DAY] if row.deadline_days else []
            assert due == expected, (trial, results, row.deadline_days, due)
            if results[0] == "changed":
                assert row.deadline_days == (None if deadline == "none" else int(deadline)), (trial, results)
    finally:
        await first.close()
        await second.close()
    assert len(outcomes) >= 2, outcomes  # the orders really did vary


async def change_deadline(service: MatchService, channel: int, days: str, delay: float) -> str:
    await asyncio.sleep(delay)
    try:
        await dispatch(service, who(ALICE, channel, limited=False), GAME, "settings", {"deadline": days})
        return "changed"
    except (BoardChanged, NotAllowed):
        return "settings refused"


async def start_match(service: MatchService, channel: int, delay: float) -> str:
    await asyncio.sleep(delay)
    try:
        await dispatch(service, who(BOB, channel, limited=False), GAME, "start", {})
        return "started"
    except BoardChanged:
        await dispatch(service, who(BOB, channel, limited=False), GAME, "start", {})  # a player tries again
        return "started on the second try"


# --- 14. notices are delivered at least once -----------------------------------------------------
async def test_a_notice_whose_post_failed_is_posted_again_with_the_same_nonce(posts: Posts) -> None:
    await started(posts.service, 1, deadline_days=1)
    posts.failures = [RuntimeError("Discord answered 503")]
    assert await posts.after(DAY) == []  # the turn ran out (in tic-tac-toe, a loss); the post failed
    [again] = await posts.after(5)  # the first back-off
    assert "turn ran out (the 1-day deadline)" in again
    [(_, nonce)] = posts.posted
    assert nonce.startswith("o")
    assert await posts.after(600) == []  # delivered once: nothing is left to post
    assert await timeouts_logged(posts.service, 1) == 1


async def timeouts_logged(service: MatchService, channel: int) -> int:
    async with service.storage.reading() as db:
        row = await queries.latest_match_in(db, channel)
        assert row is not None
        return sum(1 for entry in await queries.log_of(db, row.id) if entry.kind == "timeout")


def test_a_sigkill_between_a_timers_effect_and_its_notice_loses_no_notice(tmp_path: Path) -> None:
    path = str(tmp_path / "killed.db")
    start = 1_800_000_000.0

    async def prepare() -> None:
        service = await open_service(path, ManualClock(start))
        await started(service, 1, deadline_days=1)
        await service.close()

    asyncio.run(prepare())
    child = subprocess.Popen([sys.executable, "-m", "tests.bot.hostile_timer_child", path, str(start + DAY + 1)],
                             cwd=ROOT, stdout=subprocess.PIPE, text=True)  # fmt: skip
    assert child.stdout is not None
    try:
        ready, _, _ = select.select([child.stdout], [], [], 20)
        assert ready, "the child never reached the post"
        line = child.stdout.readline().split()
        assert line[:1] == ["posting"], line
    finally:
        os.kill(child.pid, signal.SIGKILL)  # after the effect committed, before Discord took the post
        child.wait()
    assert child.returncode == -signal.SIGKILL
    nonce_before_the_kill = line[1]

    async def restart() -> None:
        clock = ManualClock(start + DAY + 2)
        service = await open_service(path, clock)
        harness = Posts(service, clock)
        assert await timeouts_logged(service, 1) == 1  # the effect is stored, once
        harness.dispatcher.start()
        try:
            await harness.dispatcher.settled()
            assert harness.posted == []  # the killed process still holds the notice's lease…
            await harness.after(outbox.LEASE_SECONDS)  # …until it runs out: then this one posts it
            [(notice, nonce)] = harness.posted
            assert "turn ran out (the 1-day deadline)" in str(notice.reply.text)
            assert nonce == nonce_before_the_kill  # the same post: Discord's nonce makes a repeat harmless
            assert await timeouts_logged(service, 1) == 1  # the timer did not fire twice
            async with service.storage.reading() as db:
                assert await outbox.due(db, clock.now() + 10 * DAY) == []
        finally:
            await harness.dispatcher.stop()
            await service.close()

    asyncio.run(restart())


async def test_a_board_after_a_button_is_posted_by_the_outbox_if_the_front_end_cannot(posts: Posts) -> None:
    service = posts.service.raw  # the front end's part is played by hand here
    await started(service, 1)
    reply = await service.act(1, ALICE, "a1")
    assert reply.notice_id is not None and reply.image is not None
    assert await posts.after(19) == []  # the front end has 20 s to post it itself
    [backup] = await posts.after(1)  # it did not (its followup failed, or the process died)
    assert backup.startswith("X marked a1")
    [(notice, _)] = posts.posted[-1:]
    assert notice.reply.image is not None and notice.reply.mentions == (BOB,)  # its board, drawn again
    posted = await service.act(1, BOB, "b2")
    await service.posted(posted, 123)  # this time the front end posted it
    assert await posts.after(60) == []


# --- 16. deleted channels ---------------------------------------------------------------------------
async def test_a_deleted_channel_ends_its_match_unrated_and_stops_its_timers(posts: Posts) -> None:
    await started(posts.service, 1, deadline_days=2)
    posts.failures = [ChannelGone()]
    [told] = await posts.after(DAY)  # the first reminder finds the channel gone; the players are told by DM
    assert told.startswith("Your Tic-tac-toe match in <#1> has ended: its channel was deleted.")
    assert await status(posts.service, 1) == ("aborted", False)
    async with posts.service.storage.reading() as db:
        row = await queries.latest_match_in(db, 1)
        assert row is not None and row.end_reason == "channel deleted"
        assert await timers.of_match(db, row.id) == []
        assert await outbox.next_attempt(db) is None
    assert await posts.after(30 * DAY) == []


# --- 17. many matches in /mygames -----------------------------------------------------------------
SNOWFLAKE = 1_234_567_890_123_456_789


async def many_turns(service: MatchService, count: int) -> None:
    """`count` matches where it is alice's turn, written straight to storage (the lobby would take long)."""
    async with service.storage.transaction() as db:
        for number in range(count):
            match_id = await queries.insert_match(db, NewMatch(
                game=GAME, guild_id=SNOWFLAKE, channel_id=SNOWFLAKE + number, creator_id=SNOWFLAKE + 1, players=2,
                start_position=".../.../... x", to_act="x", rated=True, now=float(number), options={"first": "x"},
                seed=number, deadline_days=None, parent_channel_id=None,
            ))  # fmt: skip
            await queries.take_seats(db, match_id, ["x"], user_id=SNOWFLAKE + 1, computer=None)
            await queries.take_seats(db, match_id, ["o"], user_id=SNOWFLAKE + 2, computer=None)
            await queries.update_match(db, match_id, status="active", board_message_id=SNOWFLAKE + 10_000 + number)


async def test_mygames_with_five_hundred_matches_lists_some_and_says_how_many_more(tmp_path: Path) -> None:
    service = await open_service(str(tmp_path / "many.db"))
    try:
        await many_turns(service, 500)
        reply = await dispatch(service, Invoker(SNOWFLAKE, SNOWFLAKE, SNOWFLAKE + 1), GAME, "mygames", {})
    finally:
        await service.close()
    text = str(reply.text)
    shown = text.count("Tic-tac-toe: X to act")
    assert len(text) <= 2000 and shown >= 5
    assert text.rstrip().endswith(f"…and {500 - shown} more, not shown.")


async def test_mygames_with_short_ids_lists_twenty_and_counts_the_rest(tmp_path: Path) -> None:
    service = await open_service(str(tmp_path / "many.db"))
    try:
        await many_turns(service, 500)
        async with service.storage.transaction() as db:  # ids as small as the tests' own
            await db.execute("UPDATE matches SET guild_id = 1, channel_id = id, board_message_id = NULL")
            await db.execute("UPDATE seats SET user_id = 7 WHERE seat = 'x'")
        reply = await dispatch(service, Invoker(1, 1, 7), GAME, "mygames", {})
    finally:
        await service.close()
    text = str(reply.text)
    assert text.count("Tic-tac-toe: X to act") == 20 and "…and 480 more, not shown." in text
    assert len(text) <= 2000


# --- 18. cooldowns on expensive reads ---------------------------------------------------------------
async def test_expensive_reads_have_a_per_member_cooldown_the_console_has_not(
    posts: Posts, monkeypatch: pytest.MonkeyPatch
) -> None:
    now = [1000.0]
    monkeypatch.setattr("bot.service.cooldowns.time.monotonic", lambda: now[0])
    await started(posts.service, 1)
    for _ in range(3):  # a few at once
        await dispatch(posts.service, who(EVE), GAME, "board", {})
    before = await timers_and_matches(posts.service)
    with pytest.raises(TooSoon, match="you can use /tictactoe board again in 5 s"):
        await dispatch(posts.service, who(EVE), GAME, "board", {})
    assert await timers_and_matches(posts.service) == before
    await dispatch(posts.service, who(BOB), GAME, "board", {})  # another member is not slowed
    await dispatch(posts.service, who(EVE), GAME, "history", {})  # nor another read
    for _ in range(10):
        await dispatch(posts.service, who(EVE, limited=False), GAME, "board", {})  # the console is exempt
    await dispatch(posts.service, who(ALICE), GAME, "play", {"action": "a1"})  # actions never wait
    now[0] += 5.0
    await dispatch(posts.service, who(EVE), GAME, "board", {})
    with pytest.raises(TooSoon):
        await dispatch(posts.service, who(EVE), GAME, "board", {})


# --- 15, 16 and the lock, through the Discord double -------------------------------------------
@pytest.fixture
async def live(
    double: DiscordDouble, players: Players, tmp_path: Path
) -> AsyncIterator[tuple[BoardGameBot, ManualClock]]:
    """The real bot on the double, with a hand-moved clock (failures are logged on purpose here)."""
    clock = ManualClock()
    async with running(double, str(tmp_path / "live.db"), clock=clock) as bot:
        yield bot, clock


async def a_board(double: DiscordDouble, bot: BoardGameBot, p: Players) -> StoredMessage:
    service, guild, channel = service_of(bot), double.guild.id, double.channel.id
    await service.new_match(guild, channel, p.alice.id, "x", game=GAME)
    await service.join(channel, p.bob.id, "o")
    await service.start(channel, p.alice.id)
    return (await slash(double, p.alice, "board", group=GAME)).message


@pytest.mark.parametrize(
    ("failure", "said"),
    [
        (RuntimeError("a bug"), "Something went wrong on my side. Check /tictactoe board before trying again."),
        (StorageUnavailable(SAVE_FAILED, writing=True), SAVED_NOTHING),
    ],
    ids=["unexpected", "storage"],
)
async def test_a_button_that_fails_still_gets_a_private_answer(
    double: DiscordDouble, players: Players, live: tuple[BoardGameBot, ManualClock], monkeypatch: pytest.MonkeyPatch,
    failure: Exception, said: str,
) -> None:  # fmt: skip
    bot, _ = live
    board = await a_board(double, bot, players)

    async def fails(*args: Any, **kwargs: Any) -> Any:
        raise failure

    monkeypatch.setattr(service_of(bot), "panel_actions", fails)
    [play, *_] = board.custom_ids()
    record = await press(double, players.alice, board, play)
    answer = await answered(double, record)
    assert answer.ephemeral and answer.content == said


async def test_a_move_behind_another_process_lock_is_deferred_then_refused_privately(
    double: DiscordDouble, players: Players, live: tuple[BoardGameBot, ManualClock]
) -> None:
    bot, _ = live
    await a_board(double, bot, players)
    storage = service_of(bot).storage
    assert isinstance(storage, SQLiteStorage)
    storage.write_wait = 3.0  # the bot waits WRITE_WAIT_SECONDS; a shorter window here
    with lock_held_elsewhere(storage.location):
        answer = await slash(double, players.alice, "play", {"action": "a1"}, group=GAME)
    assert answer.deferred  # "thinking…" within Discord's 3 s, then the answer
    assert answer.ephemeral and answer.content == SAVED_NOTHING
    assert (await slash(double, players.alice, "play", {"action": "a1"}, group=GAME)).content.startswith("X marked a1")


async def test_discord_reporting_the_channel_unknown_suspends_the_match(
    double: DiscordDouble, players: Players, live: tuple[BoardGameBot, ManualClock]
) -> None:
    bot, clock = live
    service, gone = service_of(bot), 4_242_424_242  # a channel Discord no longer knows
    await service.new_match(double.guild.id, gone, players.alice.id, "x", game=GAME)
    await service.join(gone, players.bob.id, "o")
    await service.start(gone, players.alice.id)
    assert bot.timers is not None
    await clock.advance(DAY)  # the first reminder is due, to a channel that is gone
    await bot.timers.settled()
    assert await status(service, gone) == ("aborted", False)
    async with service.storage.reading() as db:
        row = await queries.latest_match_in(db, gone)
        assert row is not None and await timers.of_match(db, row.id) == []
