"""The action panel under each board post: buttons, then select menus listing only
legal choices. Items are dynamic (their custom ids carry the match and the board
version), so they keep working after a restart, and a press on an old board is caught."""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from typing import Any

import discord

from bot import suggestions
from bot.cogs.posting import message_link, post_reply, refusal_text, send_private
from bot.errors import OutdatedBoard, ServiceError
from bot.inflight import tracked
from bot.service import MatchService
from engine.nika import Direction

log = logging.getLogger(__name__)

BUTTONS: dict[str, tuple[str, discord.ButtonStyle]] = {
    "move": ("Move", discord.ButtonStyle.primary),
    "rotate": ("Rotate", discord.ButtonStyle.primary),
    "advance": ("Advance", discord.ButtonStyle.primary),
    "rally": ("Rally", discord.ButtonStyle.secondary),
    "pass": ("Pass", discord.ButtonStyle.secondary),
    "undo": ("Undo", discord.ButtonStyle.danger),
}
ANSWERS: dict[str, tuple[str, discord.ButtonStyle]] = {
    "draw_accept": ("Accept the draw", discord.ButtonStyle.success),
    "draw_decline": ("Decline", discord.ButtonStyle.danger),
    "concede": ("Concede", discord.ButtonStyle.secondary),
    "challenge": ("Challenge — play on", discord.ButtonStyle.primary),
}
FIRST_STEP = {
    "move": ("Which piece moves?", suggestions.movable_pieces, "No piece of yours can move right now."),
    # Largest formations first: a menu holds 25 choices, and big phalanxes matter most.
    "rotate": ("Which piece or phalanx turns?", suggestions.groups_largest_first, "Nothing of yours can turn."),
    "advance": ("Which phalanx advances?", suggestions.formations_largest_first, "No phalanx can advance now."),
    "rally": ("Rally onto which square?", suggestions.rally_squares, "You have nothing to rally, or no room."),
}


def service_of(interaction: discord.Interaction) -> MatchService:
    service = getattr(interaction.client, "service", None)
    if not isinstance(service, MatchService):
        raise RuntimeError("the bot has no match service")
    return service


def panel_view(match_id: int, board: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for kind in BUTTONS:
        view.add_item(PanelButton(match_id, board, kind))
    return view


def answer_view(match_id: int, question: int, kinds: Sequence[str]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for kind in kinds:
        view.add_item(AnswerButton(match_id, question, kind))
    return view


async def _refuse(interaction: discord.Interaction, error: ServiceError, *, picker: bool = False) -> None:
    """Privately: in the picker a player was using, or as a new private message."""
    text = refusal_text(str(error))
    if isinstance(error, OutdatedBoard) and error.message_id:
        text += f" The latest board: {message_link(error.guild_id, error.channel_id, error.message_id)}"
    if picker:
        await interaction.edit_original_response(content=f"✗ {text}", view=None)
    else:
        await send_private(interaction, text)


async def _play(interaction: discord.Interaction, match_id: int, board: int, action: str, *, picker: bool) -> None:
    # Acknowledge first: committing and drawing the board may outlast Discord's 3 s window.
    await interaction.response.defer()
    service = service_of(interaction)
    guild, channel, user = interaction.guild_id or 0, interaction.channel_id or 0, interaction.user.id
    try:
        await service.panel_actions(channel, match_id, board, user)
        if action == "undo":
            reply = await service.undo(guild, channel, user, expected_version=board)
        else:
            reply = await service.act(guild, channel, user, action, expected_version=board)
    except ServiceError as error:
        await _refuse(interaction, error, picker=picker)
        return
    if picker:  # close the private picker, then post the board for everyone
        await interaction.edit_original_response(content=f"Played: `{action}`", view=None)
    await post_reply(interaction, service, reply)


class PanelButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"nika:p:(?P<match>\d+):(?P<board>\d+):(?P<kind>move|rotate|advance|rally|pass|undo)",
):
    def __init__(self, match_id: int, board: int, kind: str) -> None:
        label, style = BUTTONS[kind]
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"nika:p:{match_id}:{board}:{kind}"))
        self.match_id, self.board, self.kind = match_id, board, kind

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button[Any], match: re.Match[str], /
    ) -> PanelButton:
        return cls(int(match["match"]), int(match["board"]), match["kind"])

    @tracked
    async def callback(self, interaction: discord.Interaction) -> None:
        if self.kind in ("pass", "undo"):
            await _play(interaction, self.match_id, self.board, self.kind, picker=False)
            return
        try:
            legal = await service_of(interaction).panel_actions(
                interaction.channel_id or 0, self.match_id, self.board, interaction.user.id
            )
        except ServiceError as error:
            await _refuse(interaction, error)
            return
        question, choose, none_text = FIRST_STEP[self.kind]
        choices = choose(legal, "")
        if not choices:
            await interaction.response.send_message(none_text, ephemeral=True)
            return
        view = discord.ui.View(timeout=None)
        view.add_item(PickSelect(self.match_id, self.board, self.kind, None, choices, question))
        await interaction.response.send_message(question, view=view, ephemeral=True)


class PickSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"nika:s:(?P<match>\d+):(?P<board>\d+):(?P<verb>move|rotate|advance|rally)(?::(?P<chosen>[a-u0-9,]+))?",
):
    def __init__(
        self,
        match_id: int,
        board: int,
        verb: str,
        chosen: str | None,
        choices: Sequence[tuple[str, str]] = (),
        placeholder: str | None = None,
    ) -> None:
        custom_id = f"nika:s:{match_id}:{board}:{verb}" + (f":{chosen}" if chosen else "")
        options = [discord.SelectOption(label=label[:100], value=value[:100]) for label, value in choices[:25]]
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=custom_id, placeholder=(placeholder or "Choose")[:150], options=options or [_placeholder()]
        )
        super().__init__(select)
        self.match_id, self.board, self.verb, self.chosen = match_id, board, verb, chosen

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select[Any], match: re.Match[str], /
    ) -> PickSelect:
        return cls(int(match["match"]), int(match["board"]), match["verb"], match["chosen"])

    @tracked
    async def callback(self, interaction: discord.Interaction) -> None:
        value = self.item.values[0]
        if self.verb == "advance":
            await _play(interaction, self.match_id, self.board, f"advance {value}", picker=True)
        elif self.chosen is not None:
            await _play(interaction, self.match_id, self.board, f"{self.verb} {self.chosen} {value}", picker=True)
        else:
            await self._ask_direction(interaction, value)

    async def _ask_direction(self, interaction: discord.Interaction, chosen: str) -> None:
        try:
            legal = await service_of(interaction).panel_actions(
                interaction.channel_id or 0, self.match_id, self.board, interaction.user.id
            )
        except ServiceError as error:
            await interaction.response.defer()
            await _refuse(interaction, error, picker=True)
            return
        if self.verb == "move":
            choices, question = suggestions.move_directions(legal, chosen, ""), f"Move {chosen} which way?"
        elif self.verb == "rotate":
            choices, question = suggestions.rotate_facings(legal, chosen, ""), f"Turn {chosen} to face…"
        else:
            choices = [(f"{d.word} ({d.letter})", d.letter) for d in Direction]
            question = f"The piece rallied on {chosen} faces…"
        view = discord.ui.View(timeout=None)
        view.add_item(PickSelect(self.match_id, self.board, self.verb, chosen, choices, question))
        await interaction.response.edit_message(content=question, view=view)


class AnswerButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"nika:a:(?P<match>\d+):(?P<question>\d+):(?P<kind>draw_accept|draw_decline|concede|challenge)",
):
    """An answer to one draw offer or Nika declaration: the log entry that asked is in the id,
    so a button under an old question cannot answer a newer one."""

    def __init__(self, match_id: int, question: int, kind: str) -> None:
        label, style = ANSWERS[kind]
        custom_id = f"nika:a:{match_id}:{question}:{kind}"
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=custom_id))
        self.match_id, self.question, self.kind = match_id, question, kind

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button[Any], match: re.Match[str], /
    ) -> AnswerButton:
        return cls(int(match["match"]), int(match["question"]), match["kind"])

    @tracked
    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()  # ending the match draws the final board
        service = service_of(interaction)
        try:
            reply = await service.answer(
                interaction.guild_id or 0,
                interaction.channel_id or 0,
                self.match_id,
                self.question,
                interaction.user.id,
                self.kind,
            )
        except ServiceError as error:
            await _refuse(interaction, error)
            return
        await post_reply(interaction, service, reply)


def _placeholder() -> discord.SelectOption:
    return discord.SelectOption(label="nothing to choose", value="-")


DYNAMIC_ITEMS = (PanelButton, PickSelect, AnswerButton)
