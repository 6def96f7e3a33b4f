"""Clocks, final warnings, vacations and pauses through the Discord double (the real discord.py
client against a fake Discord speaking its HTTP and gateway protocol), with the bot's clock moved by hand."""

from __future__ import annotations

from pathlib import Path

from bot.clock import ManualClock
from tests.bot.discord_harness import Players, decode_png, running, slash
from tests.discord_double import DiscordDouble

HOUR = 3600.0


async def test_warnings_by_dm_vacations_and_pauses_on_discord(
    double: DiscordDouble, players: Players, tmp_path: Path
) -> None:
    p, clock = players, ManualClock()
    async with running(double, str(tmp_path / "nika.db"), clock=clock) as bot:
        assert bot.timers is not None
        await slash(double, p.alice, "new", {"city": "athens-messene", "deadline": "2", "bank": 5})
        await slash(double, p.bob, "join", {"city": "sparta-thebes"})
        started = await slash(double, p.alice, "start")
        assert "⏱ Athens 2d · Sparta 2d · Messene 2d · Thebes 2d" in started.content
        assert "Athens 2d · Sparta 2d" in started.message.payload["attachments"][0]["description"]
        decode_png(started.files[0])
        said = await slash(double, p.alice, "settings", {"dm": "on"})
        assert said.ephemeral

        # The final warning: 12 hours before the end, in the channel and by DM (as alice chose).
        before = len(double.channel_messages(double.channel))
        await clock.advance(36 * HOUR)
        await bot.timers.settled()
        posted = [m.content for m in double.channel_messages(double.channel)[before:]]
        assert [c for c in posted if "final warning: Athens has 12h left" in c]
        assert [m for m in double.channel_messages(double.dm_channel(p.alice)) if "final warning" in m.content]

        # A vacation is refused with less than 12 hours left; a pause by agreement stops the clock.
        await clock.advance(1 * HOUR)
        refused = await slash(double, p.alice, "settings", {"vacation": 3})
        assert refused.ephemeral and "less than 12 hours left" in refused.content
        offered = await slash(double, p.alice, "settings", {"pause": "offer"})
        assert offered.ephemeral and "the channel is told" in offered.content
        await double.wait_for_message(lambda m: "offers to pause every clock" in m.content and not m.ephemeral)
        await slash(double, p.bob, "settings", {"pause": "accept"})
        await double.wait_for_message(lambda m: "Everyone agreed" in m.content and not m.ephemeral)
        await clock.advance(10 * 24 * HOUR)
        await bot.timers.settled()
        board = await slash(double, p.bob, "board")
        assert "⏱ Athens 11h · Sparta 2d · Messene 2d · Thebes 2d (paused by agreement)" in board.content
        await slash(double, p.bob, "settings", {"pause": "resume"})
        resumed = await double.wait_for_message(lambda m: "the clocks run again" in m.content)
        assert "⏱ Athens 11h · Sparta 2d" in resumed.content

        # Bob's vacation: his cities' clocks stand still, and the channel is told until when.
        away = await slash(double, p.bob, "settings", {"vacation": 2})
        assert away.ephemeral and "You are on vacation in this server until" in away.content
        await bot.timers.settled()
        told = await double.wait_for_message(lambda m: "is on vacation until" in m.content)
        assert told.channel_id == double.channel.id and f"<@{p.bob.id}>" in told.content
        await slash(double, p.alice, "pass")
        moved = await slash(double, p.alice, "pass")
        assert "Sparta 2d (on vacation until" in moved.content
