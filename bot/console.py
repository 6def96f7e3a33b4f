"""A local console over the same service and commands as the Discord bot.

Type the slash commands as text (`/nika move piece:j6 direction:w`) and switch the
acting player with `as @alice`. Boards are written as PNG files; summaries printed.
"""

from __future__ import annotations

import asyncio
import hashlib
import re
from collections.abc import Callable
from pathlib import Path

from bot.commands import Invoker, dispatch
from bot.errors import ServiceError
from bot.replies import Reply
from bot.service import MatchService

CONSOLE_GUILD = 1
_OPTION = re.compile(r"(?:^|\s)([a-z_]+):")
_MENTION = re.compile(r"<@(\d+)>")
GREETING = """\
Nika console — the bot's commands, played locally.
  /nika new city:athens-messene      open a match (try /nika help for every command)
  as @bob                            act as another player (names are remembered)
  channel 2                          use another channel
  quit                               leave
"""


def user_id_for(name: str) -> int:
    """A stable id per name, so a match survives restarting the console."""
    return int.from_bytes(hashlib.sha256(name.lower().encode()).digest()[:6], "big")


def parse_command(line: str) -> tuple[str, dict[str, str]]:
    """`/nika move piece:j6 direction:w` → ("move", {"piece": "j6", "direction": "w"})."""
    body = line.strip().removeprefix("/").strip()
    if not body.lower().startswith("nika"):
        raise ServiceError("commands start with /nika, e.g. /nika help")
    body = body[4:].strip()
    name, _, rest = body.partition(" ")
    options: dict[str, str] = {}
    matches = list(_OPTION.finditer(rest))
    if rest.strip() and (not matches or rest[: matches[0].start()].strip()):
        raise ServiceError("options are written name:value, e.g. piece:j6 direction:w")
    for i, match in enumerate(matches):
        end = matches[i + 1].start() if i + 1 < len(matches) else len(rest)
        options[match.group(1)] = rest[match.end() : end].strip()
    return name.lower() or "help", options


class Console:
    def __init__(self, service: MatchService, boards_dir: Path, out: Callable[[str], None] = print) -> None:
        self.service = service
        self.boards_dir = boards_dir
        self.out = out
        self.user = "alice"
        self.channel = 1
        self.names: dict[int, str] = {}
        self.remember("alice")

    def remember(self, name: str) -> int:
        uid = user_id_for(name)
        self.names[uid] = name
        return uid

    def prompt(self) -> str:
        return f"{self.user}@#{self.channel}> "

    def show(self, text: str) -> str:
        return _MENTION.sub(lambda m: "@" + self.names.get(int(m.group(1)), m.group(1)), text)

    async def handle(self, line: str) -> bool:
        """Run one line; returns False when the console should stop."""
        line = line.strip()
        if not line:
            return True
        if line in ("quit", "exit"):
            return False
        if line.startswith("as "):
            self.user = line[3:].strip().lstrip("@") or self.user
            self.remember(self.user)
            self.out(f"now acting as @{self.user}")
            return True
        if line.startswith("channel "):
            number = line.split()[1]
            if number.isdigit():
                self.channel = int(number)
                self.out(f"now in channel #{self.channel}")
                return True
        try:
            name, options = parse_command(line)
            who = Invoker(CONSOLE_GUILD, self.channel, self.remember(self.user), can_manage=True)
            reply = await dispatch(self.service, who, name, options)
        except ServiceError as error:
            self.out(f"✗ {self.show(str(error))}")
            return True
        self.print_reply(reply)
        return True

    def print_reply(self, reply: Reply) -> None:
        self.out(self.show(reply.text))
        for item in (reply.image, reply.file):
            if item is None:
                continue
            self.boards_dir.mkdir(parents=True, exist_ok=True)
            stem = f"match-{reply.match_id}-v{reply.version}" if reply.match_id else "example"
            suffix = Path(item.filename).suffix
            path = self.boards_dir / (stem + suffix if item is reply.image else item.filename)
            path.write_bytes(item.data)
            self.out(f"  [{item.filename} written to {path}]")


async def run_console(database: str, boards_dir: str) -> None:
    service = await MatchService.open(database)
    console = Console(service, Path(boards_dir))
    print(GREETING)
    try:
        while True:
            try:
                line = await asyncio.to_thread(input, console.prompt())
            except EOFError:
                break
            if not await console.handle(line):
                break
    finally:
        await service.close()
