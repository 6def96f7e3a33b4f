"""Counting PostgreSQL round trips as the wire sees them: a TCP relay on 127.0.0.1 between the
bot and a real server.

    async with RoundTripCounter(url) as counter:
        storage = await open_storage(counter.url)  # every connection goes through the relay
        before = counter.count
        ...                                        # the work to measure
        counter.count - before                     # round trips it cost

A round trip is counted when a client sends after the server has answered (or first sends on
a connection): the client waiting for an answer before it speaks again is what costs a round
trip's latency, whatever the messages. Several messages the client sends before any answer
(a pipeline) are one round trip; asyncpg's pool reset on release, BEGIN, COMMIT and a statement's
preparation are each counted, as they each wait for the server. Nothing is parsed or changed.
The connection's opening (start-up, authentication) is not counted: `count` starts after it
(`opened` says how many opened), so a pool that opens a connection mid-measure does not blur
the figure; asyncpg opens its connections before the measured work in the tests that use this.
"""

from __future__ import annotations

import asyncio
import contextlib
from types import TracebackType
from urllib.parse import urlsplit, urlunsplit

SSL_REQUEST = (8).to_bytes(4, "big") + (80877103).to_bytes(4, "big")


class RoundTripCounter:
    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        self._target = (parts.hostname or "127.0.0.1", parts.port or 5432)
        self._url = parts
        self.count = 0
        self.opened = 0
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def url(self) -> str:
        assert self._server is not None, "start the relay first"
        port = self._server.sockets[0].getsockname()[1]
        userinfo = self._url.netloc.rsplit("@", 1)[0] + "@" if "@" in self._url.netloc else ""
        return urlunsplit(self._url._replace(netloc=f"{userinfo}127.0.0.1:{port}"))

    async def __aenter__(self) -> RoundTripCounter:
        self._server = await asyncio.start_server(self._relay, "127.0.0.1", 0)
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        assert self._server is not None
        self._server.close()
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError, OSError):
                await task
        await self._server.wait_closed()

    async def _relay(self, client_in: asyncio.StreamReader, client_out: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        try:
            server_in, server_out = await asyncio.open_connection(*self._target)
        except OSError:
            client_out.close()
            self._tasks.discard(task)
            return
        # The client speaks first; the start-up exchange ends with the server's first ReadyForQuery
        # ('Z'). Until then nothing is counted.
        state = {"ready": False, "answered": True, "ssl_asked": False}
        self.opened += 1

        async def upstream() -> None:
            first = True
            while data := await client_in.read(65536):
                if first:  # an SSLRequest, answered by one byte before the start-up proper
                    state["ssl_asked"] = data[:8] == SSL_REQUEST
                    first = False
                if state["ready"] and state["answered"]:
                    self.count += 1
                state["answered"] = False
                server_out.write(data)
                await server_out.drain()
            server_out.close()

        async def downstream() -> None:
            seen = b""
            while data := await server_in.read(65536):
                if not state["ready"]:
                    seen += data
                    if state["ssl_asked"]:  # 'N' (or 'S'): not a message
                        seen, state["ssl_asked"] = seen[1:], False
                    state["ready"] = _ready_for_query(seen)
                state["answered"] = True
                client_out.write(data)
                await client_out.drain()
            client_out.close()

        try:
            await asyncio.gather(upstream(), downstream())
        except (ConnectionError, OSError):
            pass
        finally:
            for writer in (client_out, server_out):
                writer.close()
            self._tasks.discard(task)


def _ready_for_query(stream: bytes) -> bool:
    """Whether the server's messages so far (the start-up exchange) include a ReadyForQuery."""
    at = 0
    while at + 5 <= len(stream):
        kind = stream[at : at + 1]
        length = int.from_bytes(stream[at + 1 : at + 5], "big")
        if kind == b"Z":
            return True
        at += 1 + length
    return False
