"""Numica hosted by the match service over real storage (a SQLite file, and PostgreSQL: the
shared `service` fixture runs every test on both): a whole game, the secret back rows, undo,
refusals, endings away from the board, deadlines, standings, menus and the console. Every
rule of play is the engine's (tests/engine/numica); these tests check what the host makes
of them."""

from __future__ import annotations

import io
import json
import random
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot.clock import ManualClock
from bot.commands.dispatch import Invoker, autocomplete
from bot.commands.front_end import front_end
from bot.console import Console
from bot.errors import ConfirmFirst, IllegalMove, NotAllowed, NotInMatch, NotYourTurn
from bot.replies import Reply
from bot.service import MatchService
from engine.numica import ARRANGEMENTS, Move
from engine.numica.game import GAME
from engine.record import GameRecord
from tests.bot.conftest import ALICE, BOB, EVE, GUILD, TimedService

SEED = 2024
HOUR = 3600.0
RED_ROW, BLUE_ROW = "sosoosos", "oossoosS"  # Blue's typed with a capital: the host stores it canonical
TILES = "RK14R155/K13XK33R/X1223114/23243213/2BK55R21/1X1B344K/X4K34552/1X5BB422"
# Red to move, with captures on offer: b5 (a 3 tile) takes b8 or e8, e3 (a bishop) takes b6.
CAPTURES = f"{TILES} red:c1s,d1o,g1s,h2o*,e3s*,b5o* blue:b6s*,f6s*,b7o*,b8o,d8s,e8o red/0"


async def open_numica(
    service: MatchService,
    channel: int,
    *,
    setup: str = "choose",
    start: str | None = None,
    deadline_days: int | None = None,
    seed: int = SEED,
) -> Reply:
    """Alice takes Red, Bob Blue; returns the start post."""
    await service.new_match(GUILD, channel, ALICE, "red", game="numica", options={"setup": setup}, start=start,
                            deadline_days=deadline_days, seed=seed)  # fmt: skip
    await service.join(channel, BOB, "blue")
    return await service.start(channel, ALICE)


def png(reply: Reply) -> Image.Image:
    assert reply.image is not None
    image = Image.open(io.BytesIO(reply.image.data))
    image.load()
    assert image.format == "PNG"
    return image


def pick(legal: Sequence[Any], rng: random.Random) -> Move:
    """A capture when there is one (games end sooner), else any legal move."""
    captures = [m for m in legal if m.capture]
    return captures[0] if captures else rng.choice(list(legal))


def typed(move: Move) -> str:
    """A move as a player might type it: always with a dash, even for a capture."""
    return move.notation().replace("x", "-")


async def play_a_move(service: MatchService, channel: int, rng: random.Random) -> tuple[Move, Reply]:
    state = await service.state_of(channel)
    user = state.acting_user()
    assert user is not None
    move = pick(await service.legal_actions(channel, user), rng)
    return move, await service.act(channel, user, typed(move))


# --- a whole game ---------------------------------------------------------------------------
async def test_a_game_with_random_rows_is_played_to_a_win(service: MatchService) -> None:
    started = await open_numica(service, 1, setup="random")
    assert started.text.startswith("The match begins! Red: <@11> · Blue: <@22>")
    assert "Red to act — <@11>" in started.text and "set up" not in started.text
    assert started.mentions == (ALICE,) and started.actionable and not started.setup
    assert png(started).width > 700
    rng = random.Random(SEED)
    replies: list[Reply] = []
    while not (await service.state_of(1)).is_over:
        before = await service.state_of(1)
        move, reply = await play_a_move(service, 1, rng)
        replies.append(reply)
        after = await service.state_of(1)
        # The host stores the canonical form: `x` for a capture however it was typed.
        assert after.played[-1].action == GAME.canonical(before.game, move).notation()
        # What the move did, then (once) the result in bold: the headline leaves the ending to it.
        assert reply.text.startswith(GAME.describe(after.played[-1].events).split(" — ")[0] + ".")
        assert reply.image is not None and reply.image.description
    outcome = GAME.outcome((await service.state_of(1)).game)
    assert outcome is not None and outcome.reason == "captures" and len(outcome.winners) == 1
    final = replies[-1]
    assert f"**{outcome.summary}.** Red: <@11> · Blue: <@22>" in final.text
    assert set(final.mentions) == {ALICE, BOB} and not final.actionable
    for reply in replies[:-1]:  # every other post pings the one side to move
        assert len(reply.mentions) == 1 and reply.actionable
    history = (await service.history(1)).text.splitlines()
    assert len(history) == 1 + len(replies) and history[1].startswith("`  1` Red ")
    winner = ALICE if outcome.winners == {"red"} else BOB  # who made the winning capture
    assert history[-1].endswith(f"{outcome.summary} — <@{winner}>")


