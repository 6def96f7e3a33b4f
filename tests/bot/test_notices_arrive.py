"""Every notice arrives: what the bot stored, the channel hears about, once.

- Nonces are unique for the life of the database, on both backends, also after a restart and
  after a restore from a backup (the Discord double answers a repeated nonce with the earlier
  message and creates nothing, as Discord does, so a repeat would be a lost notice).
- Every committed action reaches the channel at least once, on every path: a front end that
  cannot post its reply (a dead process, a refused followup) leaves it to the outbox.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from bot.clock import ManualClock
from bot.dispatcher import TimerDispatcher
from bot.replies import Notice, Reply
from bot.service import MatchService
from bot.service.notices import notice_json
from bot.storage import matches as queries
from bot.storage import open_storage, outbox
from bot.storage.sqlite import SQLiteStorage
from tests.bot.conftest import FrontEnd
from tests.bot.discord_harness import TIMEOUT, TOKEN, Players, slash
from tests.bot.hostile_surface import stub_renderer
from tests.discord_double import DiscordDouble
from tests.postgres_server import PostgresServer

GUILD, CHANNEL = 1000, 77


class Delivered:
    """Notices the timer task posted: their nonces and texts, in order."""

    def __init__(self) -> None:
        self.nonces: list[str] = []
        self.texts: list[str] = []

    async def announce(self, notice: Notice, nonce: str) -> int:
        self.nonces.append(nonce)
        self.texts.append(notice.reply.text)
        return 5_000 + len(self.nonces)


async def post_notices(location: str, delivered: Delivered, first: int, count: int) -> None:
    """Store `count` notices, 20 at a time, each batch posted (and deleted) before the next."""
    clock = ManualClock()
    service = MatchService(await open_storage(location), renderer=stub_renderer, clock=clock)
    dispatcher = TimerDispatcher(service, delivered.announce)
    dispatcher.start()
    try:
        for batch in range(first, first + count, 20):
            async with service.storage.transaction() as db:
                for number in range(batch, min(batch + 20, first + count)):
                    text = notice_json(Notice(GUILD, CHANNEL, Reply(f"notice {number}")))
                    await outbox.add(db, None, GUILD, CHANNEL, text, clock.now())
            await dispatcher.settled()
    finally:
        await dispatcher.stop()
        await service.close()


Backup = Callable[[], Awaitable[Callable[[], str]]]


def backup_of(location: str, tmp_path: Path, request: pytest.FixtureRequest) -> Backup:
    """A way to back the database up now, giving a way to restore that copy later (the operator's
    steps: `python -m bot backup` and a file copy for SQLite; a copy of the database for PostgreSQL)."""
    if not location.startswith("postgresql://"):

        async def sqlite_backup() -> Callable[[], str]:
            storage = await SQLiteStorage.open(location)
            copy = tmp_path / "backup.db"
            try:
                await storage.backup(copy)
            finally:
                await storage.close()

            def restore() -> str:
                for suffix in ("-wal", "-shm"):
                    Path(location + suffix).unlink(missing_ok=True)
                shutil.copyfile(copy, location)
                return location

            return restore

        return sqlite_backup
    server: PostgresServer = request.getfixturevalue("postgres")
    name = location.rsplit("/", 1)[1]

    async def postgres_backup() -> Callable[[], str]:
        server.sql(f'CREATE DATABASE "{name}_copy" TEMPLATE "{name}"')  # nobody is connected: a snapshot
        return lambda: server.url_for(f"{name}_copy")

    return postgres_backup


async def test_nonces_never_repeat_across_restarts_and_a_restore_from_backup(
    db_path: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    delivered = Delivered()
    await post_notices(db_path, delivered, 0, 120)
    restore = await backup_of(db_path, tmp_path, request)()
    await post_notices(db_path, delivered, 120, 60)  # after the backup: ids the copy has not seen
    await post_notices(db_path, delivered, 180, 60)  # a restart
    restored = restore()  # the operator puts the backup back in place
    await post_notices(restored, delivered, 240, 60)
    assert delivered.texts == [f"notice {n}" for n in range(300)]  # each posted once, in order
    repeated = sorted({n for n in delivered.nonces if delivered.nonces.count(n) > 1})
    assert repeated == [], f"{len(repeated)} nonces repeat, e.g. {repeated[:5]}"
    assert all(len(nonce) <= 25 for nonce in delivered.nonces)  # Discord's limit


# --- a slash command's answer in flight when the process dies ------------------------------------
ROOT = Path(__file__).resolve().parents[2]
START_SECONDS = 30.0


class BotProcess:
    """`python -m bot` against the double, on the test's database: started, killed, restarted."""

    def __init__(self, double: DiscordDouble, database: str, folder: Path) -> None:
        self.double, self.database, self.folder = double, database, folder
        self.process: asyncio.subprocess.Process | None = None
        self.runs = 0

    async def start(self) -> None:
        self.runs += 1
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "NIKA_", "PG"))}
        env.update(DISCORD_TOKEN=TOKEN, DISCORD_API_BASE=self.double.base_url, NIKA_DATABASE=self.database,
                   NIKA_DEV_GUILD="", NIKA_BOARDS_DIR=str(self.folder / "boards"), PYTHONUNBUFFERED="1")  # fmt: skip
        with (self.folder / f"run{self.runs}.out").open("wb") as out:
            self.process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", cwd=ROOT, env=env, stdin=asyncio.subprocess.DEVNULL, stdout=out,
                stderr=asyncio.subprocess.STDOUT,
            )  # fmt: skip
        await self.double.wait_ready(timeout=START_SECONDS)

    async def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        assert await self.process.wait() == -signal.SIGKILL
        await self.double.wait_disconnected(timeout=TIMEOUT)

    async def stop(self) -> None:
        if self.process is not None and self.process.returncode is None:
            self.process.terminate()
            await asyncio.wait_for(self.process.wait(), TIMEOUT)


