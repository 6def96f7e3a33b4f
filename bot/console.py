"""A local console over the same service and commands as the Discord bot, for every game.

Type the slash commands as text (`/<game> move from:c1 to:c4`) and switch the acting player
with `as @alice`. Boards are written as PNG files;
everything the bot would post is printed. Computer seats play by themselves, as on Discord.

It speaks one language (`--locale es`): its words, the replies and the boards. Command and
option names, and the options' choices, are typed in English or as the help shows them in that
language (`/<game> mover desde:c1 hasta:c4`, `/<game> unirse máquina:fácil`); Tab completes names.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import re
import unicodedata
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol, runtime_checkable

from bot.clock import Clock
from bot.commands.dispatch import (
    CommandOption,
    CommandSpec,
    Invoker,
    OptionKind,
    autocomplete,
    commands_for,
    dispatch,
    parse_options,
)
from bot.commands.group import refuse_unknown, tournament_for
from bot.commands.tournament import GROUP, run_tournament, tournament_commands
from bot.commands.values import SNOWFLAKE_MAX
from bot.console_words import FIRST_CHANNEL, FIRST_USER, console_help, prompt
from bot.dispatcher import TimerDispatcher
from bot.errors import ConfirmFirst, ServiceError
from bot.i18n import speaking
from bot.replies import Notice, Reply
from bot.service import MatchService
from bot.storage import bot_state
from bot.storage.events import EventRow, TableRow
from bot.texts import command as command_name
from bot.texts import option as option_name
from bot.time_bank import format_moment
from engine.i18n import M, Message, T, choice_name
from engine.registry import installed_slugs
from render.words import catalog, playing

CONSOLE_GUILD = 1
_OPTION = re.compile(r"(?:^|\s)([^\W\d]\w*):")  # Spanish names have accents: `opción:`
_MENTION = re.compile(r"<@!?(\d+)>")
_CHANNEL = re.compile(r"<#(\d+)>")
_LINK = re.compile(r":? ?https://discord\.com/channels/\S+")
NAME_KEY = "console-name:"
TEXT_OPTIONS = frozenset({"from", "action"})  # values that may hold `word:` themselves
WAIT_MAX_DAYS = 400
_DURATION = re.compile(r"(\d+(?:\.\d+)?)\s*([dhm])")


@runtime_checkable
class AdvancingClock(Clock, Protocol):
    async def advance(self, seconds: float) -> None: ...


def parse_duration(text: str) -> float | None:
    """`20h`, `3d`, `1d12h`, `90m` in seconds; None if it is not one (or longer than WAIT_MAX_DAYS)."""
    text = text.strip().lower().replace(" ", "")
    parts = _DURATION.findall(text)
    if not text or "".join(n + u for n, u in parts) != text:
        return None
    seconds = sum(float(n) * {"d": 86400, "h": 3600, "m": 60}[u] for n, u in parts)
    return seconds if 0 < seconds <= WAIT_MAX_DAYS * 86400 else None


CONSOLE_WORDS = ("as ", "channel ", "manage ", "wait ", "help", "quit")

log = logging.getLogger(__name__)


def _plain(word: str) -> str:
    """Lower case without accents, so `repetición` may be typed `repeticion`."""
    return "".join(c for c in unicodedata.normalize("NFD", word.lower()) if not unicodedata.combining(c))


def _typed_as(english: list[str], context: str, locale: str) -> dict[str, str]:
    """Every way a name may be typed → the English name: English always; in another language
    also its name there (as Discord and the help show it), with or without accents."""
    names = {name: name for name in english}
    words = catalog(locale)
    for name in english:
        local = words.gettext(name, context).lower()
        names.setdefault(local, name)
        names.setdefault(_plain(local), name)
    return names


def command_names(group: str, locale: str = "en") -> dict[str, str]:
    return _typed_as(list(commands_for(group)), "command", locale)


def option_names(command: CommandSpec, locale: str = "en") -> dict[str, str]:
    return _typed_as([o.name for o in command.options], "option", locale)


def user_id_for(name: str) -> int:
    """A stable id per name, so a match survives restarting the console."""
    return int.from_bytes(hashlib.sha256(name.lower().encode()).digest()[:6], "big")


def parse_command(
    line: str, locale: str = "en", games: Sequence[str] | None = None
) -> tuple[str, str, list[tuple[str, str]]]:
    """`/<game> move piece:j6 direction:w` → ("<game>", "move", [("piece", "j6"), ("direction", "w")]),
    for one of `games` (default: every installed game). Names typed in `locale`'s language come
    back as the English names the commands know."""
    body = line.strip().removeprefix("/").strip()
    slugs = list(installed_slugs() if games is None else games)
    group, _, rest = body.partition(" ")
    group = group.lower()
    if group not in slugs:
        raise ServiceError(M("commands start with a game: {games} (e.g. /{game} {help})",
                             game=slugs[0] if slugs else "<game>", games=", ".join("/" + s for s in slugs),
                             help=command_name("help")))  # fmt: skip
    typed, _, rest = rest.strip().partition(" ")
    name = command_names(group, locale).get(typed.lower(), typed.lower())
    command = commands_for(group).get(name)
    known = option_names(command, locale) if command is not None else {}

    def english(match: re.Match[str]) -> str:
        key = match.group(1).lower()
        return known.get(key, known.get(_plain(key), key))

    pairs: list[tuple[str, str]] = []
    matches: list[re.Match[str]] = []
    for match in _OPTION.finditer(rest):
        # Positions and notation hold `white:` or `A:` of their own: inside such a value only the
        # command's own option names start a new option. Elsewhere an unknown one is refused.
        inside_text = bool(matches) and english(matches[-1]) in TEXT_OPTIONS
        if inside_text and english(match) not in known.values():
            continue
        matches.append(match)
    if rest.strip() and (not matches or rest[: matches[0].start()].strip()):
        raise ServiceError(M("options are written name:value, e.g. {piece}:j6 {direction}:w",
                             piece=option_name("piece"), direction=option_name("direction")))  # fmt: skip
    for i, match in enumerate(matches):
        end = matches[i + 1].start() if i + 1 < len(matches) else len(rest)
        pairs.append((english(match), rest[match.end() : end].strip()))
    return group, name or "help", pairs


def storable_name(name: str) -> bool:
    """A console player's name: short, printable, and text a database can store (a line read in
    the wrong encoding may hold lone surrogates)."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return 0 < len(name) <= 32 and name.isprintable()


