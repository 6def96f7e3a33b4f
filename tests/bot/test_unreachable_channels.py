"""Matches in channels the bot cannot reach: paused (no clock runs, nothing is decided on time),
unrated, their players told by direct message; resumed with fresh deadlines as soon as the bot
can post there again. A deleted channel's match ends, unrated, its players told."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.client import BoardGameBot
from bot.clock import ManualClock
from bot.dispatcher import ChannelGone, ChannelUnreachable, TimerDispatcher
from bot.replies import Notice
from bot.service import MatchService
from bot.storage import matches as queries
from bot.storage import open_storage, timers
from bot.storage.timers import TimerKind
from tests.bot.conftest import FrontEnd
from tests.bot.discord_harness import TIMEOUT, Players, running, service_of, slash
from tests.bot.hostile_surface import stub_renderer
from tests.discord_double import DiscordDouble, Perm

GUILD, CHANNEL, ALICE, BOB = 1000, 5, 11, 22
GAME = "tictactoe"
HOUR, DAY = 3600.0, 86_400.0


class Channels:
    """The timer task posting into a list; the channels in `closed` refuse the bot, as Discord does
    when a permission was taken away."""

    def __init__(self, service: MatchService, clock: ManualClock) -> None:
        self.service, self.clock = service, clock
        self.closed: set[int] = set()
        self.gone: set[int] = set()
        self.posted: list[Notice] = []
        self.refused = 0
        self.dispatcher = TimerDispatcher(service, self.announce)

    async def announce(self, notice: Notice, nonce: str) -> int:
        if notice.kind != "dm" and notice.channel_id in self.gone:
            raise ChannelGone
        if notice.kind != "dm" and notice.channel_id in self.closed:
            self.refused += 1
            raise ChannelUnreachable
        self.posted.append(notice)
        return 8_000 + len(self.posted)

    async def after(self, seconds: float) -> list[Notice]:
        seen = len(self.posted)
        await self.clock.advance(seconds)
        await self.dispatcher.settled()
        return self.posted[seen:]


@pytest.fixture
async def channels(db_path: str) -> AsyncIterator[Channels]:
    clock = ManualClock()
    service = MatchService(await open_storage(db_path), renderer=stub_renderer, clock=clock)
    harness = Channels(service, clock)
    harness.dispatcher.start()
    yield harness
    await harness.dispatcher.stop()
    await service.close()


async def started(service: MatchService, channel: int = CHANNEL, deadline: int = 2) -> None:
    front = FrontEnd(service)
    await front.new_match(GUILD, channel, ALICE, "x", game=GAME, deadline_days=deadline)
    await front.join(channel, BOB, "o")
    await front.start(channel, ALICE)


async def row_of(service: MatchService, channel: int = CHANNEL) -> queries.MatchRow:
    async with service.storage.reading() as db:
        row = await queries.latest_match_in(db, channel)
        assert row is not None
        return row


async def timers_of(service: MatchService, channel: int = CHANNEL) -> dict[TimerKind, float]:
    row = await row_of(service, channel)
    async with service.storage.reading() as db:
        return {t.kind: t.due for t in await timers.of_match(db, row.id)}


async def test_a_match_whose_channel_refuses_the_bot_is_paused_unrated_and_resumes_with_a_fresh_clock(
    channels: Channels,
) -> None:
    service = channels.service
    await started(service)
    assert (await row_of(service)).rated
    channels.closed.add(CHANNEL)  # the bot's Send Messages was taken away
    [told] = await channels.after(DAY)  # the first reminder is refused: the match pauses
    assert told.kind == "dm" and set(told.dm_user_ids) == {ALICE, BOB}
    assert told.reply.text.startswith(f"Your Tic-tac-toe match in <#{CHANNEL}> is paused")
    row = await row_of(service)
    assert row.suspended_at is not None and not row.rated and row.unrated_reason == "channel unreachable"
    assert await timers_of(service) == {}  # no reminder, no deadline
    assert await channels.after(30 * DAY) == []  # a month: nobody loses on time
    assert (await row_of(service)).status == "active" and not (await service.state_of(CHANNEL)).is_over
    assert channels.refused <= 30 * 8 + 5  # tried now and then (every 3 h at most), not hundreds of times a day

    channels.closed.clear()  # the permission is back; a change in the server says so
    await service.access_may_be_back(guild_id=GUILD)
    [back] = await channels.after(0)
    assert back.reply.text.startswith("I can post in this channel again: the match goes on where it stopped.")
    assert "Each turn's 2-day deadline starts afresh from now." in back.reply.text
    assert back.reply.image is not None and back.reply.mentions == (ALICE,) and back.reply.actionable
    resumed = channels.clock.now()
    row = await row_of(service)
    assert row.suspended_at is None and not row.rated  # it stays unrated
    assert await timers_of(service) == {TimerKind.DEADLINE: resumed + 2 * DAY, TimerKind.REMINDER: resumed + DAY,
                                        TimerKind.WARNING: resumed + 2 * DAY - 12 * 3600}  # fmt: skip
    assert [n.reply.text[:1] for n in await channels.after(DAY)] == ["⏰"]  # the clock runs again…
    expired = await channels.after(DAY)
    assert any("turn ran out (the 2-day deadline)" in n.reply.text for n in expired)  # …and decides, unrated
    row = await row_of(service)
    assert row.status == "finished" and not row.rated


async def test_a_command_in_the_channel_that_discord_lets_the_bot_answer_resumes_it_at_once(
    channels: Channels,
) -> None:
    service = channels.service
    await started(service)
    channels.closed.add(CHANNEL)
    await channels.after(DAY)
    channels.closed.clear()
    await FrontEnd(service).act(CHANNEL, ALICE, "a1")  # played while paused: no clock starts
    assert await timers_of(service) == {}
    await service.access_may_be_back(channel_id=CHANNEL)  # the cog, when Discord says it may post there
    [back] = await channels.after(0)
    assert back.reply.text.startswith("I can post in this channel again") and back.reply.mentions == (BOB,)
    assert set(await timers_of(service)) == {TimerKind.DEADLINE, TimerKind.REMINDER, TimerKind.WARNING}


async def test_a_deleted_channel_ends_its_match_unrated_and_tells_its_players(channels: Channels) -> None:
    service = channels.service
    await started(service)
    channels.gone.add(CHANNEL)
    [told] = await channels.after(DAY)
    assert told.kind == "dm" and told.reply.text.startswith(f"Your Tic-tac-toe match in <#{CHANNEL}> has ended")
    row = await row_of(service)
    assert (row.status, row.rated, row.end_reason) == ("aborted", False, "channel deleted")
    assert await timers_of(service) == {} and await channels.after(30 * DAY) == []


# --- through the Discord double: a permission taken away, and given back ---------------------------
@pytest.fixture
async def live(
    double: DiscordDouble, players: Players, db_path: str
) -> AsyncIterator[tuple[BoardGameBot, ManualClock]]:
    clock = ManualClock()
    async with running(double, db_path, clock=clock) as bot:
        yield bot, clock


async def test_the_bot_losing_send_messages_pauses_the_match_and_getting_it_back_resumes_it(
    double: DiscordDouble, players: Players, live: tuple[BoardGameBot, ManualClock]
) -> None:
    bot, clock = live
    assert bot.timers is not None
    alice, bob, channel = players.alice, players.bob, double.channel
    await slash(double, alice, "new", {"seat": "x", "deadline": "2"}, group=GAME)
    await slash(double, bob, "join", {"seat": "o"}, group=GAME)
    await slash(double, alice, "start", group=GAME)
    deny = {"id": str(double.bot_user.id), "type": 1, "allow": "0", "deny": str(Perm.SEND_MESSAGES)}
    channel.permission_overwrites.append(deny)  # a moderator takes the bot's Send Messages away
    await double.dispatch_channel_event("CHANNEL_UPDATE", channel)

    await clock.advance(DAY)  # the reminder is due: Discord refuses it (50013)
    await bot.timers.settled()
    for player in (alice, bob):
        [dm] = double.channel_messages(double.dm_channel(player))
        assert dm.content.startswith(f"Your Tic-tac-toe match in <#{channel.id}> is paused")
    await clock.advance(5 * DAY)  # past the 2-day deadline: nothing is decided
    await bot.timers.settled()
    service = service_of(bot)
    assert not (await service.state_of(channel.id)).is_over
    refused = [r for r in double.requests if r.matches("POST", rf"/channels/{channel.id}/messages")]
    assert refused and all(r.status == 403 for r in refused)

    channel.permission_overwrites.remove(deny)  # given back
    await double.dispatch_channel_event("CHANNEL_UPDATE", channel)
    back = await double.wait_for_message(
        lambda m: m.channel_id == channel.id and m.content.startswith("I can post in this channel again"),
        timeout=TIMEOUT,
    )
    assert "the match goes on where it stopped" in back.content and len(back.files) == 1
    assert back.custom_ids()  # its buttons: play on from here
    await bot.timers.settled()  # the bot took note of the post
    row = await row_of(service, channel.id)
    assert row.suspended_at is None and not row.rated
    assert (await timers_of(service, channel.id))[TimerKind.DEADLINE] == clock.now() + 2 * DAY
    played = await slash(double, alice, "play", {"action": "a1"}, group=GAME)
    assert played.content.startswith("X marked a1")
