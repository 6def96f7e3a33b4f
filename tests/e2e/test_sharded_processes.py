"""Two bot processes, one shard each, sharing one PostgreSQL database: the unmodified bot
runs twice as `python -m bot` (NIKA_SHARD_COUNT=2, NIKA_SHARDS=0 and =1) against the
sharded Discord double, with a guild on each shard and two players who belong to both.

A two-player Nika match is played in each guild, both at once. The test checks what a
player of a sharded bot relies on: every acknowledged action is in the log exactly once; a
reminder that falls due is posted once although both processes poll for it; a process
killed with SIGKILL mid-game loses nothing it acknowledged, while the other keeps serving
its guild and still fires the dead one's timers; and the restarted process carries on.

Nothing waits on a clock: the double's wait_* helpers wait for what the bot sends, and the
database is polled (bounded) only for what the double cannot see: an action committed (the
moment to kill its process), and a timer taken with its notice delivered (the two facts that
make a second post impossible).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import signal
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

import asyncpg
import pytest

from bot.storage.migrations import LATEST_VERSION
from engine.nika import City, GameState, describe_events
from tests.bot.discord_harness import LOADING, TIMEOUT, Answer, answer_of
from tests.discord_double import Channel, DiscordDouble, User
from tests.postgres_server import PostgresServer, find_bin_dir, postgres_server

T = TypeVar("T")

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "sharded-e2e.not-a-real-token"
SHARDS = 2
POLL_SECONDS = "0.2"  # NIKA_TIMER_POLL_SECONDS: how soon a process sees a timer another process touched
# Hang guards, not speed checks (speed belongs to bench/): on a quiet machine the scenario takes
# 28–38 s, but two fresh interpreters importing discord.py and Pillow on two busy cores are slower.
START_SECONDS = 90.0
TEST_SECONDS = 180.0  # the whole scenario, processes included
AM, ST = "athens-messene", "sparta-thebes"  # the two teams of a two-player match

# Athens walks west and north two steps a turn; Messene steps j12 aside once; everyone else
# passes. Athens moves every turn, so four double-pass turns in a row (a draw) never happen.
ATHENS = [
    ("move j4 w", "move i4 w"),
    ("move h4 w", "move g4 w"),
    ("move f4 n", "move f5 n"),
    ("move f6 n", "move f7 n"),
]
SCRIPT = [
    action
    for turn, athens in enumerate(ATHENS)
    for action in (*athens, "pass", "pass", "move j12 s" if turn == 0 else "pass", "pass", "pass", "pass")
]


@dataclass
class Match:
    """A match in one guild's channel, with the oracle game and the actions the bot took."""

    shard: int
    channel: Channel
    seats: dict[str, User]  # team -> player
    id: int = 0
    game: GameState = field(default_factory=GameState.start)
    # (player, notation) of every action the bot took, in order: those whose board came back,
    # and the one committed just before its process was killed.
    played: list[tuple[int, str]] = field(default_factory=list)
    interactions: list[int] = field(default_factory=list)
    reminders: int = 0  # reminders posted so far in the channel

    @property
    def guild_id(self) -> int:
        assert self.channel.guild_id is not None
        return self.channel.guild_id

    def player_to_act(self) -> User:
        return self.seats[AM if self.game.to_act in (City.ATHENS, City.MESSENE) else ST]

    def next_action(self) -> str:
        return SCRIPT[self.game.plies - 1]


@dataclass
class BotProcess:
    shard: int
    process: asyncio.subprocess.Process
    stdout: Path
    stderr: Path

    @property
    def running(self) -> bool:
        return self.process.returncode is None


