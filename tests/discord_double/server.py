"""``DiscordDouble``: an aiohttp fake of Discord's HTTP API and gateway."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import secrets
import socket
import traceback
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from types import TracebackType
from typing import Any, Self

from aiohttp import WSMsgType, web
from aiohttp.multipart import BodyPartReader

from .builders import InteractionBuilders
from .gateway import (
    GatewayConnection,
    GatewayOp,
    GatewaySession,
    Intents,
    filter_members_for_request,
    parse_shard,
)
from .models import DEFAULT_BOT_PERMISSIONS, DEFAULT_EVERYONE_PERMISSIONS, JSON, Channel, Member
from .records import InteractionRecord, RecordedRequest, StoredMessage, UploadedFile
from .rest import RestApi
from .state import APP_FLAGS, ApiError, ChannelLike, UserLike

_API_PREFIX = re.compile(r"^/api(?:/v\d+)?(?=/)")
_FILE_FIELD = re.compile(r"^files\[(\d+)\]$")
_PRIVILEGED = Intents.GUILD_MEMBERS | (1 << 8) | Intents.MESSAGE_CONTENT


class Hold:
    """Requests matching a route that the double receives but does not answer yet, as if Discord
    were slow to process them: `arrived` waits for one; `release` answers them as usual, `drop`
    never processes them (the client died while waiting: nothing happens on Discord's side)."""

    def __init__(self, method: str, pattern: re.Pattern[str]) -> None:
        self.method = method
        self.pattern = pattern
        self.held: list[RecordedRequest] = []
        self.active = True
        self._arrived = asyncio.Event()
        self._released = asyncio.Event()
        self._process = True

    def matches(self, rec: RecordedRequest) -> bool:
        return self.active and rec.method == self.method and self.pattern.fullmatch(rec.route) is not None

    async def wait(self, rec: RecordedRequest) -> bool:
        """Hold a request; True if it is then to be processed."""
        self.held.append(rec)
        self._arrived.set()
        await self._released.wait()
        return self._process

    async def arrived(self, timeout: float = 20.0) -> RecordedRequest:
        async with asyncio.timeout(timeout):
            await self._arrived.wait()
        return self.held[0]

    def release(self) -> None:
        self.active, self._process = False, True
        self._released.set()

    def drop(self) -> None:
        self.active, self._process = False, False
        self._released.set()


@dataclass
class _InjectedError:
    method: str
    pattern: re.Pattern[str]
    status: int
    body: JSON
    remaining: int


class DiscordDouble(RestApi, InteractionBuilders):
    """Fake Discord for end-to-end tests of an unmodified discord.py bot.

    The bot only has to point ``discord.http.Route.BASE`` at :attr:`base_url`
    and ``DiscordWebSocket.DEFAULT_GATEWAY`` at :attr:`gateway_url` (see README).
    """

    def __init__(
        self,
        *,
        app_id: int | None = None,
        bot_name: str = "Nika",
        token: str | None = None,
        guild_name: str = "Nika Test Guild",
        channel_names: Iterable[str] = ("general",),
        bot_permissions: int = DEFAULT_BOT_PERMISSIONS,
        everyone_permissions: int = DEFAULT_EVERYONE_PERMISSIONS,
        privileged_intents: bool = True,
        dispatch_message_events: bool = True,
        heartbeat_interval_ms: int = 41_250,
        shard_count: int = 1,
        max_concurrency: int = 1,
        host: str = "127.0.0.1",
        port: int = 0,
    ) -> None:
        """``token=None`` accepts any token; otherwise a wrong one gets 401 / close 4004.

        ``shard_count`` is what GET /gateway/bot recommends (an AutoShardedClient opens that
        many shards) and the default for ``add_guild(shard_id=...)``; clients may still
        IDENTIFY with any valid ``[shard_id, num_shards]`` or none.
        """
        super().__init__(
            app_id=app_id,
            bot_name=bot_name,
            token=token,
            guild_name=guild_name,
            channel_names=channel_names,
            bot_permissions=bot_permissions,
            everyone_permissions=everyone_permissions,
            dispatch_message_events=dispatch_message_events,
            shard_count=shard_count,
            max_concurrency=max_concurrency,
        )
        self.privileged_intents = privileged_intents
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.host = host
        self._requested_port = port
        self._port: int | None = None
        self._runner: web.AppRunner | None = None
        self._route_table = self._routes()
        self._injected: list[_InjectedError] = []
        self._holds: list[Hold] = []
        self.heartbeats = 0
        # Tracebacks of bugs inside the double itself (tests should assert this stays empty).
        self.internal_errors: list[str] = []

    # --------------------------------------------------------------- lifecycle
    async def start(self) -> Self:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self._handle_gateway)
        app.router.add_get("/attachments/{channel}/{attachment}/{filename}", self._handle_attachment)
        app.router.add_route("*", "/{tail:.*}", self._handle_http)
        # Bind first so the port is known before anything connects.
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((self.host, self._requested_port))
        self._port = sock.getsockname()[1]
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        await web.SockSite(self._runner, sock).start()
        return self

    async def close(self) -> None:
        for hold in self._holds:
            hold.drop()
        for conn in list(self.connections):
            with contextlib.suppress(Exception):
                await conn.ws.close(code=1001, message=b"double shutting down")
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> Self:
        return await self.start()

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

    @property
    def port(self) -> int:
        if self._port is None:
            raise RuntimeError("DiscordDouble.start() has not been awaited")
        return self._port

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def base_url(self) -> str:
        """Value for ``discord.http.Route.BASE`` (env ``DISCORD_API_BASE``)."""
        return f"{self.url}/api/v10"

    @property
    def gateway_url(self) -> str:
        """Value for ``DiscordWebSocket.DEFAULT_GATEWAY``; also what GET /gateway/bot returns."""
        return f"ws://{self.host}:{self.port}/gateway"

    def env(self) -> dict[str, str]:
        """Environment for a bot subprocess (merge into ``os.environ``)."""
        return {"DISCORD_API_BASE": self.base_url, "DISCORD_GATEWAY_URL": self.gateway_url}

    # --------------------------------------------------------- error injection
    def inject_error(
        self,
        method: str,
        route_pattern: str,
        *,
        status: int = 403,
        code: int = 50013,
        message: str = "Missing Permissions",
        times: int = 1,
    ) -> None:
        """Make the next ``times`` matching requests fail (regex fullmatched on the route)."""
        body: JSON = {"message": message, "code": code}
        if status == 429:
            body.update(retry_after=0.01, **{"global": False})
        self._injected.append(_InjectedError(method.upper(), re.compile(route_pattern), status, body, times))

    def hold(self, method: str, route_pattern: str) -> Hold:
        """Hold the next requests matching (regex fullmatched on the route) until released or dropped."""
        hold = Hold(method.upper(), re.compile(route_pattern))
        self._holds.append(hold)
        return hold

    def _take_injected(self, rec: RecordedRequest) -> _InjectedError | None:
        for injected in self._injected:
            if injected.remaining > 0 and injected.method == rec.method and injected.pattern.fullmatch(rec.route):
                injected.remaining -= 1
                return injected
        return None

    # -------------------------------------------------------------- HTTP side
    async def _parse_body(self, request: web.Request, rec: RecordedRequest) -> None:
        if request.content_type.startswith("multipart/"):
            reader = await request.multipart()
            while True:
                part = await reader.next()
                if part is None:
                    break
                if not isinstance(part, BodyPartReader):
                    continue  # discord.py never nests multiparts
                if part.name == "payload_json":
                    rec.json = json.loads(await part.text())
                    continue
                data = bytes(await part.read(decode=False))
                match = _FILE_FIELD.match(part.name or "")
                rec.files.append(
                    UploadedFile(
                        field=part.name or "",
                        filename=part.filename or part.name or "file",
                        data=data,
                        content_type=part.headers.get("Content-Type"),
                        index=int(match.group(1)) if match else None,
                    )
                )
            # Descriptions live in payload_json's attachments list (data.attachments for callbacks).
            body = rec.json if isinstance(rec.json, dict) else {}
            entries = body.get("attachments") or (body.get("data") or {}).get("attachments") or []
            by_index = {int(e["id"]): e for e in entries if str(e.get("id", "")).isdigit()}
            for upload in rec.files:
                entry = by_index.get(upload.index) if upload.index is not None else None
                if entry is not None and entry.get("description") is not None:
                    upload.description = entry["description"]
            return
        rec.raw_body = await request.read()
        if rec.raw_body and request.content_type == "application/json":
            rec.json = json.loads(rec.raw_body)

    def _authorized(self, rec: RecordedRequest) -> bool:
        # Interaction callbacks and interaction webhooks authenticate by token in the URL.
        if self.token is None or rec.route.startswith(("/interactions/", "/webhooks/")):
            return True
        return rec.headers.get("Authorization") == f"Bot {self.token}"

    async def _handle_http(self, request: web.Request) -> web.StreamResponse:
        path = request.path
        route = _API_PREFIX.sub("", path)
        rec = RecordedRequest(
            seq=len(self.requests),
            method=request.method,
            path=path,
            route=route,
            query=dict(request.query),
            headers={k: v for k, v in request.headers.items() if k.lower() in ("authorization", "x-audit-log-reason")},
        )
        extra_headers: dict[str, str] = {}
        try:
            try:
                await self._parse_body(request, rec)
            except ValueError as exc:
                raise ApiError(400, f"The request body contains invalid JSON. ({exc})", 50109) from None
            except ConnectionResetError:
                # The client vanished mid-request (a process killed while uploading): not a
                # double bug. Record it as aborted, the way a proxy logs a 499.
                rec.status, rec.aborted = 499, True
                self.requests.append(rec)
                await self.notify()
                return web.Response(status=499)
            hold = next((h for h in self._holds if h.matches(rec)), None)
            if hold is not None and not await hold.wait(rec):
                rec.status, rec.aborted = 499, True  # its sender died waiting: never processed
                self.requests.append(rec)
                await self.notify()
                return web.Response(status=499)
            injected = self._take_injected(rec)
            if not self._authorized(rec):
                status, body = 401, {"message": "401: Unauthorized", "code": 0}
            elif injected is not None:
                status, body = injected.status, dict(injected.body)
                if status == 429:
                    # discord.py treats a 429 without Via as a Cloudflare ban.
                    extra_headers["Via"] = "1.1 google"
            else:
                status, body = await self._dispatch_route(rec)
        except ApiError as exc:
            status, body = exc.status, exc.body
        except Exception:
            # A 5xx would make discord.py retry with 1-5 s sleeps; fail fast and loudly instead.
            self.internal_errors.append(traceback.format_exc())
            status, body = 400, {"message": f"discord-double internal error:\n{self.internal_errors[-1]}", "code": 0}
        rec.status, rec.response = status, body
        self.requests.append(rec)
        await self.notify()
        if status == 204:
            return web.Response(status=204, headers=extra_headers)
        # Exactly "application/json": discord.py compares the header verbatim, so
        # aiohttp's json_response ("...; charset=utf-8") would be read as text.
        headers = {"Content-Type": "application/json", **extra_headers}
        return web.Response(status=status, body=json.dumps(body).encode(), headers=headers)

    async def _dispatch_route(self, rec: RecordedRequest) -> tuple[int, Any]:
        if rec.path == rec.route:  # not under /api
            rec.known = False
            return 404, {"message": "Unknown", "code": 0}
        path_matched = False
        for method, pattern, handler in self._route_table:
            match = pattern.fullmatch(rec.route)
            if match is None:
                continue
            path_matched = True
            if method == rec.method:
                return await handler(rec, *(g for g in match.groups() if g is not None))
        rec.known = False
        if path_matched:
            return 405, {"message": "405: Method Not Allowed", "code": 0}
        return 404, {"message": "Unknown", "code": 0}

    async def _handle_attachment(self, request: web.Request) -> web.StreamResponse:
        upload = self.attachments.get(int(request.match_info["attachment"]))
        if upload is None:
            return web.Response(status=404)
        content_type = upload.content_type or "application/octet-stream"
        return web.Response(body=upload.data, headers={"Content-Type": content_type})

    # ----------------------------------------------------------- gateway side
    async def _handle_gateway(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await ws.prepare(request)
        try:
            conn = GatewayConnection(ws, dict(request.query))
        except ValueError as exc:
            await ws.close(code=4000, message=str(exc).encode())
            return ws
        if request.query.get("encoding", "json") != "json":
            await ws.close(code=4002, message=b"only encoding=json is supported")
            return ws
        self.connections.add(conn)
        try:
            await conn.send_op(GatewayOp.HELLO, {"heartbeat_interval": self.heartbeat_interval_ms})
            async for msg in ws:
                if msg.type == WSMsgType.TEXT:
                    try:
                        await self._on_gateway_frame(conn, json.loads(msg.data))
                    except Exception:
                        self.internal_errors.append(traceback.format_exc())
                elif msg.type == WSMsgType.ERROR:
                    break
        finally:
            self.connections.discard(conn)
            if conn.session is not None and conn.session.connection is conn:
                conn.session.connection = None
            await self.notify()
        return ws

    async def _on_gateway_frame(self, conn: GatewayConnection, frame: JSON) -> None:
        conn.received.append(frame)
        self.gateway_frames.append(frame)
        op, data = frame.get("op"), frame.get("d")
        if op == GatewayOp.HEARTBEAT:
            self.heartbeats += 1
            conn.heartbeats.append(data if isinstance(data, int) else None)
            await conn.send_op(GatewayOp.HEARTBEAT_ACK, None)
        elif op == GatewayOp.IDENTIFY:
            await self._identify(conn, data or {})
        elif op == GatewayOp.RESUME:
            await self._resume(conn, data or {})
        elif op == GatewayOp.REQUEST_MEMBERS:
            await self._request_members(conn, data or {})
        await self.notify()

    async def _identify(self, conn: GatewayConnection, data: JSON) -> None:
        if conn.session is not None:
            await conn.ws.close(code=4005, message=b"Already authenticated.")
            return
        if self.token is not None and data.get("token") != self.token:
            await conn.ws.close(code=4004, message=b"Authentication failed.")
            return
        shard: tuple[int, int] | None = None
        if "shard" in data:
            try:
                shard = parse_shard(data["shard"])
            except ValueError as exc:
                await conn.ws.close(code=4010, message=f"Invalid shard. ({exc})".encode())
                return
        intents = int(data.get("intents", 0))
        if not self.privileged_intents and intents & _PRIVILEGED:
            await conn.ws.close(code=4014, message=b"Disallowed intent(s).")
            return
        self.identify_payloads.append(data)
        session = GatewaySession(
            session_id=secrets.token_hex(16),
            identify=data,
            connection=conn,
            shard=shard or (0, 1),
            order=len(self.identify_payloads),
        )
        conn.session = session
        self.sessions[session.session_id] = session
        # One session per shard: a new IDENTIFY (a restarted process) takes the shard over.
        previous = self.shard_sessions.get(session.shard)
        if previous is not None:
            previous.superseded = True
        self.shard_sessions[session.shard] = session
        self.active_session = session
        guilds = [g for g in self.guilds.values() if session.owns(g.id)]
        me = self._me_payload()
        ready: JSON = {
            "v": 10,
            "user": me,
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.session_id,
            "session_type": "normal",
            "resume_gateway_url": self.gateway_url,
            "application": {"id": str(self.app_id), "flags": APP_FLAGS},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "user_settings": {},
            "_trace": ["discord-double"],
        }
        if shard is not None:
            ready["shard"] = list(shard)
        await session.dispatch("READY", ready)
        for guild in guilds:
            # Without GUILD_MEMBERS Discord only includes the bot's own member.
            if intents & Intents.GUILD_MEMBERS:
                members: list[Member] = list(guild.members.values())
            else:
                members = [guild.members[self.bot_user.id]]
            await session.dispatch("GUILD_CREATE", guild.to_payload(members=members, for_gateway=True))
        session.ready = True

    async def _resume(self, conn: GatewayConnection, data: JSON) -> None:
        session = self.sessions.get(str(data.get("session_id")))
        if session is None or session.superseded or data.get("token") != session.token:
            await conn.send_op(GatewayOp.INVALID_SESSION, False)
            return
        if session.connection is not None and session.connection is not conn:
            with contextlib.suppress(Exception):
                await session.connection.ws.close(code=4000)
        session.connection = conn
        conn.session = session
        self.active_session = session
        last_seen = int(data.get("seq") or 0)
        for seq, frame in session.sent:
            if seq > last_seen:
                await conn.send(frame)
        await session.dispatch("RESUMED", {"_trace": ["discord-double"]})
        self.resume_count += 1

    async def _request_members(self, conn: GatewayConnection, data: JSON) -> None:
        if conn.session is None:
            return
        guild_ids = data.get("guild_id")
        for raw in guild_ids if isinstance(guild_ids, list) else [guild_ids]:
            guild = self.guilds.get(int(raw))
            if guild is None or not conn.session.owns(guild.id):
                continue
            members = filter_members_for_request(list(guild.members.values()), data, lambda m: m.id)
            chunk: JSON = {
                "guild_id": str(guild.id),
                "members": [m.to_payload() for m in members],
                "chunk_index": 0,
                "chunk_count": 1,
                "not_found": [],
            }
            if data.get("nonce") is not None:
                chunk["nonce"] = data["nonce"]
            await conn.session.dispatch("GUILD_MEMBERS_CHUNK", chunk)

    async def sync_gateway(self, *, shard_id: int | None = None, timeout: float = 5.0) -> None:
        """Barrier: returns once the bot has processed every dispatch sent so far.

        Sends op 1 HEARTBEAT; discord.py answers from its receive loop, i.e. only
        after running the (synchronous) cache parsers of all earlier frames.
        Event listeners those frames triggered may still be running.
        Covers every connected shard, or only ``shard_id``.
        """
        if shard_id is None:
            sessions = [s for s in self.shard_sessions.values() if s.is_connected]
        else:
            sessions = [s for s in [self.shard_session(shard_id)] if s is not None and s.is_connected]
        if not sessions:
            raise RuntimeError("no connected session" + ("" if shard_id is None else f" for shard {shard_id}"))
        await asyncio.gather(*(self._heartbeat_barrier(s, timeout) for s in sessions))

    async def _heartbeat_barrier(self, session: GatewaySession, timeout: float) -> None:
        conn, target = session.connection, session.seq
        assert conn is not None
        seen = len(conn.heartbeats)
        await conn.send_op(GatewayOp.HEARTBEAT, target)

        def check() -> bool | None:
            later = conn.heartbeats[seen:]
            return True if any(d is not None and d >= target for d in later) else None

        what = f"heartbeat answering the gateway barrier on shard {session.shard_id}"
        await self.wait_for(check, timeout=timeout, what=what)

    async def request_reconnect(self, *, shard_id: int | None = None) -> None:
        """Send op 7 RECONNECT (to ``shard_id``, else the latest session); discord.py RESUMEs."""
        session = self.active_session if shard_id is None else self.shard_session(shard_id)
        if session is None or session.connection is None:
            raise RuntimeError("no connected session")
        await session.connection.send_op(GatewayOp.RECONNECT, None)

    # ------------------------------------------------------------ test API
    @property
    def intents(self) -> int | None:
        session = self.active_session
        return None if session is None else session.intents

    async def wait_ready(self, *, shard_id: int | None = None, timeout: float = 5.0) -> GatewaySession:
        """Resolves once a client identified and was sent READY + every GUILD_CREATE.

        Without ``shard_id`` that is the latest session of all (use ``wait_shards_ready``
        for a sharded bot); with it, the live session holding that shard.
        """

        def check() -> GatewaySession | None:
            session = self.active_session if shard_id is None else self.shard_session(shard_id)
            if session is not None and session.ready and session.is_connected:
                return session
            return None

        what = "gateway IDENTIFY/READY" + ("" if shard_id is None else f" on shard {shard_id}")
        return await self.wait_for(check, timeout=timeout, what=what)

    async def wait_shards_ready(
        self, shard_ids: Iterable[int] | None = None, *, timeout: float = 5.0
    ) -> dict[int, GatewaySession]:
        """Resolves once every shard in ``shard_ids`` (default: all ``shard_count``) is connected and ready."""
        wanted = list(range(self.shard_count) if shard_ids is None else shard_ids)

        def check() -> dict[int, GatewaySession] | None:
            ready = {i: self.shard_session(i) for i in wanted}
            if all(s is not None and s.ready and s.is_connected for s in ready.values()):
                return {i: s for i, s in ready.items() if s is not None}
            return None

        return await self.wait_for(check, timeout=timeout, what=f"READY on shards {wanted}")

    async def send_interaction(self, payload: JSON) -> int:
        """Dispatch INTERACTION_CREATE and start tracking its callback; returns its id."""
        interaction_id = int(payload["id"])
        record = InteractionRecord(
            id=interaction_id,
            token=str(payload["token"]),
            type=int(payload["type"]),
            payload=payload,
            channel_id=int(payload["channel_id"]) if payload.get("channel_id") else None,
            guild_id=int(payload["guild_id"]) if payload.get("guild_id") else None,
        )
        self.interactions[interaction_id] = record
        self.interactions_by_token[record.token] = record
        await self.dispatch("INTERACTION_CREATE", payload)
        return interaction_id

    async def user_message(self, user: UserLike, channel: ChannelLike | None, content: str) -> StoredMessage:
        """A human posts ``content``; the bot gets MESSAGE_CREATE (subject to intents)."""
        author = self._user(user)
        where = self._channel(channel)
        message = self.create_message(where, {"content": content}, [], author=author, source="user")
        await self.dispatch_message_event("MESSAGE_CREATE", message)
        return message

    def interaction(self, interaction_id: int) -> InteractionRecord:
        return self.interactions[int(interaction_id)]

    def message(self, message_id: int) -> StoredMessage:
        return self.messages[int(message_id)]

    @property
    def unknown_requests(self) -> list[RecordedRequest]:
        """Requests to routes the double does not implement (answered 404/405)."""
        return [r for r in self.requests if not r.known]

    async def wait_for_request(
        self, predicate: Callable[[RecordedRequest], bool], *, timeout: float = 5.0, start: int = 0
    ) -> RecordedRequest:
        """First recorded request (seq >= start, past or future) matching ``predicate``."""

        def check() -> RecordedRequest | None:
            return next((r for r in self.requests[start:] if predicate(r)), None)

        return await self.wait_for(check, timeout=timeout, what="a matching HTTP request")

    async def wait_for_interaction_response(self, interaction_id: int, *, timeout: float = 5.0) -> InteractionRecord:
        """Waits for the callback; the record also collects followups and edits as they come."""
        record = self.interactions[int(interaction_id)]
        return await self.wait_for(
            lambda: record if record.callback is not None else None,
            timeout=timeout,
            what=f"callback for interaction {interaction_id}",
        )

    async def wait_for_followups(
        self, interaction_id: int, count: int = 1, *, timeout: float = 5.0
    ) -> list[RecordedRequest]:
        record = self.interactions[int(interaction_id)]
        return await self.wait_for(
            lambda: record.followups if len(record.followups) >= count else None,
            timeout=timeout,
            what=f"{count} followup(s) for interaction {interaction_id}",
        )

    async def wait_for_message(
        self, predicate: Callable[[StoredMessage], bool], *, timeout: float = 5.0
    ) -> StoredMessage:
        """First stored message (any channel, any source) matching ``predicate``."""

        def check() -> StoredMessage | None:
            return next((m for m in sorted(self.messages.values(), key=lambda m: m.id) if predicate(m)), None)

        return await self.wait_for(check, timeout=timeout, what="a matching message")

    async def wait_disconnected(self, *, shard_id: int | None = None, timeout: float = 5.0) -> None:
        """Resolves once no gateway connection is open, or none for ``shard_id`` (its process stopped)."""

        def check() -> bool | None:
            if shard_id is None:
                return True if not self.connections else None
            session = self.shard_session(shard_id)
            return True if session is None or not session.is_connected else None

        what = "disconnect" + ("" if shard_id is None else f" of shard {shard_id}")
        await self.wait_for(check, timeout=timeout, what=what)

    def channel_named(self, name: str) -> Channel:
        for channel in self.channels.values():
            if channel.name == name:
                return channel
        raise KeyError(name)
