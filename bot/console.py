"""A local console over the same service and commands as the Discord bot, for every game.

Type the slash commands as text (`/nika move piece:j6 direction:w`, `/numica move from:c1
to:c4`) and switch the acting player with `as @alice`. Boards are written as PNG files;
everything the bot would post is printed. Computer seats play by themselves, as on Discord.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import re
import threading
from collections.abc import Callable
from pathlib import Path

from bot.clock import Clock, SystemClock
from bot.commands.dispatch import Invoker, commands_for, dispatch, parse_options
from bot.dispatcher import TimerDispatcher
from bot.errors import ConfirmFirst, ServiceError
from bot.i18n import speaking
from bot.replies import Notice, Reply
from bot.service import MatchService
from bot.storage import bot_state
from engine.registry import games

CONSOLE_GUILD = 1
_OPTION = re.compile(r"(?:^|\s)([A-Za-z_][A-Za-z0-9_]*):")
_MENTION = re.compile(r"<@!?(\d+)>")
_CHANNEL = re.compile(r"<#(\d+)>")
_LINK = re.compile(r":? ?https://discord\.com/channels/\S+")
NAME_KEY = "console-name:"
TEXT_OPTIONS = frozenset({"from", "action"})  # values that may hold `word:` themselves


def greeting() -> str:
    slugs = [g.slug for g in games()]
    first = slugs[0] if slugs else "nika"
    return f"""\
Game console — the bot's commands, played locally. Games: {", ".join("/" + s for s in slugs)}
  /{first} new city:athens-messene     open a match (/<game> help lists every command)
  as @bob                            act as another player (names are remembered)
  channel 2                          use another channel (one match per channel)
  manage on|off                      act with Manage Channels (a moderator)
  help                               this list · quit (or Ctrl-D) leaves