# --- the secret back rows -------------------------------------------------------------------
async def test_nothing_reveals_a_back_row_before_both_are_chosen(service: MatchService) -> None:
    started = await open_numica(service, 2)
    assert "First every side sets up in secret" in started.text
    assert started.setup and not started.actionable and set(started.mentions) == {ALICE, BOB}
    seen_by_bob = await service.board(2, BOB)
    seen_by_alice = await service.board(2, ALICE)

    chosen = await service.setup(2, ALICE, RED_ROW)
    assert chosen.text.startswith("Your setup for Red is set: ") and f"({RED_ROW})" in chosen.text
    assert chosen.text.endswith("You can change it until Blue has chosen.")
    announce = chosen.announce
    # Blue is named with a mention, so the post pings Blue (issue 23).
    assert announce is not None
    assert announce.text == f"Red has set up in secret. Waiting for Blue (<@{BOB}>): /numica setup."
    assert announce.mentions == (BOB,) and announce.setup and announce.image is None

    # What either player can look at is exactly what it was before Red chose.
    for user, before in ((BOB, seen_by_bob), (ALICE, seen_by_alice)):
        board = await service.board(2, user)
        assert board.image is not None and before.image is not None
        assert board.image.data == before.image.data and board.image.description == before.image.description
        assert RED_ROW not in board.text and "Waiting for Blue (<@22>) to set up" in board.text
    assert (await service.history(2)).text == "No actions yet."
    exported = await service.export(2)
    assert exported.file is not None and RED_ROW not in exported.file.data.decode()
    assert json.loads(exported.file.data).get("setup") in (None, {})
    state = await service.state_of(2)
    assert GAME.notation(state.game) == state.start and state.game.setting_up
    assert state.record().final_state() == state.game
    assert await service.legal_actions(2, ALICE) == [] and await service.legal_actions(2, BOB) == []


async def test_a_side_may_change_its_row_until_the_other_has_chosen(service: MatchService) -> None:
    await open_numica(service, 3)
    await service.setup(3, ALICE, RED_ROW)
    changed = await service.setup(3, ALICE, "ssssoooo")
    assert changed.text.startswith("Your setup for Red is now ") and "(ssssoooo)" in changed.text
    assert changed.announce is not None and "ssssoooo" not in changed.announce.text
    await service.setup(3, BOB, BLUE_ROW)
    state = await service.state_of(3)
    assert state.revealed_setup == {"red": "ssssoooo", "blue": "oossooss"}  # Blue's typed row, canonical
    with pytest.raises(NotAllowed, match="there is no setup to make now"):
        await service.setup(3, ALICE, RED_ROW)


async def test_the_board_with_both_rows_is_posted_once_both_have_chosen(service: MatchService) -> None:
    await open_numica(service, 4)
    await service.setup(4, BOB, BLUE_ROW)  # Blue may choose first
    last = await service.setup(4, ALICE, RED_ROW)
    assert last.text.startswith("Your setup for Red is set: ") and f"({RED_ROW})" in last.text
    assert last.text.endswith("Every side's is revealed now.")
    post = last.announce
    assert post is not None
    assert post.text.startswith("Both back rows are set (") and post.text.endswith(
        ": Red moves first.\nRed to act — <@11>"
    )
    assert post.mentions == (ALICE,) and post.actionable and not post.setup
    assert png(post).width > 700
    assert post.image is not None and "a1" in post.image.description
    state = await service.state_of(4)
    assert GAME.notation(state.game).split()[1:3] == [
        "red:a1s,b1o,c1s,d1o,e1o,f1s,g1o,h1s",
        "blue:a8o,b8o,c8s,d8s,e8o,f8o,g8s,h8s",
    ]
    record = GameRecord.from_json((await service.export(4)).file.data.decode())  # type: ignore[union-attr]
    assert record.final_state() == state.game


