"""The /nika cog driven through real discord.Interaction objects.

An in-process BoardGameBot logs in to the Discord double on 127.0.0.1 and receives
INTERACTION_CREATE payloads shaped like Discord's; the tests read back what the bot
answered (callbacks, followups, uploaded files) from the double's records.
"""

from __future__ import annotations

from pathlib import Path

import discord
import pytest

from bot.client import BoardGameBot
from bot.cogs import game as nika_cog
from bot.service import MatchService
from bot.storage import bot_state
from engine.nika import GameState, Move
from engine.registry import games
from tests.bot.discord_harness import (
    EPHEMERAL,
    TIMEOUT,
    Answer,
    Players,
    answer_of,
    decode_png,
    pings_only,
    running,
    seat_four,
    service_of,
    slash,
    suggest,
)
from tests.discord_double import DiscordDouble, User

# Athens has one piece routed (l4 is gone) and one on its own rally square k1.
ROUTED_START = (
    "A:j4w,j5w,j6w,k4n,k1n S:d7s,d8e,d9n,e8e,e9n,f9n M:j12w,k11s,k12s,l10e,l11e,l12e T:p7s,q7s,q8w,r7s,r8w,r9n A2"
)


# --- connecting -----------------------------------------------------------------------
async def test_identifies_with_default_intents_only(double: DiscordDouble, bot: BoardGameBot) -> None:
    [identify] = double.identify_payloads
    assert identify["intents"] == discord.Intents.default().value
    privileged = discord.Intents(members=True, presences=True, message_content=True).value
    assert identify["intents"] & privileged == 0
    assert bot.user is not None and bot.user.id == double.bot_user.id


async def test_commands_sync_only_when_the_tree_changed(
    double: DiscordDouble, players: Players, tmp_path: Path
) -> None:
    database = str(tmp_path / "nika.db")
    global_route = f"/applications/{double.app_id}/commands"
    guild_route = f"/applications/{double.app_id}/guilds/{double.guild.id}/commands"

    def puts() -> list[str]:
        return [r.route for r in double.requests if r.method == "PUT" and r.route.endswith("/commands")]

    async with running(double, database):
        assert puts() == [global_route]
    async with running(double, database):
        # Same tree, same database: a restart does not spend one of Discord's daily creates.
        reply = await slash(double, players.alice, "help")
        assert reply.ephemeral and "/nika new" in reply.content
    assert puts() == [global_route]

    # A stored hash that no longer matches the tree (as after an upgrade) syncs again.
    service = await MatchService.open(database)
    async with service.db.transaction() as db:
        await bot_state.put(db, "command-tree-hash:global", "an older tree")
    await service.close()
    async with running(double, database):
        pass
    assert puts() == [global_route, global_route]

    # A development guild gets the commands on its own route, and only once too.
    for _ in range(2):
        async with running(double, database, dev_guild=double.guild.id):
            reply = await slash(double, players.bob, "help")
            assert reply.record.payload["data"]["guild_id"] == str(double.guild.id)
            assert reply.ephemeral
    assert puts() == [global_route, global_route, guild_route]
    # Every game's group, and the one group of events (bot/commands/tournament.py).
    registered = [c["name"] for c in double.registered_commands(double.guild.id)]
    assert registered == [*(g.slug for g in games()), "tournament"]


# --- lobby, refusals and board posts ---------------------------------------------------
async def test_lobby_then_refusals_are_private_with_the_services_reason(
    double: DiscordDouble, bot: BoardGameBot, players: Players
) -> None:
    p = players
    opened = await slash(double, p.alice, "new", {"city": "athens"})
    assert not opened.ephemeral
    assert opened.content.startswith(f"<@{p.alice.id}> opened a Nika match and took Athens.")
    pings_only(opened)  # a lobby message pings nobody
    for user, city in ((p.bob, "sparta"), (p.carol, "messene"), (p.dave, "thebes")):
        joined = await slash(double, user, "join", {"city": city})
        assert not joined.ephemeral and f"<@{user.id}> took {city.title()}." in joined.content
    started = await slash(double, p.bob, "start")
    assert not started.ephemeral and started.content.startswith("The match begins!")
    [board] = started.files
    assert decode_png(board).width == 1200
    pings_only(started, p.alice)

    public = len(double.channel_messages(double.channel))
    out_of_turn = await slash(double, p.bob, "pass")
    assert out_of_turn.ephemeral and out_of_turn.message.payload["flags"] & EPHEMERAL
    # The service says "it is Athens' turn …"; the cog makes it a sentence.
    assert out_of_turn.content == f"It is Athens' turn (<@{p.alice.id}> plays it)."
    assert out_of_turn.files == []
    central = await slash(double, p.alice, "move", {"piece": "k7", "direction": "n"})
    assert central.ephemeral and central.content == "K7 is in the central area."
    late = await slash(double, p.eve, "join", {"city": "athens"})
    assert late.ephemeral and late.content == "This match has already started."
    outsider = await slash(double, p.eve, "pass")
    assert outsider.ephemeral and outsider.content == "You are not playing in this match."
    # Refusals never reach the channel.
    assert len(double.channel_messages(double.channel)) == public


