"""Builders for INTERACTION_CREATE payloads shaped exactly like Discord's."""

from __future__ import annotations

import copy
import secrets
from collections.abc import Mapping
from typing import Any

from .models import JSON, Channel, Member, Role, User
from .records import UploadedFile
from .state import ChannelLike, DoubleState, UserLike

ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024

# Application command option types.
OPT_SUB_COMMAND = 1
OPT_SUB_COMMAND_GROUP = 2
OPT_STRING = 3
OPT_INTEGER = 4
OPT_BOOLEAN = 5
OPT_USER = 6
OPT_CHANNEL = 7
OPT_ROLE = 8
OPT_MENTIONABLE = 9
OPT_NUMBER = 10
OPT_ATTACHMENT = 11


def _infer_type(value: Any) -> int:
    # bool before int: bool is an int subclass.
    if isinstance(value, bool):
        return OPT_BOOLEAN
    if isinstance(value, int):
        return OPT_INTEGER
    if isinstance(value, float):
        return OPT_NUMBER
    if isinstance(value, User | Member):
        return OPT_USER
    if isinstance(value, Channel):
        return OPT_CHANNEL
    if isinstance(value, Role):
        return OPT_ROLE
    if isinstance(value, UploadedFile):
        return OPT_ATTACHMENT
    return OPT_STRING


