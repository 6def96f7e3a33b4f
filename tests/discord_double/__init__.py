"""A fake Discord (HTTP API v10 + gateway) for end-to-end tests of a discord.py bot.

See README.md in this folder for how a bot process connects to it.
"""

from .builders import (
    OPT_ATTACHMENT,
    OPT_BOOLEAN,
    OPT_CHANNEL,
    OPT_INTEGER,
    OPT_MENTIONABLE,
    OPT_NUMBER,
    OPT_ROLE,
    OPT_STRING,
    OPT_USER,
)
from .gateway import GatewayOp, GatewaySession, Intents
from .models import (
    ALL_PERMISSIONS,
    DEFAULT_BOT_PERMISSIONS,
    DEFAULT_EVERYONE_PERMISSIONS,
    Channel,
    ChannelType,
    Guild,
    Member,
    Perm,
    Role,
    User,
    shard_of,
)
from .records import InteractionRecord, RecordedRequest, StoredMessage, UploadedFile
from .server import DiscordDouble, Hold
from .state import ApiError

__all__ = [
    "ALL_PERMISSIONS",
    "DEFAULT_BOT_PERMISSIONS",
    "DEFAULT_EVERYONE_PERMISSIONS",
    "OPT_ATTACHMENT",
    "OPT_BOOLEAN",
    "OPT_CHANNEL",
    "OPT_INTEGER",
    "OPT_MENTIONABLE",
    "OPT_NUMBER",
    "OPT_ROLE",
    "OPT_STRING",
    "OPT_USER",
    "ApiError",
    "Channel",
    "ChannelType",
    "DiscordDouble",
    "GatewayOp",
    "GatewaySession",
    "Guild",
    "Hold",
    "Intents",
    "InteractionRecord",
    "Member",
    "Perm",
    "RecordedRequest",
    "Role",
    "StoredMessage",
    "UploadedFile",
    "User",
    "shard_of",
]
