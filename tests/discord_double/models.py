"""The fake Discord world: snowflakes, users, roles, members, channels, guilds.

Everything here is plain data plus ``to_payload()`` methods producing the JSON
shapes Discord's API v10 returns.  Nothing here imports discord.py: the double
is a server and must not depend on the client library it is testing.
"""

from __future__ import annotations

import datetime as dt
import enum
import itertools
import threading
import time
from dataclasses import dataclass, field
from typing import Any

JSON = dict[str, Any]

DISCORD_EPOCH_MS = 1_420_070_400_000


class Perm(enum.IntFlag):
    """Discord permission bits (subset used by bots like Nika)."""

    CREATE_INSTANT_INVITE = 1 << 0
    KICK_MEMBERS = 1 << 1
    BAN_MEMBERS = 1 << 2
    ADMINISTRATOR = 1 << 3
    MANAGE_CHANNELS = 1 << 4
    MANAGE_GUILD = 1 << 5
    ADD_REACTIONS = 1 << 6
    VIEW_CHANNEL = 1 << 10
    SEND_MESSAGES = 1 << 11
    MANAGE_MESSAGES = 1 << 13
    EMBED_LINKS = 1 << 14
    ATTACH_FILES = 1 << 15
    READ_MESSAGE_HISTORY = 1 << 16
    MENTION_EVERYONE = 1 << 17
    USE_EXTERNAL_EMOJIS = 1 << 18
    CONNECT = 1 << 20
    SPEAK = 1 << 21
    CHANGE_NICKNAME = 1 << 26
    MANAGE_ROLES = 1 << 28
    MANAGE_WEBHOOKS = 1 << 29
    USE_APPLICATION_COMMANDS = 1 << 31
    MANAGE_THREADS = 1 << 34
    CREATE_PUBLIC_THREADS = 1 << 35
    CREATE_PRIVATE_THREADS = 1 << 36
    SEND_MESSAGES_IN_THREADS = 1 << 38
    MODERATE_MEMBERS = 1 << 40


# Every bit Discord currently defines (up to 1 << 50) — what ADMINISTRATOR grants.
ALL_PERMISSIONS = (1 << 51) - 1

DEFAULT_EVERYONE_PERMISSIONS = int(
    Perm.CREATE_INSTANT_INVITE
    | Perm.ADD_REACTIONS
    | Perm.VIEW_CHANNEL
    | Perm.SEND_MESSAGES
    | Perm.EMBED_LINKS
    | Perm.ATTACH_FILES
    | Perm.READ_MESSAGE_HISTORY
    | Perm.USE_EXTERNAL_EMOJIS
    | Perm.CONNECT
    | Perm.SPEAK
    | Perm.CHANGE_NICKNAME
    | Perm.USE_APPLICATION_COMMANDS
    | Perm.CREATE_PUBLIC_THREADS
    | Perm.SEND_MESSAGES_IN_THREADS
)

DEFAULT_BOT_PERMISSIONS = int(
    DEFAULT_EVERYONE_PERMISSIONS
    | Perm.MANAGE_CHANNELS
    | Perm.MANAGE_ROLES
    | Perm.MANAGE_MESSAGES
    | Perm.MANAGE_THREADS
    | Perm.CREATE_PRIVATE_THREADS
)


class ChannelType(enum.IntEnum):
    GUILD_TEXT = 0
    DM = 1
    GUILD_VOICE = 2
    GUILD_CATEGORY = 4
    PUBLIC_THREAD = 11
    PRIVATE_THREAD = 12


THREAD_TYPES = frozenset({10, 11, 12})


