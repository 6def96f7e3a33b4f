"""What the double remembers: HTTP requests, uploaded files, messages, interactions."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

JSON = dict[str, Any]


@dataclass
class UploadedFile:
    """One ``files[n]`` multipart part, matched with its ``attachments`` entry."""

    field: str
    filename: str
    data: bytes
    content_type: str | None = None
    description: str | None = None
    # Index n from ``files[n]``; the payload's attachments refer to it as ``id``.
    index: int | None = None
    # Snowflake given once the file became a message attachment.
    attachment_id: int | None = None

    @property
    def size(self) -> int:
        return len(self.data)


@dataclass
class RecordedRequest:
    """One HTTP request the bot made, as the double saw and answered it."""

    seq: int
    method: str
    path: str
    # ``path`` with the ``/api/vN`` prefix stripped: what discord.py's Route.path looks like.
    route: str
    query: dict[str, str]
    headers: dict[str, str]
    json: Any = None
    files: list[UploadedFile] = field(default_factory=list)
    raw_body: bytes = b""
    status: int = 0
    response: Any = None
    aborted: bool = False  # the client went away before its body arrived (a killed process)
    known: bool = True

    def matches(self, method: str, pattern: str) -> bool:
        """``pattern`` is a regex matched against the whole ``route``."""
        return self.method == method.upper() and re.fullmatch(pattern, self.route) is not None

    def file(self, index: int = 0) -> UploadedFile:
        return self.files[index]

    def __repr__(self) -> str:  # compact: these end up in timeout messages
        return f"<{self.method} {self.route} -> {self.status}>"


@dataclass
class StoredMessage:
    """A message the double holds, in the exact shape it returned to the bot."""

    id: int
    channel_id: int
    payload: JSON
    # "channel" (POST /channels/x/messages), "interaction" (callback),
    # "followup" (webhook POST), "user" (injected by a test).
    source: str
    interaction_id: int | None = None
    ephemeral: bool = False
    deleted: bool = False
    files_by_id: dict[int, UploadedFile] = field(default_factory=dict)
    # Previous payloads, oldest first, so tests can see the edit history.
    history: list[JSON] = field(default_factory=list)

    @property
    def content(self) -> str:
        return str(self.payload.get("content") or "")

    @property
    def embeds(self) -> list[JSON]:
        return list(self.payload.get("embeds") or [])

    @property
    def components(self) -> list[JSON]:
        return list(self.payload.get("components") or [])

    @property
    def files(self) -> list[UploadedFile]:
        """Current attachments (after edits), in message order, with their bytes."""
        ids = [int(a["id"]) for a in self.payload.get("attachments") or []]
        return [self.files_by_id[i] for i in ids if i in self.files_by_id]

    def custom_ids(self) -> list[str]:
        """Every ``custom_id`` found in the message's component tree."""
        found: list[str] = []

        def walk(node: Any) -> None:
            if isinstance(node, dict):
                if isinstance(node.get("custom_id"), str):
                    found.append(node["custom_id"])
                for value in node.values():
                    walk(value)
            elif isinstance(node, list):
                for value in node:
                    walk(value)

        walk(self.components)
        return found


@dataclass
class InteractionRecord:
    """Everything tied to one interaction id/token: callback, followups, edits."""

    id: int
    token: str
    type: int
    payload: JSON
    channel_id: int | None
    guild_id: int | None
    callback: RecordedRequest | None = None
    # Callback plus every /webhooks/{app}/{token}... request, in arrival order.
    requests: list[RecordedRequest] = field(default_factory=list)
    original_message_id: int | None = None

    @property
    def response_type(self) -> int | None:
        if self.callback is None or not isinstance(self.callback.json, dict):
            return None
        return int(self.callback.json["type"])

    @property
    def response_data(self) -> JSON:
        """The ``data`` object of the callback (message fields, choices, modal...)."""
        if self.callback is None or not isinstance(self.callback.json, dict):
            return {}
        return dict(self.callback.json.get("data") or {})

    @property
    def followups(self) -> list[RecordedRequest]:
        return [r for r in self.requests if r.method == "POST" and r is not self.callback]

    @property
    def edits(self) -> list[RecordedRequest]:
        return [r for r in self.requests if r.method == "PATCH"]
