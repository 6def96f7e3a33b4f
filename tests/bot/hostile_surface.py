"""A service with every game in every stage (no match, a lobby, a match under way) and a
driver that sends hostile inputs through the whole command surface: console line parsing,
`parse_options` and `dispatch`, or Discord-typed options straight into `dispatch`.

For each input the driver records what came back and checks the invariants the
hostile-input test asserts; any breach is kept as a `Breach` with the input that caused it."""

from __future__ import annotations

import random
import time
from collections.abc import Awaitable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot import menus
from bot.commands.dispatch import Invoker, autocomplete, commands_for, dispatch, parse_options
from bot.commands.group import refuse_unknown
from bot.commands.spec import CommandSpec
from bot.console import parse_command
from bot.errors import ServiceError
from bot.replies import Image, Reply
from bot.service import MatchService
from engine.i18n import using
from engine.registry import games, get_game
from render.words import LANGUAGES, catalog
from tests.bot.hostile_values import hostile_line, hostile_records, hostile_typed

GUILD = 1000
ALICE, BOB, EVE, MOD = 11, 22, 55, 66
USERS = {"alice": ALICE, "bob": BOB, "eve": EVE, "mod": MOD}
MESSAGE_LIMIT = 2000  # Discord's limit for a message's text
ALT_TEXT_LIMIT = 1024  # for an attachment's description
FILE_LIMIT = 8 * 1024 * 1024  # the smallest upload limit Discord gives a server
STAGES = ("empty", "lobby", "active")


@dataclass
class Breach:
    what: str
    line: str
    detail: str


@dataclass
class Tally:
    inputs: int = 0
    refused: int = 0
    succeeded: int = 0
    suggestions: int = 0
    seconds: float = 0.0
    breaches: list[Breach] = field(default_factory=list)


def in_every_language(text: object) -> list[str]:
    """The text as each language the bot speaks renders it (a translation may run longer)."""
    rendered = []
    for language in LANGUAGES:
        with using(catalog(language)):
            rendered.append(str(text))
    return rendered


def channel_of(game_index: int, stage: str) -> int:
    return 100 * (game_index + 1) + STAGES.index(stage)


async def seat_stage(service: MatchService, slug: str, channel: int, stage: str) -> None:
    """Put the channel in its stage: a lobby alice opened, or a two-player match under way."""
    if stage == "empty":
        return
    rules = get_game(slug)
    first, second = _two_sides(slug)
    await service.new_match(GUILD, channel, ALICE, first, game=slug, seed=7)
    if stage == "lobby":
        return
    await service.join(channel, BOB, second)
    await service.start(channel, ALICE)
    state = await service.state_of(channel)
    for seat in rules.setup_pending(state.game):  # Numica: both sides set up in secret first
        user = state.seats[seat]
        await service.setup(channel, user, rules.setup_choices(state.game, seat)[0].value)


def _two_sides(slug: str) -> tuple[str, str]:
    rules = get_game(slug)
    sides = rules.sides(2)
    return sides[0].slug, sides[1].slug