"""


CONSOLE_HELP = """\
Console commands (besides the games' slash commands, typed as text):
  as @name          act as another player; the first use of a name remembers it
  channel N         switch to channel N (each channel holds one match at a time)
  manage on|off     act as someone with Manage Channels (abort a started match, server settings)
  help              this list;  /<game> help  lists a game's commands
  quit              leave (Ctrl-D and Ctrl-C too)
Options are written name:value, e.g. /nika move piece:j6 direction:w; record:<path> reads a file.
Boards are written as PNG files into the boards folder; open them to see the board."""


def user_id_for(name: str) -> int:
    """A stable id per name, so a match survives restarting the console."""
    return int.from_bytes(hashlib.sha256(name.lower().encode()).digest()[:6], "big")


def parse_command(line: str) -> tuple[str, str, list[tuple[str, str]]]:
    """`/nika move piece:j6 direction:w` → ("nika", "move", [("piece", "j6"), ("direction", "w")])."""
    body = line.strip().removeprefix("/").strip()
    slugs = [g.slug for g in games()]
    group, _, rest = body.partition(" ")
    group = group.lower()
    if group not in slugs:
        raise ServiceError(f"commands start with a game: {', '.join('/' + s for s in slugs)} (e.g. /nika help)")
    name, _, rest = rest.strip().partition(" ")
    command = commands_for(group).get(name.lower())
    known = {o.name for o in command.options} if command is not None else set()
    pairs: list[tuple[str, str]] = []
    matches: list[re.Match[str]] = []
    for match in _OPTION.finditer(rest):
        # Positions and notation hold `red:` or `A:` of their own: inside such a value only the
        # command's own option names start a new option. Elsewhere an unknown one is refused.
        inside_text = bool(matches) and matches[-1].group(1).lower() in TEXT_OPTIONS
        if inside_text and match.group(1).lower() not in known:
            continue
        matches.append(match)
    if rest.strip() and (not matches or rest[: matches[0].start()].strip()):
        raise ServiceError("options are written name:value, e.g. piece:j6 direction:w")
    for i, match in enumerate(matches):
        end = matches[i + 1].start() if i + 1 < len(matches) else len(rest)
        pairs.append((match.group(1).lower(), rest[match.end() : end].strip()))
    return group, name.lower() or "help", pairs


class Console:
    def __init__(
        self, service: MatchService, boards_dir: Path, out: Callable[[str], None] = print, locale: str = "en"
    ) -> None:
        self.service = service
        self.locale = locale
        self.boards_dir = boards_dir
        self.out = out
        self.user = "alice"
        self.channel = 1
        self.can_manage = False
        self.names: dict[int, str] = {}
        self.ids: dict[str, int] = {}
        self._written: set[Path] = set()

    async def load_names(self) -> None:
        """Names typed in earlier sessions, so mentions read @bob after a restart too."""
        async with self.service.storage.reading() as db:
            rows = await db.fetchall("SELECT key, value FROM bot_state WHERE key LIKE ?", NAME_KEY + "%")
        for key, value in rows:
            self._know(str(value), int(str(key)[len(NAME_KEY) :]))
        await self.remember("alice")

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
        return f"{self.user}@#{self.channel}> "

    def show(self, text: str) -> str:
        text = _LINK.sub("", text)
        text = _CHANNEL.sub(lambda m: f"channel {m.group(1)}", text)
        return _MENTION.sub(lambda m: "@" + self.names.get(int(m.group(1)), m.group(1)), text)

    async def handle(self, line: str) -> bool:
        """Run one line; returns False when the console should stop. No input ends it otherwise."""
        line = line.strip()
        if not line:
            return True
        word = line.split()[0].lower()
        if word in ("quit", "exit"):
            return False
        try:
            if word == "help":
                self.out(CONSOLE_HELP)
            elif word == "as":
                name = line[3:].strip().lstrip("@") or self.user
                self.user = name
                await self.remember(name)
                self.out(f"now acting as @{self.user}")
            elif word == "channel":
                number = line.split()[1] if len(line.split()) > 1 else ""
                if not (number.isascii() and number.isdigit() and len(number) < 12):
                    raise ServiceError("channel takes a number, like channel 2")
                self.channel = int(number)
                self.out(f"now in channel #{self.channel}")
            elif word == "manage":
                self.can_manage = line.split()[-1].lower() == "on"
                self.out(f"Manage Channels is {'on' if self.can_manage else 'off'} for @{self.user}")
            else:
                await self.command(line)
        except ConfirmFirst as confirm:
            self.out(f"? {self.show(str(confirm))}")
        except ServiceError as error:
            self.out(f"✗ {self.show(str(error))}")
        except Exception as error:  # one bad line must never end the console
            self.out(f"✗ something went wrong on my side ({type(error).__name__}); the match is unchanged")
        return True

    async def command(self, line: str) -> None:
        game, name, pairs = parse_command(line)
        command = commands_for(game).get(name)
        if command is None:
            raise ServiceError(f"there is no /{game} {name[:30]}: try /{game} help")
        if any(key == "thread" for key, _ in pairs):
            raise ServiceError("threads exist on Discord only: here, `channel N` gives a match its own channel")
        options = parse_options(command, pairs, users=self.ids)
        user = await self.remember(self.user)
        who = Invoker(CONSOLE_GUILD, self.channel, user, can_manage=self.can_manage, rate_limited=False, console=True,
                      locale=self.locale)  # fmt: skip
        reply = await dispatch(self.service, who, game, name, options)
        self.print_reply(reply)

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
            self.out(f"  [{item.filename} written to {path}]")
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
        """What timers post (a computer's move, a reminder, an expired turn), printed."""
        self.out(f"[#{notice.channel_id}] " + self.show(notice.reply.text))
        self.print_reply_files(notice.reply)
        return None

    def print_reply_files(self, reply: Reply) -> None:
        if reply.image is not None or reply.file is not None:
            self.print_reply(Reply("", image=reply.image, file=reply.file, match_id=reply.match_id,
                                   game=reply.game, version=reply.version))  # fmt: skip


class _Completer:
    """Tab completion: console words, then a game's group, its commands, and their options."""

    def __init__(self) -> None:
        self.matches: list[str] = []

    def candidates(self, line: str, word: str) -> list[str]:
        before = line[: len(line) - len(word)].split()
        if not before:
            return ["as ", "channel ", "manage ", "help", "quit"] + [f"/{g.slug} " for g in games()]
        group = before[0].lstrip("/")
        specs = commands_for(group) if group in {g.slug for g in games()} else {}
        if len(before) == 1:
            return [f"{name} " for name in specs]
        spec = specs.get(before[1])
        return [f"{option.name}:" for option in spec.options] if spec is not None else []

    def complete(self, word: str, index: int) -> str | None:
        if index == 0:
            import readline

            self.matches = [c for c in self.candidates(readline.get_line_buffer(), word) if c.startswith(word)]
        return self.matches[index] if index < len(self.matches) else None


def _reader(loop: asyncio.AbstractEventLoop, queue: asyncio.Queue[str | None], prompt: Callable[[], str],
            ready: threading.Event) -> None:  # fmt: skip
    """Reads lines on a daemon thread: Ctrl-C in the main thread then ends the console at once,
    with no thread left waiting on the terminal."""
    with contextlib.suppress(ImportError):
        import readline  # line editing and history for input()

        readline.set_completer(_Completer().complete)
        readline.set_completer_delims(" ")
        readline.parse_and_bind("tab: complete")
    while True:
        ready.wait()
        ready.clear()
        try:
            line: str | None = input(prompt())
        except EOFError:
            line = None
        except (KeyboardInterrupt, OSError):
            line = None
        loop.call_soon_threadsafe(queue.put_nowait, line)
        if line is None:
            return


async def run_console(database: str, boards_dir: str, clock: Clock | None = None, locale: str = "en") -> None:
    """The console, speaking `locale` (`python -m bot console --locale es`)."""
    with speaking(locale):
        await _run_console(database, boards_dir, clock, locale)


async def _run_console(database: str, boards_dir: str, clock: Clock | None, locale: str) -> None:
    from bot.service.computer import ComputerPlayers

    service = await MatchService.open(database, clock=clock or SystemClock(), computers=ComputerPlayers())
    console = Console(service, Path(boards_dir), locale=locale)
    await console.load_names()
    dispatcher = TimerDispatcher(service, console.announce)
    dispatcher.start()
    print(greeting())
    queue: asyncio.Queue[str | None] = asyncio.Queue()
    ready = threading.Event()
    ready.set()
    thread = threading.Thread(target=_reader, args=(asyncio.get_running_loop(), queue, console.prompt, ready),
                              daemon=True)  # fmt: skip
    thread.start()
    try:
        while True:
            line = await queue.get()
            if line is None:
                print()  # Ctrl-D: end the prompt's line before leaving
                break
            if not await console.handle(line):
                break
            ready.set()
    finally:
        await dispatcher.stop()
        await service.close()
        if service.computers is not None:
            await service.computers.close()
