"""Pikemen hosted by the match service over a real SQLite file: lobbies for 2, 3 and 4
players, charges and turns through the front end's commands, refusals, pings and scores,
undo, seats that leave (resigning, running out of time), draws, standings, autocomplete
and the console."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from bot.clock import ManualClock
from bot.commands.dispatch import Invoker, autocomplete, commands_for, dispatch
from bot.console import Console
from bot.dispatcher import TimerDispatcher
from bot.errors import IllegalMove, NotAllowed, NotYourTurn, ServiceError
from bot.ratings.system import Rating
from bot.replies import Notice, Reply
from bot.service import MatchService
from tests.bot.conftest import ALICE, BOB, CAROL, DAVE, EVE, GUILD, FrontEnd

HOUR = 3600.0
GAME = "pikemen"
SEATS = {2: ("red", "blue"), 3: ("red", "yellow", "blue"), 4: ("red", "yellow", "green", "blue")}
USERS = (ALICE, BOB, CAROL, DAVE)

# Two players. Red's large a6 points south at Blue's flat medium on a3; c6 points south-east.
CHARGES = "R0:a6Ls,c6Mse,a8Lu B0:a3Me,f1Lu,g1Lu,h1Lu,h2Lu R/12/0"


async def run(service: MatchService, user: int, channel: int, name: str, **options: Any) -> Reply:
    """A /pikemen command, as the cog and the console run it."""
    return await dispatch(service, Invoker(GUILD, channel, user), GAME, name, options)


async def table(service: MatchService, channel: int, players: int, *, start: str | None = None,
                deadline: int | None = None, target: str | None = None) -> None:  # fmt: skip
    """A started match: alice, bob, carol, dave take the seats in turn order."""
    options = {"target": target} if target else {}
    await service.new_match(GUILD, channel, ALICE, "red", game=GAME, players=players, options=options, start=start,
                            deadline_days=deadline)  # fmt: skip
    for user, seat in zip(USERS[1:], SEATS[players][1:], strict=False):
        await service.join(channel, user, seat)
    await service.start(channel, ALICE)


async def notation(service: MatchService, channel: int) -> str:
    return str((await service.state_of(channel)).game.notation())


async def suggested(service: MatchService, user: int, channel: int, command: str, options: Mapping[str, str],
                    focused: str) -> list[str]:  # fmt: skip
    steps = await autocomplete(service, Invoker(GUILD, channel, user), GAME, command, focused, options)
    return [step.value for step in steps]


# --- the lobby ---------------------------------------------------------------------------
def test_new_offers_players_target_and_seats_by_colour() -> None:
    new = commands_for(GAME)["new"]
    assert [o.name for o in new.options] == ["seat", "players", "target", "deadline", "from", "record", "thread"]
    seat, players, target = new.options[:3]
    assert seat.required and {c.value for c in seat.choices} == {"red", "yellow", "green", "blue"}
    assert [c.value for c in players.choices] == ["2", "3", "4"]
    # Any target from 12 up to the points on the board (issue 23): 12, 15, 20 are suggestions.
    assert target.choices == () and target.autocomplete
    assert "tallest" in next(c.label for c in seat.choices if c.value == "red")


async def test_a_two_player_lobby_seats_red_and_blue_first_to_twelve(service: MatchService) -> None:
    opened = await run(service, ALICE, 1, "new", seat="red")
    assert f"<@{ALICE}> opened a Pikemen match (for 2 players) and took Red" in opened.text
    with pytest.raises(ServiceError, match="not a seat: choose red, blue"):
        await run(service, BOB, 1, "join", seat="yellow")
    with pytest.raises(NotAllowed, match="Blue still needs a player"):
        await run(service, ALICE, 1, "start")
    joined = await run(service, BOB, 1, "join", seat="blue")
    assert "Red: <@11>\nBlue: <@22>" in joined.text
    started = await run(service, ALICE, 1, "start")
    assert started.mentions == (ALICE,) and started.image is not None
    assert "Scores: Red 0 · Blue 0 (first to 12" in started.text
    state = await service.state_of(1)
    assert state.player_count == 2 and dict(state.options) == {"target": "12"}
    assert dict(state.seats) == {"red": ALICE, "blue": BOB}
    assert (await notation(service, 1)).endswith(" R/12/0")


async def test_a_three_player_lobby_with_a_target_of_fifteen(service: MatchService) -> None:
    await run(service, ALICE, 2, "new", seat="red", players=3, target="15")
    with pytest.raises(ServiceError, match="'green' is not a seat: choose red, yellow, blue"):
        await run(service, BOB, 2, "join", seat="green")
    await run(service, BOB, 2, "join", seat="yellow")
    with pytest.raises(NotAllowed, match="Yellow is already taken"):
        await run(service, CAROL, 2, "join", seat="yellow")
    with pytest.raises(NotAllowed, match="each player holds one seat"):
        await run(service, BOB, 2, "join", seat="blue")
    await run(service, CAROL, 2, "join", seat="blue")
    started = await run(service, BOB, 2, "start")
    assert "Red: <@11> · Yellow: <@22> · Blue: <@33>" in started.text
    assert "Scores: Red 0 · Yellow 0 · Blue 0 (first to 15" in started.text
    assert "Red to act" in started.text and started.mentions == (ALICE,)
    assert (await notation(service, 2)).endswith(" R/15/0")


async def test_a_four_player_lobby_with_a_target_of_twenty(service: MatchService) -> None:
    await run(service, DAVE, 3, "new", seat="blue", players=4, target="20")
    for user, seat in ((ALICE, "red"), (BOB, "yellow"), (CAROL, "green")):
        await run(service, user, 3, "join", seat=seat)
    started = await run(service, DAVE, 3, "start")
    assert "Scores: Red 0 · Yellow 0 · Green 0 · Blue 0 (first to 20" in started.text
    assert started.mentions == (ALICE,)  # red moves first, whoever opened the lobby
    state = await service.state_of(3)
    assert state.rules.state_seats(state.game) == SEATS[4]
    assert (await notation(service, 3)).endswith(" R/20/0")


async def test_a_target_below_12_or_past_the_points_on_the_board_is_refused(service: MatchService) -> None:
    with pytest.raises(ServiceError, match="target is a whole number from 12 to 54"):
        await service.new_match(GUILD, 4, ALICE, "red", game=GAME, options={"target": "11"})
    with pytest.raises(ServiceError, match="with 2 players the target is at most 30 points"):
        await run(service, ALICE, 4, "new", seat="red", target="31")
    assert await service.match_in(4) is None
    opened = await run(service, ALICE, 4, "new", seat="red", players=3, target="13")
    assert "target 13" in opened.text and (await service.state_of(4)).options == {"target": "13"}
    with pytest.raises(ServiceError, match="Pikemen is for 2, 3 and 4 players"):
        await service.new_match(GUILD, 4, ALICE, "red", game=GAME, players=5)


# --- moving ------------------------------------------------------------------------------
async def test_a_charge_without_facing_keeps_pointing_the_way_it_charged(service: MatchService) -> None:
    await table(service, 10, 2, start=CHARGES)
    reply = await run(service, ALICE, 10, "charge", piece="a6", to="a4")
    assert reply.text.startswith("Red charged a6 to a4.")
    state = await service.state_of(10)
    assert state.played[-1].action == "a6-a4"
    assert "a4Ls" in state.game.notation()


async def test_a_charge_with_facing_turns_the_piece_after_it_captures(service: MatchService) -> None:
    await table(service, 11, 2, start=CHARGES)
    # Typed with `-`, the host stores the capture as the engine writes it.
    reply = await run(service, ALICE, 11, "charge", piece="A6", to="a3", facing="north-east")
    assert reply.text.startswith(
        "Red charged a6 to a3, capturing Blue's medium pikeman (+2, now 2), and turned it to point north-east."
    )
    assert "Scores: Red 2 · Blue 0" in reply.text
    state = await service.state_of(11)
    assert state.played[-1].action == "a6xa3 ne"
    assert state.game.notation().startswith("R2:a3Lne,")


async def test_keep_and_the_direction_charged_in_are_the_plain_charge(service: MatchService) -> None:
    await table(service, 12, 2, start=CHARGES)
    await run(service, ALICE, 12, "charge", piece="a6", to="a5", facing="keep")  # the menu's "keep pointing"
    await run(service, BOB, 12, "turn", piece="f1", facing="n")
    await run(service, ALICE, 12, "charge", piece="a5", to="a4", facing="s")  # south, the way it points
    assert [p.action for p in (await service.state_of(12)).played] == ["a6-a5", "f1 n", "a5-a4"]


async def test_a_turn_points_a_piece_a_new_way_or_stands_it_upright(service: MatchService) -> None:
    await table(service, 13, 2, start=CHARGES)
    stood = await run(service, ALICE, 13, "turn", piece="c6", facing="u")
    assert stood.text.startswith("Red stood c6 upright.")
    turned = await run(service, BOB, 13, "turn", piece="a3", facing="↖")
    assert turned.text.startswith("Blue turned a3 to point north-west.")
    assert [p.action for p in (await service.state_of(13)).played] == ["c6 u", "a3 nw"]


async def test_play_takes_any_notation(service: MatchService) -> None:
    await table(service, 14, 2, start=CHARGES)
    reply = await run(service, ALICE, 14, "play", action="a6 x a3 up")
    assert reply.text.startswith("Red charged a6 to a3, capturing")
    assert (await service.state_of(14)).played[-1].action == "a6xa3 u"


async def test_refusals_say_why_and_change_nothing(service: MatchService) -> None:
    await table(service, 15, 2, start=CHARGES)
    before = await service.state_of(15)
    refusals: list[tuple[int, str, dict[str, str], type[ServiceError], str]] = [
        (BOB, "turn", {"piece": "a3", "facing": "n"}, NotYourTurn, r"it is Red's turn \(<@11> plays it\)"),
        (ALICE, "charge", {"piece": "a8", "to": "a7"}, IllegalMove, "stands upright"),
        (ALICE, "turn", {"piece": "c6", "facing": "se"}, IllegalMove, "already points south-east"),
        (ALICE, "charge", {"piece": "a6", "to": "b5"}, IllegalMove, "straight line|points south"),
        (ALICE, "charge", {"piece": "a6", "to": "a2"}, IllegalMove, "a3"),  # it cannot jump the piece on a3
        (ALICE, "turn", {"piece": "a3", "facing": "n"}, IllegalMove, "Blue"),  # not her piece
        (ALICE, "play", {"action": "charge somewhere"}, IllegalMove, "a6-a3"),  # says how to write a move
        (EVE, "turn", {"piece": "c6", "facing": "n"}, ServiceError, "not playing in this match"),
    ]
    for user, name, options, error, message in refusals:
        with pytest.raises(error, match=message):
            await run(service, user, 15, name, **options)
    after = await service.state_of(15)
    assert (after.version, after.game.notation(), len(after.played)) == (before.version, before.game.notation(), 0)


# --- posts ------------------------------------------------------------------------------
async def test_each_post_pings_only_the_player_to_act_and_shows_the_scores(service: MatchService) -> None:
    # Three players, Red on 10: Red's c6 takes Blue's flat small on e4 and turns east, toward Yellow's g4.
    start = "R10:a8Lu,a2Mn,c6Mse Y0:g5Lu,h5Lu,g4Mu,h4Mu B0:e4Sn,b1Lnw,c1Mu,d1Mu R/12/0"
    await table(service, 20, 3, start=start)
    first = await run(service, ALICE, 20, "charge", piece="c6", to="e4", facing="e")
    assert first.mentions == (BOB,)
    assert "Scores: Red 11 · Yellow 0 · Blue 0" in first.text and f"Yellow to act — <@{BOB}>" in first.text
    second = await run(service, BOB, 20, "turn", piece="g4", facing="w")
    assert second.mentions == (CAROL,) and "Scores: Red 11 · Yellow 0 · Blue 0" in second.text
    third = await run(service, CAROL, 20, "charge", piece="b1", to="a2")
    assert third.mentions == (ALICE,) and "Scores: Red 11 · Yellow 0 · Blue 2" in third.text
    last = await run(service, ALICE, 20, "charge", piece="e4", to="g4")  # Yellow's flat medium: +2
    assert "**Red reaches 13 points and wins.**" in last.text and "Scores: Red 13 · Yellow 0 · Blue 2" in last.text
    assert set(last.mentions) == {ALICE, BOB, CAROL}  # the result goes to everyone


async def test_undo_until_the_next_player_moves(service: MatchService) -> None:
    await table(service, 21, 3)
    await run(service, ALICE, 21, "turn", piece="c6", facing="se")
    undone = await run(service, ALICE, 21, "undo")
    assert undone.text.startswith(f"↩ <@{ALICE}> took back the last action (Red turned c6 to point south-east).")
    assert undone.mentions == (ALICE,)
    await run(service, ALICE, 21, "turn", piece="d6", facing="e")
    await run(service, BOB, 21, "turn", piece="f6", facing="w")
    with pytest.raises(NotAllowed, match="the next player has moved since"):  # Yellow has moved since Red did
        await run(service, ALICE, 21, "undo")
    with pytest.raises(NotAllowed, match="you can only undo your own last action"):  # Blue has not moved
        await run(service, CAROL, 21, "undo")
    await run(service, BOB, 21, "undo")  # Blue has not moved yet
    assert [p.action for p in (await service.state_of(21)).played] == ["d6 e"]
    with pytest.raises(NotAllowed, match="only one action can be taken back"):
        await run(service, ALICE, 21, "undo")


# --- seats that leave -----------------------------------------------------------------
async def test_a_resignation_in_four_players_removes_the_seat_and_play_skips_it(service: MatchService) -> None:
    await table(service, 30, 4)
    await run(service, ALICE, 30, "turn", piece="c6", facing="se")
    with pytest.raises(ServiceError, match="Resigning takes you out of the game"):
        await run(service, CAROL, 30, "resign")
    resigned = await run(service, CAROL, 30, "resign")  # repeated within a minute: confirmed
    assert resigned.text.startswith(f"Green resigned and left the game, 9 pieces removed. (<@{CAROL}>)")
    assert "Green 0 (out)" in resigned.text
    assert resigned.mentions == (BOB,)  # Yellow was to act, and still is
    state = await service.state_of(30)
    assert " G0!:- " in state.game.notation() and state.seats_in_play() == ("red", "yellow", "blue")
    await run(service, BOB, 30, "turn", piece="f6", facing="sw")
    assert (await service.state_of(30)).to_act == "blue"  # Green is skipped
    await run(service, DAVE, 30, "turn", piece="c3", facing="ne")
    await run(service, ALICE, 30, "turn", piece="c7", facing="e")
    assert (await service.state_of(30)).to_act == "yellow"
    with pytest.raises(NotAllowed, match="already out"):
        await service.resign(30, CAROL, confirmed=True)


async def test_a_draw_is_agreed_by_the_players_still_in_only(service: MatchService) -> None:
    await table(service, 31, 4)
    await run(service, ALICE, 31, "turn", piece="c6", facing="se")
    await service.resign(31, BOB, confirmed=True)
    offered = await run(service, ALICE, 31, "draw", choice="offer")
    assert set(offered.mentions) == {CAROL, DAVE}  # not Bob: he left the game
    with pytest.raises(NotAllowed, match="out of this game"):
        await run(service, BOB, 31, "draw", choice="accept")
    await run(service, CAROL, 31, "draw", choice="accept")
    assert not (await service.state_of(31)).is_over
    drawn = await run(service, DAVE, 31, "draw", choice="accept")
    assert "**Draw by agreement between Red, Green and Blue.**" in drawn.text
    outcome = (await service.state_of(31)).game.outcome
    assert outcome.drawn == {"red", "green", "blue"} and outcome.reason == "agreement"


class Timers:
    """The service with a turn-timer dispatcher under a hand-moved clock."""

    def __init__(self, service: MatchService, clock: ManualClock) -> None:
        self.service, self.clock = FrontEnd(service), clock  # replies posted, as the front ends do
        self.notices: list[Notice] = []
        self.dispatcher = TimerDispatcher(service, self._announce)

    async def _announce(self, notice: Notice, nonce: str) -> None:
        self.notices.append(notice)

    async def after(self, hours: float) -> list[str]:
        seen = len(self.notices)
        await self.clock.advance(hours * HOUR)
        await self.dispatcher.settled()
        return [n.reply.text for n in self.notices[seen:]]


@pytest.fixture
async def timed(db_path: str) -> AsyncIterator[Timers]:
    clock = ManualClock()
    service = await MatchService.open(db_path, clock=clock)
    timers = Timers(service, clock)
    timers.dispatcher.start()
    yield timers
    await timers.dispatcher.stop()
    await service.close()


async def test_a_seat_whose_turn_runs_out_leaves_the_game(timed: Timers) -> None:
    service = timed.service
    await table(service, 40, 3, deadline=1)
    await run(service, ALICE, 40, "turn", piece="c6", facing="se")
    posts = [text for text in await timed.after(24) if "ran out" in text]
    [post] = posts
    assert post.startswith(
        "⌛ Yellow's turn ran out (the 1-day deadline). Yellow ran out of time and left the game, 12 pieces removed."
    )
    assert "Scores: Red 0 · Yellow 0 (out) · Blue 0" in post and post.endswith(f"Blue to act — <@{CAROL}>")
    [expired] = [n for n in timed.notices if "ran out" in n.reply.text]
    assert expired.reply.mentions == (CAROL,)
    state = await service.state_of(40)
    assert " Y0!:- " in state.game.notation() and state.to_act == "blue"
    # Blue runs out too: Red is the last player left.
    [last] = [text for text in await timed.after(24) if "ran out" in text]
    assert "**Red is the last player left in the game and wins.**" in last
    assert (await service.state_of(40)).game.outcome.winners == {"red"}


# --- standings --------------------------------------------------------------------------
async def test_a_finished_three_player_game_rates_each_player_against_each_other(service: MatchService) -> None:
    await table(service, 50, 3)
    await run(service, ALICE, 50, "turn", piece="c6", facing="se")
    for _ in range(5):  # everyone turns a piece: each side made two moves, so the endings count (docs/ratings.md)
        state = await service.state_of(50)
        user = state.acting_user()
        assert user is not None
        turns = [
            a.notation()
            for a in await service.legal_actions(50, user)
            if re.fullmatch(r"[a-h]\d+ [nsewu]+", a.notation())
        ]
        await service.act(50, user, turns[0])
    await service.resign(50, BOB, confirmed=True)
    await service.resign(50, CAROL, confirmed=True)
    assert (await service.state_of(50)).game.outcome.winners == {"red"}
    ratings = {s.user_id: s for s in await service.standings(GUILD, GAME)}
    # Free for all: one ranking of three sides (OpenSkill, Plackett–Luce). Red first; Yellow and
    # Blue, both losers, share second place, so they move alike.
    start = Rating().mu
    assert ratings[ALICE].rating.mu > start > ratings[BOB].rating.mu
    assert ratings[BOB].rating == ratings[CAROL].rating
    assert (ratings[ALICE].wins, ratings[BOB].losses, ratings[CAROL].losses) == (1, 1, 1)
    board = (await run(service, DAVE, 50, "stats")).text
    assert board.startswith("**Pikemen leaderboard** (OpenSkill")
    assert board.index(f"<@{ALICE}>") < board.index(f"<@{BOB}>")
    assert (await service.standings(GUILD, "nika")) == []


# --- autocomplete -------------------------------------------------------------------------
async def test_turn_suggests_your_pieces_then_every_other_orientation(service: MatchService) -> None:
    await table(service, 60, 2, start=CHARGES)
    assert await suggested(service, ALICE, 60, "turn", {"piece": ""}, "piece") == ["a6", "c6", "a8"]
    assert await suggested(service, ALICE, 60, "turn", {"piece": "a6", "facing": ""}, "facing") == [
        "n", "ne", "e", "se", "sw", "w", "nw", "u",
    ]  # fmt: skip
    assert await suggested(service, BOB, 60, "turn", {"piece": ""}, "piece") == []  # not Blue's turn


async def test_charge_suggests_keep_then_the_orientations_after_the_charge(service: MatchService) -> None:
    await table(service, 61, 2, start=CHARGES)
    facings = await suggested(service, ALICE, 61, "charge", {"piece": "a6", "to": "a3", "facing": ""}, "facing")
    assert facings == ["keep", "n", "ne", "e", "se", "sw", "w", "nw", "u"]  # "s" is "keep"
    assert "a3" in await suggested(service, ALICE, 61, "charge", {"piece": "a6", "to": "a"}, "to")


async def test_charge_suggests_only_pieces_that_can_charge_and_squares_they_reach(service: MatchService) -> None:
    await table(service, 62, 2, start=CHARGES)
    assert await suggested(service, ALICE, 62, "charge", {"piece": ""}, "piece") == ["a6", "c6"]  # a8 is upright
    assert await suggested(service, ALICE, 62, "charge", {"piece": "a6", "to": ""}, "to") == ["a5", "a4", "a3"]


async def test_play_suggests_moves_in_notation(service: MatchService) -> None:
    await table(service, 63, 2, start=CHARGES)
    moves = await suggested(service, ALICE, 63, "play", {"action": "a6xa3"}, "action")
    assert moves[:2] == ["a6xa3", "a6xa3 n"]


# --- help, rules, console ----------------------------------------------------------------
async def test_help_says_red_moves_first_because_the_tallest_player_starts(service: MatchService) -> None:
    text = (await run(service, ALICE, 70, "help")).text
    assert "Red moves first" in text and "tallest player starts" in text
    for command in ("/pikemen new", "/pikemen charge", "/pikemen turn", "/pikemen resign", "/pikemen draw"):
        assert command in text


async def test_the_rules_digest_shows_a_capture(service: MatchService) -> None:
    rules = await run(service, ALICE, 70, "rules")
    assert "**Pikemen in one minute**" in rules.text and "strictly **smaller**" in rules.text
    assert rules.image is not None and rules.image.data.startswith(b"\x89PNG")
    assert "capturing Blue's small pikeman" in rules.image.description


async def test_a_console_session_plays_a_few_moves(service: MatchService, tmp_path: Path) -> None:
    lines: list[str] = []
    console = Console(service, tmp_path / "boards", out=lines.append)
    script = [
        "/pikemen new seat:red players:3 target:15",
        "as @bob", "/pikemen join seat:yellow",
        "as @carol", "/pikemen join seat:blue",
        "/pikemen start",
        "/pikemen turn piece:d3 facing:ne",  # carol is Blue, and Red moves first
        "as @alice", "/pikemen turn piece:c6 facing:se",
        "as @bob", "/pikemen turn piece:f6 facing:sw",
        "as @carol", "/pikemen play action:d3 north east",
        "as @alice", "/pikemen charge piece:c6 to:d5 facing:u",
    ]  # fmt: skip
    for line in script:
        assert await console.handle(line)
    text = "\n".join(lines)
    assert "@alice opened a Pikemen match (for 3 players; target 15 points) and took Red" in text
    assert "✗ it is Red's turn (@alice plays it)" in text
    assert "Red turned c6 to point south-east" in text and "Yellow to act — @bob" in text
    assert "Blue turned d3 to point north-east" in text
    assert "Red charged c6 to d5 and stood it upright" in text
    assert "Scores: Red 0 · Yellow 0 · Blue 0 (first to 15" in text
    assert len(sorted((tmp_path / "boards").glob("*.png"))) == 5  # the start, and one per move