class Console:
    def __init__(
        self, service: MatchService, boards_dir: Path, out: Callable[[str], None] = print, locale: str = "en",
        games: Sequence[str] | None = None,
    ) -> None:  # fmt: skip
        self.service = service
        self.games = tuple(installed_slugs() if games is None else games)  # the groups it offers
        self.locale = locale
        self.boards_dir = boards_dir
        self.out = out
        self.user = FIRST_USER
        self.channel = FIRST_CHANNEL
        self.can_manage = False
        self.names: dict[int, str] = {}
        self.ids: dict[str, int] = {}
        self._written: set[Path] = set()
        # Set by whoever runs the timers (run_console, tests): `wait` moves this clock and lets them fire.
        self.clock: AdvancingClock | None = None
        self.dispatcher: TimerDispatcher | None = None
        service.open_event_tables_with(self._event_channel)

    async def load_names(self) -> None:
        """Names typed in earlier sessions, so mentions read @bob after a restart too."""
        async with self.service.storage.reading() as db:
            rows = await db.fetchall("SELECT key, value FROM bot_state WHERE key LIKE ?", NAME_KEY + "%")
        for key, value in rows:
            self._know(str(value), int(str(key)[len(NAME_KEY) :]))
        await self.remember(FIRST_USER)

    def _know(self, name: str, uid: int) -> None:
        self.names[uid] = name
        self.ids[name.lower()] = uid

    async def remember(self, name: str) -> int:
        uid = user_id_for(name)
        if uid not in self.names:
            self._know(name, uid)
            with contextlib.suppress(ServiceError):  # a read-only database still lets you play
                async with self.service.storage.transaction() as db:
                    await bot_state.put(db, f"{NAME_KEY}{uid}", name)
        return uid

    def prompt(self) -> str:
        return prompt(self.user, self.channel)

    def show(self, text: str) -> str:
        text = _LINK.sub("", text)
        text = _CHANNEL.sub(lambda m: str(M("channel {number}", number=m.group(1))), text)  # `canal 3` in Spanish
        return _MENTION.sub(lambda m: "@" + self.names.get(int(m.group(1)), m.group(1)), text)

    async def handle(self, line: str) -> bool:
        """Run one line; returns False when the console should stop. No input ends it otherwise."""
        typed = line.strip().removeprefix("/").split(maxsplit=1)
        game = typed[0].lower() if typed and typed[0].lower() in self.games else None
        with speaking(self.locale, game):  # a game's refusals in its own words, as on Discord
            return await self._handle(line)

    async def _handle(self, line: str) -> bool:
        line = line.strip()
        if not line:
            return True
        word = line.split()[0].lower()
        if word in ("quit", "exit"):
            return False
        try:
            if word == "help":
                self.out(console_help(self.games))
            elif word == "as":
                name = unicodedata.normalize("NFC", line[3:].strip().lstrip("@")) or self.user
                if not storable_name(name):
                    raise ServiceError(M("a name is 1 to 32 printable characters, like as @bob"))
                # One member whatever the case typed (`@Zoë`, `@zoë`): the spelling first used stays.
                uid = self.ids.get(name.lower())
                self.user = self.names[uid] if uid is not None else name
                await self.remember(self.user)
                self.say(M("now acting as @{name}", name=self.user))
            elif word in ("channel", _plain(str(T("channel", "console")))):  # `canal 2` as the reader reads it
                number = line.split()[1] if len(line.split()) > 1 else ""
                if not (number.isascii() and number.isdigit() and 0 < int(number[:20]) <= SNOWFLAKE_MAX):
                    raise ServiceError(M("channel takes a channel's number (up to 19 digits), like channel 2"))
                self.channel = int(number)
                self.say(M("now in channel #{number}", number=self.channel))
            elif word == "wait":
                await self.wait(line[4:].strip())
            elif word == "manage":
                self.manage(line.split()[1:])
            else:
                await self.command(line)
        except ConfirmFirst as confirm:
            self.out(f"? {self.show(confirm.in_console())}")
        except ServiceError as error:
            self.out(f"✗ {self.show(error.in_console())}")
        except BrokenPipeError:  # the output is gone (piped into `head`): nobody reads on
            raise
        except Exception as error:  # one bad line must never end the console
            log.exception("console line failed", extra={"line": line[:200]})
            self.say(M("✗ something went wrong on my side ({error}); the match is unchanged",
                       error=type(error).__name__))  # fmt: skip
        return True

    async def wait(self, duration: str) -> None:
        """Move the clock on by `duration`, firing what falls due on the way in order (each timer
        at its own moment), its notices printed as they would be posted."""
        seconds = parse_duration(duration)
        if seconds is None:
            raise ServiceError(M("wait takes a duration of up to {most} days, like wait 20h, wait 3d or wait 1d12h",
                                 most=WAIT_MAX_DAYS))  # fmt: skip
        if self.clock is None or self.dispatcher is None:
            raise ServiceError(M("this console's clock cannot be moved"))
        target = self.clock.now() + seconds
        for _ in range(10_000):  # each step fires at least one timer; a bound, not a sleep
            await self.dispatcher.settled()
            timer = await self.service.next_timer()
            if timer is None or timer.due > target:
                break
            if timer.due > self.clock.now():
                await self.clock.advance(timer.due - self.clock.now())
        await self.clock.advance(max(0.0, target - self.clock.now()))
        await self.dispatcher.settled()
        self.say(M("⏩ It is now {date}.", date=format_moment(self.clock.now())))

    async def completions(self, line: str) -> list[str]:
        """What Tab offers for the last word of `line` (the line typed so far), each candidate
        whole (`to:c4 `): console words, games, commands, option names, and option values:
        an option's choices, members' names, and for the options Discord autocompletes the
        same suggestions, from the same code (`bot.commands.dispatch.autocomplete`)."""
        with speaking(self.locale):
            word = line.rsplit(" ", 1)[-1]
            found = await self._candidates(line[: len(line) - len(word)], word)
        return [c for c in dict.fromkeys(found) if _plain(c).startswith(_plain(word))]

    async def _candidates(self, before_text: str, word: str) -> list[str]:
        before = before_text.split()
        if not before:
            return [*CONSOLE_WORDS, *(f"/{slug} " for slug in self.games), f"/{GROUP} "]
        first = before[0].lower()
        if first == "as" and len(before) == 1:
            return [f"@{name} " for name in sorted(set(self.names.values()), key=str.lower)]
        if first == "manage" and len(before) == 1:
            return ["on", "off"]
        group = first.lstrip("/")
        if group == GROUP:
            return await self._event_candidates(before, word)
        if group not in self.games:
            return []
        names = command_names(group, self.locale)
        events = tournament_for(group)
        if len(before) == 1:
            return _shown_first({**names, **({GROUP: GROUP} if events else {})}, "command", self.locale, " ")
        if self._events_of(before) is not None:  # `/<game> tournament <new|join|…>`
            if len(before) == 2:
                return [f"{name} " for name in events]
            spec = events.get(before[2].lower())
        else:
            spec = commands_for(group).get(names.get(before[1].lower(), before[1].lower()))
        if spec is None:
            return []
        if ":" not in word:
            return _shown_first(option_names(spec, self.locale), "option", self.locale, ":")
        typed_name, _, typed_value = word.partition(":")
        known = option_names(spec, self.locale)
        option = spec.option(known.get(typed_name.lower(), known.get(_plain(typed_name), "")))
        if option is None:
            return []
        return [f"{typed_name}:{value} " for value in await self._values(group, spec, option, before_text, typed_value)]

    async def _event_candidates(self, before: list[str], word: str) -> list[str]:
        """`/tournament …` as typed here (bot/commands/tournament.py): its commands, their options,
        the options' choices, and for `match:` the open matches of this channel."""
        specs = tournament_commands(self.games)
        if len(before) == 1:
            return [f"{name} " for name in specs]
        spec = specs.get(before[1].lower())
        if spec is None:
            return []
        if ":" not in word:
            return [f"{option.name}:" for option in spec.options]
        typed_name, _, _ = word.partition(":")
        option = spec.option(typed_name.lower())
        if option is None:
            return []
        if option.choices:
            values = [c.value for c in option.choices]
        elif option.name == "match":
            values = [str(match_id) for match_id, _ in await self.service.open_matches_here(self.channel)]
        else:
            values = []
        return [f"{typed_name}:{value} " for value in values]

    async def _values(self, group: str, spec: CommandSpec, option: CommandOption, before: str, typed: str) -> list[str]:
        if option.choices:  # in the reader's words (the game's first), as Discord shows them
            with playing(group):
                return [str(choice_name(c.value)) for c in option.choices]
        if option.kind is OptionKind.BOOLEAN:
            return ["on", "off"]
        if option.kind is OptionKind.USER:
            return [f"@{name}" for name in sorted(set(self.names.values()), key=str.lower)]
        if not option.autocomplete:
            return []
        if spec.group == GROUP and option.name == "match":  # `/<game> tournament board match:`
            return [str(match_id) for match_id, _ in await self.service.open_matches_here(self.channel)]
        try:
            _, _, pairs = parse_command(before, self.locale, self.games)
        except ServiceError:
            pairs = []
        filled = {key: value for key, value in pairs}
        filled[option.name] = typed
        user = self.ids.get(self.user.lower(), user_id_for(self.user))
        who = Invoker(CONSOLE_GUILD, self.channel, user, can_manage=self.can_manage, rate_limited=False, console=True,
                      locale=self.locale)  # fmt: skip
        with playing(group):
            try:
                steps = await autocomplete(self.service, who, group, spec.name, option.name, filled)
            except ServiceError:
                return []
        return [step.value for step in steps]

    def manage(self, words: list[str]) -> None:
        """`manage on|off`; `manage` alone says which it is, and changes nothing."""
        if words and words[0].lower() in ("on", "off") and len(words) == 1:
            self.can_manage = words[0].lower() == "on"
        elif words:
            raise ServiceError(M("manage takes on or off, like manage on"))
        state = (M("Manage Channels is on for @{name}", name=self.user) if self.can_manage
                 else M("Manage Channels is off for @{name}", name=self.user))  # fmt: skip
        self.say(state if words else M("{state} (manage on|off switches it)", state=state))

    def say(self, message: Message) -> None:
        self.out(str(message))

    async def _event_channel(self, event: EventRow, table: TableRow) -> int:
        """The console has no threads: an event's games share the event's channel, as on a
        Discord channel without threads; each player's commands reach their own game there."""
        self.say(M("  [round {round}, board {board} of event #{id}: played in channel {channel}]", round=table.round,
                   board=table.board, id=event.id, channel=event.channel_id))  # fmt: skip
        return event.channel_id

    def _events_of(self, words: list[str]) -> str | None:
        """The game of `/<game> tournament …` (its own tournament group), or None."""
        if len(words) < 2 or words[0].lower().lstrip("/") not in self.games:
            return None
        game = words[0].lower().lstrip("/")
        named = {GROUP, _plain(catalog(self.locale).gettext(GROUP, "command"))}
        return game if _plain(words[1]) in named and tournament_for(game) else None

    async def tournament(self, line: str, game: str | None = None) -> None:
        """`/tournament <new|join|…> game:<slug> …`, as on Discord (bot/commands/tournament.py); with
        `game`, `/<game> tournament <new|join|…> …`, the game implied."""
        body = line.strip().removeprefix("/").strip().partition(" ")[2]
        if game is not None:
            body = body.strip().partition(" ")[2]
        name, _, rest = body.strip().partition(" ")
        specs = tournament_for(game) if game else tournament_commands(self.games)
        typed = _typed_as(list(specs), "command", self.locale)  # `nuevo` as well as `new`
        spec = specs.get(typed.get(name.lower(), typed.get(_plain(name), name.lower())))
        if spec is None:
            raise ServiceError(M("there is no /tournament {name}", name=name[:30]))
        known = option_names(spec, self.locale)
        found = list(_OPTION.finditer(rest))
        ends = [m.start() for m in found[1:]] + [len(rest)] if found else []  # no options: none to read
        pairs = [(known.get(m.group(1).lower(), known.get(_plain(m.group(1)), m.group(1).lower())),
                  rest[m.end() : end].strip()) for m, end in zip(found, ends, strict=True)]  # fmt: skip
        options = parse_options(spec, pairs, users=self.ids)
        user = await self.remember(self.user)
        who = Invoker(CONSOLE_GUILD, self.channel, user, can_manage=self.can_manage, rate_limited=False, console=True,
                      locale=self.locale, display_name=self.user)  # fmt: skip
        reply = await run_tournament(self.service, who, spec.name, options, self.games, game=game)
        self.print_reply(reply)

    async def command(self, line: str) -> None:
        if line.strip().removeprefix("/").lower().startswith(GROUP + " "):
            await self.tournament(line)
            return
        if (events := self._events_of(line.split())) is not None:
            await self.tournament(line, events)
            return
        game, name, pairs = parse_command(line, self.locale, self.games)
        command = commands_for(game).get(name)
        if command is None:
            raise refuse_unknown(game, name)
        if any(key == "thread" for key, _ in pairs):
            raise ServiceError(M("threads exist on Discord only: here, `channel N` gives a match its own channel"))
        options = parse_options(command, pairs, users=self.ids)
        user = await self.remember(self.user)
        with contextlib.suppress(ServiceError):  # timers address this member in the console's language
            await self.service.seen_locale(user, self.locale, CONSOLE_GUILD, self.locale)
        who = Invoker(CONSOLE_GUILD, self.channel, user, can_manage=self.can_manage, rate_limited=False, console=True,
                      locale=self.locale)  # fmt: skip
        with playing(game):  # the game's own words first
            reply = await dispatch(self.service, who, game, name, options)
            self.print_reply(reply)
        # Printed: the backups of what was just shown are not needed (a crash before this line
        # leaves them to the timer task, which prints them when the console is back).
        for shown in (reply, reply.announce):
            if shown is not None:
                with contextlib.suppress(ServiceError):
                    await self.service.posted(shown, None)

    def print_reply(self, reply: Reply) -> None:
        self.out(self.show(reply.text))
        for item in (reply.image, reply.file):
            if item is None:
                continue
            self.boards_dir.mkdir(parents=True, exist_ok=True)
            stem = Path(item.filename).stem
            if item is reply.image and reply.match_id is not None:
                stem = f"{reply.game or 'match'}-match-{reply.match_id}-v{reply.version or 0}"
            path = self._fresh(self.boards_dir / (stem + Path(item.filename).suffix))
            path.write_bytes(item.data)
            self.say(M("  [{file} written to {path}]", file=item.filename, path=path))
        if reply.announce is not None:
            self.print_reply(reply.announce)

    def _fresh(self, path: Path) -> Path:
        """A file name not used yet: no board or replay written earlier is overwritten."""
        candidate, number = path, 2
        while candidate.exists() or candidate in self._written:
            candidate = path.with_name(f"{path.stem}-{number}{path.suffix}")
            number += 1
        self._written.add(candidate)
        return candidate

    async def announce(self, notice: Notice, nonce: str) -> int | None:
        """What timers post (a computer's move, a reminder, an expired turn, a digest's DM),
        printed in the console's language (the timer task runs outside any command's)."""
        where = "[DM]" if notice.kind == "dm" else f"[#{notice.channel_id}]"  # a digest, a paused match's news
        with speaking(self.locale):
            self.out(f"{where} " + self.show(notice.reply.text))
            self.print_reply_files(notice.reply)
        return None

    def print_reply_files(self, reply: Reply) -> None:
        if reply.image is not None or reply.file is not None:
            self.print_reply(Reply("", image=reply.image, file=reply.file, match_id=reply.match_id,
                                   game=reply.game, version=reply.version))  # fmt: skip


def _shown_first(names: dict[str, str], context: str, locale: str, tail: str) -> list[str]:
    """The names as the help shows them (accents and all), then the English ones."""
    words = catalog(locale)
    local = [words.gettext(english, context).lower() for english in dict.fromkeys(names.values())]
    return [f"{name}{tail}" for name in dict.fromkeys([*local, *names.values()])]
