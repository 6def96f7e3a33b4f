"""Turning a service Reply into a Discord message: files with alt text, exact pings, and
the view (buttons) the caller built for it. Shared by the commands, the panel and timers."""

from __future__ import annotations

import io

import discord

from bot.replies import Reply
from bot.service import MatchService

MESSAGE_LIMIT = 2000


def files_of(reply: Reply) -> list[discord.File]:
    return [
        discord.File(io.BytesIO(item.data), filename=item.filename, description=item.description[:1024] or None)
        for item in (reply.image, reply.file)
        if item is not None
    ]


def mentions_of(reply: Reply) -> discord.AllowedMentions:
    """Ping exactly the players the reply names as next to act (or to answer)."""
    return discord.AllowedMentions(
        everyone=False, roles=False, replied_user=False, users=[discord.Object(uid) for uid in reply.mentions]
    )


def fit(text: str) -> str:
    """Within Discord's message limit, cut at a line end so no mention is split."""
    if len(text) <= MESSAGE_LIMIT:
        return text
    return text[: MESSAGE_LIMIT - 2].rsplit("\n", 1)[0] + "\n…"


def refusal_text(message: str) -> str:
    text = message[:1].upper() + message[1:]
    return fit(text if text.endswith((".", "!", "?")) else text + ".")


async def send_to(
    channel: discord.abc.Messageable, reply: Reply, view: discord.ui.View | None = None, *, nonce: str | None = None
) -> discord.Message:
    """Post a reply in a channel (timer notices, a match's thread)."""
    text, files, mentions = fit(reply.text), files_of(reply), mentions_of(reply)
    if view is None and nonce is None:
        return await channel.send(text, files=files, allowed_mentions=mentions)
    if view is None:
        return await channel.send(text, files=files, allowed_mentions=mentions, nonce=nonce or "")
    if nonce is None:
        return await channel.send(text, files=files, allowed_mentions=mentions, view=view)
    return await channel.send(text, files=files, allowed_mentions=mentions, view=view, nonce=nonce)


async def respond(
    interaction: discord.Interaction, reply: Reply, *, ephemeral: bool = False, view: discord.ui.View | None = None
) -> int | None:
    """Answer an interaction with a reply (as a response, or a followup if already answered).
    Returns the id of the message posted."""
    text, files, mentions = fit(reply.text), files_of(reply), mentions_of(reply)
    if interaction.response.is_done():
        return (await followup(interaction, reply, view=view, ephemeral=ephemeral)).id
    if view is None:
        response = await interaction.response.send_message(text, files=files, allowed_mentions=mentions,
                                                           ephemeral=ephemeral)  # fmt: skip
    else:
        response = await interaction.response.send_message(text, files=files, allowed_mentions=mentions,
                                                           ephemeral=ephemeral, view=view)  # fmt: skip
    return response.message_id if isinstance(response.message_id, int) else None


async def followup(
    interaction: discord.Interaction, reply: Reply, *, view: discord.ui.View | None = None, ephemeral: bool = False
) -> discord.WebhookMessage:
    """A further message after the interaction was answered (or deferred)."""
    text, files, mentions = fit(reply.text), files_of(reply), mentions_of(reply)
    if view is None:
        return await interaction.followup.send(text, files=files, allowed_mentions=mentions, ephemeral=ephemeral,
                                               wait=True)  # fmt: skip
    return await interaction.followup.send(text, files=files, allowed_mentions=mentions, ephemeral=ephemeral,
                                           view=view, wait=True)  # fmt: skip


async def remember_board(service: MatchService, reply: Reply, message_id: int | None) -> None:
    """A posted board becomes the match's latest (for links, and to point old buttons to it)."""
    if reply.image is not None and reply.match_id is not None and message_id:
        await service.remember_board_message(reply.match_id, message_id)


async def refuse(interaction: discord.Interaction, message: str) -> None:
    """A private refusal, whatever state the interaction is in."""
    await send_private(interaction, refusal_text(message))


async def send_private(interaction: discord.Interaction, text: str, view: discord.ui.View | None = None) -> None:
    if interaction.response.is_done():
        if view is None:
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.followup.send(text, ephemeral=True, view=view)
    elif view is None:
        await interaction.response.send_message(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True, view=view)
