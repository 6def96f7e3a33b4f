"""The console's start: what it shows before its prompt, and how the rest arrives while the
player types (issue 24: the prompt is what a player waits for; bench/console.py times it).

Before the prompt, only what the greeting needs: the database opened (a bad one is one line
and exit 1, with nothing started) and the first game's `new` command for the example. The
service, every hosted game, the commands and the timer dispatcher load on a worker thread
while the first line is typed; a line typed sooner waits for them, so it is answered exactly
as later ones are. A game package that fails to load ends the console with its error.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from bot.console_words import greeting
from bot.console_words import prompt as prompt_of

if TYPE_CHECKING:
    from bot.clock import Clock
    from bot.console import Console
    from bot.dispatcher import TimerDispatcher
    from bot.service import MatchService
    from bot.storage import Storage

COMPLETION_SECONDS = 2.0  # a Tab that finds the loop busy (a computer thinking) offers nothing rather than hang


class _Completer:
    """Tab completion for readline, on the reader's thread: the candidates come from the
    console's `completions`, run on the console's event loop (idle while a line is typed)."""

    def __init__(self, lookup: Callable[[str], list[str]]) -> None:
        self.lookup = lookup
        self.matches: list[str] = []

    def complete(self, word: str, index: int) -> str | None:
        if index == 0:
            import readline

            try:
                self.matches = self.lookup(readline.get_line_buffer()[: readline.get_endidx()])
            except Exception:  # a completion must never end the console
                self.matches = []
        return self.matches[index] if index < len(self.matches) else None


def _reader(loop: asyncio.AbstractEventLoop, queue: asyncio.Queue[str | None], prompt: Callable[[], str],
            ready: threading.Event, lookup: Callable[[str], list[str]]) -> None:  # fmt: skip
    """Reads lines on a daemon thread: Ctrl-C in the main thread then ends the console at once,
    with no thread left waiting on the terminal."""
    with contextlib.suppress(ImportError):
        import readline  # line editing and history for input()

        readline.set_completer(_Completer(lookup).complete)
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


def _load_the_rest(games: Sequence[str]) -> None:
    """On a worker thread: import what the first command needs, and load every hosted game and
    its commands (a game package that fails to load raises PluginError here)."""
    import bot.console  # noqa: F401  (the commands, the service, the dispatcher)
    from bot.commands.group import commands_for
    from bot.service.computer import ComputerPlayers  # noqa: F401
    from engine.registry import get_game

    for slug in games:
        get_game(slug)
        commands_for(slug)


async def run_console(
    database: str, boards_dir: str, clock: Clock | None = None, locale: str = "en", games: Sequence[str] | None = None
) -> None:
    """The console, speaking `locale` (`python -m bot console --locale es`), with a command group
    for each of `games` (default: every installed game)."""
    from bot.i18n import speaking
    from engine.registry import installed_slugs

    with speaking(locale):
        await _run_console(database, boards_dir, clock, locale, tuple(installed_slugs() if games is None else games))


async def _run_console(database: str, boards_dir: str, clock: Clock | None, locale: str, games: Sequence[str]) -> None:
    from bot.storage import open_storage

    storage = await open_storage(database)  # a bad database: one line, before any prompt
    loop = asyncio.get_running_loop()
    started: asyncio.Future[Console] = loop.create_future()
    queue: asyncio.Queue[str | None] = asyncio.Queue()
    ready = threading.Event()
    ready.set()

    shown: list[Console] = []  # the console, once loaded: read by the reader's thread for its prompt

    def prompt() -> str:
        return shown[0].prompt() if shown else prompt_of()

    async def completions(line: str) -> list[str]:
        return await (await asyncio.shield(started)).completions(line)

    def lookup(line: str) -> list[str]:
        return asyncio.run_coroutine_threadsafe(completions(line), loop).result(COMPLETION_SECONDS)

    service: MatchService | None = None
    dispatcher: TimerDispatcher | None = None
    try:
        print(greeting(games))  # run_console speaks the console's language around all of this
        threading.Thread(target=_reader, args=(loop, queue, prompt, ready, lookup), daemon=True).start()
        try:
            await asyncio.to_thread(_load_the_rest, games)
            service = _service(storage, clock)
            console = await _console(service, boards_dir, locale, games)
            dispatcher = console.dispatcher
        except BaseException as error:
            if isinstance(error, asyncio.CancelledError):
                started.cancel()
            else:
                started.set_exception(error)
                started.exception()  # retrieved: a Tab still waiting gets it, nothing is logged twice
            raise
        shown.append(console)
        started.set_result(console)
        while True:
            line = await queue.get()
            if line is None:
                print()  # Ctrl-D: end the prompt's line before leaving
                break
            if not await console.handle(line):
                break
            ready.set()
    finally:  # each step even when one before it fails (the output gone: BrokenPipeError)
        try:
            if dispatcher is not None:
                await dispatcher.stop()
        finally:
            try:
                await (service.close() if service is not None else storage.close())
            finally:
                if service is not None and service.computers is not None:
                    await service.computers.close()


def _service(storage: Storage, clock: Clock | None) -> MatchService:
    from bot.clock import ConsoleClock
    from bot.service import MatchService
    from bot.service.computer import ComputerPlayers

    return MatchService(storage, clock=clock or ConsoleClock(), computers=ComputerPlayers())


async def _console(service: MatchService, boards_dir: str, locale: str, games: Sequence[str]) -> Console:
    """The console over `service`, its names read back and its timer dispatcher running."""
    from bot.console import AdvancingClock, Console
    from bot.dispatcher import TimerDispatcher

    console = Console(service, Path(boards_dir), locale=locale, games=games)
    await console.load_names()
    dispatcher = TimerDispatcher(service, console.announce)
    if isinstance(service.clock, AdvancingClock):
        console.clock = service.clock
    console.dispatcher = dispatcher
    dispatcher.start()
    return console