class Snowflakes:
    """Thread-safe generator of real-looking, strictly increasing snowflakes.

    Ids embed the current time so discord.py's ``created_at`` (and therefore
    ``Interaction.is_expired()``) behave as in production.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._last = 0
        self._counter = itertools.count()

    def next(self) -> int:
        with self._lock:
            ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
            candidate = (ms << 22) | (1 << 17) | (next(self._counter) & 0xFFF)
            # Bursts within one millisecond (or a clock step back) must still increase.
            self._last = max(candidate, self._last + 1)
            return self._last

    def next_on_shard(self, shard_id: int, shard_count: int) -> int:
        """A fresh snowflake ``s`` with ``shard_of(s, shard_count) == shard_id``.

        The shard comes from the timestamp bits, so the id is stamped up to
        ``shard_count - 1`` milliseconds ahead; it still sorts after every earlier id.
        """
        if not 0 <= shard_id < shard_count:
            raise ValueError(f"shard {shard_id} is not one of {shard_count} shard(s)")
        with self._lock:
            ms = max(int(time.time() * 1000) - DISCORD_EPOCH_MS, self._last >> 22)
            ms += (shard_id - ms) % shard_count
            candidate = (ms << 22) | (1 << 17) | (next(self._counter) & 0xFFF)
            if candidate <= self._last:
                candidate += shard_count << 22
            self._last = candidate
            return candidate


def shard_of(guild_id: int, shard_count: int) -> int:
    """Discord's routing rule: which of ``shard_count`` shards receives a guild's events."""
    return (guild_id >> 22) % shard_count


def snowflake_time(snowflake: int) -> dt.datetime:
    ms = (snowflake >> 22) + DISCORD_EPOCH_MS
    return dt.datetime.fromtimestamp(ms / 1000, tz=dt.UTC)


def iso(when: dt.datetime) -> str:
    return when.isoformat()


def now_iso() -> str:
    return iso(dt.datetime.now(dt.UTC))


@dataclass
class User:
    id: int
    username: str
    global_name: str | None = None
    bot: bool = False
    avatar: str | None = None

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def to_payload(self) -> JSON:
        data: JSON = {
            "id": str(self.id),
            "username": self.username,
            "global_name": self.global_name,
            "discriminator": "0",
            "avatar": self.avatar,
            "public_flags": 0,
            "flags": 0,
            "avatar_decoration_data": None,
            "primary_guild": None,
            "collectibles": None,
        }
        if self.bot:
            data["bot"] = True
        return data


@dataclass
class Role:
    id: int
    name: str
    permissions: int = 0
    position: int = 0
    color: int = 0
    hoist: bool = False
    mentionable: bool = False
    managed: bool = False
    bot_id: int | None = None

    @property
    def mention(self) -> str:
        return f"<@&{self.id}>"

    def to_payload(self) -> JSON:
        data: JSON = {
            "id": str(self.id),
            "name": self.name,
            "color": self.color,
            "colors": {"primary_color": self.color, "secondary_color": None, "tertiary_color": None},
            "hoist": self.hoist,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": self.managed,
            "mentionable": self.mentionable,
            "flags": 0,
        }
        if self.bot_id is not None:
            data["tags"] = {"bot_id": str(self.bot_id)}
        return data


@dataclass
class Member:
    user: User
    guild_id: int
    roles: list[int] = field(default_factory=list)
    nick: str | None = None
    joined_at: str = field(default_factory=now_iso)

    @property
    def id(self) -> int:
        return self.user.id

    def to_payload(self, *, with_user: bool = True, permissions: int | None = None) -> JSON:
        data: JSON = {
            "roles": [str(r) for r in self.roles],
            "nick": self.nick,
            "avatar": None,
            "banner": None,
            "joined_at": self.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = self.user.to_payload()
        if permissions is not None:
            # Only interaction payloads carry the computed permissions string.
            data["permissions"] = str(permissions)
        return data


@dataclass
class Channel:
    id: int
    type: int
    name: str | None = None
    guild_id: int | None = None
    position: int = 0
    topic: str | None = None
    parent_id: int | None = None
    nsfw: bool = False
    permission_overwrites: list[JSON] = field(default_factory=list)
    recipients: list[User] = field(default_factory=list)
    owner_id: int | None = None
    last_message_id: int | None = None
    rate_limit_per_user: int = 0
    thread_metadata: JSON | None = None

    @property
    def is_thread(self) -> bool:
        return self.type in THREAD_TYPES

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    def to_payload(self) -> JSON:
        last = None if self.last_message_id is None else str(self.last_message_id)
        if self.type == ChannelType.DM:
            return {
                "id": str(self.id),
                "type": self.type,
                "last_message_id": last,
                "flags": 0,
                "recipients": [u.to_payload() for u in self.recipients],
            }
        data: JSON = {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "position": self.position,
            "permission_overwrites": [dict(o) for o in self.permission_overwrites],
            "parent_id": None if self.parent_id is None else str(self.parent_id),
            "nsfw": self.nsfw,
            "topic": self.topic,
            "last_message_id": last,
            "rate_limit_per_user": self.rate_limit_per_user,
            "flags": 0,
        }
        if self.type == ChannelType.GUILD_VOICE:
            data.update({"bitrate": 64000, "user_limit": 0, "rtc_region": None})
        if self.is_thread:
            data.update(
                {
                    "owner_id": None if self.owner_id is None else str(self.owner_id),
                    "thread_metadata": dict(self.thread_metadata or {}),
                    "message_count": 0,
                    "member_count": 1,
                    "total_message_sent": 0,
                    "applied_tags": [],
                }
            )
            del data["permission_overwrites"], data["position"], data["topic"]
        return data


def normalise_overwrite(raw: JSON) -> JSON:
    """discord.py sends ints; Discord answers with strings — store Discord's form."""
    return {
        "id": str(raw["id"]),
        "type": int(raw.get("type", 0)),
        "allow": str(raw.get("allow", 0)),
        "deny": str(raw.get("deny", 0)),
    }


