"""Inputs that must be refused, never crash: numbers of every spelling, game records of any
shape, and console lines. A property test sends 10,000+ hostile inputs through the whole
command surface of every registered game, deterministically."""

from __future__ import annotations

import itertools
import json
import random
import subprocess
import sys
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from bot.clock import ManualClock
from bot.commands.dispatch import Invoker, commands_for, dispatch, parse_options, parse_value
from bot.commands.group import refuse_unknown
from bot.commands.spec import CommandOption, OptionKind
from bot.console import Console, parse_command
from bot.errors import ServiceError
from bot.service import MatchService
from bot.storage import open_storage
from engine.errors import NotationError
from engine.record import GameRecord
from engine.registry import games
from tests.bot.hostile_surface import (
    ALICE,
    BOB,
    GUILD,
    MESSAGE_LIMIT,
    MOD,
    USERS,
    Surface,
    channel_of,
    record_files,
    seat_stage,
    stub_renderer,
)
from tests.bot.hostile_values import hostile_records, nested_record

ROOT = Path(__file__).resolve().parents[2]
INPUTS = 10_500
GAME = "tictactoe"


@pytest.fixture
async def quick(tmp_path: Path) -> AsyncIterator[MatchService]:
    service = MatchService(await open_storage(str(tmp_path / "hostile.db")), renderer=stub_renderer,
                           clock=ManualClock(), lobbies_per_member=1000)  # fmt: skip
    yield service
    await service.close()


async def snapshot(service: MatchService) -> tuple[Any, ...]:
    async with service.storage.reading() as db:
        return (
            await db.fetchall("SELECT * FROM matches ORDER BY id"),
            await db.fetchall("SELECT * FROM seats ORDER BY match_id, seat"),
            await db.fetchall("SELECT * FROM log ORDER BY match_id, seq"),
            await db.fetchall("SELECT kind, match_id, due FROM timers ORDER BY id"),
        )


async def console_line(service: MatchService, line: str, user: int = ALICE, channel: int = 1) -> Any:
    """A console line through the same steps as the console: parse the line, then its options
    into their types, then dispatch."""
    game, name, pairs = parse_command(line)
    command = commands_for(game).get(name)
    if command is None:
        raise refuse_unknown(game, name)
    options = parse_options(command, pairs, users=USERS)
    return await dispatch(service, Invoker(GUILD, channel, user, rate_limited=False), game, name, options)


# --- 1. numbers -------------------------------------------------------------------------
HOSTILE_NUMBERS = ["inf", "-inf", "NaN", "nan", "²", "⁹", "³", "١٢", "１２", "9" * 4301, "9" * 5000, "1e3", "0x10",
                   "", " ", "5 5", "+-1", "1" * 13]  # fmt: skip


@pytest.mark.parametrize(
    "line",
    [
        "/tictactoe replay last:{}",
        "/tictactoe history page:{}",
        "/tictactoe settings reminder_hours:{}",
        "/pikemen new seat:red players:{}",
    ],
)
async def test_a_number_in_any_other_spelling_is_refused_politely(quick: MatchService, line: str) -> None:
    await seat_stage(quick, GAME, 1, "active")
    before = await snapshot(quick)
    for text in HOSTILE_NUMBERS:
        with pytest.raises(ServiceError, match=r"must be a whole number|needs the|is from|is one of"):
            await console_line(quick, line.format(text))
    assert await snapshot(quick) == before


TYPED_NUMBERS = [float("inf"), float("-inf"), float("nan"), 10**5000, -(10**30), 2**63, 0, True, 2.5, "7"]


@pytest.mark.parametrize(("command", "option"), [("replay", "last"), ("history", "page"),
                                                 ("settings", "reminder_hours")])  # fmt: skip
