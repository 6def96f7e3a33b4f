"""Core state shared by the REST handlers, the gateway and the payload builders."""

from __future__ import annotations

import asyncio
import copy
import mimetypes
import re
import struct
import time
from collections.abc import Callable, Iterable
from typing import TypeVar

from .gateway import GatewayConnection, GatewaySession, Intents
from .models import (
    DEFAULT_BOT_PERMISSIONS,
    DEFAULT_EVERYONE_PERMISSIONS,
    JSON,
    Channel,
    ChannelType,
    Guild,
    Member,
    Perm,
    Role,
    Snowflakes,
    User,
    iso,
    normalise_overwrite,
    now_iso,
    snowflake_time,
)
from .records import InteractionRecord, RecordedRequest, StoredMessage, UploadedFile

T = TypeVar("T")

MSG_FLAG_SUPPRESS_EMBEDS = 1 << 2
MSG_FLAG_EPHEMERAL = 1 << 6
MSG_FLAG_LOADING = 1 << 7
MSG_FLAG_SUPPRESS_NOTIFICATIONS = 1 << 12
MSG_FLAG_COMPONENTS_V2 = 1 << 15
_SETTABLE_FLAGS = (
    MSG_FLAG_SUPPRESS_EMBEDS | MSG_FLAG_EPHEMERAL | MSG_FLAG_SUPPRESS_NOTIFICATIONS | MSG_FLAG_COMPONENTS_V2
)

# Typical unverified bot with privileged intents switched on in the portal.
APP_FLAGS = (1 << 13) | (1 << 15) | (1 << 19)

# Discord's documented limits on a message (Create Message: content up to 2000 characters; a
# nonce up to 25; enforce_nonce dedupes a nonce the same author used "in the past few minutes").
CONTENT_LIMIT = 2000
NONCE_LIMIT = 25
NONCE_WINDOW_SECONDS = 300.0

UserLike = User | Member | int
ChannelLike = Channel | int


class ApiError(Exception):
    """Raised by handlers to answer with a Discord-style JSON error."""

    def __init__(self, status: int, message: str, code: int = 0) -> None:
        super().__init__(f"{status} {message} ({code})")
        self.status = status
        self.body: JSON = {"message": message, "code": code}


def unknown(kind: str, code: int) -> ApiError:
    return ApiError(404, f"Unknown {kind}", code)


def missing_permissions() -> ApiError:
    return ApiError(403, "Missing Permissions", 50013)


def _png_size(data: bytes) -> tuple[int, int] | None:
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        width, height = struct.unpack(">II", data[16:24])
        return int(width), int(height)
    return None


