"""Notices as the outbox stores them: JSON, with any image inline (base64)."""

from __future__ import annotations

import base64
import json
from typing import Any

from bot.replies import Image, Notice, Reply
from engine.i18n import active


def _image(image: Image | None) -> dict[str, str] | None:
    if image is None:
        return None
    return {"data": base64.b64encode(image.data).decode(), "filename": image.filename, "description": image.description}


def _reply(data: dict[str, Any]) -> Reply:
    def image(item: dict[str, str] | None) -> Image | None:
        return None if item is None else Image(base64.b64decode(item["data"]), item["filename"], item["description"])

    return Reply(
        data["text"],
        image=image(data.get("image")),
        file=image(data.get("file")),
        mentions=tuple(data.get("mentions", ())),
        match_id=data.get("match_id"),
        game=data.get("game"),
        version=data.get("version"),
        actionable=bool(data.get("actionable")),
        answers=tuple(data.get("answers", ())),
        question=data.get("question"),
        setup=bool(data.get("setup")),
        rematch=bool(data.get("rematch")),
    )


def notice_now(guild_id: int, channel_id: int, reply: Reply, dm_user_ids: tuple[int, ...] = ()) -> Notice:
    """A notice written now, in the active language (set by whoever it addresses)."""
    return Notice(guild_id, channel_id, reply, dm_user_ids, active().locale)


def backup_notice(guild_id: int, channel_id: int, reply: Reply) -> Notice:
    """A front end's post kept in case it never goes out: its board is not stored (a picture per
    action would double what every action writes) but drawn again if the notice is ever posted."""
    from dataclasses import replace

    return Notice(guild_id, channel_id, replace(reply, image=None, announce=None, notice_ids=()), (),
                  active().locale, draw_board=reply.image is not None)  # fmt: skip


def notice_json(notice: Notice) -> str:
    reply = notice.reply
    return json.dumps({
        "guild_id": notice.guild_id,
        "channel_id": notice.channel_id,
        "dm_user_ids": list(notice.dm_user_ids),
        "locale": notice.locale,
        "draw_board": notice.draw_board,
        "kind": notice.kind,
        "reply": {
            "text": reply.text, "image": _image(reply.image), "file": _image(reply.file),
            "mentions": list(reply.mentions), "match_id": reply.match_id, "game": reply.game,
            "version": reply.version, "actionable": reply.actionable, "answers": list(reply.answers),
            "question": reply.question, "setup": reply.setup,
            "rematch": reply.rematch,
        },
    })  # fmt: skip


def notice_from_json(text: str) -> Notice:
    data = json.loads(text)
    return Notice(data["guild_id"], data["channel_id"], _reply(data["reply"]), tuple(data.get("dm_user_ids", ())),
                  str(data.get("locale") or "en"), bool(data.get("draw_board")),
                  str(data.get("kind") or ""))  # fmt: skip