async def test_a_typed_number_out_of_range_or_of_no_size_is_refused(
    quick: MatchService, command: str, option: str
) -> None:
    await seat_stage(quick, GAME, 1, "active")
    for value in TYPED_NUMBERS:
        with pytest.raises(ServiceError, match=f"{option} (must be|is from)"):
            await dispatch(quick, Invoker(GUILD, 1, ALICE), GAME, command, {option: value})


def test_each_option_is_parsed_once_into_its_real_type() -> None:
    page = CommandOption("page", "", OptionKind.INTEGER, min_value=1, max_value=1000)
    assert parse_value(page, " 7 ") == 7 and type(parse_value(page, "7")) is int
    for text in ("7.0", "٧", "7\n8", "0x7"):
        with pytest.raises(ServiceError, match="page must be a whole number, like 1"):
            parse_value(page, text)
    user = CommandOption("user", "", OptionKind.USER)
    assert parse_value(user, "<@!22>") == 22 and parse_value(user, "@Bob", users={"bob": 22}) == 22
    for text in ("<@0>", "<@99999999999999999999>", "<@" + "9" * 5000 + ">", "@everyone", "⁹"):
        with pytest.raises(ServiceError, match="user must be a member"):
            parse_value(user, text)
    flag = CommandOption("thread", "", OptionKind.BOOLEAN)
    assert parse_value(flag, "Yes") is True and parse_value(flag, "off") is False
    with pytest.raises(ServiceError, match="true or false"):
        parse_value(flag, "²")


# --- 2. game records ------------------------------------------------------------------------
@pytest.mark.parametrize("record", hostile_records(), ids=lambda r: f"{len(r)}-chars-{r[:12]!r}")
def test_a_record_of_any_shape_is_refused_before_it_is_walked(record: str) -> None:
    try:
        GameRecord.from_json(record).final_state()
    except NotationError as error:
        assert 0 < len(str(error)) < 300
    # A few are well-formed records whose actions do not apply: refused when replayed, above.


@pytest.mark.parametrize("record", [nested_record(2000), '{"a":' * 900 + "1" + "}" * 900,
                                    '{"format": "game-record", "version": ' + "9" * 5000 + "}",
                                    '{"format": "game-record", "version": 2, "seed": NaN}'],
                         ids=["2000-deep-list", "900-deep-object", "5000-digit-version", "nan-seed"])  # fmt: skip
async def test_new_from_a_hostile_record_is_refused_and_stores_nothing(quick: MatchService, record: str) -> None:
    before = await snapshot(quick)
    with pytest.raises(ServiceError, match="can't start from that"):
        await console_line(quick, f"/nika new city:athens from:{record}")
    with pytest.raises(ServiceError, match="can't start from that"):
        await dispatch(quick, Invoker(GUILD, 2, ALICE), "nika", "new", {"city": "athens", "record": record})
    assert await snapshot(quick) == before


async def test_a_real_export_still_starts_a_casual_match(quick: MatchService) -> None:
    await seat_stage(quick, GAME, 1, "active")
    await quick.act(1, ALICE, "b2")
    exported = await quick.export(1)
    assert exported.file is not None
    record = exported.file.data.decode()
    assert json.loads(record)["version"] == 2
    opened = await console_line(quick, f"/tictactoe new seat:o from:{json.dumps(json.loads(record))}", channel=2)
    assert "casual, unrated" in str(opened.text)


# --- 3. the console -------------------------------------------------------------------------
async def test_no_line_ends_the_console(quick: MatchService, tmp_path: Path) -> None:
    printed: list[str] = []
    console = Console(quick, tmp_path / "boards", out=printed.append)
    await console.load_names()
    rng = random.Random(3)
    lines = ["/nika history page:²", "/nika replay last:inf", "/nika new city:athens from:" + nested_record(2000),
             "as @\x00", "channel ²", "channel " + "9" * 5000, "manage", "/", "/²", "\x00", "as"]  # fmt: skip
    lines += ["".join(rng.choice("/nika :²⁹\x00\u202e as channel") for _ in range(rng.randrange(1, 60)))
              for _ in range(300)]  # fmt: skip
    for line in lines:
        assert await console.handle(line) is True
    assert not [text for text in printed if "went wrong" in text]  # each was refused for what it is
    printed.clear()
    assert await console.handle("as @alice") and await console.handle("/tictactoe new seat:x")
    assert "opened a Tic-tac-toe match" in printed[-1]
    assert all("Traceback" not in text for text in printed)


