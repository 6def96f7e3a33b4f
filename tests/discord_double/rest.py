"""HTTP API handlers: Discord API v10 routes that discord.py 2.x calls."""

from __future__ import annotations

import copy
import re
from collections.abc import Awaitable, Callable
from typing import Any

from .limits import COMMAND_CHARACTERS_MAX, command_characters
from .models import JSON, Channel, ChannelType, Guild, Perm, normalise_overwrite, now_iso
from .records import InteractionRecord, RecordedRequest, StoredMessage
from .state import (
    APP_FLAGS,
    MSG_FLAG_EPHEMERAL,
    MSG_FLAG_LOADING,
    ApiError,
    DoubleState,
    missing_permissions,
    unknown,
)

Reply = tuple[int, Any]
Handler = Callable[..., Awaitable[Reply]]

_SNOW = r"(\d+)"
_TOKEN = r"([^/]+)"
_NAME_RE = re.compile(r"^[-_\w]{1,32}$")
SESSION_START_TOTAL = 1000


def _truthy(value: str | None) -> bool:
    return value is not None and value.lower() in ("1", "true", "yes")


class RestApi(DoubleState):
    """Route table + handlers. Handlers return (status, json) or raise ApiError."""

    def _routes(self) -> list[tuple[str, re.Pattern[str], Handler]]:
        table: list[tuple[str, str, Handler]] = [
            ("GET", r"/gateway/bot", self._get_gateway_bot),
            ("GET", r"/gateway", self._get_gateway),
            ("GET", r"/users/@me", self._get_me),
            ("GET", r"/users/@me/guilds", self._get_my_guilds),
            ("POST", r"/users/@me/channels", self._create_dm),
            ("GET", rf"/users/{_SNOW}", self._get_user),
            ("GET", r"/oauth2/applications/@me", self._get_application),
            ("GET", r"/applications/@me", self._get_application),
            ("GET", rf"/applications/{_SNOW}/commands", self._list_commands),
            ("PUT", rf"/applications/{_SNOW}/commands", self._put_commands),
            ("POST", rf"/applications/{_SNOW}/commands", self._post_command),
            ("GET", rf"/applications/{_SNOW}/commands/{_SNOW}", self._get_command),
            ("PATCH", rf"/applications/{_SNOW}/commands/{_SNOW}", self._patch_command),
            ("DELETE", rf"/applications/{_SNOW}/commands/{_SNOW}", self._delete_command),
            ("GET", rf"/applications/{_SNOW}/guilds/{_SNOW}/commands/permissions", self._empty_list),
            ("GET", rf"/applications/{_SNOW}/guilds/{_SNOW}/commands", self._list_commands),
            ("PUT", rf"/applications/{_SNOW}/guilds/{_SNOW}/commands", self._put_commands),
            ("POST", rf"/applications/{_SNOW}/guilds/{_SNOW}/commands", self._post_command),
            ("GET", rf"/applications/{_SNOW}/guilds/{_SNOW}/commands/{_SNOW}", self._get_command),
            ("PATCH", rf"/applications/{_SNOW}/guilds/{_SNOW}/commands/{_SNOW}", self._patch_command),
            ("DELETE", rf"/applications/{_SNOW}/guilds/{_SNOW}/commands/{_SNOW}", self._delete_command),
            ("GET", rf"/applications/{_SNOW}/emojis", self._empty_items),
            ("GET", rf"/applications/{_SNOW}/entitlements", self._empty_list),
            ("GET", rf"/applications/{_SNOW}/skus", self._empty_list),
            ("POST", rf"/interactions/{_SNOW}/{_TOKEN}/callback", self._interaction_callback),
            ("POST", rf"/webhooks/{_SNOW}/{_TOKEN}", self._webhook_execute),
            ("GET", rf"/webhooks/{_SNOW}/{_TOKEN}/messages/(@original|\d+)", self._webhook_get_message),
            ("PATCH", rf"/webhooks/{_SNOW}/{_TOKEN}/messages/(@original|\d+)", self._webhook_edit_message),
            ("DELETE", rf"/webhooks/{_SNOW}/{_TOKEN}/messages/(@original|\d+)", self._webhook_delete_message),
            ("GET", rf"/channels/{_SNOW}", self._get_channel),
            ("PATCH", rf"/channels/{_SNOW}", self._edit_channel),
            ("DELETE", rf"/channels/{_SNOW}", self._delete_channel),
            ("GET", rf"/channels/{_SNOW}/messages", self._list_messages),
            ("POST", rf"/channels/{_SNOW}/messages", self._create_channel_message),
            ("POST", rf"/channels/{_SNOW}/messages/bulk-delete", self._bulk_delete),
            ("GET", rf"/channels/{_SNOW}/messages/{_SNOW}", self._get_message),
            ("PATCH", rf"/channels/{_SNOW}/messages/{_SNOW}", self._edit_channel_message),
            ("DELETE", rf"/channels/{_SNOW}/messages/{_SNOW}", self._delete_channel_message),
            ("PUT", rf"/channels/{_SNOW}/messages/{_SNOW}/reactions/[^/]+/@me", self._no_content),
            ("DELETE", rf"/channels/{_SNOW}/messages/{_SNOW}/reactions(/.*)?", self._no_content),
            ("PUT", rf"/channels/{_SNOW}/(?:messages/)?pins/{_SNOW}", self._no_content),
            ("DELETE", rf"/channels/{_SNOW}/(?:messages/)?pins/{_SNOW}", self._no_content),
            ("POST", rf"/channels/{_SNOW}/typing", self._no_content),
            ("PUT", rf"/channels/{_SNOW}/permissions/{_SNOW}", self._put_overwrite),
            ("DELETE", rf"/channels/{_SNOW}/permissions/{_SNOW}", self._delete_overwrite),
            ("POST", rf"/channels/{_SNOW}/threads", self._create_thread),
            ("POST", rf"/channels/{_SNOW}/messages/{_SNOW}/threads", self._create_thread),
            ("PUT", rf"/channels/{_SNOW}/thread-members/(@me|\d+)", self._no_content),
            ("DELETE", rf"/channels/{_SNOW}/thread-members/(@me|\d+)", self._no_content),
            ("GET", rf"/guilds/{_SNOW}", self._get_guild),
            ("GET", rf"/guilds/{_SNOW}/channels", self._list_guild_channels),
            ("POST", rf"/guilds/{_SNOW}/channels", self._create_guild_channel),
            ("GET", rf"/guilds/{_SNOW}/roles", self._list_roles),
            ("GET", rf"/guilds/{_SNOW}/members", self._list_members),
            ("GET", rf"/guilds/{_SNOW}/members/{_SNOW}", self._get_member),
            ("PUT", rf"/guilds/{_SNOW}/members/{_SNOW}/roles/{_SNOW}", self._add_member_role),
            ("DELETE", rf"/guilds/{_SNOW}/members/{_SNOW}/roles/{_SNOW}", self._remove_member_role),
        ]
        return [(method, re.compile(pattern), handler) for method, pattern, handler in table]

    # ---------------------------------------------------------------- lookups
    def _get_guild_or_404(self, guild_id: str) -> Guild:
        guild = self.guilds.get(int(guild_id))
        if guild is None:
            raise unknown("Guild", 10004)
        return guild

    def _get_channel_or_404(self, channel_id: str) -> Channel:
        channel = self.channels.get(int(channel_id))
        if channel is None:
            raise unknown("Channel", 10003)
        return channel

    def _get_message_or_404(self, channel: Channel, message_id: str) -> StoredMessage:
        message = self.messages.get(int(message_id))
        if message is None or message.deleted or message.channel_id != channel.id or message.ephemeral:
            raise unknown("Message", 10008)
        return message

    def _check_app(self, app_id: str) -> None:
        if int(app_id) != self.app_id:
            raise ApiError(403, "Missing Access", 50001)

    # ------------------------------------------------------------ misc routes
    async def _no_content(self, req: RecordedRequest, *_: str) -> Reply:
        return 204, None

    async def _empty_list(self, req: RecordedRequest, *_: str) -> Reply:
        return 200, []

    async def _empty_items(self, req: RecordedRequest, *_: str) -> Reply:
        return 200, {"items": []}

    async def _get_gateway(self, req: RecordedRequest) -> Reply:
        return 200, {"url": self.gateway_url}

    async def _get_gateway_bot(self, req: RecordedRequest) -> Reply:
        # Every IDENTIFY uses up one of the day's session starts, as on Discord.
        limit = {
            "total": SESSION_START_TOTAL,
            "remaining": max(0, SESSION_START_TOTAL - len(self.identify_payloads)),
            "reset_after": 14_400_000,
            "max_concurrency": self.max_concurrency,
        }
        return 200, {"url": self.gateway_url, "shards": self.shard_count, "session_start_limit": limit}

    def _me_payload(self) -> JSON:
        data = self.bot_user.to_payload()
        data.update({"verified": True, "mfa_enabled": False, "email": None, "locale": "en-US", "banner": None})
        return data

    async def _get_me(self, req: RecordedRequest) -> Reply:
        return 200, self._me_payload()

    async def _get_my_guilds(self, req: RecordedRequest) -> Reply:
        guilds = [
            {"id": str(g.id), "name": g.name, "icon": None, "owner": False, "permissions": "0", "features": []}
            for g in self.guilds.values()
        ]
        return 200, guilds

    async def _get_user(self, req: RecordedRequest, user_id: str) -> Reply:
        user = self.users.get(int(user_id))
        if user is None:
            raise unknown("User", 10013)
        return 200, user.to_payload()

    async def _create_dm(self, req: RecordedRequest) -> Reply:
        body = req.json or {}
        user = self.users.get(int(body.get("recipient_id", 0)))
        if user is None:
            raise unknown("User", 10013)
        return 200, self.dm_channel(user).to_payload()

    async def _get_application(self, req: RecordedRequest) -> Reply:
        return 200, {
            "id": str(self.app_id),
            "name": self.bot_user.username,
            "icon": None,
            "description": "",
            "summary": "",
            "type": None,
            "hook": True,
            "bot_public": True,
            "bot_require_code_grant": False,
            "verify_key": "0" * 64,
            "owner": self.owner.to_payload(),
            "flags": APP_FLAGS,
            "team": None,
            "rpc_origins": [],
            "redirect_uris": [],
            "interactions_endpoint_url": None,
            "tags": [],
            "bot": self.bot_user.to_payload(),
            "approximate_guild_count": len(self.guilds),
            "integration_types_config": {"0": {}},
        }

    # --------------------------------------------------------------- commands
    def _validate_command(self, body: Any) -> None:
        """The checks Discord documents that most often bite: names, descriptions, option order,
        unique option names, choices (at most 25, never with autocomplete), and the command's
        size (8000 characters, each field at its longest localisation: limits.py)."""
        if not isinstance(body, dict) or "name" not in body:
            raise ApiError(400, "Invalid Form Body (command must be an object with a name)", 50035)
        chat_input = int(body.get("type", 1)) == 1
        if chat_input and (size := command_characters(body)) > COMMAND_CHARACTERS_MAX:
            raise ApiError(400, f"Invalid Form Body (command: {size} characters, max {COMMAND_CHARACTERS_MAX})",
                           50035)  # fmt: skip

        def check(node: JSON, where: str) -> None:
            name = str(node.get("name", ""))
            if chat_input and (not _NAME_RE.match(name) or name != name.lower()):
                raise ApiError(400, f"Invalid Form Body ({where}.name {name!r} invalid)", 50035)
            description = str(node.get("description", ""))
            if chat_input and not 1 <= len(description) <= 100:
                raise ApiError(400, f"Invalid Form Body ({where}.description must be 1-100 chars)", 50035)
            options = node.get("options") or []
            if len(options) > 25:
                raise ApiError(400, f"Invalid Form Body ({where}.options: max 25)", 50035)
            names = [str(option.get("name", "")) for option in options]
            if len(names) != len(set(names)):
                raise ApiError(400, f"Invalid Form Body ({where}.options: names must be unique)", 50035)
            seen_optional = False
            for index, option in enumerate(options):
                if int(option.get("type", 0)) in (1, 2):
                    check(option, f"{where}.options.{index}")
                    continue
                if option.get("required"):
                    if seen_optional:
                        raise ApiError(400, f"Invalid Form Body ({where}: required options must come first)", 50035)
                else:
                    seen_optional = True
                if len(option.get("choices") or []) > 25:
                    raise ApiError(400, f"Invalid Form Body ({where}.options.{index}.choices: max 25)", 50035)
                if option.get("choices") and option.get("autocomplete"):
                    raise ApiError(400, f"Invalid Form Body ({where}.options.{index}: autocomplete may not be set "
                                        "with choices)", 50035)  # fmt: skip
                check(option, f"{where}.options.{index}")

        check(body, "command")

    def _command_payload(self, command_id: int, body: JSON, guild_id: int | None) -> JSON:
        permissions = body.get("default_member_permissions")
        data: JSON = {
            "id": str(command_id),
            "application_id": str(self.app_id),
            "version": str(self.ids.next()),
            "type": int(body.get("type", 1)),
            "name": body["name"],
            "name_localizations": body.get("name_localizations") or None,
            "description": body.get("description", ""),
            "description_localizations": body.get("description_localizations") or None,
            "default_member_permissions": None if permissions is None else str(permissions),
            "dm_permission": body.get("dm_permission", True),
            "contexts": body.get("contexts"),
            "integration_types": body.get("integration_types") or [0],
            "nsfw": bool(body.get("nsfw", False)),
        }
        if data["type"] == 1:
            data["options"] = copy.deepcopy(body.get("options") or [])
        if guild_id is not None:
            data["guild_id"] = str(guild_id)
        return data

    def _upsert(self, guild_id: int | None, body: JSON) -> tuple[bool, JSON]:
        self._validate_command(body)
        scope = self.commands.setdefault(guild_id, {})
        existing = next(
            (c for c in scope.values() if c["name"] == body["name"] and c["type"] == int(body.get("type", 1))),
            None,
        )
        command_id = int(existing["id"]) if existing else self.ids.next()
        command = self._command_payload(command_id, body, guild_id)
        scope[command_id] = command
        return existing is None, command

    def _guild_scope(self, req: RecordedRequest, groups: tuple[str, ...]) -> tuple[int | None, list[str]]:
        self._check_app(groups[0])
        if "/guilds/" in req.route:
            guild = self._get_guild_or_404(groups[1])
            return guild.id, list(groups[2:])
        return None, list(groups[1:])

    async def _list_commands(self, req: RecordedRequest, *groups: str) -> Reply:
        guild_id, _ = self._guild_scope(req, groups)
        return 200, copy.deepcopy(self.registered_commands(guild_id))

    async def _put_commands(self, req: RecordedRequest, *groups: str) -> Reply:
        guild_id, _ = self._guild_scope(req, groups)
        bodies = req.json if isinstance(req.json, list) else []
        if len(bodies) > 100:
            raise ApiError(400, "Invalid Form Body (max 100 commands)", 50035)
        for body in bodies:
            self._validate_command(body)
        old = self.commands.get(guild_id, {})
        self.commands[guild_id] = {}
        for body in bodies:
            # Discord keeps a command's id when a bulk overwrite re-sends the same name/type.
            previous = next(
                (c for c in old.values() if c["name"] == body["name"] and c["type"] == int(body.get("type", 1))),
                None,
            )
            command_id = int(previous["id"]) if previous else self.ids.next()
            self.commands[guild_id][command_id] = self._command_payload(command_id, body, guild_id)
        return 200, copy.deepcopy(self.registered_commands(guild_id))

    async def _post_command(self, req: RecordedRequest, *groups: str) -> Reply:
        guild_id, _ = self._guild_scope(req, groups)
        created, command = self._upsert(guild_id, req.json or {})
        return (201 if created else 200), copy.deepcopy(command)

    def _command_or_404(self, guild_id: int | None, command_id: str) -> JSON:
        command = self.commands.get(guild_id, {}).get(int(command_id))
        if command is None:
            raise unknown("application command", 10063)
        return command

    async def _get_command(self, req: RecordedRequest, *groups: str) -> Reply:
        guild_id, rest = self._guild_scope(req, groups)
        return 200, copy.deepcopy(self._command_or_404(guild_id, rest[0]))

    async def _patch_command(self, req: RecordedRequest, *groups: str) -> Reply:
        guild_id, rest = self._guild_scope(req, groups)
        command = self._command_or_404(guild_id, rest[0])
        body = {k: v for k, v in command.items() if k not in ("id", "application_id", "version", "guild_id")}
        body.update(req.json or {})
        self._validate_command(body)
        updated = self._command_payload(int(command["id"]), body, guild_id)
        self.commands[guild_id][int(command["id"])] = updated
        return 200, copy.deepcopy(updated)

    async def _delete_command(self, req: RecordedRequest, *groups: str) -> Reply:
        guild_id, rest = self._guild_scope(req, groups)
        self._command_or_404(guild_id, rest[0])
        del self.commands[guild_id][int(rest[0])]
        return 204, None

    # ----------------------------------------------------------- interactions
    def _interaction_or_404(self, interaction_id: str, token: str) -> InteractionRecord:
        record = self.interactions.get(int(interaction_id))
        if record is None or record.token != token:
            raise unknown("interaction", 10062)
        return record

    async def _interaction_callback(self, req: RecordedRequest, interaction_id: str, token: str) -> Reply:
        record = self._interaction_or_404(interaction_id, token)
        if record.callback is not None:
            raise ApiError(400, "Interaction has already been acknowledged.", 40060)
        body = req.json if isinstance(req.json, dict) else {}
        response_type = int(body.get("type", 0))
        data: JSON = body.get("data") or {}
        valid = {
            1: {1},
            2: {4, 5, 9, 10, 12},
            3: {4, 5, 6, 7, 9, 10, 12},
            4: {8},
            5: {4, 5, 6, 7, 10, 12},
        }.get(record.type, set())
        if response_type not in valid:
            raise ApiError(400, f"Interaction response type {response_type} is not valid for this interaction", 50035)
        if response_type == 8 and len(data.get("choices") or []) > 25:
            raise ApiError(400, "Invalid Form Body (choices: max 25)", 50035)
        component_message = self._interaction_message(record)
        if response_type in (6, 7) and component_message is None:
            raise ApiError(400, "Interaction has no message to update", 50035)
        self.check_content(data)

        record.callback = req
        record.requests.append(req)
        message: StoredMessage | None = None
        channel = self.channels.get(record.channel_id or 0)
        if response_type in (4, 5):
            if channel is None:
                raise unknown("Channel", 10003)
            body_for_message = data if response_type == 4 else {"flags": data.get("flags", 0)}
            message = self.create_message(
                channel,
                body_for_message,
                req.files,
                author=self.bot_user,
                source="interaction",
                interaction=record,
                extra_flags=MSG_FLAG_LOADING if response_type == 5 else 0,
            )
            record.original_message_id = message.id
            message.payload["interaction_metadata"] = self._interaction_metadata(record)
            await self.dispatch_message_event("MESSAGE_CREATE", message)
        elif response_type in (6, 7):
            assert component_message is not None
            record.original_message_id = component_message.id
            if response_type == 7:
                message = self.edit_message(component_message, data, req.files)
                await self.dispatch_message_event("MESSAGE_UPDATE", message)

        if not _truthy(req.query.get("with_response")):
            return 204, None
        # Shape of InteractionCallbackResponse that discord.py >= 2.5 parses.
        interaction: JSON = {
            "id": str(record.id),
            "type": record.type,
            "response_message_loading": response_type == 5,
            "response_message_ephemeral": bool(int(data.get("flags") or 0) & MSG_FLAG_EPHEMERAL),
        }
        if record.original_message_id is not None:
            interaction["response_message_id"] = str(record.original_message_id)
        reply: JSON = {"interaction": interaction}
        if message is not None:
            reply["resource"] = {"type": response_type, "message": copy.deepcopy(message.payload)}
        return 200, reply

    def _interaction_message(self, record: InteractionRecord) -> StoredMessage | None:
        raw = record.payload.get("message")
        if not raw:
            return None
        return self.messages.get(int(raw["id"]))

    def _webhook_interaction(self, app_id: str, token: str) -> InteractionRecord:
        record = self.interactions_by_token.get(token)
        # Until the interaction is acknowledged its webhook does not exist yet.
        if int(app_id) != self.app_id or record is None or record.callback is None:
            raise unknown("Webhook", 10015)
        return record

    def _webhook_message(self, record: InteractionRecord, message_ref: str) -> StoredMessage:
        message_id = record.original_message_id if message_ref == "@original" else int(message_ref)
        message = None if message_id is None else self.messages.get(message_id)
        if message is None or message.deleted:
            raise unknown("Message", 10008)
        owned = message.interaction_id == record.id or message.id == record.original_message_id
        if not owned:
            raise unknown("Message", 10008)
        return message

    async def _webhook_execute(self, req: RecordedRequest, app_id: str, token: str) -> Reply:
        record = self._webhook_interaction(app_id, token)
        record.requests.append(req)
        channel = self.channels.get(record.channel_id or 0)
        if channel is None:
            raise unknown("Channel", 10003)
        body = req.json if isinstance(req.json, dict) else {}
        if not (body.get("content") or body.get("embeds") or req.files or body.get("components") or body.get("poll")):
            raise ApiError(400, "Cannot send an empty message", 50006)
        message = self.create_message(
            channel, body, req.files, author=self.bot_user, source="followup", interaction=record
        )
        await self.dispatch_message_event("MESSAGE_CREATE", message)
        if _truthy(req.query.get("wait")):
            return 200, copy.deepcopy(message.payload)
        return 204, None

    async def _webhook_get_message(self, req: RecordedRequest, app_id: str, token: str, ref: str) -> Reply:
        record = self._webhook_interaction(app_id, token)
        record.requests.append(req)
        return 200, copy.deepcopy(self._webhook_message(record, ref).payload)

    async def _webhook_edit_message(self, req: RecordedRequest, app_id: str, token: str, ref: str) -> Reply:
        record = self._webhook_interaction(app_id, token)
        record.requests.append(req)
        message = self._webhook_message(record, ref)
        self.edit_message(message, req.json if isinstance(req.json, dict) else {}, req.files)
        await self.dispatch_message_event("MESSAGE_UPDATE", message)
        return 200, copy.deepcopy(message.payload)

    async def _webhook_delete_message(self, req: RecordedRequest, app_id: str, token: str, ref: str) -> Reply:
        record = self._webhook_interaction(app_id, token)
        record.requests.append(req)
        message = self._webhook_message(record, ref)
        message.deleted = True
        await self.dispatch_message_event("MESSAGE_DELETE", message)
        return 204, None

    # ----------------------------------------------------------------- channels
    async def _get_channel(self, req: RecordedRequest, channel_id: str) -> Reply:
        return 200, self._get_channel_or_404(channel_id).to_payload()

    def _require_manage(self, channel: Channel) -> None:
        perm = Perm.MANAGE_THREADS if channel.is_thread else Perm.MANAGE_CHANNELS
        # A thread's creator may edit it without MANAGE_THREADS.
        owner = channel.is_thread and channel.owner_id == self.bot_user.id
        self.require_channel_perms(channel, Perm.VIEW_CHANNEL | (0 if owner else perm))

    async def _edit_channel(self, req: RecordedRequest, channel_id: str) -> Reply:
        channel = self._get_channel_or_404(channel_id)
        self._require_manage(channel)
        body = req.json or {}
        for key in ("name", "topic", "position", "nsfw", "rate_limit_per_user"):
            if key in body:
                setattr(channel, key, body[key])
        if "parent_id" in body:
            channel.parent_id = None if body["parent_id"] is None else int(body["parent_id"])
        if "permission_overwrites" in body:
            channel.permission_overwrites = [normalise_overwrite(o) for o in body["permission_overwrites"] or []]
        if channel.is_thread and channel.thread_metadata is not None:
            for key in ("archived", "locked", "auto_archive_duration", "invitable"):
                if key in body:
                    channel.thread_metadata[key] = body[key]
        await self.dispatch_channel_event("THREAD_UPDATE" if channel.is_thread else "CHANNEL_UPDATE", channel)
        return 200, channel.to_payload()

    async def _delete_channel(self, req: RecordedRequest, channel_id: str) -> Reply:
        channel = self._get_channel_or_404(channel_id)
        self._require_manage(channel)
        guild = self._guild_of(channel)
        if guild is not None:
            guild.channels.pop(channel.id, None)
        del self.channels[channel.id]
        await self.dispatch_channel_event("THREAD_DELETE" if channel.is_thread else "CHANNEL_DELETE", channel)
        return 200, channel.to_payload()

    async def _put_overwrite(self, req: RecordedRequest, channel_id: str, target: str) -> Reply:
        channel = self._get_channel_or_404(channel_id)
        self.require_channel_perms(channel, Perm.VIEW_CHANNEL | Perm.MANAGE_ROLES)
        body = dict(req.json or {})
        body["id"] = target
        channel.permission_overwrites = [o for o in channel.permission_overwrites if o["id"] != target]
        channel.permission_overwrites.append(normalise_overwrite(body))
        await self.dispatch_channel_event("CHANNEL_UPDATE", channel)
        return 204, None

    async def _delete_overwrite(self, req: RecordedRequest, channel_id: str, target: str) -> Reply:
        channel = self._get_channel_or_404(channel_id)
        self.require_channel_perms(channel, Perm.VIEW_CHANNEL | Perm.MANAGE_ROLES)
        channel.permission_overwrites = [o for o in channel.permission_overwrites if o["id"] != target]
        await self.dispatch_channel_event("CHANNEL_UPDATE", channel)
        return 204, None

    async def _create_thread(self, req: RecordedRequest, channel_id: str, message_id: str | None = None) -> Reply:
        parent = self._get_channel_or_404(channel_id)
        body = req.json or {}
        thread_type = ChannelType.PUBLIC_THREAD if message_id else int(body.get("type", ChannelType.PRIVATE_THREAD))
        needed = Perm.CREATE_PUBLIC_THREADS if thread_type == ChannelType.PUBLIC_THREAD else Perm.CREATE_PRIVATE_THREADS
        self.require_channel_perms(parent, Perm.VIEW_CHANNEL | needed)
        if message_id is not None:
            self._get_message_or_404(parent, message_id)
        thread = Channel(
            # Threads started from a message reuse the message's id.
            id=int(message_id) if message_id else self.ids.next(),
            type=thread_type,
            name=str(body.get("name", "thread")),
            guild_id=parent.guild_id,
            parent_id=parent.id,
            owner_id=self.bot_user.id,
            rate_limit_per_user=int(body.get("rate_limit_per_user") or 0),
            thread_metadata={
                "archived": False,
                "auto_archive_duration": int(body.get("auto_archive_duration") or 4320),
                "archive_timestamp": now_iso(),
                "locked": False,
                "invitable": bool(body.get("invitable", True)),
                "create_timestamp": now_iso(),
            },
        )
        guild = self._guild_of(parent)
        if guild is not None:
            guild.channels[thread.id] = thread
        self.channels[thread.id] = thread
        await self.dispatch_channel_event("THREAD_CREATE", thread)
        return 201, thread.to_payload()

    # ----------------------------------------------------------------- messages
    async def _list_messages(self, req: RecordedRequest, channel_id: str) -> Reply:
        channel = self._get_channel_or_404(channel_id)
        self.require_channel_perms(channel, Perm.VIEW_CHANNEL | Perm.READ_MESSAGE_HISTORY)
        limit = max(1, min(100, int(req.query.get("limit", 50))))
        found = [m for m in self.channel_messages(channel.id)]
        if "before" in req.query:
            found = [m for m in found if m.id < int(req.query["before"])]
        if "after" in req.query:
            found = [m for m in found if m.id > int(req.query["after"])]
            found = found[:limit]
        found.sort(key=lambda m: m.id, reverse=True)
        return 200, [copy.deepcopy(m.payload) for m in found[:limit]]

    def channel_messages(
        self, channel_id: int | Channel, *, include_ephemeral: bool = False, include_deleted: bool = False
    ) -> list[StoredMessage]:
        """Messages in a channel, oldest first, as a member would see them (plus opt-ins)."""
        cid = self._channel_id(channel_id)
        return sorted(
            (
                m
                for m in self.messages.values()
                if m.channel_id == cid and (include_ephemeral or not m.ephemeral) and (include_deleted or not m.deleted)
            ),
            key=lambda m: m.id,
        )

    async def _get_message(self, req: RecordedRequest, channel_id: str, message_id: str) -> Reply:
        channel = self._get_channel_or_404(channel_id)
        self.require_channel_perms(channel, Perm.VIEW_CHANNEL | Perm.READ_MESSAGE_HISTORY)
        return 200, copy.deepcopy(self._get_message_or_404(channel, message_id).payload)

    async def _create_channel_message(self, req: RecordedRequest, channel_id: str) -> Reply:
        channel = self._get_channel_or_404(channel_id)
        send = Perm.SEND_MESSAGES_IN_THREADS if channel.is_thread else Perm.SEND_MESSAGES
        needed = Perm.VIEW_CHANNEL | send | (Perm.ATTACH_FILES if req.files else 0)
        self.require_channel_perms(channel, needed)
        body = req.json if isinstance(req.json, dict) else {}
        if not (body.get("content") or body.get("embeds") or req.files or body.get("components") or body.get("poll")):
            raise ApiError(400, "Cannot send an empty message", 50006)
        self.check_content(body)
        earlier = self.message_by_nonce(self.bot_user.id, body)
        if earlier is not None:  # a repeat: the earlier message comes back, nothing is created
            return 200, copy.deepcopy(earlier.payload)
        message = self.create_message(channel, body, req.files, author=self.bot_user, source="channel")
        await self.dispatch_message_event("MESSAGE_CREATE", message)
        return 200, copy.deepcopy(message.payload)

    async def _edit_channel_message(self, req: RecordedRequest, channel_id: str, message_id: str) -> Reply:
        channel = self._get_channel_or_404(channel_id)
        message = self._get_message_or_404(channel, message_id)
        if int(message.payload["author"]["id"]) != self.bot_user.id or "webhook_id" in message.payload:
            raise ApiError(403, "Cannot edit a message authored by another user", 50005)
        self.edit_message(message, req.json if isinstance(req.json, dict) else {}, req.files)
        await self.dispatch_message_event("MESSAGE_UPDATE", message)
        return 200, copy.deepcopy(message.payload)

    async def _delete_channel_message(self, req: RecordedRequest, channel_id: str, message_id: str) -> Reply:
        channel = self._get_channel_or_404(channel_id)
        message = self._get_message_or_404(channel, message_id)
        own = int(message.payload["author"]["id"]) == self.bot_user.id
        self.require_channel_perms(channel, Perm.VIEW_CHANNEL | (0 if own else Perm.MANAGE_MESSAGES))
        message.deleted = True
        await self.dispatch_message_event("MESSAGE_DELETE", message)
        return 204, None

    async def _bulk_delete(self, req: RecordedRequest, channel_id: str) -> Reply:
        channel = self._get_channel_or_404(channel_id)
        self.require_channel_perms(channel, Perm.VIEW_CHANNEL | Perm.MANAGE_MESSAGES)
        for raw in (req.json or {}).get("messages", []):
            message = self.messages.get(int(raw))
            if message is not None and message.channel_id == channel.id:
                message.deleted = True
                await self.dispatch_message_event("MESSAGE_DELETE", message)
        return 204, None

    # ------------------------------------------------------------------- guilds
    async def _get_guild(self, req: RecordedRequest, guild_id: str) -> Reply:
        guild = self._get_guild_or_404(guild_id)
        data = guild.to_payload()
        if _truthy(req.query.get("with_counts")):
            data["approximate_member_count"] = len(guild.members)
            data["approximate_presence_count"] = 0
        return 200, data

    async def _list_guild_channels(self, req: RecordedRequest, guild_id: str) -> Reply:
        guild = self._get_guild_or_404(guild_id)
        return 200, [c.to_payload() for c in guild.channels.values() if not c.is_thread]

    async def _create_guild_channel(self, req: RecordedRequest, guild_id: str) -> Reply:
        guild = self._get_guild_or_404(guild_id)
        if not self.bot_has_guild_perm(guild, Perm.MANAGE_CHANNELS):
            raise missing_permissions()
        body = req.json or {}
        name = str(body.get("name") or "")
        if not 1 <= len(name) <= 100:
            raise ApiError(400, "Invalid Form Body (name must be 1-100 chars)", 50035)
        channel = self.add_channel(
            name,
            guild=guild,
            type=int(body.get("type", ChannelType.GUILD_TEXT)),
            parent=None if body.get("parent_id") is None else int(body["parent_id"]),
            topic=body.get("topic"),
            overwrites=body.get("permission_overwrites") or [],
        )
        channel.nsfw = bool(body.get("nsfw", False))
        channel.rate_limit_per_user = int(body.get("rate_limit_per_user") or 0)
        if body.get("position") is not None:
            channel.position = int(body["position"])
        await self.dispatch_channel_event("CHANNEL_CREATE", channel)
        return 201, channel.to_payload()

    async def _list_roles(self, req: RecordedRequest, guild_id: str) -> Reply:
        guild = self._get_guild_or_404(guild_id)
        return 200, [r.to_payload() for r in guild.roles.values()]

    async def _list_members(self, req: RecordedRequest, guild_id: str) -> Reply:
        guild = self._get_guild_or_404(guild_id)
        limit = max(1, min(1000, int(req.query.get("limit", 1))))
        after = int(req.query.get("after", 0))
        members = sorted((m for m in guild.members.values() if m.id > after), key=lambda m: m.id)
        return 200, [m.to_payload() for m in members[:limit]]

    async def _get_member(self, req: RecordedRequest, guild_id: str, user_id: str) -> Reply:
        guild = self._get_guild_or_404(guild_id)
        member = guild.members.get(int(user_id))
        if member is None:
            raise unknown("Member", 10007)
        return 200, member.to_payload()

    async def _member_role(self, guild_id: str, user_id: str, role_id: str, add: bool) -> Reply:
        guild = self._get_guild_or_404(guild_id)
        member = guild.members.get(int(user_id))
        if member is None:
            raise unknown("Member", 10007)
        if int(role_id) not in guild.roles:
            raise unknown("Role", 10011)
        if not self.bot_has_guild_perm(guild, Perm.MANAGE_ROLES):
            raise missing_permissions()
        role = int(role_id)
        if add and role not in member.roles:
            member.roles.append(role)
        elif not add and role in member.roles:
            member.roles.remove(role)
        await self.dispatch_member_update(member)
        return 204, None

    async def _add_member_role(self, req: RecordedRequest, guild_id: str, user_id: str, role_id: str) -> Reply:
        return await self._member_role(guild_id, user_id, role_id, add=True)

    async def _remove_member_role(self, req: RecordedRequest, guild_id: str, user_id: str, role_id: str) -> Reply:
        return await self._member_role(guild_id, user_id, role_id, add=False)