async def test_board_posts_carry_the_png_its_alt_text_and_ping_only_the_next_player(
    double: DiscordDouble, bot: BoardGameBot, players: Players
) -> None:
    p = players
    await seat_four(double, bot, p)
    service = service_of(bot)

    first = await slash(double, p.alice, "move", {"piece": "j4", "direction": "w"})
    assert not first.ephemeral
    assert first.content == f"Athens moved j4 to i4.\nAthens to act (1 action left) — <@{p.alice.id}>"
    pings_only(first, p.alice)
    second = await slash(double, p.alice, "play", {"action": "move i4 w"})
    assert second.content.startswith("Athens moved i4 to h4.\nSparta to act (2 actions left)")
    pings_only(second, p.bob)

    [upload] = second.files
    image = decode_png(upload)
    assert image.width == 1200 and image.height > 600
    # The attachment's description is the board's alt text, for screen readers.
    shown = await service.board(double.channel.id)
    assert shown.image is not None
    assert upload.description == shown.image.description
    assert upload.description.startswith("Nika board.") and "Athens moved i4 to h4" in upload.description
    assert second.message.payload["attachments"][0]["description"] == upload.description

    board = await slash(double, p.carol, "board")
    assert not board.ephemeral and "Sparta to act" in board.content
    pings_only(board)  # looking at the board pings nobody
    assert board.files[0].description == upload.description
    helped = await slash(double, p.dave, "help")
    assert helped.ephemeral and helped.files == []


async def test_abort_needs_the_creator_or_manage_channels(
    double: DiscordDouble, bot: BoardGameBot, players: Players
) -> None:
    p = players
    await slash(double, p.alice, "new", {"city": "athens-messene"})
    await slash(double, p.bob, "join", {"city": "sparta-thebes"})
    refused = await slash(double, p.bob, "abort")
    assert refused.ephemeral
    assert refused.content == "Only the lobby's creator or someone with Manage Channels can abort it."
    # The moderator is not even seated: the permission alone is enough.
    aborted = await slash(double, p.mod, "abort")
    assert not aborted.ephemeral
    assert aborted.content == f"<@{p.mod.id}> aborted the match. The channel is free for a new one."
    pings_only(aborted)
    reopened = await slash(double, p.bob, "new", {"city": "sparta"})
    assert not reopened.ephemeral


# --- autocomplete ------------------------------------------------------------------------
async def test_autocomplete_suggests_only_legal_choices_filtered_by_what_was_typed(
    double: DiscordDouble, bot: BoardGameBot, players: Players
) -> None:
    await seat_four(double, bot, players)
    alice = players.alice
    legal = GameState.start().legal_actions()
    movable = {a.notation().split()[1] for a in legal if isinstance(a, Move)}
    assert movable == {"j4", "j5", "j6", "k4", "k5", "l4"}

    assert set(await suggest(double, alice, "move", {"piece": ""}, "piece")) == movable
    assert set(await suggest(double, alice, "move", {"piece": "j"}, "piece")) == {"j4", "j5", "j6"}
    assert await suggest(double, alice, "move", {"piece": "K5"}, "piece") == ["k5"]
    assert await suggest(double, alice, "move", {"piece": "k7"}, "piece") == []
    # Directions follow the piece already chosen: j6 can step east or west only.
    assert await suggest(double, alice, "move", {"piece": "j6", "direction": ""}, "direction") == ["e", "w"]
    assert await suggest(double, alice, "move", {"piece": "j4", "direction": "w"}, "direction") == ["w"]

    assert set(await suggest(double, alice, "rotate", {"pieces": "k4"}, "pieces")) == {"k4", "k4,k5"}
    facings = await suggest(double, alice, "rotate", {"pieces": "k4,k5", "facing": ""}, "facing")
    assert set(facings) == {"e", "s", "w"}
    formations = await suggest(double, alice, "advance", {"pieces": ""}, "pieces")
    assert set(formations) == {"j4,j5", "j4,j5,j6", "j5,j6", "k4,k5"}
    assert set(await suggest(double, alice, "advance", {"pieces": "k"}, "pieces")) == {"k4,k5"}

    everything = await suggest(double, alice, "play", {"action": ""}, "action")
    assert len(legal) > 25 and len(everything) == 25  # Discord shows at most 25
    assert set(everything) <= {a.notation() for a in legal}
    advances = await suggest(double, alice, "play", {"action": "advance j"}, "action")
    assert set(advances) == {"advance j4,j5", "advance j4,j5,j6", "advance j5,j6"}
    # No piece is routed at the start, so there is nowhere to rally.
    assert await suggest(double, alice, "rally", {"square": ""}, "square") == []