async def test_the_private_answer_names_the_row_as_stored(service: MatchService) -> None:
    await open_numica(service, 22)
    chosen = await service.setup(22, ALICE, "square round square round round square round square")
    assert chosen.text.startswith("Your setup for Red is set: ") and f"({RED_ROW})" in chosen.text


async def test_mygames_leaves_out_a_side_that_has_set_up(service: MatchService) -> None:
    await open_numica(service, 23)
    assert [t.seat for t in await service.my_turns(GUILD, ALICE)] == ["red"]
    await service.setup(23, ALICE, RED_ROW)
    assert await service.my_turns(GUILD, ALICE) == []
    assert [t.seat for t in await service.my_turns(GUILD, BOB)] == ["blue"]


# --- undo -----------------------------------------------------------------------------------
async def test_a_move_can_be_taken_back_until_the_opponent_moves(service: MatchService) -> None:
    await open_numica(service, 5, setup="random")
    start = GAME.notation((await service.state_of(5)).game)
    rng = random.Random(5)
    with pytest.raises(NotAllowed, match="there is no action to undo"):
        await service.undo(5, ALICE)
    first, _ = await play_a_move(service, 5, rng)
    with pytest.raises(NotAllowed, match="you can only undo your own last action"):
        await service.undo(5, BOB)
    undone = await service.undo(5, ALICE)
    assert undone.text.startswith(f"↩ <@11> took back the last action (Red moved {first.notation()[:2]} to")
    assert undone.mentions == (ALICE,) and GAME.notation((await service.state_of(5)).game) == start
    with pytest.raises(NotAllowed, match="there is no action to undo"):
        await service.undo(5, ALICE)
    await service.act(5, ALICE, first.notation())
    await play_a_move(service, 5, rng)  # Blue answers: Red's move stands now
    with pytest.raises(NotAllowed, match="the next player has moved since"):
        await service.undo(5, ALICE)
    await service.undo(5, BOB)  # Blue's own move may still go back
    assert [p.action for p in (await service.state_of(5)).played] == [first.notation()]


# --- refusals -------------------------------------------------------------------------------
async def test_refusals_say_why_and_change_nothing(service: MatchService) -> None:
    await open_numica(service, 6)
    before = (await service.state_of(6)).version
    # "Red, Blue" until texts.joined is used there (notes/numica-host-requests.md, 4): either reads.
    with pytest.raises(NotAllowed, match=r"the game has not begun: Red(,| and) Blue must still set up"):
        await service.act(6, ALICE, "a1-a2")
    with pytest.raises(NotInMatch, match="you have no setup to make in this match"):
        await service.setup(6, EVE, RED_ROW)
    with pytest.raises(IllegalMove, match="a back row has exactly 4 square"):
        await service.setup(6, ALICE, "sssssooo")
    with pytest.raises(IllegalMove, match="I can't read"):
        await service.setup(6, ALICE, "four squares please")
    assert (await service.state_of(6)).version == before and not (await service.state_of(6)).setup

    await open_numica(service, 7, setup="random")
    state = await service.state_of(7)
    refused = {
        (BOB, "h8-h7"): (NotYourTurn, "it is Red's turn"),
        (EVE, "a1-a2"): (NotInMatch, "you are not playing in this match"),
        (ALICE, "d4-d5"): (IllegalMove, "there is no piece on d4: move one of Red's pieces"),
        (ALICE, "a8-a7"): (IllegalMove, "a8 is Blue's piece"),
        (ALICE, "fly to the moon"): (IllegalMove, "I can't read 'fly to the moon'"),
    }
    for (user, text), (error, message) in refused.items():
        with pytest.raises(error, match=message):
            await service.act(7, user, text)
    after = await service.state_of(7)
    assert (after.version, GAME.notation(after.game)) == (state.version, GAME.notation(state.game))