class Fleet:
    """The bot processes of one test; `close` kills any still running, whatever happened."""

    def __init__(self, double: DiscordDouble, database_url: str, folder: Path) -> None:
        self.double = double
        self.database_url = database_url
        self.folder = folder
        self.started: list[BotProcess] = []
        self._runs = itertools.count(1)

    def environment(self, shard: int) -> dict[str, str]:
        # Nothing of the caller's Discord, Nika or PostgreSQL configuration leaks in; no
        # DISCORD_GATEWAY_URL either: the bot learns the gateway from GET /gateway/bot.
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "NIKA_", "BOARDGAME_", "PG"))}
        env.update(
            DISCORD_TOKEN=TOKEN,
            DISCORD_API_BASE=self.double.base_url,
            NIKA_DATABASE=self.database_url,
            NIKA_SHARD_COUNT=str(SHARDS),
            NIKA_SHARDS=str(shard),
            NIKA_TIMER_POLL_SECONDS=POLL_SECONDS,
            NIKA_LOG_LEVEL="INFO",
            NIKA_DEV_GUILD="",  # overrides a developer's .env, if there is one
            NIKA_BOARDS_DIR=str(self.folder / "boards"),
            PYTHONUNBUFFERED="1",
        )
        return env

    async def start(self, shard: int) -> BotProcess:
        run = next(self._runs)
        stdout, stderr = self.folder / f"shard{shard}-run{run}.stdout", self.folder / f"shard{shard}-run{run}.stderr"
        with stdout.open("wb") as out, stderr.open("wb") as err:
            process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", cwd=ROOT, env=self.environment(shard),
                stdin=asyncio.subprocess.DEVNULL,  # no terminal: never fall back to the console
                stdout=out, stderr=err,
            )  # fmt: skip
        bot = BotProcess(shard, process, stdout, stderr)
        self.started.append(bot)
        return bot

    async def stop(self, bot: BotProcess) -> int:
        """SIGTERM, the host's "please stop"; the bot drains, closes and exits 0."""
        bot.process.terminate()
        return await asyncio.wait_for(bot.process.wait(), timeout=TIMEOUT)

    async def close(self) -> None:
        for bot in self.started:
            if bot.running:
                bot.process.kill()
                await bot.process.wait()


@pytest.fixture(scope="module")
def postgres() -> Iterator[PostgresServer]:
    if find_bin_dir() is None:
        message = "PostgreSQL server binaries are missing (apt-get install postgresql)"
        if os.environ.get("CI"):  # CI installs them (.ci/run): there a missing server is a failure
            pytest.fail(message)
        pytest.skip(message)
    with postgres_server() as server:
        yield server


@pytest.fixture
async def double() -> AsyncIterator[DiscordDouble]:
    async with DiscordDouble(token=TOKEN, shard_count=SHARDS, guild_name="Near") as fake:
        yield fake


@pytest.fixture
async def database(postgres: PostgresServer) -> AsyncIterator[tuple[str, asyncpg.Pool]]:
    """A fresh database, and a pool of the test's own connections to look into it (the two
    matches are played at once)."""
    url = postgres.create_database()
    async with asyncpg.create_pool(url, min_size=1, max_size=2) as pool:
        yield url, pool


async def test_two_shard_processes_share_one_database(
    double: DiscordDouble, database: tuple[str, asyncpg.Pool], tmp_path: Path
) -> None:
    url, db = database
    alice, bob = double.add_user("alice"), double.add_user("bob")
    far = double.add_guild("Far", ["lobby"], shard_id=1)
    for player in (alice, bob):
        double.add_member(player, far)
    near = Match(0, double.channel, {AM: alice, ST: bob})
    far_match = Match(1, far.text_channels()[0], {AM: bob, ST: alice})
    fleet = Fleet(double, url, tmp_path)
    try:
        async with asyncio.timeout(TEST_SECONDS):
            await scenario(double, db, fleet, near, far_match)
    finally:
        await fleet.close()
    logs = [(bot.stdout.read_text(), bot.stderr.read_text()) for bot in fleet.started]
    for out_text, err_text in logs:
        check_logs(out_text, err_text)
    # Only the process holding shard 0 syncs the commands; the others use them as they are.
    assert [m for out, _ in logs for m in messages(out) if m == "commands synced"] == ["commands synced"]
    assert "commands synced" in messages(logs[0][0])


