"""One task that fires due timers in order and delivers the notices they leave behind
(the RoboDanny reminder pattern, with an outbox).

It sleeps until the earliest timer or pending notice is due, or until the service says
a sooner one may exist. Timers that fell due while the bot was down fire at once on
start, each exactly once (the service removes a timer in the transaction that applies
it). Each firing stores its notice in the outbox in that same transaction; the notice is
deleted only once Discord accepted the post, so a crash or a refused post means it is
posted again later (with back-off), never lost.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace

from bot.clock import Clock
from bot.i18n import speaking
from bot.replies import Notice
from bot.service import MatchService
from bot.storage.timers import TimerRow

log = logging.getLogger(__name__)

# Posts a notice; returns the message id, raises ChannelGone if the channel no longer
# exists, and anything else for a failure worth another try.
Announce = Callable[[Notice, str], Awaitable[int | None]]
RETRY_SECONDS = 60.0


class ChannelGone(Exception):
    """Discord reports the channel unknown: its match ends, unrated."""


class ChannelUnreachable(Exception):
    """Discord refuses the post for lack of access (a permission, a closed thread): its match is
    paused until the bot can post there again."""


class TimerDispatcher:
    def __init__(
        self,
        service: MatchService,
        announce: Announce,
        clock: Clock | None = None,
        *,
        poll_seconds: float | None = None,
    ) -> None:
        self.service = service
        # Other processes may add timers this one is not told about: look again at least this often.
        self.poll_seconds = poll_seconds
        self.announce = announce
        self.clock = clock or service.clock
        self._wake = asyncio.Event()
        self._idle = asyncio.Condition()
        self._waiting = False
        self._task: asyncio.Task[None] | None = None
        service.on_timers_changed = self.poke

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="timers")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    def poke(self) -> None:
        """A timer or notice may now be due sooner than the one being waited for."""
        self._wake.set()

    async def _run(self) -> None:
        try:
            # What this process's previous run committed but never posted (it died first): now.
            adopted = await self.service.adopt_notices()
            if adopted:
                log.info("posting what the previous run left unposted", extra={"notices": adopted})
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("could not look for what the previous run left unposted")
        try:
            # Events whose last result was stored just before a restart get their next round now.
            await self.service.resume_events()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("could not resume the running events")
        while True:
            # Cleared before reading, so a poke that lands while we read is not lost.
            self._wake.clear()
            try:
                if await self._deliver_due():
                    continue
                timer = await self.service.next_timer()
                if timer is not None and timer.due <= self.clock.now():
                    await self._fire(timer)
                    continue
                if await self.service.fire_event_deadlines():  # events whose sign-up closed
                    continue
                signup_at = await self.service.next_event_deadline()
                notice_at = await self.service.next_notice_at()
                poll = self.clock.now() + self.poll_seconds if self.poll_seconds else None
                candidates = [t for t in (timer.due if timer else None, notice_at, poll, signup_at) if t is not None]
                await self._sleep_until(min(candidates) if candidates else None)
            except asyncio.CancelledError:
                raise
            except Exception:
                # Whatever failed (storage, Discord), the task lives on: the next timers still fire.
                log.exception("timer dispatch failed")
                await self._sleep_until(self.clock.now() + RETRY_SECONDS)

    async def _deliver_due(self) -> bool:
        """Post the notices that are due; True if there were any."""
        pending = await self.service.due_notices()
        for item, notice in pending:
            try:
                if item.match_id is not None:  # named, when an event's matches share its channel
                    with speaking(notice.locale):
                        notice = replace(notice, reply=await self.service.labelled(notice.reply, item.match_id))
                message_id = await self.announce(notice, item.nonce)
            except ChannelGone:
                log.warning("channel gone: match ended", extra={"match": item.match_id, "channel": notice.channel_id})
                await self.service.channel_gone(item)
            except ChannelUnreachable:
                await self.service.channel_unreachable(item)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("notice not posted; will retry", extra={"match": item.match_id, "notice": item.id})
                if not await self.service.notice_failed(item):
                    log.error("notice given up", extra={"match": item.match_id, "notice": item.id})
            else:
                await self.service.notice_delivered(item, message_id, notice)
        return bool(pending)

    async def _fire(self, timer: TimerRow) -> None:
        try:
            await self.service.fire_timer(timer)
        except asyncio.CancelledError:
            raise
        except Exception:
            # A timer that cannot fire must not block those behind it: try it again later.
            log.exception("timer failed", extra={"timer": timer.id, "match": timer.match_id})
            await self.service.postpone_timer(timer.id, RETRY_SECONDS, digest_of=timer.user_id)

    async def _sleep_until(self, due: float | None) -> None:
        async with self._idle:
            self._waiting = True
            self._idle.notify_all()
        try:
            if due is None:
                await self._wake.wait()
            else:
                await self.clock.sleep_until(due, self._wake)
        finally:
            self._waiting = False

    async def settled(self, timeout: float = 10.0) -> None:
        """For tests: wait until every timer and notice due now is handled and the task sleeps again.

        Pokes first, so a clock moved forward just before is looked at afresh.
        """
        async with self._idle:
            self._waiting = False
        self.poke()
        async with asyncio.timeout(timeout), self._idle:
            await self._idle.wait_for(lambda: self._waiting)