# --- endings away from the board ------------------------------------------------------------
async def test_resigning_asks_first_then_loses(service: MatchService) -> None:
    await open_numica(service, 8, setup="random")
    with pytest.raises(ConfirmFirst, match="Resigning ends the match as a loss for Red"):
        await service.resign(8, ALICE)
    assert not (await service.state_of(8)).is_over
    final = await service.resign(8, ALICE)  # the same command again within a minute confirms
    assert final.text == ("<@11> resigned for Red.\n**Red resigned: Blue wins.** Red: <@11> · Blue: <@22>\n"
                          "Not rated: it ended before each side had made 2 moves.")  # docs/ratings.md
    assert set(final.mentions) == {ALICE, BOB}
    outcome = GAME.outcome((await service.state_of(8)).game)
    assert outcome is not None and outcome.winners == {"blue"} and outcome.reason == "resignation"


async def test_a_side_may_resign_while_the_rows_are_being_arranged(service: MatchService) -> None:
    await open_numica(service, 9)
    await service.setup(9, ALICE, RED_ROW)
    final = await service.resign(9, BOB, confirmed=True)
    assert "**Blue resigned: Red wins.**" in final.text
    assert RED_ROW not in final.text and (await service.state_of(9)).revealed_setup == {}


async def test_a_draw_is_offered_then_accepted_or_declined(service: MatchService) -> None:
    await open_numica(service, 10, setup="random")
    offer = await service.draw(10, ALICE, "offer")
    assert offer.text == "<@11> offers a draw. Waiting for <@22>: /numica draw choice:accept or choice:decline."
    assert offer.mentions == (BOB,) and offer.answers == ("draw_accept", "draw_decline")
    declined = await service.draw(10, BOB, "decline")
    assert declined.text == "<@22> declined the draw; play goes on."
    await play_a_move(service, 10, random.Random(10))
    await service.draw(10, BOB, "offer")
    with pytest.raises(NotAllowed, match="already agreed"):
        await service.draw(10, BOB, "accept")
    final = await service.draw(10, ALICE, "accept")
    assert "**Draw by agreement.**" in final.text and set(final.mentions) == {ALICE, BOB}
    assert GAME.outcome((await service.state_of(10)).game).drawn == {"red", "blue"}  # type: ignore[union-attr]


# --- deadlines and reminders ----------------------------------------------------------------
Timers = TimedService


@pytest.fixture
async def timers(db_path: str) -> AsyncIterator[Timers]:
    clock = ManualClock()
    service = await MatchService.open(db_path, clock=clock)
    harness = Timers(service, clock)
    harness.dispatcher.start()
    yield harness
    await harness.dispatcher.stop()
    await service.close()


async def test_an_expired_turn_loses_on_time(timers: Timers) -> None:
    await open_numica(timers.service, 11, setup="random", deadline_days=1)
    assert not [n for n in await timers.after(23.9) if "⌛" in n.reply.text]
    [expired] = [n for n in await timers.after(0.2) if "⌛" in n.reply.text]
    assert expired.reply.text == (
        "⌛ Red's turn ran out (the 1-day deadline).\n**Red ran out of time: Blue wins.** Red: <@11> · Blue: <@22>\n"
        "Not rated: it ended before each side had made 2 moves."
    )
    assert set(expired.reply.mentions) == {ALICE, BOB} and expired.reply.image is not None
    outcome = GAME.outcome((await timers.service.state_of(11)).game)
    assert outcome is not None and outcome.winners == {"blue"} and outcome.reason == "timeout"
    assert await timers.service.next_timer() is None


async def test_an_expired_setup_gets_a_random_row(timers: Timers) -> None:
    service = timers.service
    await open_numica(service, 12, deadline_days=1)
    await service.setup(12, ALICE, RED_ROW)
    [expired] = [n for n in await timers.after(24) if "⌛" in n.reply.text]
    assert expired.reply.text.startswith("⌛ The 1-day deadline passed: Blue got a random setup.")
    assert "Red to act — <@11>" in expired.reply.text and expired.reply.mentions == (ALICE,)
    state = await service.state_of(12)
    assert state.revealed_setup["red"] == RED_ROW and state.revealed_setup["blue"] in ARRANGEMENTS
    assert state.to_act == "red" and not state.is_over
    # The first move's deadline starts with the game.
    [lost] = [n for n in await timers.after(24) if "⌛" in n.reply.text]
    assert "Red ran out of time: Blue wins" in lost.reply.text