def test_the_console_program_survives_bad_lines_and_goes_on(tmp_path: Path) -> None:
    script = "\n".join(["/nika history page:²", "/nika replay last:NaN", "/numica stats user:⁹",
                        "/numica new side:red", "/numica board", "quit"]) + "\n"  # fmt: skip
    env = {"NIKA_DATABASE": str(tmp_path / "console.db"), "NIKA_BOARDS_DIR": str(tmp_path), "PYTHONPATH": str(ROOT),
           "PATH": "/usr/bin:/bin"}  # fmt: skip
    result = subprocess.run([sys.executable, "-m", "bot", "console"], input=script, capture_output=True, text=True,
                            cwd=tmp_path, env=env, timeout=60)  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("✗") == 3 and "page must be a whole number" in result.stdout
    assert "opened a Numica match" in result.stdout and "Traceback" not in result.stdout + result.stderr
    assert list(tmp_path.glob("numica-match-1-*.png"))


# --- the property: every command of every game, 10,000+ hostile inputs ---------------------
def deterministic(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    """The same run every time: the service's own randomness (new matches' seeds, a random free
    side) and the cooldowns' clock come from the seed, not from the machine."""
    chance = random.Random(seed)
    monkeypatch.setattr("bot.service.lobby.secrets", SimpleNamespace(randbelow=chance.randrange))
    monkeypatch.setattr("bot.service.lobby.random", SimpleNamespace(Random=lambda *seed: random.Random(*seed or (0,))))
    ticks = itertools.count()
    monkeypatch.setattr("bot.service.cooldowns.time", SimpleNamespace(monotonic=lambda: next(ticks) * 0.01))


async def test_ten_thousand_hostile_inputs_refused_without_a_crash_or_a_change(
    quick: MatchService, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    deterministic(monkeypatch, 7)
    surface = Surface(quick, record_files(tmp_path / "records"))
    await surface.prepare()
    rng = random.Random(20_261_123)
    seen: Counter[tuple[str, str]] = Counter()
    for number in range(INPUTS):
        typed = number % 4 == 3  # a quarter as Discord types options, the rest as console lines
        await surface.send(rng, typed=typed)
        seen[surface.last_command] += 1
    tally = surface.tally
    shown = "\n".join(f"{b.what}: {b.line[:200]!r} → {b.detail}" for b in tally.breaches[:10])
    assert tally.breaches == [], shown
    assert tally.inputs == INPUTS and tally.refused > 0.6 * INPUTS and tally.succeeded > 200
    assert tally.suggestions > 300  # autocomplete, asked with hostile text typed so far
    every = {(g.slug, name) for g in games() for name in commands_for(g.slug)}
    assert every <= set(seen) and min(seen[pair] for pair in every) >= 20


async def test_the_property_notices_a_refusal_that_wrote(quick: MatchService, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    """The harness itself: a command that writes and then refuses is reported."""
    surface = Surface(quick, [])
    await surface.prepare()

    async def writes_then_refuses(*args: Any, **kwargs: Any) -> Any:
        async with quick.storage.transaction() as db:
            await db.execute("INSERT INTO user_settings (user_id, dm_reminders) VALUES (999, 1)")
        raise ServiceError("refused after writing")

    monkeypatch.setattr(quick, "settings", writes_then_refuses)
    settings = commands_for(GAME)["settings"]
    channel = channel_of(surface.slugs.index(GAME), "active")
    await surface.send_typed(Invoker(GUILD, channel, ALICE), GAME, settings, {"dm": "on"}, "active")
    assert [b.what for b in surface.tally.breaches] == ["a refusal changed stored data"]


async def test_a_refusal_is_never_longer_than_a_message(quick: MatchService) -> None:
    await seat_stage(quick, GAME, 1, "active")
    for line in ["/tictactoe play action:" + "x" * 199, "/tictactoe stats user:@" + "x" * 5000,
                 "/tictactoe new seat:" + "y" * 5000, "/tictactoe " + "z" * 5000,
                 "/tictactoe play " + " ".join(f"o{n}:{n}" for n in range(2000))]:  # fmt: skip
        with pytest.raises(ServiceError) as refused:
            await console_line(quick, line, user=MOD if "stats" in line else BOB)
        assert len(str(refused.value)) <= MESSAGE_LIMIT


async def test_a_console_name_that_cannot_be_stored_is_refused_and_play_goes_on(
    quick: MatchService, tmp_path: Path
) -> None:
    printed: list[str] = []
    console = Console(quick, tmp_path / "boards", out=printed.append)
    await console.load_names()
    assert await console.handle("as @\udcff")  # a lone surrogate: what a mis-decoded terminal line holds
    assert printed[-1].startswith("✗")
    printed.clear()
    assert await console.handle("/tictactoe help")  # still acting as alice
    assert "Tic-tac-toe on Discord" in printed[-1]


async def event_rows(service: MatchService) -> tuple[Any, ...]:
    async with service.storage.reading() as db:
        return tuple([await db.fetchall(f"SELECT * FROM {table} ORDER BY 1, 2")
                      for table in ("events", "entrants", "event_rounds", "event_byes", "event_tables")]
                     + [await db.fetchall("SELECT * FROM matches ORDER BY id")])  # fmt: skip


async def test_hostile_tournament_options_are_refused_and_change_nothing(quick: MatchService,
                                                                          tmp_path: Path) -> None:  # fmt: skip
    """`/tournament` through both of its doors: options as Discord types them (any number, any
    text) and console lines (options hostile, repeated, unknown). Every refusal is a clear
    ServiceError that changed no stored event or match; nothing else escapes."""
    from bot.commands.tournament import run_tournament, tournament_commands
    from tests.bot.hostile_values import hostile_line, hostile_typed

    rng = random.Random(21)
    specs = tournament_commands()
    # A running event in the channel, so join, leave, standings, board and cancel meet one.
    who = {user: Invoker(GUILD, 600, uid, can_manage=user == "mod") for user, uid in USERS.items()}
    await run_tournament(quick, who["alice"], "new", {"game": GAME, "format": "round-robin"})
    await run_tournament(quick, who["bob"], "join", {"game": GAME})
    refused = succeeded = 0
    console = Console(quick, tmp_path / "boards", out=lambda _text: None)
    for index in range(500):
        spec = rng.choice(list(specs.values()))
        member = who[rng.choice(list(USERS))]
        valid = [GAME, "1", "round-robin", "swiss", "yes"]
        before = await event_rows(quick)
        if index % 2:
            options = hostile_typed(spec, rng, valid)
            try:
                await run_tournament(quick, member, spec.name, options)
            except ServiceError as error:
                assert str(error).strip() and len(str(error)) <= MESSAGE_LIMIT, (spec.name, options)
                assert await event_rows(quick) == before, ("a refusal changed stored data", spec.name, options)
                refused += 1
                continue
            succeeded += 1
        else:
            line = hostile_line("tournament", spec, rng, valid, [])
            printed: list[str] = []
            console.out = printed.append
            assert await console.handle(line) is True
            assert not [text for text in printed if "went wrong" in text or "Traceback" in text], line
            if printed and printed[0].startswith("✗"):
                assert await event_rows(quick) == before, ("a refused line changed stored data", line)
                refused += 1
            else:
                succeeded += 1
    assert refused > 300 and succeeded > 0  # both doors reached the checks and the desk