async def scenario(double: DiscordDouble, db: asyncpg.Pool, fleet: Fleet, near: Match, far: Match) -> None:
    # Both processes start together on the empty database: each migrates it under the advisory
    # lock, so one does the work and the other finds it done.
    first = {shard: await fleet.start(shard) for shard in range(SHARDS)}
    sessions = await double.wait_shards_ready(timeout=START_SECONDS)
    versions = await db.fetch("SELECT version FROM schema_migrations ORDER BY version")
    assert [row["version"] for row in versions] == list(range(1, LATEST_VERSION + 1))
    assert sorted(tuple(p["shard"]) for p in double.identify_payloads) == [(0, SHARDS), (1, SHARDS)]
    assert double.session_for(near.guild_id) is sessions[0] and double.session_for(far.guild_id) is sessions[1]

    # Reminders also go by DM: a user setting, read by whichever process fires the reminder.
    for player, match in ((near.seats[AM], far), (near.seats[ST], near)):
        reply = await send(double, match, player, "settings", {"dm": "on"})
        assert reply.ephemeral and "direct message" in reply.content

    await asyncio.gather(open_match(double, db, near), open_match(double, db, far))
    for _ in range(len(SCRIPT) // len(ATHENS)):  # one round of turns in each guild, both at once
        await asyncio.gather(act(double, near), act(double, far))
    await check_log(db, near)
    await check_log(db, far)

    # Far's reminder falls due: both processes poll, one takes the timer, one post results.
    await remind(double, db, far, number=1)

    # SIGKILL shard 1's process in the middle of an action: committed, its board being drawn.
    doomed = far.player_to_act()
    in_flight_action = far.next_action()
    in_flight = await double.send_interaction(
        double.slash_command(doomed, far.channel, "nika", *command_of(in_flight_action))
    )
    await until(lambda: committed(db, far), "the action committed", pause=0.005)
    first[1].process.send_signal(signal.SIGKILL)
    assert await first[1].process.wait() == -signal.SIGKILL
    await double.wait_disconnected(shard_id=1, timeout=TIMEOUT)
    # The action is logged once, whether or not its answer got out before the kill; the
    # restarted process must take the match on from there.
    assert await logged_actions(db, far) == [*far.played, (doomed.id, in_flight_action)]
    far.game, _ = far.game.parse_and_apply(in_flight_action)
    far.played.append((doomed.id, in_flight_action))

    # Shard 0's process keeps serving Near, and fires the timers of Far, whose process is dead.
    for _ in range(4):
        await act(double, near)
    await remind(double, db, far, number=2)  # Athens' turn still: its second reminder

    # Shard 1 comes back: a fresh IDENTIFY takes the shard over, and Far's match goes on.
    restarted = await fleet.start(1)
    session = await double.wait_ready(shard_id=1, timeout=START_SECONDS)
    assert session is not sessions[1] and sessions[1].superseded
    for _ in range(4):
        await asyncio.gather(act(double, near), act(double, far))
    delivered = {int(e["id"]) for e in session.events("INTERACTION_CREATE")}
    assert set(far.interactions[-4:]) <= delivered
    await remind(double, db, near, number=1)

    await check_log(db, near)
    await check_log(db, far)
    # Far's two reminders stayed two: the restarted process found nothing left to post.
    assert len(reminders_in(double, far)) == far.reminders == 2
    check_interactions(double, near, far, in_flight)
    for bot in (first[0], restarted):
        assert await fleet.stop(bot) == 0, bot.stderr.read_text()
    await double.wait_disconnected(timeout=TIMEOUT)


# --- playing ---------------------------------------------------------------------------


def command_of(action: str) -> tuple[str, dict[str, str]]:
    return ("pass", {}) if action == "pass" else ("play", {"action": action})


async def send(
    double: DiscordDouble, match: Match, user: User, subcommand: str, options: Mapping[str, str] | None = None
) -> Answer:
    payload = double.slash_command(user, match.channel, "nika", subcommand, dict(options or {}))
    interaction_id = await double.send_interaction(payload)
    match.interactions.append(interaction_id)
    return await answer_of(double, interaction_id)


async def open_match(double: DiscordDouble, db: asyncpg.Pool, match: Match) -> None:
    host, guest = match.seats[AM], match.seats[ST]
    for user, subcommand, options in ((host, "new", {"city": AM}), (guest, "join", {"city": ST}), (host, "start", {})):
        reply = await send(double, match, user, subcommand, options)
        assert not reply.ephemeral, reply.content
    assert reply.content.startswith("The match begins!")
    match.id = await db.fetchval("SELECT id FROM matches WHERE channel_id = $1 AND status = 'active'", match.channel.id)


async def act(double: DiscordDouble, match: Match) -> None:
    """The player to act plays the script's next action; its board post names what happened."""
    user, action = match.player_to_act(), match.next_action()
    after, events = match.game.parse_and_apply(action)
    reply = await send(double, match, user, *command_of(action))
    assert not reply.ephemeral and reply.content.startswith(describe_events(events)), reply.content
    assert len(reply.files) == 1
    match.game = after
    match.played.append((user.id, action))


def answered(double: DiscordDouble, interaction_id: int) -> bool:
    """Whether the player saw the bot's answer (not just a "thinking…" placeholder)."""
    return any(
        m.interaction_id == interaction_id and not m.deleted and not m.payload["flags"] & LOADING
        for m in double.messages.values()
    )


# --- reminders --------------------------------------------------------------------------


async def remind(double: DiscordDouble, db: asyncpg.Pool, match: Match, number: int) -> None:
    """Make the match's reminder due now, as the passing hours would; exactly one post follows
    (the turn's `number`th reminder), in the channel and by DM, whichever process took it."""
    timer_id = await db.fetchval(
        "UPDATE timers SET due = $2 WHERE match_id = $1 AND kind = 'reminder' RETURNING id", match.id, time.time()
    )
    assert timer_id is not None
    waiting = match.player_to_act()
    posted = await double.wait_for_message(
        lambda m: m.channel_id == match.channel.id and "⏰" in m.content and not already_seen(double, match, m.id),
        timeout=TIMEOUT,
    )
    match.reminders += 1
    assert posted.content.startswith(f"⏰ <@{waiting.id}>,") and f"(Reminder {number} of 3;" in posted.content
    # Taken and delivered: with the timer row gone and the outbox empty, no process can post it again.
    await until(lambda: settled(db, match, timer_id), f"reminder timer {timer_id} taken and its notice delivered")
    posts = [
        r
        for r in double.requests
        if r.matches("POST", rf"/channels/{match.channel.id}/messages") and "⏰" in str((r.json or {}).get("content"))
    ]
    assert len(posts) == match.reminders
    assert reminders_in(double, match)[match.reminders - 1 :] == [posted.id]
    jump = f"/channels/{match.guild_id}/{match.channel.id}/{posted.id}"
    dms = [m for m in double.channel_messages(double.dm_channel(waiting)) if m.content.endswith(jump)]
    assert len(dms) == 1 and dms[0].content.startswith(posted.content)


def reminders_in(double: DiscordDouble, match: Match) -> list[int]:
    return [m.id for m in double.channel_messages(match.channel) if "⏰" in m.content]


def already_seen(double: DiscordDouble, match: Match, message_id: int) -> bool:
    return message_id in reminders_in(double, match)[: match.reminders]


async def settled(db: asyncpg.Pool, match: Match, timer_id: int) -> bool | None:
    pending = await db.fetchval(
        # Timers' notices only: a front end's backups (an owner's) come and go with each action.
        "SELECT (SELECT count(*) FROM timers WHERE id = $1) + "
        "(SELECT count(*) FROM outbox WHERE match_id = $2 AND owner IS NULL)",
        timer_id, match.id,
    )  # fmt: skip
    return True if pending == 0 else None


async def until(check: Callable[[], Awaitable[T | None]], what: str, *, pause: float = 0.05) -> T:
    """Poll the database: bounded, and what it waits for either happens or fails the test."""
    try:
        async with asyncio.timeout(TIMEOUT):
            while (result := await check()) is None:
                await asyncio.sleep(pause)
            return result
    except TimeoutError:
        raise TimeoutError(f"timed out waiting for {what}") from None


# --- what the database and the double hold -----------------------------------------------


async def logged_actions(db: asyncpg.Pool, match: Match) -> list[tuple[int, str]]:
    rows = await db.fetch("SELECT kind, user_id, action FROM log WHERE match_id = $1 ORDER BY seq", match.id)
    assert {row["kind"] for row in rows} <= {"action"}, rows
    return [(row["user_id"], row["action"]) for row in rows]


async def committed(db: asyncpg.Pool, match: Match) -> bool | None:
    count = await db.fetchval("SELECT count(*) FROM log WHERE match_id = $1", match.id)
    return True if count > len(match.played) else None


async def check_log(db: asyncpg.Pool, match: Match) -> None:
    """Every action the bot took is in the log once, in the order it was played, and nothing else."""
    assert await logged_actions(db, match) == match.played
    assert await db.fetchval("SELECT status FROM matches WHERE id = $1", match.id) == "active"


def check_interactions(double: DiscordDouble, near: Match, far: Match, in_flight: int) -> None:
    # The only interaction without its answer is the one whose process was killed under it.
    sent = set(near.interactions) | set(far.interactions) | {in_flight}
    assert set(double.interactions) == sent
    assert all(answered(double, i) for i in sent - {in_flight})
    # Each guild's interactions went to the process holding its shard.
    for match in (near, far):
        for interaction_id in match.interactions:
            owners = [
                s.shard_id
                for s in double.sessions.values()
                if interaction_id in {int(e["id"]) for e in s.events("INTERACTION_CREATE")}
            ]
            assert owners == [match.shard]
    assert double.unknown_requests == []
    # A request the kill cut short reaches the double as an aborted one; only the killed action's
    # answer can be one, and nothing else failed.
    cut = [r for r in double.requests if r.aborted]
    assert len(cut) <= 1 and all(str(in_flight) in r.route for r in cut), cut
    assert [r for r in double.requests if r.status >= 300 and not r.aborted] == []
    assert double.internal_errors == []


def messages(out_text: str) -> list[str]:
    return [json.loads(line)["message"] for line in out_text.splitlines() if line.strip()]


def check_logs(out_text: str, err_text: str) -> None:
    assert TOKEN not in out_text and TOKEN not in err_text
    assert "Traceback" not in err_text and "Traceback" not in out_text, err_text or out_text
    for line in out_text.splitlines():
        if line.strip():
            assert json.loads(line)["level"] in ("debug", "info", "warning"), line
