"""Gateway (websocket) side of the double: framing, compression, sessions."""

from __future__ import annotations

import asyncio
import json
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from aiohttp import web

from .models import shard_of

JSON = dict[str, Any]


class GatewayOp:
    DISPATCH = 0
    HEARTBEAT = 1
    IDENTIFY = 2
    PRESENCE = 3
    VOICE_STATE = 4
    RESUME = 6
    RECONNECT = 7
    REQUEST_MEMBERS = 8
    INVALID_SESSION = 9
    HELLO = 10
    HEARTBEAT_ACK = 11


class Intents:
    GUILDS = 1 << 0
    GUILD_MEMBERS = 1 << 1
    GUILD_MESSAGES = 1 << 9
    DIRECT_MESSAGES = 1 << 12
    MESSAGE_CONTENT = 1 << 15


class _Compressor(Protocol):
    def __call__(self, data: bytes) -> bytes: ...


def _zlib_stream() -> _Compressor:
    # discord.py keeps ONE decompressobj for the whole connection and only
    # decodes once a frame ends with the Z_SYNC_FLUSH marker 00 00 ff ff.
    comp = zlib.compressobj()

    def compress(data: bytes) -> bytes:
        return comp.compress(data) + comp.flush(zlib.Z_SYNC_FLUSH)

    return compress


def _zstd_stream() -> _Compressor:
    # discord.py picks zstd-stream when `zstandard` (or Python 3.14's
    # compression.zstd) is importable; one streaming frame, block-flushed per message.
    try:
        from compression import zstd  # type: ignore[import-not-found]

        stdlib = zstd.ZstdCompressor()

        def compress_std(data: bytes) -> bytes:
            return bytes(stdlib.compress(data, mode=zstd.ZstdCompressor.FLUSH_BLOCK))

        return compress_std
    except ImportError:
        import zstandard  # type: ignore[import-not-found]

        obj = zstandard.ZstdCompressor().compressobj()

        def compress_zs(data: bytes) -> bytes:
            return bytes(obj.compress(data) + obj.flush(zstandard.COMPRESSOBJ_FLUSH_BLOCK))

        return compress_zs


@dataclass
class GatewaySession:
    """A logical Discord session; it outlives a websocket so RESUME can work."""

    session_id: str
    identify: JSON
    seq: int = 0
    # (seq, frame) of every dispatch, replayed on RESUME.
    sent: list[tuple[int, JSON]] = field(default_factory=list)
    connection: GatewayConnection | None = None
    # READY and every GUILD_CREATE have been sent.
    ready: bool = False
    # IDENTIFY's [shard_id, num_shards]; a session without one is (0, 1) and owns every guild.
    shard: tuple[int, int] = (0, 1)
    # A later IDENTIFY for the same shard took over: this session gets no events and cannot RESUME.
    superseded: bool = False
    # Position among IDENTIFYs: when sessions of different shard counts both own a guild, the newest wins.
    order: int = 0

    @property
    def shard_id(self) -> int:
        return self.shard[0]

    @property
    def shard_count(self) -> int:
        return self.shard[1]

    def owns(self, guild_id: int | None) -> bool:
        """Whether Discord routes this guild's events here; DMs (no guild) go to shard 0."""
        if guild_id is None:
            return self.shard_id == 0
        return shard_of(guild_id, self.shard_count) == self.shard_id

    def events(self, name: str) -> list[JSON]:
        """``d`` of every ``name`` dispatch sent to this session (including any buffered while disconnected)."""
        return [frame["d"] for _, frame in self.sent if frame["t"] == name]

    @property
    def intents(self) -> int:
        return int(self.identify.get("intents", 0))

    @property
    def token(self) -> str:
        return str(self.identify.get("token", ""))

    @property
    def is_connected(self) -> bool:
        return self.connection is not None and not self.connection.ws.closed

    async def dispatch(self, event: str, data: JSON) -> int:
        self.seq += 1
        frame: JSON = {"op": GatewayOp.DISPATCH, "t": event, "s": self.seq, "d": data}
        self.sent.append((self.seq, frame))
        if self.connection is not None:
            await self.connection.send(frame)
        return self.seq


class GatewayConnection:
    """One websocket connection; frames are JSON text or compressed binary."""

    def __init__(self, ws: web.WebSocketResponse, query: dict[str, str]) -> None:
        self.ws = ws
        self.query = query
        mode = query.get("compress")
        self.compress: _Compressor | None
        if mode == "zlib-stream":
            self.compress = _zlib_stream()
        elif mode == "zstd-stream":
            self.compress = _zstd_stream()
        elif mode is None:
            self.compress = None
        else:
            raise ValueError(f"unsupported gateway compression {mode!r}")
        # Compressed frames share stream state, so encode+send must not interleave.
        self._lock = asyncio.Lock()
        self.session: GatewaySession | None = None
        self.received: list[JSON] = []
        # ``d`` (last seq the client saw) of every heartbeat received, in order.
        self.heartbeats: list[int | None] = []

    async def send(self, frame: JSON) -> None:
        raw = json.dumps(frame, separators=(",", ":")).encode()
        async with self._lock:
            if self.ws.closed:
                return
            try:
                if self.compress is None:
                    await self.ws.send_str(raw.decode())
                else:
                    await self.ws.send_bytes(self.compress(raw))
            except ConnectionResetError:
                # The client went away mid-send; its reconnect logic handles the rest.
                pass

    async def send_op(self, op: int, data: Any) -> None:
        await self.send({"op": op, "d": data, "s": None, "t": None})


def parse_shard(raw: Any) -> tuple[int, int]:
    """IDENTIFY's ``shard`` field; ValueError where Discord closes with 4010 Invalid shard."""
    if not (isinstance(raw, list) and len(raw) == 2 and all(type(n) is int for n in raw)):
        raise ValueError(f"shard must be [shard_id, num_shards], got {raw!r}")
    shard_id, shard_count = raw
    if shard_count < 1 or not 0 <= shard_id < shard_count:
        raise ValueError(f"shard {shard_id} is not one of {shard_count} shard(s)")
    return shard_id, shard_count


def filter_members_for_request(members: list[Any], data: JSON, user_id_of: Callable[[Any], int]) -> list[Any]:
    """Apply REQUEST_GUILD_MEMBERS' ``user_ids`` / ``query`` / ``limit`` filters."""
    user_ids = data.get("user_ids")
    if user_ids is not None:
        wanted = {int(u) for u in (user_ids if isinstance(user_ids, list) else [user_ids])}
        return [m for m in members if user_id_of(m) in wanted]
    query = str(data.get("query") or "").lower()
    limit = int(data.get("limit") or 0)
    picked = [m for m in members if not query or m.user.username.lower().startswith(query)]
    return picked[:limit] if limit else picked
