"""A computer seat on "Discord": the creator seats it with `join computer:`, the lobby names
it, and after the member's move the bot plays the computer's turn by itself: the move is
stored, a fresh board is posted to the channel, and only the member is pinged. The bot runs
in process against the API double, with its real pool of search processes."""

from __future__ import annotations

from bot.client import BoardGameBot
from tests.bot import conftest as discord_fixtures
from tests.bot.discord_harness import TIMEOUT, Players, decode_png, service_of, slash
from tests.discord_double import DiscordDouble, StoredMessage

# The Discord double, its members and the bot are tests/bot's fixtures; pytest finds them here by name.
double, players, bot = discord_fixtures.double, discord_fixtures.players, discord_fixtures.bot


async def test_the_computer_answers_a_members_move_with_a_board_and_a_ping(
    double: DiscordDouble, bot: BoardGameBot, players: Players
) -> None:
    alice, bob = players.alice, players.bob
    service = service_of(bot)
    channel = double.channel.id

    await slash(double, alice, "new", {"side": "red", "setup": "random"}, group="numica")
    refused = await slash(double, bob, "join", {"side": "blue", "computer": "hard"}, group="numica")
    assert refused.ephemeral and refused.content == "Only the match's creator can seat the computer."
    seated = await slash(double, alice, "join", {"side": "blue", "computer": "easy"}, group="numica")
    assert not seated.ephemeral and "Blue: computer (easy)" in seated.content
    await slash(double, alice, "start", group="numica")

    state = await service.state_of(channel)
    move = state.rules.legal_actions(state.game)[0].notation()
    moved = await slash(double, alice, "play", {"action": move}, group="numica")
    assert not moved.ephemeral and "computer (easy)" in moved.content

    def the_computers_board(message: StoredMessage) -> bool:
        return message.interaction_id is None and bool(message.files) and message.channel_id == channel

    post = await double.wait_for_message(the_computers_board, timeout=TIMEOUT)
    state = await service.state_of(channel)
    assert [p.seat for p in state.played] == ["red", "blue"] and state.played[1].user_id is None
    assert [int(user["id"]) for user in post.payload["mentions"]] == [alice.id]  # Discord notified alice alone
    # The deal is random: the computer's move may be a capture or not, but it is Blue's, by the computer.
    assert post.content.startswith("🤖 Blue ") and post.content.endswith(f"Red to act — <@{alice.id}>")
    assert post.files[0].description.startswith("Numica board. Red to move. Last move: Blue ")
    decode_png(post.files[0])
