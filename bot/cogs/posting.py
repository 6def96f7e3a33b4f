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
    """Within Discord's message limit, cut at a line end so no mention is split (for short texts
    that should never be long, such as refusals; longer ones are posted as `pages`)."""
    if len(text) <= MESSAGE_LIMIT:
        return text
    return text[: MESSAGE_LIMIT - 2].rsplit("\n", 1)[0] + "\n…"


def pages(text: str, limit: int = MESSAGE_LIMIT) -> list[str]:
    """A text as messages within Discord's limit, nothing cut: split between paragraphs where it
    can, else between lines, else between words (a mention is one word, never split). Joined by
    line breaks (by spaces, where it had to split between words) the pages give the text back."""
    if len(text) <= limit:
        return [text]
    for separator in ("\n\n", "\n", " "):
        parts = text.split(separator)
        if len(parts) > 1 and all(len(part) <= limit for part in parts):
            break
    else:
        return [text[i : i + limit] for i in range(0, len(text), limit)]
    found: list[str] = []
    for part in parts:
        if found and len(found[-1]) + len(separator) + len(part) <= limit:
            found[-1] += separator + part
        else:
            found.append(part)
    # Joined back by "\n": a paragraph break keeps its blank line at the top of the next page.
    return [page if i == 0 or separator != "\n\n" else "\n" + page for i, page in enumerate(found)]


def refusal_text(message: str) -> str:
    text = message[:1].upper() + message[1:]
    return fit(text if text.endswith((".", "!", "?")) else text + ".")


async def send_to(
    channel: discord.abc.Messageable, reply: Reply, view: discord.ui.View | None = None, *, nonce: str | None = None
) -> discord.Message:
    """Post a reply in a channel (timer notices, a match's thread): a long one in several messages,
    the board and the buttons under the last; each page with a nonce of its own."""
    *first, last = pages(reply.text)
    mentions = mentions_of(reply)
    for number, page in enumerate(first, start=1):
        if nonce is None:
            await channel.send(page, allowed_mentions=mentions)
        else:
            await channel.send(page, allowed_mentions=mentions, nonce=f"{nonce}-{number}")
    text, files = last, files_of(reply)
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
    """Answer an interaction with a reply (as a response, or a followup if already answered); a
    long one continues in followups, its files and buttons under the last. Returns the id of the
    message that carries the files (the board)."""
    if interaction.response.is_done() or len(reply.text) > MESSAGE_LIMIT:
        return (await followup(interaction, reply, view=view, ephemeral=ephemeral)).id
    text, files, mentions = reply.text, files_of(reply), mentions_of(reply)
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
    """A further message after the interaction was answered (or deferred); a long one in several,
    the first as the answer if there was none yet."""
    *first, text = pages(reply.text)
    files, mentions = files_of(reply), mentions_of(reply)
    for page in first:
        if not interaction.response.is_done():
            await interaction.response.send_message(page, allowed_mentions=mentions, ephemeral=ephemeral)
        else:
            await interaction.followup.send(page, allowed_mentions=mentions, ephemeral=ephemeral)
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
