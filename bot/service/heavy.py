"""Heavy reads (replays, imports of long game records, old history pages), queued fairly per
member and run away from the event loop's process.

Why a process: these jobs are pure Python for seconds on end (replaying thousands of actions,
drawing hundreds of frames). In a thread they hold the interpreter's lock, and every player's
action then waits for it at each step (one member's imports once pushed another player's act
to 147 ms p50 and 1.1 s at worst). In a worker process (niced, like the computer players') they
cost the event loop nothing but the pickling of their input and output.

Why per member: one queue per member, served in turn. A member who asks for nine replays waits
for their own, while another member's replay starts after at most the job already running; and
a member may have at most PER_MEMBER jobs on the way, the rest refused politely. Small jobs
(a short replay, a short record) skip the process and run in a thread of their own: spawning a
process costs more than they do, and they are too short to disturb anyone.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import Callable
from concurrent.futures import BrokenExecutor, Executor, ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:  # multiprocessing is imported with the first worker, not by every process that may need one
    from concurrent.futures import ProcessPoolExecutor

from bot.errors import ServiceError, TooSoon
from engine.i18n import M

T = TypeVar("T")

PER_MEMBER = 3  # heavy reads one member may have queued or running at once
WORKERS = 1  # processes for heavy reads: one core's worth, the other left to the bot


@dataclass(slots=True)
class _Job:
    member: int
    call: Callable[..., Any]
    args: tuple[Any, ...]
    small: bool
    done: asyncio.Future[Any]


class HeavyReads:
    def __init__(self, *, workers: int = WORKERS, per_member: int = PER_MEMBER) -> None:
        self.workers = workers
        self.per_member = per_member
        self._queues: dict[int, deque[_Job]] = {}  # members with jobs waiting, in the order they came
        self._running: dict[int, int] = {}  # member -> jobs running
        # member -> when (a count of jobs started) their last job started: the member served least
        # recently goes next, so one who asked for many waits behind everyone who asked for one.
        self._served: dict[int, int] = {}
        self._busy = 0
        self._process: ProcessPoolExecutor | None = None
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="heavy-small")
        self._tasks: set[asyncio.Task[None]] = set()
        self._count = 0  # jobs started so far
        self.started: deque[int] = deque(maxlen=1000)  # the members whose jobs started last, in order

    def on_the_way(self, member: int) -> int:
        """The member's heavy reads queued or running now."""
        return len(self._queues.get(member, ())) + self._running.get(member, 0)

    def check(self, member: int) -> None:
        """TooSoon if this member has PER_MEMBER heavy reads on the way already: asked before any
        other work, so a flood of refused requests costs next to nothing."""
        if self.on_the_way(member) >= self.per_member:
            raise TooSoon(M("you already have {count} replays or imports on the way: wait for them to finish, then "
                            "ask again", count=self.per_member))  # fmt: skip

    async def run(self, member: int, call: Callable[..., T], *args: Any, small: bool = False) -> T:
        """Run `call(*args)` (a picklable module-level function) in turn with other members' heavy
        reads; TooSoon if this member has PER_MEMBER already on the way."""
        self.check(member)
        job = _Job(member, call, args, small, asyncio.get_running_loop().create_future())
        self._queues.setdefault(member, deque()).append(job)
        self._pump()
        result: T = await asyncio.shield(job.done)
        return result

    def _pump(self) -> None:
        while self._busy < self.workers and self._queues:
            member = min(self._queues, key=lambda m: self._served.get(m, -1))  # ties: who came first
            queue = self._queues[member]
            job = queue.popleft()
            if not queue:
                del self._queues[member]
            self._busy += 1
            self._running[member] = self._running.get(member, 0) + 1
            self._served[member] = self._count
            self._count += 1
            self.started.append(member)
            task = asyncio.get_running_loop().create_task(self._work(job))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _work(self, job: _Job) -> None:
        try:
            executor: Executor = self._thread if job.small else self._pool()
            result = await asyncio.get_running_loop().run_in_executor(executor, job.call, *job.args)
        except BrokenExecutor:  # BrokenProcessPool
            # The worker died (out of memory, killed): a fresh one for the next job; this one is refused.
            self._process = None
            if not job.done.done():
                job.done.set_exception(ServiceError(M("the bot could not finish that: try again in a moment")))
        except BaseException as error:  # handed to whoever waits for it
            if not job.done.done():
                job.done.set_exception(error)
        else:
            if not job.done.done():
                job.done.set_result(result)
        finally:
            self._busy -= 1
            self._running[job.member] -= 1
            if not self._running[job.member]:
                del self._running[job.member]
                if job.member not in self._queues:
                    self._served.pop(job.member, None)  # nothing of theirs left: forget them
            self._pump()

    def _pool(self) -> ProcessPoolExecutor:
        """Made at the first heavy job: a bot that never replays a long match starts no process."""
        if self._process is None:
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor

            from bot.service.computer import _start_worker

            # spawn, not fork: the bot's process has threads (storage, rendering) a fork would copy mid-lock.
            # The worker finds the games by their entry points, as the bot does.
            self._process = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"),
                                                initializer=_start_worker)  # fmt: skip
        return self._process

    async def close(self) -> None:
        for executor in (self._process, self._thread):
            if executor is not None:
                with contextlib.suppress(Exception):
                    await asyncio.to_thread(executor.shutdown, wait=True, cancel_futures=True)