async def logged(location: str, channel: int) -> list[str]:
    storage = await open_storage(location)
    try:
        async with storage.reading() as db:
            row = await queries.latest_match_in(db, channel)
            return [] if row is None else [str(e.action) for e in await queries.log_of(db, row.id)]
    finally:
        await storage.close()


async def test_a_move_whose_answer_was_in_flight_when_the_bot_died_is_posted_after_the_restart(
    double: DiscordDouble, players: Players, db_path: str, tmp_path: Path
) -> None:
    """The answer to `/pikemen turn` is held by Discord (the double) when the process is killed with
    SIGKILL: the move is committed, its board never posted. After the restart the board is posted
    once, with the next player's ping and the buttons, as if the answer had gone out."""
    alice, bob, channel = players.alice, players.bob, double.channel
    bot = BotProcess(double, db_path, tmp_path)
    try:
        await bot.start()
        await slash(double, alice, "new", {"seat": "red"}, group="pikemen")
        await slash(double, bob, "join", {"seat": "blue"}, group="pikemen")
        started = await slash(double, alice, "start", group="pikemen")
        assert started.content.startswith("The match begins!")
        held = double.hold("POST", r"/interactions/\d+/[^/]+/callback")
        turn = double.slash_command(alice, None, "pikemen", "turn", {"piece": "a4", "facing": "n"})
        interaction = await double.send_interaction(turn)
        await held.arrived(timeout=TIMEOUT)  # the bot answers (or says "thinking…"): Discord holds it
        async with asyncio.timeout(TIMEOUT):
            while await logged(db_path, channel.id) != ["a4 n"]:  # committed (it is, once it answers)
                await asyncio.sleep(0.05)
        await bot.kill()
        held.drop()  # the answer never reaches Discord
        assert double.interactions[interaction].callback is None
        before = {m.id for m in double.channel_messages(channel)}

        await bot.start()
        board = await double.wait_for_message(
            lambda m: m.channel_id == channel.id and m.id not in before and "a4" in m.content, timeout=TIMEOUT
        )
        assert board.content.startswith("Red turned a4 to point north."), board.content
        [request] = [r for r in double.requests if r.matches("POST", rf"/channels/{channel.id}/messages")]
        assert [int(u) for u in request.json["allowed_mentions"]["users"]] == [bob.id]  # the next player is pinged
        assert len(board.files) == 1 and board.custom_ids()  # the board, and buttons to play on
        assert await logged(db_path, channel.id) == ["a4 n"]  # stored once
        answer = await slash(double, bob, "board", group="pikemen")  # the bot serves on
        assert "Blue" in answer.content
        assert len([m for m in double.channel_messages(channel) if "a4" in m.content]) == 1
    finally:
        await bot.stop()