async def test_autocomplete_offers_nothing_to_a_player_whose_turn_it_is_not(
    double: DiscordDouble, bot: BoardGameBot, players: Players
) -> None:
    await seat_four(double, bot, players)
    for user in (players.bob, players.eve):
        assert await suggest(double, user, "move", {"piece": ""}, "piece") == []
        assert await suggest(double, user, "move", {"piece": "j6", "direction": ""}, "direction") == []
        assert await suggest(double, user, "rotate", {"pieces": ""}, "pieces") == []
        assert await suggest(double, user, "rotate", {"pieces": "k4", "facing": ""}, "facing") == []
        assert await suggest(double, user, "advance", {"pieces": ""}, "pieces") == []
        assert await suggest(double, user, "rally", {"square": ""}, "square") == []
        assert await suggest(double, user, "play", {"action": ""}, "action") == []
    # Nor in a channel without a match.
    second = double.channel_named("second")
    assert await suggest(double, players.alice, "play", {"action": ""}, "action", channel=second) == []


async def test_rally_suggests_the_empty_squares_of_the_rally_area(
    double: DiscordDouble, bot: BoardGameBot, players: Players
) -> None:
    await seat_four(double, bot, players, start=ROUTED_START)
    alice = players.alice
    # k1 holds an Athenian piece already.
    assert set(await suggest(double, alice, "rally", {"square": ""}, "square")) == {"j1", "j2", "k2", "l1", "l2"}
    assert set(await suggest(double, alice, "rally", {"square": "l"}, "square")) == {"l1", "l2"}
    assert await suggest(double, players.bob, "rally", {"square": ""}, "square") == []

    rallied = await slash(double, alice, "rally", {"square": "l1", "facing": "n"})
    assert not rallied.ephemeral and rallied.content.startswith("Athens rallied")
    decode_png(rallied.files[0])
    pings_only(rallied, alice)
    # The last routed piece is back: nothing left to rally.
    assert await suggest(double, alice, "rally", {"square": ""}, "square") == []


# --- slow commands ---------------------------------------------------------------------------
async def test_slow_commands_defer_then_answer_in_a_followup(
    double: DiscordDouble, bot: BoardGameBot, players: Players, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past DEFER_AFTER_SECONDS the cog acknowledges first ("thinking…"), so Discord's 3 s
    window holds; the reply follows, and a refusal still ends up private."""
    monkeypatch.setattr(nika_cog, "DEFER_AFTER_SECONDS", 0.01)
    await seat_four(double, bot, players)
    service = service_of(bot)

    async def while_storage_is_busy(user: User, subcommand: str, options: dict[str, str] | None = None) -> Answer:
        # Holding the database keeps the command waiting until it has deferred.
        async with service.db.reading():
            payload = double.slash_command(user, None, "nika", subcommand, options or {})
            interaction_id = await double.send_interaction(payload)
            record = await double.wait_for_interaction_response(interaction_id, timeout=TIMEOUT)
            assert record.response_type == 5
        return await answer_of(double, interaction_id)

    moved = await while_storage_is_busy(players.alice, "move", {"piece": "j4", "direction": "w"})
    assert moved.record.response_data.get("flags", 0) & EPHEMERAL == 0  # the public "thinking…"
    assert not moved.ephemeral and moved.content.startswith("Athens moved j4 to i4.")
    decode_png(moved.files[0])
    pings_only(moved, players.alice)

    public = len(double.channel_messages(double.channel))
    refused = await while_storage_is_busy(players.bob, "pass")
    assert refused.ephemeral and refused.content.startswith("It is Athens' turn")
    # The public placeholder was deleted rather than left "thinking" for everyone.
    placeholder = double.message(refused.record.original_message_id or 0)
    assert placeholder.deleted
    assert len(double.channel_messages(double.channel)) == public

    history = await while_storage_is_busy(players.carol, "history")
    assert history.record.response_data["flags"] & EPHEMERAL  # private from the start
    assert history.ephemeral and "Athens moved j4 to i4" in history.content


async def test_hostile_input_gets_a_short_private_refusal(
    double: DiscordDouble, bot: BoardGameBot, players: Players
) -> None:
    await seat_four(double, bot, players)
    before = (await service_of(bot).state_of(double.channel.id)).game.notation()
    for junk in ("x" * 6000, "move " + "j6," * 1500 + " w", "advance <@everyone> @here", "rally k1 \u202e n"):
        refused = await slash(double, players.alice, "play", {"action": junk})
        assert refused.ephemeral and len(refused.content) <= 2000
        assert refused.allowed_mentions is not None and refused.allowed_mentions["parse"] == []
    assert (await service_of(bot).state_of(double.channel.id)).game.notation() == before