class DoubleState:
    """World model plus the message/event plumbing every part of the double needs."""

    def __init__(
        self,
        *,
        app_id: int | None,
        bot_name: str,
        token: str | None,
        guild_name: str,
        channel_names: Iterable[str],
        bot_permissions: int,
        everyone_permissions: int,
        dispatch_message_events: bool,
        shard_count: int = 1,
        max_concurrency: int = 1,
    ) -> None:
        if shard_count < 1:
            raise ValueError("shard_count must be at least 1")
        # What GET /gateway/bot recommends and where add_guild(shard_id=...) places guilds.
        self.shard_count = shard_count
        self.max_concurrency = max_concurrency
        self.ids = Snowflakes()
        self.app_id: int = app_id if app_id is not None else self.ids.next()
        self.token = token
        self.dispatch_message_events = dispatch_message_events
        self.bot_permissions = bot_permissions
        self.everyone_permissions = everyone_permissions
        # Bots created since 2020 share their application's id.
        self.bot_user = User(id=self.app_id, username=bot_name, bot=True)
        self.owner = User(id=self.ids.next(), username="guild-owner")
        self.users: dict[int, User] = {self.bot_user.id: self.bot_user, self.owner.id: self.owner}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, StoredMessage] = {}
        self.attachments: dict[int, UploadedFile] = {}
        # Application commands keyed by guild id (None = global), then by command id.
        self.commands: dict[int | None, dict[int, JSON]] = {}
        self.interactions: dict[int, InteractionRecord] = {}
        self.interactions_by_token: dict[str, InteractionRecord] = {}
        self.requests: list[RecordedRequest] = []
        self.sessions: dict[str, GatewaySession] = {}
        # The live session of each (shard_id, num_shards): the latest IDENTIFY for it.
        self.shard_sessions: dict[tuple[int, int], GatewaySession] = {}
        # The session that identified or resumed last (the bot's, when it is not sharded).
        self.active_session: GatewaySession | None = None
        self.connections: set[GatewayConnection] = set()
        self.identify_payloads: list[JSON] = []
        self.gateway_frames: list[JSON] = []
        self.resume_count = 0
        # (author, nonce) -> (when it was first used, the message it created): enforce_nonce.
        self.nonce_window = NONCE_WINDOW_SECONDS
        self.nonces: dict[tuple[int, str], tuple[float, int]] = {}
        self.nonce_repeats: list[tuple[str, int]] = []  # (nonce, earlier message) of every repeat answered
        self._changed = asyncio.Condition()
        self.guild = self.add_guild(guild_name, channel_names, shard_id=0)
        self.channel = self.guild.text_channels()[0]

    # ------------------------------------------------------------------ urls
    # Overridden by the server once it knows its port.
    @property
    def url(self) -> str:
        raise NotImplementedError

    @property
    def gateway_url(self) -> str:
        raise NotImplementedError

    # ------------------------------------------------------------- the world
    def add_guild(
        self,
        name: str,
        channel_names: Iterable[str] = ("general",),
        *,
        shard_id: int | None = None,
        shard_count: int | None = None,
    ) -> Guild:
        """Create a guild with @everyone, a managed bot role, the owner and the bot as members.

        ``shard_id`` picks an id that lands on that shard of ``shard_count``
        (default: the double's ``shard_count``), i.e. ``(id >> 22) % shard_count == shard_id``.
        """
        if shard_id is None:
            guild_id = self.ids.next()
        else:
            guild_id = self.ids.next_on_shard(shard_id, shard_count or self.shard_count)
        guild = Guild(id=guild_id, name=name, owner_id=self.owner.id)
        guild.roles[guild.id] = Role(id=guild.id, name="@everyone", permissions=self.everyone_permissions)
        bot_role = Role(
            id=self.ids.next(),
            name=self.bot_user.username,
            permissions=self.bot_permissions,
            position=1,
            managed=True,
            bot_id=self.bot_user.id,
        )
        guild.roles[bot_role.id] = bot_role
        guild.members[self.owner.id] = Member(user=self.owner, guild_id=guild.id)
        guild.members[self.bot_user.id] = Member(user=self.bot_user, guild_id=guild.id, roles=[bot_role.id])
        self.guilds[guild.id] = guild
        for channel_name in channel_names:
            self.add_channel(channel_name, guild=guild)
        return guild

    def add_channel(
        self,
        name: str,
        *,
        guild: Guild | None = None,
        type: int = ChannelType.GUILD_TEXT,
        parent: ChannelLike | None = None,
        topic: str | None = None,
        overwrites: Iterable[JSON] = (),
    ) -> Channel:
        """Add a guild channel. Do this before the bot connects (it is sent in GUILD_CREATE)."""
        guild = guild or self.guild
        channel = Channel(
            id=self.ids.next(),
            type=int(type),
            name=name,
            guild_id=guild.id,
            position=len(guild.channels),
            topic=topic,
            parent_id=None if parent is None else self._channel_id(parent),
            permission_overwrites=[normalise_overwrite(o) for o in overwrites],
        )
        guild.channels[channel.id] = channel
        self.channels[channel.id] = channel
        return channel

    def add_role(self, name: str, permissions: int = 0, *, guild: Guild | None = None) -> Role:
        guild = guild or self.guild
        role = Role(id=self.ids.next(), name=name, permissions=int(permissions), position=len(guild.roles))
        guild.roles[role.id] = role
        return role

    def add_user(
        self,
        username: str,
        *,
        guild: Guild | None = None,
        member: bool = True,
        roles: Iterable[Role | int] = (),
        permissions: int = 0,
        nick: str | None = None,
        global_name: str | None = None,
        bot: bool = False,
        user_id: int | None = None,
    ) -> User:
        """Add a user, by default as a member of the default guild.

        ``permissions`` (e.g. ``Perm.MANAGE_CHANNELS`` or a discord.py
        ``Permissions(...).value``) is granted through a fresh role named
        ``"<username> perms"``, the way a real server would do it.
        """
        user = User(id=user_id or self.ids.next(), username=username, global_name=global_name, bot=bot)
        self.users[user.id] = user
        if member:
            self.add_member(user, guild, roles=roles, permissions=permissions, nick=nick)
        return user

    def add_member(
        self,
        user: UserLike,
        guild: Guild | None = None,
        *,
        roles: Iterable[Role | int] = (),
        permissions: int = 0,
        nick: str | None = None,
    ) -> Member:
        """Make an existing user a member of ``guild`` too (``permissions`` as in ``add_user``)."""
        who = self._user(user)
        guild = guild or self.guild
        role_ids = [r.id if isinstance(r, Role) else int(r) for r in roles]
        if permissions:
            role_ids.append(self.add_role(f"{who.username} perms", permissions, guild=guild).id)
        member = Member(user=who, guild_id=guild.id, roles=role_ids, nick=nick)
        guild.members[who.id] = member
        return member

    def member(self, user: UserLike, guild: Guild | None = None) -> Member:
        guild = guild or self.guild
        return guild.members[self._user(user).id]

    def dm_channel(self, user: UserLike) -> Channel:
        """The bot's DM channel with ``user`` (created on first use, like Discord)."""
        target = self._user(user)
        for channel in self.channels.values():
            if channel.type == ChannelType.DM and channel.recipients and channel.recipients[0].id == target.id:
                return channel
        channel = Channel(id=self.ids.next(), type=ChannelType.DM, recipients=[target])
        self.channels[channel.id] = channel
        return channel

    def _user(self, user: UserLike) -> User:
        if isinstance(user, Member):
            return user.user
        if isinstance(user, User):
            return user
        try:
            return self.users[int(user)]
        except KeyError:
            raise ValueError(f"unknown user id {user}") from None

    def _channel_id(self, channel: ChannelLike) -> int:
        return channel.id if isinstance(channel, Channel) else int(channel)

    def _channel(self, channel: ChannelLike | None) -> Channel:
        if channel is None:
            return self.channel
        try:
            return self.channels[self._channel_id(channel)]
        except KeyError:
            raise ValueError(f"unknown channel {channel}") from None

    def _guild_of(self, channel: Channel) -> Guild | None:
        return None if channel.guild_id is None else self.guilds.get(channel.guild_id)

    def bot_can(self, channel: Channel, perms: int) -> bool:
        guild = self._guild_of(channel)
        if guild is None:
            return True
        return guild.channel_permissions(self.bot_user.id, channel) & perms == perms

    def require_channel_perms(self, channel: Channel, perms: int) -> None:
        """Raise what Discord answers: 50001 without VIEW_CHANNEL, else 50013."""
        if not self.bot_can(channel, Perm.VIEW_CHANNEL):
            raise ApiError(403, "Missing Access", 50001)
        if not self.bot_can(channel, perms):
            raise missing_permissions()

    def bot_has_guild_perm(self, guild: Guild, perm: int) -> bool:
        return guild.base_permissions(self.bot_user.id) & perm == perm

    # --------------------------------------------------------------- waiting
    async def notify(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    async def wait_for(self, check: Callable[[], T | None], *, timeout: float = 5.0, what: str = "condition") -> T:
        """Wait until ``check()`` returns something other than None; no polling, no sleeps."""
        try:
            async with asyncio.timeout(timeout):
                async with self._changed:
                    while True:
                        result = check()
                        if result is not None:
                            return result
                        await self._changed.wait()
        except TimeoutError:
            recent = ", ".join(repr(r) for r in self.requests[-12:])
            raise TimeoutError(f"timed out after {timeout}s waiting for {what}; recent requests: [{recent}]") from None

    # -------------------------------------------------------------- messages
    def _attachment_payload(self, channel_id: int, upload: UploadedFile, *, ephemeral: bool) -> JSON:
        assert upload.attachment_id is not None
        url = f"{self.url}/attachments/{channel_id}/{upload.attachment_id}/{upload.filename}"
        guessed = mimetypes.guess_type(upload.filename)[0]
        content_type = guessed or upload.content_type or "application/octet-stream"
        data: JSON = {
            "id": str(upload.attachment_id),
            "filename": upload.filename,
            "size": upload.size,
            "url": url,
            "proxy_url": url,
            "content_type": content_type,
            "flags": 0,
        }
        if upload.description is not None:
            data["description"] = upload.description
        if ephemeral:
            data["ephemeral"] = True
        size = _png_size(upload.data)
        if size is not None:
            data["width"], data["height"] = size
        return data

    def _register_upload(self, upload: UploadedFile) -> UploadedFile:
        upload.attachment_id = self.ids.next()
        self.attachments[upload.attachment_id] = upload
        return upload

    def _merge_attachments(
        self, message: StoredMessage | None, body: JSON, files: list[UploadedFile], channel_id: int, ephemeral: bool
    ) -> tuple[list[JSON], dict[int, UploadedFile]]:
        """Resolve ``attachments`` entries: old ones by snowflake, new ones by ``files[n]`` index."""
        kept: dict[int, UploadedFile] = dict(message.files_by_id) if message else {}
        by_index = {f.index: f for f in files if f.index is not None}
        entries = body.get("attachments")
        if entries is None:
            # No list sent: keep what is there and append every uploaded file.
            order = [self._register_upload(f) for f in files]
            old = [kept[int(a["id"])] for a in (message.payload["attachments"] if message else [])]
            chosen = old + order
        else:
            chosen = []
            for entry in entries:
                ref = int(entry["id"])
                if ref in kept:
                    chosen.append(kept[ref])
                elif ref in by_index:
                    upload = by_index[ref]
                    if entry.get("description") is not None:
                        upload.description = entry["description"]
                    if entry.get("filename"):
                        upload.filename = entry["filename"]
                    chosen.append(self._register_upload(upload))
                else:
                    raise ApiError(400, "Invalid Form Body (attachments: unknown attachment id)", 50035)
        payloads = [self._attachment_payload(channel_id, f, ephemeral=ephemeral) for f in chosen]
        return payloads, {f.attachment_id: f for f in chosen if f.attachment_id is not None}

    def _mentions(self, content: str) -> tuple[list[JSON], list[str]]:
        users = []
        for raw in dict.fromkeys(re.findall(r"<@!?(\d+)>", content)):
            user = self.users.get(int(raw))
            if user is not None:
                users.append(user.to_payload())
        roles = list(dict.fromkeys(re.findall(r"<@&(\d+)>", content)))
        return users, roles

    @staticmethod
    def check_content(body: JSON) -> None:
        """Discord refuses a message whose content is longer than its limit (it does not cut it)."""
        content = body.get("content")
        if content is not None and len(str(content)) > CONTENT_LIMIT:
            raise ApiError(400, f"Invalid Form Body (content: Must be {CONTENT_LIMIT} or fewer in length.)", 50035)
        nonce = body.get("nonce")
        if nonce is not None and (not isinstance(nonce, str | int) or len(str(nonce)) > NONCE_LIMIT):
            raise ApiError(400, f"Invalid Form Body (nonce: Must be {NONCE_LIMIT} or fewer in length.)", 50035)

    def message_by_nonce(self, author: int, body: JSON) -> StoredMessage | None:
        """With enforce_nonce, the message this author already created with this nonce within the
        window: Discord returns it and creates nothing."""
        nonce = body.get("nonce")
        if nonce is None or not body.get("enforce_nonce"):
            return None
        seen = self.nonces.get((author, str(nonce)))
        if seen is None or time.monotonic() - seen[0] > self.nonce_window:
            return None
        self.nonce_repeats.append((str(nonce), seen[1]))
        return self.messages.get(seen[1])

    def create_message(
        self,
        channel: Channel,
        body: JSON,
        files: list[UploadedFile],
        *,
        author: User,
        source: str,
        interaction: InteractionRecord | None = None,
        extra_flags: int = 0,
    ) -> StoredMessage:
        self.check_content(body)
        message_id = self.ids.next()
        flags = (int(body.get("flags") or 0) & _SETTABLE_FLAGS) | extra_flags
        ephemeral = bool(flags & MSG_FLAG_EPHEMERAL)
        attachments, files_by_id = self._merge_attachments(None, body, files, channel.id, ephemeral)
        content = str(body.get("content") or "")
        mentions, mention_roles = self._mentions(content)
        payload: JSON = {
            "id": str(message_id),
            "channel_id": str(channel.id),
            "author": author.to_payload(),
            "content": content,
            "timestamp": iso(snowflake_time(message_id)),
            "edited_timestamp": None,
            "tts": bool(body.get("tts", False)),
            "mention_everyone": False,
            "mentions": mentions,
            "mention_roles": mention_roles,
            "attachments": attachments,
            "embeds": [dict(e, type=e.get("type", "rich")) for e in body.get("embeds") or []],
            "pinned": False,
            "type": 0,
            "flags": flags,
            "components": copy.deepcopy(body.get("components") or []),
        }
        if body.get("nonce") is not None:
            payload["nonce"] = body["nonce"]
            self.nonces.setdefault((author.id, str(body["nonce"])), (time.monotonic(), message_id))
        if channel.is_thread:
            payload["position"] = sum(1 for m in self.messages.values() if m.channel_id == channel.id)
        reference = body.get("message_reference")
        if reference:
            ref_id = int(reference["message_id"])
            payload["message_reference"] = {
                "type": 0,
                "message_id": str(ref_id),
                "channel_id": str(reference.get("channel_id") or channel.id),
            }
            referenced = self.messages.get(ref_id)
            payload["referenced_message"] = None if referenced is None else copy.deepcopy(referenced.payload)
            payload["type"] = 19
        if interaction is not None:
            payload["webhook_id"] = str(self.app_id)
            payload["application_id"] = str(self.app_id)
            payload["type"] = 20 if interaction.type == 2 else 0
            payload["interaction_metadata"] = self._interaction_metadata(interaction)
        message = StoredMessage(
            id=message_id,
            channel_id=channel.id,
            payload=payload,
            source=source,
            interaction_id=None if interaction is None else interaction.id,
            ephemeral=ephemeral,
            files_by_id=files_by_id,
        )
        self.messages[message_id] = message
        if not ephemeral:
            channel.last_message_id = message_id
        return message

    def _interaction_metadata(self, interaction: InteractionRecord) -> JSON:
        payload = interaction.payload
        raw_user = payload.get("user") or (payload.get("member") or {}).get("user") or {}
        data: JSON = {
            "id": str(interaction.id),
            "type": interaction.type,
            "user": raw_user,
            "authorizing_integration_owners": payload.get("authorizing_integration_owners", {}),
        }
        if interaction.original_message_id is not None:
            data["original_response_message_id"] = str(interaction.original_message_id)
        if interaction.type == 3 and "message" in payload:
            data["interacted_message_id"] = payload["message"]["id"]
        return data

    def edit_message(self, message: StoredMessage, body: JSON, files: list[UploadedFile]) -> StoredMessage:
        self.check_content(body)
        message.history.append(copy.deepcopy(message.payload))
        payload = message.payload
        if "content" in body:
            payload["content"] = str(body["content"] or "")
            payload["mentions"], payload["mention_roles"] = self._mentions(payload["content"])
        if "embeds" in body:
            payload["embeds"] = [dict(e, type=e.get("type", "rich")) for e in body["embeds"] or []]
        if "components" in body:
            payload["components"] = copy.deepcopy(body["components"] or [])
        flags = int(payload.get("flags", 0)) & ~MSG_FLAG_LOADING
        if "flags" in body and body["flags"] is not None:
            # Only suppress-embeds / components-v2 may change after sending.
            changeable = MSG_FLAG_SUPPRESS_EMBEDS | MSG_FLAG_COMPONENTS_V2
            flags = (flags & ~changeable) | (int(body["flags"]) & changeable)
        payload["flags"] = flags
        if "attachments" in body or files:
            payload["attachments"], message.files_by_id = self._merge_attachments(
                message, body, files, message.channel_id, message.ephemeral
            )
        payload["edited_timestamp"] = now_iso()
        return message

    # ------------------------------------------------------------ dispatching
    def shard_session(self, shard_id: int, shard_count: int | None = None) -> GatewaySession | None:
        """The live session holding ``shard_id`` (of ``shard_count``, if given), newest first."""
        held = [
            s
            for s in self.shard_sessions.values()
            if s.shard_id == shard_id and (shard_count is None or s.shard_count == shard_count)
        ]
        return max(held, key=lambda s: s.order, default=None)

    def session_for(self, guild_id: int | None) -> GatewaySession | None:
        """Where Discord sends an event of ``guild_id``: the shard that owns it; shard 0 for DMs."""
        owners = [s for s in self.shard_sessions.values() if s.owns(guild_id)]
        return max(owners, key=lambda s: s.order, default=None)

    async def dispatch(self, event: str, data: JSON, *, shard_id: int | None = None) -> int:
        """Send a DISPATCH to the session owning ``data``'s guild (or ``shard_id``'s); returns its seq.

        A disconnected owner buffers the event for a RESUME, as Discord does; nobody else gets it.
        """
        guild_id = _guild_id_of(event, data)
        session = self.session_for(guild_id) if shard_id is None else self.shard_session(shard_id)
        if session is None:
            where = "any shard" if shard_id is None else f"shard {shard_id}"
            raise RuntimeError(f"no bot has identified with the gateway for {where} yet")
        return await session.dispatch(event, data)

    async def dispatch_message_event(self, event: str, message: StoredMessage) -> None:
        if not self.dispatch_message_events or message.ephemeral:
            return
        channel = self.channels.get(message.channel_id)
        if channel is None:
            return
        guild = self._guild_of(channel)
        session = self.session_for(None if guild is None else guild.id)
        if session is None or not session.intents & (Intents.GUILD_MESSAGES if guild else Intents.DIRECT_MESSAGES):
            return
        if event == "MESSAGE_DELETE":
            data: JSON = {"id": str(message.id), "channel_id": str(channel.id)}
            if guild is not None:
                data["guild_id"] = str(guild.id)
            await session.dispatch(event, data)
            return
        data = copy.deepcopy(message.payload)
        author_id = int(data["author"]["id"])
        if guild is not None:
            data["guild_id"] = str(guild.id)
            member = guild.members.get(author_id)
            if member is not None and "webhook_id" not in data:
                data["member"] = member.to_payload(with_user=False)
        mentioned = any(int(u["id"]) == self.bot_user.id for u in data["mentions"])
        if (
            guild is not None
            and author_id != self.bot_user.id
            and not mentioned
            and not session.intents & Intents.MESSAGE_CONTENT
        ):
            # What Discord does without the privileged MESSAGE_CONTENT intent.
            data.update(content="", embeds=[], attachments=[], components=[])
        await session.dispatch(event, data)

    async def dispatch_channel_event(self, event: str, channel: Channel) -> None:
        if channel.guild_id is None:
            return
        session = self.session_for(channel.guild_id)
        if session is None or not session.intents & Intents.GUILDS:
            return
        data = channel.to_payload()
        if event == "THREAD_CREATE":
            data["newly_created"] = True
        await session.dispatch(event, data)

    async def dispatch_member_update(self, member: Member) -> None:
        session = self.session_for(member.guild_id)
        if session is None or not session.intents & Intents.GUILD_MEMBERS:
            return
        data = member.to_payload()
        data["guild_id"] = str(member.guild_id)
        await session.dispatch("GUILD_MEMBER_UPDATE", data)

    # -------------------------------------------------------------- commands
    def find_command(self, name: str, guild_id: int | None, type: int = 1) -> JSON | None:
        """Guild commands win over global ones, as in Discord's client."""
        scopes: list[int | None] = [guild_id, None] if guild_id is not None else [None]
        for scope in scopes:
            for command in self.commands.get(scope, {}).values():
                if command["name"] == name and int(command.get("type", 1)) == type:
                    return command
        return None

    def registered_commands(self, guild_id: int | None = None) -> list[JSON]:
        return list(self.commands.get(guild_id, {}).values())

    def command_id(self, name: str, guild_id: int | None = None) -> int | None:
        command = self.find_command(name, guild_id)
        return None if command is None else int(command["id"])


def _guild_id_of(event: str, data: JSON) -> int | None:
    # GUILD_CREATE/UPDATE/DELETE carry the guild as ``id``; every other guild event as ``guild_id``.
    raw = data.get("id") if event in ("GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE") else data.get("guild_id")
    return None if raw is None else int(raw)


# Re-exported for builders/rest; keeps their import lists short.
__all__ = [
    "APP_FLAGS",
    "DEFAULT_BOT_PERMISSIONS",
    "DEFAULT_EVERYONE_PERMISSIONS",
    "MSG_FLAG_EPHEMERAL",
    "MSG_FLAG_LOADING",
    "ApiError",
    "ChannelLike",
    "DoubleState",
    "Perm",
    "UserLike",
    "missing_permissions",
    "unknown",
]