# --- every path backs its post up ------------------------------------------------------------------
ALICE, BOB, MOD = 11, 22, 66
Step = Callable[[MatchService], Awaitable[Reply]]


async def lobby(service: MatchService, game: str, seats: tuple[str, str], channel: int = CHANNEL) -> None:
    await service.new_match(GUILD, channel, ALICE, seats[0], game=game)
    await service.join(channel, BOB, seats[1])


async def started(service: MatchService, game: str, seats: tuple[str, str]) -> None:
    await lobby(service, game, seats)
    await service.start(CHANNEL, ALICE)


async def ttt(service: MatchService) -> None:
    await started(service, "tictactoe", ("x", "o"))


async def nika(service: MatchService) -> None:
    await started(service, "nika", ("athens-messene", "sparta-thebes"))


# (what is set up first, as the front ends post it; the call whose post is lost; the game)
PATHS: dict[str, tuple[Callable[[MatchService], Awaitable[None]], Step]] = {
    "start": (lambda s: lobby(s, "tictactoe", ("x", "o")), lambda s: s.start(CHANNEL, ALICE)),
    "a move": (ttt, lambda s: s.act(CHANNEL, ALICE, "a1")),
    "undo": (lambda s: _then(ttt(s), s.act(CHANNEL, ALICE, "a1")), lambda s: s.undo(CHANNEL, ALICE)),
    "resign": (ttt, lambda s: s.resign(CHANNEL, BOB, confirmed=True)),
    "a draw offer": (ttt, lambda s: s.draw(CHANNEL, ALICE, "offer")),
    "a draw accepted": (lambda s: _then(ttt(s), s.draw(CHANNEL, ALICE, "offer")),
                        lambda s: s.draw(CHANNEL, BOB, "accept")),
    "a draw declined": (lambda s: _then(ttt(s), s.draw(CHANNEL, ALICE, "offer")),
                        lambda s: s.draw(CHANNEL, BOB, "decline")),
    "a claim": (nika, lambda s: s.declare(CHANNEL, ALICE, "athens-messene")),
    "a concession": (lambda s: _then(nika(s), s.declare(CHANNEL, ALICE, "athens-messene")),
                     lambda s: s.concede(CHANNEL, BOB, confirmed=True)),
    "a challenge": (lambda s: _then(nika(s), s.declare(CHANNEL, ALICE, "athens-messene")),
                    lambda s: s.challenge(CHANNEL, BOB)),
    "a secret setup": (lambda s: started(s, "numica", ("red", "blue")),
                       lambda s: s.setup(CHANNEL, ALICE, "sosoosos")),
    "the reveal": (lambda s: _then(started(s, "numica", ("red", "blue")), s.setup(CHANNEL, ALICE, "sosoosos")),
                   lambda s: s.setup(CHANNEL, BOB, "sosoosos")),
    "an abort": (ttt, lambda s: s.abort(CHANNEL, MOD, can_manage=True, confirmed=True)),
}  # fmt: skip


async def _then(first: Awaitable[None], second: Awaitable[Reply]) -> None:
    await first
    await second


