"""The daily digest: one DM at the chosen UTC hour listing every match, in every server, where
it is the member's turn, with its clock and a link to the latest board; reminder DMs give way to
it; fired once by the timer task (here on the service, and through the Discord double)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.clock import ManualClock
from bot.errors import ServiceError
from bot.replies import Notice
from bot.service import MatchService
from bot.service.digest import next_at
from bot.storage.timers import TimerKind
from tests.bot.conftest import ALICE, BOB, CAROL, FrontEnd
from tests.bot.discord_harness import Players, running, slash
from tests.discord_double import DiscordDouble

pytestmark = pytest.mark.asyncio
HOUR = 3600.0
START = datetime(2026, 3, 2, 6, 30, tzinfo=UTC).timestamp()  # 06:30 UTC


async def _fire_due(service: MatchService, reminders: list[Notice] | None = None) -> list[tuple[tuple[int, ...], str]]:
    """Fire every timer due now, as the dispatcher does; the DMs it left in the outbox (and the
    reminders, into `reminders`)."""
    while (timer := await service.next_timer()) is not None and timer.due <= service.clock.now():
        await service.fire_timer(timer)
    found = []
    for item, notice in await service.due_notices():
        if notice.kind == "dm":
            found.append((notice.dm_user_ids, notice.reply.text))
        elif item.kind == "reminder" and reminders is not None:
            reminders.append(notice)
        await service.notice_delivered(item, None, notice)
    return found


async def test_next_at_is_the_next_hour_strictly_after() -> None:
    assert next_at(9, START) == datetime(2026, 3, 2, 9, tzinfo=UTC).timestamp()
    assert next_at(6, START) == datetime(2026, 3, 3, 6, tzinfo=UTC).timestamp()
    nine = datetime(2026, 3, 2, 9, tzinfo=UTC).timestamp()
    assert next_at(9, nine) == nine + 24 * HOUR


async def test_a_digest_lists_the_turns_of_two_servers(db_path: str) -> None:
    clock = ManualClock(START)
    raw = await MatchService.open(db_path, clock=clock)
    service = FrontEnd(raw)
    try:
        # Alice's turn on server 1 (Pikemen, 2-day deadline) and on server 2 (Nika); Bob's turn in a third.
        await raw.new_match(1, 801, ALICE, "red", game="pikemen", deadline_days=2)
        await raw.join(801, BOB, "blue")
        await service.start(801, ALICE)
        await raw.new_match(2, 802, ALICE, "athens-messene", game="nika")
        await raw.join(802, CAROL, "sparta-thebes")
        await service.start(802, ALICE)
        await raw.new_match(2, 803, BOB, "red", game="pikemen")
        await raw.join(803, ALICE, "blue")
        await service.start(803, BOB)
        await raw.remember_board_message((await raw.book.load(801))[0].id, 9001)
        await service.settings(1, 801, ALICE, dm_reminders=True)
        await service.settings(2, 803, BOB, dm_reminders=True)
        said = await service.settings(1, 801, ALICE, digest=True, digest_hour=9)
        assert "09:00 UTC" in said.text
        with pytest.raises(ServiceError):
            await service.settings(1, 801, BOB, digest_hour=24)
        assert "09:00 UTC" in (await service.settings(1, 801, ALICE)).text
        # The reminder at 24 h pings in the channel, but sends Alice no DM: she has the digest.
        timer = await raw.next_timer()
        assert timer is not None and timer.kind is TimerKind.DIGEST and timer.user_id == ALICE
        await clock.advance(2.5 * HOUR)  # 09:00
        [(to, text)] = await _fire_due(raw)
        assert to == (ALICE,)
        assert "2 matches are waiting" in text
        assert "<#801>" in text and "<#802>" in text and "<#803>" not in text
        assert "https://discord.com/channels/1/801/9001" in text and "1d 21h left" in text
        assert "no deadline" in text
        assert await _fire_due(raw) == []  # once a day
        await clock.advance(24 * HOUR)
        reminders: list[Notice] = []
        [(to, text)] = await _fire_due(raw, reminders)
        # The reminders that fell due meanwhile ping Alice in the channel, but send her no DM.
        alice = [n for n in reminders if f"<@{ALICE}>" in n.reply.text]
        assert alice and all(n.dm_user_ids == () for n in alice)
        assert [n.dm_user_ids for n in reminders if f"<@{BOB}>" in n.reply.text] == [(BOB,)]  # no digest: his DM
        assert to == (ALICE,) and "Your daily digest" in text
        await service.settings(1, 801, ALICE, digest=False)
        await clock.advance(24 * HOUR)
        assert [t for t in await _fire_due(raw) if "digest" in t[1]] == []
    finally:
        await raw.close()


async def test_the_digest_reaches_the_member_by_dm_through_discord(
    double: DiscordDouble, players: Players, tmp_path: Path
) -> None:
    p = players
    other = double.add_guild("second server")
    second = next(c for c in double.channels.values() if c.guild_id == other.id)
    for user in (p.alice, p.bob):
        double.add_member(user, other)
    clock = ManualClock(START)
    async with running(double, str(tmp_path / "nika.db"), clock=clock) as bot:
        assert bot.timers is not None
        await slash(double, p.alice, "new", {"city": "athens-messene"})
        await slash(double, p.bob, "join", {"city": "sparta-thebes"})
        await slash(double, p.alice, "start")
        await slash(double, p.alice, "new", {"seat": "red"}, channel=second, group="pikemen")
        await slash(double, p.bob, "join", {"seat": "blue"}, channel=second, group="pikemen")
        await slash(double, p.alice, "start", channel=second, group="pikemen")
        said = await slash(double, p.alice, "settings", {"digest": "on", "hour": 7})
        assert said.ephemeral and "07:00 UTC" in said.content
        await clock.advance(HOUR)
        await bot.timers.settled()
        [dm] = double.channel_messages(double.dm_channel(p.alice))
        assert "2 matches are waiting" in dm.content
        assert f"/channels/{double.guild.id}/{double.channel.id}/" in dm.content
        assert f"/channels/{other.id}/{second.id}/" in dm.content
        assert double.channel_messages(double.dm_channel(p.bob)) == []
