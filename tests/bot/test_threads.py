"""`/<game> new thread:true` opens the match in a new public thread of the channel, so one
channel holds several matches at once, of one game or different games."""

from __future__ import annotations

from bot.client import BoardGameBot
from tests.bot.discord_harness import Players, service_of, slash
from tests.discord_double import DiscordDouble


async def test_matches_in_threads_of_one_channel(double: DiscordDouble, bot: BoardGameBot, players: Players) -> None:
    p = players
    here = await slash(double, p.alice, "new", {"city": "athens"})
    assert not here.ephemeral  # the channel's own match
    first = await slash(double, p.bob, "new", {"city": "sparta-thebes", "thread": True})
    second = await slash(double, p.carol, "new", {"seat": "x", "thread": True}, group="tictactoe")
    threads = [c for c in double.channels.values() if c.parent_id == double.channel.id]
    assert len(threads) == 2
    for answer, thread in zip((first, second), threads, strict=True):
        assert not answer.ephemeral and f"<#{thread.id}>" in answer.content
        lobby = [m for m in double.messages.values() if m.channel_id == thread.id]
        assert len(lobby) == 1 and "opened a" in lobby[0].content
    service = service_of(bot)
    assert (await service.state_of(threads[0].id)).rules.slug == "nika"
    assert (await service.state_of(threads[1].id)).rules.slug == "tictactoe"
    # Playing in a thread is playing in its match; the parent channel's match is untouched.
    joined = await slash(double, p.dave, "join", {"city": "athens-messene"}, channel=threads[0])
    assert "took Athens and Messene" in joined.content
    assert (await service.state_of(double.channel.id)).seats == {"athens": p.alice.id}