@pytest.mark.parametrize("path", list(PATHS))
async def test_every_committed_change_reaches_the_channel_even_when_its_front_end_never_posts(
    db_path: str, path: str
) -> None:
    """The front end dies (or Discord refuses it) right after the commit: 20 s later the outbox
    posts the same words (and the board, drawn again) with the same pings, once."""
    clock = ManualClock()
    raw = MatchService(await open_storage(db_path), renderer=stub_renderer, clock=clock)
    delivered = Posted()
    dispatcher = TimerDispatcher(raw, delivered.announce)
    dispatcher.start()
    prepare, lost = PATHS[path]
    try:
        await prepare(FrontEnd(raw))  # what came before was posted, as front ends do
        await settle(dispatcher, clock, 60)
        seen = len(delivered.notices)
        reply = await lost(raw)  # …and this post never goes out
        public = reply.announce or reply
        assert public.notice_ids
        await settle(dispatcher, clock, 19)
        assert delivered.notices[seen:] == []  # the front end has 20 s to post it itself
        await settle(dispatcher, clock, 1)
        [notice] = delivered.notices[seen:]
        assert notice.reply.text == public.text and notice.reply.mentions == public.mentions
        assert (notice.reply.image is None) == (public.image is None)
        assert (notice.reply.answers, notice.reply.actionable) == (public.answers, public.actionable)
        if path == "a secret setup":
            assert "sosoosos" not in notice.reply.text  # only the public half was kept
        await settle(dispatcher, clock, 3600)
        assert len(delivered.notices) == seen + 1  # once
    finally:
        await dispatcher.stop()
        await raw.close()


class Posted:
    def __init__(self) -> None:
        self.notices: list[Notice] = []

    async def announce(self, notice: Notice, nonce: str) -> int:
        self.notices.append(notice)
        return 7_000 + len(self.notices)


async def settle(dispatcher: TimerDispatcher, clock: ManualClock, seconds: float) -> None:
    await clock.advance(seconds)
    await dispatcher.settled()


async def test_a_late_board_that_was_overtaken_goes_out_as_its_text_alone(db_path: str) -> None:
    """A backup posted after later moves were posted: its words reach the channel, marked late,
    without the outdated board, pings or buttons."""
    clock = ManualClock()
    raw = MatchService(await open_storage(db_path), renderer=stub_renderer, clock=clock)
    delivered = Posted()
    dispatcher = TimerDispatcher(raw, delivered.announce)
    dispatcher.start()
    try:
        await ttt(FrontEnd(raw))
        lost = await raw.act(CHANNEL, ALICE, "a1")  # never posted
        await FrontEnd(raw).act(CHANNEL, BOB, "b2")  # the next move was (Bob saw /board)
        await settle(dispatcher, clock, 20)
        [late] = delivered.notices
        assert late.reply.text.startswith(lost.text) and "Posted late" in late.reply.text
        assert (late.reply.image, late.reply.mentions, late.reply.actionable) == (None, (), False)
    finally:
        await dispatcher.stop()
        await raw.close()


async def test_a_restarted_process_posts_what_its_previous_run_left_at_once(db_path: str) -> None:
    clock = ManualClock()
    first = MatchService(await open_storage(db_path), renderer=stub_renderer, clock=clock)
    await ttt(FrontEnd(first))
    lost = await first.act(CHANNEL, ALICE, "a1")  # committed; the process dies before posting
    await first.close()
    again = MatchService(await open_storage(db_path), renderer=stub_renderer, clock=clock)
    delivered = Posted()
    dispatcher = TimerDispatcher(again, delivered.announce)
    dispatcher.start()
    try:
        await dispatcher.settled()  # no time passes: its own leftovers need no waiting
        [notice] = delivered.notices
        assert notice.reply.text == lost.text and notice.reply.image is not None
    finally:
        await dispatcher.stop()
        await again.close()


async def test_the_console_prints_each_post_once(
    db_path: str, tmp_path: Path
) -> None:
    from bot.console import Console

    clock = ManualClock()
    service = MatchService(await open_storage(db_path), renderer=stub_renderer, clock=clock)
    printed: list[str] = []
    console = Console(service, tmp_path / "boards", out=printed.append)
    delivered = Posted()
    dispatcher = TimerDispatcher(service, delivered.announce)
    dispatcher.start()
    try:
        for line in ("/tictactoe new seat:x", "as @bob", "/tictactoe join seat:o", "as @alice",
                     "/tictactoe start", "/tictactoe play action:a1"):  # fmt: skip
            await console.handle(line)
        assert any(text.startswith("X marked a1") for text in printed)
        await settle(dispatcher, clock, 3600)
        assert delivered.notices == []  # printed once: the outbox has nothing to add
    finally:
        await dispatcher.stop()
        await service.close()