async def test_when_nobody_sets_up_in_time_both_rows_are_drawn(timers: Timers) -> None:
    await open_numica(timers.service, 13, deadline_days=2)
    [expired] = [n for n in await timers.after(48) if "⌛" in n.reply.text]
    assert expired.reply.text.startswith("⌛ The 2-day deadline passed: Red and Blue got a random setup.")
    assert set((await timers.service.state_of(13)).revealed_setup) == {"red", "blue"}


async def test_reminders_wait_only_for_sides_still_to_set_up(timers: Timers) -> None:
    service = timers.service
    await open_numica(service, 14)
    [reminder] = await timers.after(24)
    assert reminder.reply.text.startswith("⏰ <@11>, <@22>, your secret setup is still to make (/numica setup)")
    await service.setup(14, ALICE, RED_ROW)
    [reminder] = await timers.after(24)
    assert reminder.reply.mentions == (BOB,) and RED_ROW not in reminder.reply.text


# --- standings, records, replays --------------------------------------------------------------
async def test_standings_record_numica_results(service: MatchService) -> None:
    await open_numica(service, 15, setup="random")
    for seed in range(4):  # both sides played two moves: the resignation counts (docs/ratings.md)
        await play_a_move(service, 15, random.Random(seed))
    await service.resign(15, BOB, confirmed=True)
    await open_numica(service, 16, setup="random")
    for seed in range(4):
        await play_a_move(service, 16, random.Random(seed))
    await service.draw(16, ALICE, "offer")
    await service.draw(16, BOB, "accept")
    table = await service.standings(GUILD, "numica")
    assert [(s.user_id, s.wins, s.losses, s.draws) for s in table] == [(ALICE, 1, 0, 1), (BOB, 0, 1, 1)]
    assert table[0].rating.mu > 25 > table[1].rating.mu
    assert await service.standings(GUILD, "nika") == []
    board = await service.leaderboard(GUILD, BOB, "numica")
    assert board.text.startswith("**Numica leaderboard** (OpenSkill; ? marks a provisional rating)\n` 1.`")
    assert "<@11> — 1W 0L 1D" in board.text
    stats = await service.stats(GUILD, BOB, "numica")
    assert "<@22> in Numica: rating" in stats.text and "0 won, 1 lost, 1 drawn in 2 rated matches" in stats.text


async def test_a_match_from_a_position_or_a_record_is_casual(service: MatchService) -> None:
    opened = await service.new_match(GUILD, 17, ALICE, "red", game="numica", start=CAPTURES)
    assert "casual, unrated" in opened.text
    await service.join(17, BOB, "blue")
    await service.start(17, ALICE)
    took = await service.act(17, ALICE, "b5-b8")
    assert took.text.startswith("Red captured Blue's round piece on b8 (b5xb8).")
    replay = await service.replay(17)
    assert replay.file is not None and replay.file.filename.endswith(".gif")
    with Image.open(io.BytesIO(replay.file.data)) as gif:
        assert gif.format == "GIF" and gif.n_frames == 2
    exported = await service.export(17)
    assert exported.file is not None
    copy = await service.new_match(GUILD, 18, BOB, "blue", game="numica", start=exported.file.data.decode())
    assert "casual, unrated" in copy.text
    assert GAME.notation((await service.state_of(18)).game) == GAME.notation((await service.state_of(17)).game)
    with pytest.raises(Exception, match="that is a Numica record: start it with /numica new"):
        await service.new_match(GUILD, 19, BOB, "athens", start=exported.file.data.decode(), game="nika")


# --- menus ----------------------------------------------------------------------------------
def who(user: int, channel: int) -> Invoker:
    return Invoker(GUILD, channel, user)


async def suggested(service: MatchService, user: int, channel: int, command: str, focused: str,
                    options: dict[str, str]) -> list[tuple[str, str]]:  # fmt: skip
    steps = await autocomplete(service, who(user, channel), "numica", command, focused, options)
    return [(step.value, step.label) for step in steps]