@dataclass
class Guild:
    id: int
    name: str
    owner_id: int
    roles: dict[int, Role] = field(default_factory=dict)
    members: dict[int, Member] = field(default_factory=dict)
    channels: dict[int, Channel] = field(default_factory=dict)
    locale: str = "en-US"

    @property
    def everyone(self) -> Role:
        # Discord gives @everyone the guild's own id.
        return self.roles[self.id]

    def text_channels(self) -> list[Channel]:
        return [c for c in self.channels.values() if c.type == ChannelType.GUILD_TEXT]

    def base_permissions(self, user_id: int) -> int:
        if user_id == self.owner_id:
            return ALL_PERMISSIONS
        perms = self.everyone.permissions
        member = self.members.get(user_id)
        if member is not None:
            for role_id in member.roles:
                role = self.roles.get(role_id)
                if role is not None:
                    perms |= role.permissions
        if perms & Perm.ADMINISTRATOR:
            return ALL_PERMISSIONS
        return perms

    def channel_permissions(self, user_id: int, channel: Channel | None) -> int:
        """Discord's documented overwrite algorithm (everyone → roles → member)."""
        perms = self.base_permissions(user_id)
        if perms == ALL_PERMISSIONS or channel is None:
            return perms
        if channel.is_thread and channel.parent_id is not None:
            channel = self.channels.get(channel.parent_id, channel)
        overwrites = {o["id"]: o for o in channel.permission_overwrites}
        everyone = overwrites.get(str(self.id))
        if everyone is not None:
            perms = (perms & ~int(everyone["deny"])) | int(everyone["allow"])
        member = self.members.get(user_id)
        allow = deny = 0
        for role_id in member.roles if member else []:
            ow = overwrites.get(str(role_id))
            if ow is not None and ow["type"] == 0:
                allow |= int(ow["allow"])
                deny |= int(ow["deny"])
        perms = (perms & ~deny) | allow
        own = overwrites.get(str(user_id))
        if own is not None and own["type"] == 1:
            perms = (perms & ~int(own["deny"])) | int(own["allow"])
        return perms

    def to_payload(self, *, members: list[Member] | None = None, for_gateway: bool = False) -> JSON:
        data: JSON = {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(self.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [r.to_payload() for r in self.roles.values()],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "vanity_url_code": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": self.locale,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "max_members": 500000,
            "max_video_channel_users": 25,
        }
        if for_gateway:
            data.update(
                {
                    "unavailable": False,
                    "large": False,
                    "lazy": True,
                    "joined_at": now_iso(),
                    "member_count": len(self.members),
                    "members": [m.to_payload() for m in (members if members is not None else [])],
                    "channels": [c.to_payload() for c in self.channels.values() if not c.is_thread],
                    "threads": [c.to_payload() for c in self.channels.values() if c.is_thread],
                    "voice_states": [],
                    "presences": [],
                    "stage_instances": [],
                    "guild_scheduled_events": [],
                    "soundboard_sounds": [],
                }
            )
        return data