class InteractionBuilders(DoubleState):
    """``slash_command`` / ``autocomplete`` / ``component`` / ``modal_submit`` payload makers."""

    def _base_interaction(
        self,
        type: int,
        user: UserLike,
        channel: ChannelLike | None,
        data: JSON,
        *,
        locale: str = "en-US",
        message: JSON | None = None,
    ) -> JSON:
        who = self._user(user)
        where = self._channel(channel)
        interaction_id = self.ids.next()
        payload: JSON = {
            "id": str(interaction_id),
            "application_id": str(self.app_id),
            "type": type,
            "data": data,
            "token": f"itok.{interaction_id}.{secrets.token_urlsafe(16)}",
            "version": 1,
            "locale": locale,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
            "channel_id": str(where.id),
        }
        guild = self._guild_of(where)
        channel_payload = where.to_payload()
        if guild is not None:
            member = guild.members.get(who.id)
            if member is None:
                raise ValueError(f"{who.username} is not a member of {guild.name}; use add_user(..., guild=...)")
            user_perms = guild.channel_permissions(who.id, where)
            channel_payload["permissions"] = str(user_perms)
            payload.update(
                {
                    "guild_id": str(guild.id),
                    "guild_locale": guild.locale,
                    "guild": {"id": str(guild.id), "locale": guild.locale, "features": []},
                    "member": member.to_payload(permissions=user_perms),
                    "app_permissions": str(guild.channel_permissions(self.bot_user.id, where)),
                    "authorizing_integration_owners": {"0": str(guild.id)},
                    "context": 0,
                }
            )
        else:
            payload.update(
                {
                    "user": who.to_payload(),
                    "app_permissions": str(self.everyone_permissions),
                    "authorizing_integration_owners": {"0": "0"},
                    "context": 1,
                }
            )
        payload["channel"] = channel_payload
        if message is not None:
            payload["message"] = message
        return payload

    # --------------------------------------------------------- option encoding
    def _leaf_schema(self, command: JSON | None, group: str | None, subcommand: str | None) -> dict[str, JSON] | None:
        if command is None:
            return None
        options: list[JSON] = command.get("options") or []
        for wanted, kind in ((group, OPT_SUB_COMMAND_GROUP), (subcommand, OPT_SUB_COMMAND)):
            if wanted is None:
                continue
            node = next((o for o in options if o["name"] == wanted and int(o["type"]) == kind), None)
            if node is None:
                raise ValueError(f"/{command['name']} has no {'group' if kind == 2 else 'subcommand'} {wanted!r}")
            options = node.get("options") or []
        return {o["name"]: o for o in options}

    def _encode_value(self, kind: int, value: Any, resolved: JSON, guild_id: int | None) -> Any:
        if kind == OPT_STRING:
            return str(value)
        if kind == OPT_INTEGER:
            return int(value)
        if kind == OPT_BOOLEAN:
            return bool(value)
        if kind == OPT_NUMBER:
            return float(value)
        if kind in (OPT_USER, OPT_MENTIONABLE) and not isinstance(value, Role):
            user = self._user(value)
            resolved.setdefault("users", {})[str(user.id)] = user.to_payload()
            guild = None if guild_id is None else self.guilds.get(guild_id)
            if guild is not None and user.id in guild.members:
                perms = guild.base_permissions(user.id)
                member = guild.members[user.id].to_payload(with_user=False, permissions=perms)
                resolved.setdefault("members", {})[str(user.id)] = member
            return str(user.id)
        if kind in (OPT_ROLE, OPT_MENTIONABLE):
            role = value if isinstance(value, Role) else self._find_role(int(value), guild_id)
            resolved.setdefault("roles", {})[str(role.id)] = role.to_payload()
            return str(role.id)
        if kind == OPT_CHANNEL:
            channel = self._channel(value)
            data = {
                "id": str(channel.id),
                "name": channel.name,
                "type": channel.type,
                "permissions": str(self.everyone_permissions),
                "parent_id": None if channel.parent_id is None else str(channel.parent_id),
            }
            if channel.is_thread:
                data["thread_metadata"] = dict(channel.thread_metadata or {})
            resolved.setdefault("channels", {})[str(channel.id)] = data
            return str(channel.id)
        if kind == OPT_ATTACHMENT:
            if not isinstance(value, UploadedFile):
                raise TypeError("attachment options take an UploadedFile(field=..., filename=..., data=...)")
            upload = self._register_upload(copy.copy(value))
            channel_id = self.channel.id
            resolved.setdefault("attachments", {})[str(upload.attachment_id)] = self._attachment_payload(
                channel_id, upload, ephemeral=True
            )
            return str(upload.attachment_id)
        raise ValueError(f"unsupported option type {kind}")

    def _find_role(self, role_id: int, guild_id: int | None) -> Role:
        guild = self.guilds.get(guild_id or self.guild.id)
        if guild is None or role_id not in guild.roles:
            raise ValueError(f"unknown role id {role_id}")
        return guild.roles[role_id]

    def _encode_options(
        self,
        values: Mapping[str, Any],
        schema: dict[str, JSON] | None,
        guild_id: int | None,
        *,
        focused: str | None = None,
    ) -> tuple[list[JSON], JSON]:
        options: list[JSON] = []
        resolved: JSON = {}
        if schema is not None:
            unknown = set(values) - set(schema)
            if unknown:
                raise ValueError(f"options {sorted(unknown)} not in the command the bot registered ({sorted(schema)})")
            missing = [n for n, o in schema.items() if o.get("required") and n not in values]
            if missing and focused is None:
                raise ValueError(f"required options missing: {missing}")
        for name, value in values.items():
            kind = int(schema[name]["type"]) if schema is not None else _infer_type(value)
            option: JSON = {"name": name, "type": kind}
            if name == focused:
                # Autocomplete sends what the user has typed so far, verbatim.
                option["value"] = value if isinstance(value, str) else str(value)
                option["focused"] = True
            else:
                option["value"] = self._encode_value(kind, value, resolved, guild_id)
            options.append(option)
        return options, resolved

    def _command_data(
        self,
        channel: ChannelLike | None,
        name: str,
        subcommand: str | None,
        options: Mapping[str, Any] | None,
        group: str | None,
        focused: str | None,
    ) -> JSON:
        where = self._channel(channel)
        guild_id = where.guild_id
        command = self.find_command(name, guild_id)
        schema = self._leaf_schema(command, group, subcommand)
        encoded, resolved = self._encode_options(options or {}, schema, guild_id, focused=focused)
        tree: list[JSON] = encoded
        if subcommand is not None:
            tree = [{"type": OPT_SUB_COMMAND, "name": subcommand, "options": tree}]
        if group is not None:
            tree = [{"type": OPT_SUB_COMMAND_GROUP, "name": group, "options": tree}]
        # Fall back to a fresh id if the bot never registered the command (Discord would
        # never send that, but it keeps builder-only unit tests possible).
        command_id = int(command["id"]) if command else self.ids.next()
        data: JSON = {"id": str(command_id), "name": name, "type": 1, "options": tree}
        if resolved:
            data["resolved"] = resolved
        if command is not None and command.get("guild_id"):
            data["guild_id"] = command["guild_id"]
        return data

    # ------------------------------------------------------------- public API
    def slash_command(
        self,
        user: UserLike,
        channel: ChannelLike | None,
        name: str,
        subcommand: str | None = None,
        options: Mapping[str, Any] | None = None,
        *,
        group: str | None = None,
        locale: str = "en-US",
    ) -> JSON:
        """APPLICATION_COMMAND (type 2) payload for ``/name [group] [subcommand] opt:value``.

        Option types come from what the bot registered (PUT commands), so
        ``{"opponent": bob}`` becomes a USER option with resolved user+member.
        ``channel=None`` means the default channel.
        """
        data = self._command_data(channel, name, subcommand, options, group, None)
        return self._base_interaction(2, user, channel, data, locale=locale)

    def autocomplete(
        self,
        user: UserLike,
        channel: ChannelLike | None,
        name: str,
        subcommand: str | None,
        options: Mapping[str, Any],
        focused: str,
        *,
        group: str | None = None,
        locale: str = "en-US",
    ) -> JSON:
        """APPLICATION_COMMAND_AUTOCOMPLETE (type 4); ``options[focused]`` is the partial text."""
        if focused not in options:
            raise ValueError(f"focused option {focused!r} must be present in options")
        data = self._command_data(channel, name, subcommand, options, group, focused)
        return self._base_interaction(4, user, channel, data, locale=locale)

    def component(
        self,
        user: UserLike,
        channel: ChannelLike | None,
        message_id: int,
        custom_id: str,
        values: list[str] | None = None,
        component_type: int = 2,
        *,
        locale: str = "en-US",
    ) -> JSON:
        """MESSAGE_COMPONENT (type 3): a button click (2) or select (3, 5-8) on a stored message."""
        message = self.messages.get(int(message_id))
        if message is None:
            raise ValueError(f"message {message_id} was never sent through the double")
        if channel is None:
            channel = message.channel_id
        data: JSON = {"custom_id": custom_id, "component_type": component_type}
        if component_type != 2:
            data["values"] = list(values or [])
        return self._base_interaction(3, user, channel, data, locale=locale, message=copy.deepcopy(message.payload))

    def modal_submit(
        self,
        user: UserLike,
        channel: ChannelLike | None,
        custom_id: str,
        values: Mapping[str, str],
        *,
        message_id: int | None = None,
        locale: str = "en-US",
    ) -> JSON:
        """MODAL_SUBMIT (type 5); ``values`` maps text-input custom_id -> typed text."""
        rows = [
            {"type": 1, "components": [{"type": 4, "custom_id": key, "value": value}]} for key, value in values.items()
        ]
        data: JSON = {"custom_id": custom_id, "components": rows}
        message = None
        if message_id is not None:
            stored = self.messages.get(int(message_id))
            if stored is None:
                raise ValueError(f"message {message_id} was never sent through the double")
            message = copy.deepcopy(stored.payload)
        return self._base_interaction(5, user, channel, data, locale=locale, message=message)