async def test_from_suggests_the_pieces_that_can_move_and_to_their_targets(service: MatchService) -> None:
    await service.new_match(GUILD, 20, ALICE, "red", game="numica", start=CAPTURES)
    await service.join(20, BOB, "blue")
    await service.start(20, ALICE)
    legal = GAME.legal_actions(GAME.load(CAPTURES))
    pieces = [value for value, _ in await suggested(service, ALICE, 20, "move", "from", {"from": ""})]
    assert sorted(pieces) == sorted({m.notation()[:2] for m in legal})
    assert [v for v, _ in await suggested(service, ALICE, 20, "move", "from", {"from": "b"})] == ["b5"]
    targets = await suggested(service, ALICE, 20, "move", "to", {"from": "b5", "to": ""})
    assert targets[:2] == [("b8", "b8 ✕ captures"), ("e8", "e8 ✕ captures")]  # captures first
    assert {v for v, _ in targets} == {m.notation()[3:] for m in legal if m.notation().startswith("b5")}
    assert await suggested(service, BOB, 20, "move", "from", {"from": ""}) == []  # not Blue's turn
    assert await suggested(service, ALICE, 20, "move", "to", {"from": "a1", "to": ""}) == []  # no piece there
    played = await suggested(service, ALICE, 20, "play", "action", {"action": "e3"})
    assert {value for value, _ in played} == {m.notation() for m in legal if m.notation().startswith("e3")}
    assert ("e3xb6", "e3xb6") in played


async def test_setup_suggests_every_row_with_the_tiles_it_would_stand_on(service: MatchService) -> None:
    await open_numica(service, 21)
    rows = await suggested(service, ALICE, 21, "setup", "choice", {"choice": ""})
    assert len(rows) == 25 and rows[0][0] == "oooossss"
    tiles = GAME.load((await service.state_of(21)).start).position.tiles
    [(value, label)] = await suggested(service, ALICE, 21, "setup", "choice", {"choice": RED_ROW})
    assert value == RED_ROW and label.endswith(f"({RED_ROW})") and label.startswith(f"■{tiles[0]} ●{tiles[1]}")
    blue = dict(await suggested(service, BOB, 21, "setup", "choice", {"choice": RED_ROW}))
    assert blue[RED_ROW].startswith(f"■{tiles[56]} ●{tiles[57]}")  # Blue's own back row, rank 8
    assert await suggested(service, EVE, 21, "setup", "choice", {"choice": ""}) == []


def test_the_setup_select_turns_four_files_into_a_back_row() -> None:
    picker = front_end("numica").setup_picker
    assert picker is not None and picker.picks == 4
    assert [value for _, value in picker.options] == list("abcdefgh")
    assert picker.choice(["a", "c", "f", "h"]) == RED_ROW
    assert picker.choice(["h", "g", "f", "e"]) == "oooossss"


# --- the console ----------------------------------------------------------------------------
async def test_the_console_plays_numica(service: MatchService, tmp_path: Path) -> None:
    lines: list[str] = []
    console = Console(service, tmp_path / "boards", out=lines.append)
    script = [
        "/numica new side:red", "as @bob", "/numica join side:blue", "/numica start",
        "/numica setup choice:oooossss", "as @alice", "/numica setup choice:sosoosos", "/numica board",
    ]  # fmt: skip
    for line in script:
        assert await console.handle(line)
    state = await service.state_of(1)
    move = GAME.legal_actions(state.game)[0].notation()
    for line in (
        "/numica move from:a1 to:a1", f"/numica move from:{move[:2]} to:{move[3:]}", "/numica undo",
        f"/numica play action:{move}", "/numica resign", "/numica resign",
    ):  # fmt: skip
        assert await console.handle(line)
    text = "\n".join(lines)
    assert "@alice opened a Numica match and took Red." in text
    assert "(oooossss). You can change it until Red has chosen." in text
    assert "Blue has set up in secret. Waiting for Red (@alice): /numica setup." in text
    assert ": Red moves first.\nRed to act — @alice" in text
    assert f"Red moved {move[:2]} to {move[3:]}.\nBlue to act — @bob" in text
    assert "✗ a move goes to another square" in text
    assert "? Resigning ends the match as a loss for Red." in text and "**Red resigned: Blue wins.**" in text
    boards = sorted((tmp_path / "boards").glob("numica-match-1-*.png"))
    assert len(boards) == 7  # the start, /numica board, the reveal, the move, the undo, the move again, the end


async def test_the_console_starts_numica_from_a_position(service: MatchService, tmp_path: Path) -> None:
    lines: list[str] = []
    console = Console(service, tmp_path / "boards", out=lines.append)
    await console.handle(f"/numica new side:red from:{CAPTURES}")
    assert "casual, unrated" in lines[-1]