class Surface:
    """The service under attack and the bookkeeping to tell a refusal changed nothing."""

    def __init__(self, service: MatchService, files: Sequence[Path]) -> None:
        self.service = service
        self.files = list(files)
        self.slugs = [g.slug for g in games()]
        self.tally = Tally()
        self._version = 0  # PRAGMA data_version after the latest input: it moves on any commit
        self._words: dict[tuple[int, str, int, int], list[str]] = {}
        self._stored: tuple[Any, ...] = ()
        self.last_command = ("", "")

    async def prepare(self) -> None:
        for index, slug in enumerate(self.slugs):
            for stage in STAGES:
                await seat_stage(self.service, slug, channel_of(index, stage), stage)
        self._version = await self.data_version()
        self._stored = await self.snapshot()

    # --- what a refusal must leave alone ----------------------------------------------
    async def data_version(self) -> int:
        """SQLite's count of commits by other connections, read on the reader connection: every
        write goes through the writer, so it moves exactly when something was committed."""
        async with self.service.storage.reading() as db:
            raw = getattr(db, "raw", None)  # aiosqlite: one round trip to its thread, not three
            if raw is not None:
                [row] = await raw.execute_fetchall("PRAGMA data_version")
            else:
                row = await db.fetchone("PRAGMA data_version")
        assert row is not None
        return int(row[0])

    async def snapshot(self) -> tuple[Any, ...]:
        """Every stored fact a command could change: matches, seats, logs, timers, outbox, settings."""
        async with self.service.storage.reading() as db:
            return tuple([
                await db.fetchall("SELECT * FROM matches ORDER BY id"),
                await db.fetchall("SELECT * FROM seats ORDER BY match_id, seat"),
                await db.fetchall("SELECT * FROM log ORDER BY match_id, seq"),
                await db.fetchall("SELECT kind, match_id, due FROM timers ORDER BY id"),
                await db.fetchall("SELECT match_id, channel_id, notice FROM outbox ORDER BY id"),
                await db.fetchall("SELECT * FROM guild_settings ORDER BY guild_id"),
                await db.fetchall("SELECT * FROM user_settings ORDER BY user_id"),
            ])  # fmt: skip

    # --- one input ----------------------------------------------------------------------
    async def valid_words(self, slug: str, channel: int, user: int) -> list[str]:
        """Legal notation and menu steps, so some inputs get past the parsing and reach the rules
        (remembered until the stored data changes)."""
        key = (self._version, slug, channel, user)
        if key not in self._words:
            if len(self._words) > 200:
                self._words.clear()
            self._words[key] = await self._legal_words(slug, channel, user)
        return self._words[key]

    async def _legal_words(self, slug: str, channel: int, user: int) -> list[str]:
        actions = await self.service.legal_actions(channel, user)
        words = [a.notation() for a in actions[:6]]
        if actions:
            steps = menus.next_steps(get_game(slug), actions, [])
            words += [s.value for s in steps[:4]]
            words += [part for text in words[:3] for part in text.split()]
        return words or ["a1", "j6", "pass"]

    async def send(self, rng: random.Random, *, typed: bool) -> None:
        """One hostile input: a random game, stage, member and command, options hostile."""
        index = rng.randrange(len(self.slugs))
        slug = self.slugs[index]
        stage = rng.choice(STAGES)
        channel = channel_of(index, stage)
        user = USERS[rng.choice(list(USERS))]
        command = rng.choice(list(commands_for(slug).values()))
        valid = await self.valid_words(slug, channel, user)
        who = Invoker(GUILD, channel, user, can_manage=user == MOD, rate_limited=rng.random() < 0.2)
        if typed and command.options and rng.random() < 0.3:
            await self._suggest(who, slug, command, rng, valid)  # what Discord asks while a member types
        if typed:
            await self.send_typed(who, slug, command, hostile_typed(command, rng, valid), stage)
        else:
            await self.send_line(who, slug, command, hostile_line(slug, command, rng, valid, self.files), stage)

    async def send_typed(self, who: Invoker, slug: str, command: CommandSpec, options: dict[str, Any],
                         stage: str) -> None:  # fmt: skip
        """Options as Discord types them, straight into dispatch."""
        line = f"[typed] /{slug} {command.name} " + ", ".join(f"{k}={_short(v)}" for k, v in options.items())
        await self._judge(who, slug, command, line, stage, self._run_typed(who, slug, command, options, line))

    async def send_line(self, who: Invoker, slug: str, command: CommandSpec, line: str, stage: str) -> None:
        """A console line: parsed, its options parsed into their types, dispatched."""
        await self._judge(who, slug, command, line, stage, self._run_line(who, line))

    async def _judge(self, who: Invoker, slug: str, command: CommandSpec, line: str, stage: str,
                     running: Awaitable[tuple[bool, Reply | None] | None]) -> None:  # fmt: skip
        """Run the input and check what it did: a refusal changed nothing; a reply fits Discord."""
        self.last_command = (slug, command.name)
        before = self._version
        started = time.perf_counter()
        outcome = await running
        self.tally.seconds += time.perf_counter() - started
        self.tally.inputs += 1
        after = self._version = await self.data_version()
        if outcome is None:
            return
        refused, reply = outcome
        if refused:
            self.tally.refused += 1
            if after != before:
                self.tally.breaches.append(Breach("a refusal changed stored data", line, "a commit"))
            elif self.tally.refused % 50 == 0 and await self.snapshot() != self._stored:
                # The rows themselves, now and then: a check on the data_version check.
                self.tally.breaches.append(Breach("a refusal changed stored data", line, "the rows differ"))
        else:
            self.tally.succeeded += 1
            assert reply is not None
            self._check_reply(reply, line)
            if after != before:
                await self._restore(self.slugs.index(slug), who.channel_id, stage)
                self._version = await self.data_version()
                self._stored = await self.snapshot()

    async def _suggest(self, who: Invoker, slug: str, command: CommandSpec, rng: random.Random,
                       valid: Sequence[str]) -> None:  # fmt: skip
        """Autocomplete with hostile text typed so far: suggestions, never an error (Discord would
        show the member an empty list and the bot would log a failure)."""
        options = {k: v for k, v in hostile_typed(command, rng, valid).items() if isinstance(v, str)}
        focused = rng.choice(command.options).name
        options[focused] = rng.choice([*valid, "", "a", "²", "\x00", "x" * 200, "<@11>"])
        line = f"[autocomplete {focused}] /{slug} {command.name} " + ", ".join(
            f"{k}={_short(v)}" for k, v in options.items()
        )
        self.tally.suggestions += 1
        try:
            await autocomplete(self.service, who, slug, command.name, focused, options)
        except Exception as error:
            self.tally.breaches.append(Breach("autocomplete failed", line, f"{type(error).__name__}: {error}"[:300]))

    async def _run_line(self, who: Invoker, line: str) -> tuple[bool, Reply | None] | None:
        try:
            game, name, pairs = parse_command(line)
            command = commands_for(game).get(name)
            if command is None:
                raise refuse_unknown(game, name)
            options = parse_options(command, pairs, users=USERS)
            reply = await dispatch(self.service, who, game, name, options)
        except ServiceError as error:
            self._check_refusal(error, line)
            return True, None
        except Exception as error:
            self.tally.breaches.append(Breach("an exception escaped", line, f"{type(error).__name__}: {error}"[:300]))
            return None
        return False, reply

    async def _run_typed(self, who: Invoker, slug: str, command: CommandSpec, options: dict[str, Any],
                         line: str) -> tuple[bool, Reply | None] | None:  # fmt: skip
        try:
            reply = await dispatch(self.service, who, slug, command.name, options)
        except ServiceError as error:
            self._check_refusal(error, line)
            return True, None
        except Exception as error:
            self.tally.breaches.append(Breach("an exception escaped", line, f"{type(error).__name__}: {error}"[:300]))
            return None
        return False, reply

    def _check_refusal(self, error: ServiceError, line: str) -> None:
        for text in in_every_language(error):
            if not text.strip():
                self.tally.breaches.append(Breach("an empty refusal", line, type(error).__name__))
            if len(text) > MESSAGE_LIMIT:
                self.tally.breaches.append(Breach("a refusal longer than a message", line, f"{len(text)} characters"))

    def _check_reply(self, reply: Reply, line: str) -> None:
        for part in (reply, reply.announce):
            if part is None:
                continue
            for text in in_every_language(part.text):
                if len(text) > MESSAGE_LIMIT:
                    self.tally.breaches.append(Breach("a reply longer than a message", line, f"{len(text)}"))
            for item in (part.image, part.file):
                if item is None:
                    continue
                if len(item.data) > FILE_LIMIT or len(item.description) > ALT_TEXT_LIMIT:
                    self.tally.breaches.append(Breach("a file beyond Discord's limits", line, item.filename))
                if not item.filename or len(item.filename) > 100:
                    self.tally.breaches.append(Breach("a bad file name", line, item.filename[:120]))

    async def _restore(self, index: int, channel: int, stage: str) -> None:
        """A valid input changed the channel (aborted, started, finished…): set its stage up afresh."""
        found = await self.service.match_in(channel)
        still_open = found is not None and found[0].is_open
        if found is not None and still_open and stage != "empty":
            row, state = found
            seated = state.seats_of(ALICE) and (stage == "lobby" or state.seats_of(BOB))
            if row.status == stage and not state.is_over and row.creator_id == ALICE and seated:
                return
        if still_open:
            await self.service.abort(channel, MOD, can_manage=True, confirmed=True)
        await seat_stage(self.service, self.slugs[index], channel, stage)


def record_files(folder: Path) -> list[Path]:
    """Files for the console's record: option, hostile ones and one real export."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for number, text in enumerate(hostile_records()):
        path = folder / f"record-{number}.json"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        paths.append(path)
    binary = folder / "binary.json"
    binary.write_bytes(bytes(range(256)) * 40)
    big = folder / "big.json"
    big.write_bytes(b"{" + b" " * 1_100_000 + b"}")
    return [*paths, binary, big, folder]


def _short(value: Any) -> str:
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 10**30:
        return f"<a {len(str(abs(value)) if abs(value) < 10**4000 else 'huge')}-digit number>"
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "…"


def stub_renderer(
    slug: str, state: Any, recent: Any, perspective: str | None = None, locale: str = "en", *, example: bool = False
) -> Image:
    """Boards without pixels: the attack is on the commands, and drawing would only slow it."""
    return Image(b"PNG", f"{slug}-{'rules-example' if example else 'board'}.png", f"the {slug} board")
