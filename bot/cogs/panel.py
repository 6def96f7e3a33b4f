"""The buttons and menus under posts, for every game. Items are dynamic: their custom ids
carry the game, the match and the board version (or the question asked), so they keep
working after a restart, and a press on an old board is caught.

- the action panel under a board: a button per first step (the game's verbs, Move, Rotate,
  …, or a single Play), then select menus listing only legal choices, step by step (the game's
  action paths, see bot/menus.py); Undo;
- a setup button while secret setup choices are owed;
- answer buttons under a draw offer or a claim, naming the log entry that asked;
- confirm buttons for ending the game against your own side;
- a Rematch button under a result (and under a rematch still waiting for players).

Custom ids: `<game>:p:<match>:<board>:<step>`, `<game>:s:<match>:<board>[:<step>…]`,
`<game>:a:<match>:<question>:<answer>`, `<game>:c:<match>:<version>:<kind>[:<arg>]`,
`<game>:u:<match>:<board>`, `<game>:r:<match>` (Rematch, under a result).
Ids posted by the first release have the same shapes.
"""

from __future__ import annotations

import functools
import logging
import re
from collections.abc import Callable, Coroutine, Sequence
from typing import Any, TypeVar

import discord

from bot import menus
from bot.addressed import addressing
from bot.cogs.posting import followup, refusal_text, respond, send_private, send_to
from bot.commands.front_end import front_end
from bot.errors import ConfirmFirst, OutdatedBoard, ServiceError
from bot.i18n import speaking
from bot.inflight import in_flight_of
from bot.replies import Reply
from bot.service import MatchService
from bot.texts import command as command_name
from bot.texts import message_link
from engine.api import Step
from engine.i18n import M, Message, Term, Text
from engine.registry import get_game, installed_slugs

log = logging.getLogger(__name__)

GAME = r"(?P<game>[a-z][a-z0-9_]{0,30})"
PAGE = 24  # a select shows 25 options: 24 choices and "more…"
# Labels are Messages: a view is built for each reader, in their language.
ANSWERS: dict[str, tuple[Message, discord.ButtonStyle]] = {
    "draw_accept": (M("Accept the draw"), discord.ButtonStyle.success),
    "draw_decline": (M("Decline"), discord.ButtonStyle.danger),
    "concede": (M("Concede"), discord.ButtonStyle.secondary),
    "challenge": (M("Challenge — play on"), discord.ButtonStyle.primary),
}
CONFIRMS = {
    "resign": M("Yes, resign"), "concede": M("Yes, concede"),
    "declare": M("Yes, declare"), "leave": M("Yes, leave"), "abort": M("Yes, abort"),
}  # fmt: skip
BUTTONS: dict[str, Text] = {"undo": M("Undo"), "play": M("Play")}
Owner = TypeVar("Owner")  # an item of a game's (it has `.game`), or one that names no game we host


def service_of(interaction: discord.Interaction) -> MatchService:
    service = getattr(interaction.client, "service", None)
    if not isinstance(service, MatchService):
        raise RuntimeError("the bot has no match service")
    return service


def answered(
    callback: Callable[[Owner, discord.Interaction], Coroutine[Any, Any, None]],
) -> Callable[[Owner, discord.Interaction], Coroutine[Any, Any, None]]:
    """Every press gets an answer: refusals privately, and anything unexpected as a private
    "went wrong" (never a silent button). Counted as in flight for the bot's shutdown."""

    @functools.wraps(callback)
    async def wrapper(owner: Owner, interaction: discord.Interaction) -> None:
        locale = str(interaction.locale.value) if interaction.locale else None
        game: str | None = getattr(owner, "game", None)
        match_id = getattr(owner, "match_id", None)
        with in_flight_of(interaction.client).track(), speaking(locale, game):
            try:
                # A button names its match: where an event's matches share the channel, it is the one meant.
                chosen = None
                if isinstance(match_id, int) and interaction.channel_id:
                    chosen = await service_of(interaction).address_button(interaction.channel_id, match_id)
                with addressing(chosen):
                    await callback(owner, interaction)
            except ServiceError as error:
                await _refuse(interaction, error)
            except discord.HTTPException:
                log.exception("a component's reply failed")
            except Exception:
                log.exception("a component failed")
                await send_private(interaction, went_wrong(game or "<game>"))

    return wrapper


def went_wrong(game: str) -> str:
    # The failure may have come after the action was saved: send players to the board, not to retry.
    return str(M("Something went wrong on my side. Check /{game} {board} before trying again.", game=game,
                 board=command_name("board")))  # fmt: skip


# --- ids that are not ours ----------------------------------------------------------------
ID_MAX = 2**63 - 1  # match ids, board versions and log entries are stored as 64-bit integers
NOT_OURS = M("that button is not one this bot can use (it is outdated, or was not made by this bot): ask for "
             "the latest board with /<game> {board}", board=Term("board", "command"))  # fmt: skip


def hosted(game: str, *numbers: str, setup: bool = False) -> bool:
    """Whether a custom id's parts name a hosted game (one with secret setup, if `setup`) and
    numbers the storage can hold; ids are made by this bot, but a press may carry an old or
    forged one."""
    if any(int(number) > ID_MAX for number in numbers):
        return False
    if game not in installed_slugs():  # a game left out of BOARDGAME_GAMES keeps its buttons
        return False
    return not setup or get_game(game).has_setup


class NotOurs(discord.ui.DynamicItem[discord.ui.Item[Any]], template=r".*"):  # never registered
    """Stands in for a button or menu whose custom id matched ours but names nothing we host: the
    press gets a private refusal, like any other bad input, instead of no answer at all."""

    def __init__(self, item: discord.ui.Item[Any]) -> None:
        super().__init__(item)

    @answered
    async def callback(self, interaction: discord.Interaction) -> None:
        raise ServiceError(NOT_OURS)


# --- views ------------------------------------------------------------------------------
def view_for(reply: Reply) -> discord.ui.View | None:
    """The action panel under a live board, answer buttons under a question, or the setup button."""
    if reply.match_id is None or reply.game is None:
        return None
    if reply.answers and reply.question is not None:
        view = discord.ui.View(timeout=None)
        for kind in reply.answers:
            view.add_item(AnswerButton(reply.game, reply.match_id, reply.question, kind))
        return view
    if reply.rematch:
        view = discord.ui.View(timeout=None)
        view.add_item(RematchButton(reply.game, reply.match_id))
        return view
    if reply.version is None:
        return None
    if reply.setup:
        view = discord.ui.View(timeout=None)
        view.add_item(SetupButton(reply.game, reply.match_id, reply.version))
        return view
    if reply.actionable:
        view = discord.ui.View(timeout=None)
        front = front_end(reply.game)
        for step in front.panel or ("play",):
            view.add_item(PanelButton(reply.game, reply.match_id, reply.version, step))
        view.add_item(PanelButton(reply.game, reply.match_id, reply.version, "undo"))
        return view
    return None


def confirm_view(game: str, confirm: ConfirmFirst) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ConfirmButton(game, confirm.match_id, confirm.version, confirm.kind, confirm.argument))
    return view


async def post_reply(interaction: discord.Interaction, service: MatchService, reply: Reply,
                     *, ephemeral: bool = False) -> None:  # fmt: skip
    """Post a reply (for everyone unless ephemeral) with its buttons, then any public announcement;
    each public post is reported to the service, which then drops its outbox backup. A reply that
    belongs in another channel (a rematch's new thread) goes there, and the channel hears where."""
    reply = await service.labelled(reply)  # named, when an event's matches share the channel
    if reply.channel_id is not None and reply.channel_id != interaction.channel_id and interaction.client:
        channel = interaction.client.get_channel(reply.channel_id) or await interaction.client.fetch_channel(
            reply.channel_id)  # fmt: skip
        if isinstance(channel, discord.abc.Messageable):
            message = await send_to(channel, reply, view_for(reply))
            await service.posted(reply, message.id)
            moved = M("The rematch is in its own thread: {thread}", thread=f"<#{reply.channel_id}>")
            await respond(interaction, Reply(str(moved), match_id=reply.match_id, game=reply.game))
            return
    message_id = await respond(interaction, reply, ephemeral=ephemeral, view=view_for(reply))
    if not ephemeral:
        await service.posted(reply, message_id)
    if reply.announce is not None:
        message = await followup(interaction, reply.announce, view=view_for(reply.announce))
        await service.posted(reply.announce, message.id)


async def _refuse(interaction: discord.Interaction, error: ServiceError, *, picker: bool = False) -> None:
    """Privately: in the picker a player was using, or as a new private message."""
    text = refusal_text(str(error))
    if isinstance(error, OutdatedBoard) and error.message_id:
        latest = M("The latest board: {link}", link=message_link(error.guild_id, error.channel_id, error.message_id))
        text += f" {latest}"
    if picker and interaction.response.is_done():
        await interaction.edit_original_response(content=f"✗ {text}", view=None)
    else:
        await send_private(interaction, text)


async def _play(interaction: discord.Interaction, game: str, match_id: int, board: int, action: str | None,
                *, picker: bool) -> None:  # fmt: skip
    """Play an action (or undo, when `action` is None) from a board's buttons."""
    # Acknowledge first: committing and drawing the board may outlast Discord's 3 s window.
    await interaction.response.defer()
    service = service_of(interaction)
    channel, user = interaction.channel_id or 0, interaction.user.id
    try:
        await service.panel_actions(channel, match_id, board, user)
        # The board post after a button is a followup that may fail: the service keeps a backup
        # of it in the outbox, which the dispatcher posts unless we confirm our post went out.
        if action is None:
            reply = await service.undo(channel, user, expected_version=board)
        else:
            reply = await service.act(channel, user, action, expected_version=board)
    except ServiceError as error:
        await _refuse(interaction, error, picker=picker)
        return
    if picker:  # close the private picker, then post the board for everyone
        await interaction.edit_original_response(content=str(M("Played: `{action}`", action=action)), view=None)
    reply = await service.labelled(reply)
    message_id = await respond(interaction, reply, view=view_for(reply))
    await service.posted(reply, message_id)


def _select(game: str, match_id: int, board: int, chosen: Sequence[str], steps: Sequence[Step], page: int,
            placeholder: str) -> PickSelect:  # fmt: skip
    shown = list(steps[page * PAGE : (page + 1) * PAGE])
    more = len(steps) > (page + 1) * PAGE
    options = [(s.label, s.value) for s in shown]
    if more:
        options.append((str(M("More choices… ({count} more)", count=len(steps) - (page + 1) * PAGE)), f"#{page + 1}"))
    return PickSelect(game, match_id, board, tuple(chosen), options, placeholder)


def _question(game: str, chosen: Sequence[str]) -> str:
    return front_end(game).ask(tuple(chosen))


class PanelButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=GAME + r":p:(?P<match>\d+):(?P<board>\d+):(?P<kind>[^:]{1,60})",
):
    def __init__(self, game: str, match_id: int, board: int, kind: str) -> None:
        front = front_end(game)
        label = str(BUTTONS.get(kind) or front.panel_labels.get(kind, kind.capitalize()))
        style = (
            discord.ButtonStyle.danger
            if kind == "undo"
            else discord.ButtonStyle.secondary
            if kind in ("pass", "rally")
            else discord.ButtonStyle.primary
        )
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"{game}:p:{match_id}:{board}:{kind}"))
        self.game, self.match_id, self.board, self.kind = game, match_id, board, kind

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PanelButton:
        if not hosted(match["game"], match["match"], match["board"]):
            return NotOurs(item)  # type: ignore[return-value]  # discord.py swaps in any item returned
        return cls(match["game"], int(match["match"]), int(match["board"]), match["kind"])

    @answered
    async def callback(self, interaction: discord.Interaction) -> None:
        if self.kind == "undo":
            await _play(interaction, self.game, self.match_id, self.board, None, picker=False)
            return
        service = service_of(interaction)
        legal = await service.panel_actions(interaction.channel_id or 0, self.match_id, self.board,
                                            interaction.user.id)  # fmt: skip
        rules = get_game(self.game)
        chosen: tuple[str, ...] = () if self.kind == "play" else (self.kind,)
        action = menus.action_at(rules, legal, chosen)
        if action is not None:  # a one-step action, such as a pass
            await _play(interaction, self.game, self.match_id, self.board, action.notation(), picker=False)
            return
        steps = menus.next_steps(rules, legal, chosen)
        if not steps:
            await interaction.response.send_message(
                str(M("You have nothing to rally, or no room."))
                if self.kind == "rally"
                else str(M("Nothing of yours can {action} now.", action=command_name(self.kind))),
                ephemeral=True,
            )
            return
        question = _question(self.game, chosen)
        view = discord.ui.View(timeout=None)
        view.add_item(_select(self.game, self.match_id, self.board, chosen, steps, 0, question))
        await interaction.response.send_message(question, view=view, ephemeral=True)


class PickSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=GAME + r":s:(?P<match>\d+):(?P<board>\d+)(?P<path>(?::[^:]{1,60})*)",
):
    def __init__(self, game: str, match_id: int, board: int, chosen: tuple[str, ...],
                 choices: Sequence[tuple[str, str]] = (), placeholder: str | None = None) -> None:  # fmt: skip
        custom_id = f"{game}:s:{match_id}:{board}" + "".join(f":{step}" for step in chosen)
        options = [discord.SelectOption(label=label[:100], value=value[:100]) for label, value in choices[:25]]
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=custom_id[:100], placeholder=(placeholder or str(M("Choose")))[:150],
            options=options or [discord.SelectOption(label=str(M("nothing to choose"))[:100], value="-")],
        )  # fmt: skip
        super().__init__(select)
        self.game, self.match_id, self.board, self.chosen = game, match_id, board, chosen

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PickSelect:
        if not hosted(match["game"], match["match"], match["board"]):
            return NotOurs(item)  # type: ignore[return-value]  # discord.py swaps in any item returned
        path = tuple(step for step in match["path"].split(":") if step)
        return cls(match["game"], int(match["match"]), int(match["board"]), path)

    @answered
    async def callback(self, interaction: discord.Interaction) -> None:
        value = self.item.values[0]
        service = service_of(interaction)
        rules = get_game(self.game)
        try:
            legal = await service.panel_actions(interaction.channel_id or 0, self.match_id, self.board,
                                                interaction.user.id)  # fmt: skip
        except ServiceError as error:
            await interaction.response.defer()
            await _refuse(interaction, error, picker=True)
            return
        if value.startswith("#"):  # another page of the same choices
            steps = menus.next_steps(rules, legal, self.chosen)
            page = int(value[1:]) if value[1:].isdigit() else 0
            view = discord.ui.View(timeout=None)
            question = _question(self.game, self.chosen)
            view.add_item(_select(self.game, self.match_id, self.board, self.chosen, steps, page, question))
            await interaction.response.edit_message(content=question, view=view)
            return
        chosen = (*self.chosen, value)
        action = menus.action_at(rules, legal, chosen)
        if action is not None:
            await _play(interaction, self.game, self.match_id, self.board, action.notation(), picker=True)
            return
        steps = menus.next_steps(rules, legal, chosen)
        if not steps:
            await interaction.response.edit_message(content=str(M("✗ That is no longer possible: look again.")),
                                                    view=None)  # fmt: skip
            return
        question = _question(self.game, chosen)
        view = discord.ui.View(timeout=None)
        view.add_item(_select(self.game, self.match_id, self.board, chosen, steps, 0, question))
        await interaction.response.edit_message(content=question, view=view)


class AnswerButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=GAME + r":a:(?P<match>\d+):(?P<question>\d+):(?P<kind>draw_accept|draw_decline|concede|challenge)",
):
    """An answer to one draw offer or claim: the log entry that asked is in the id, so a button
    under an old question cannot answer a newer one."""

    def __init__(self, game: str, match_id: int, question: int, kind: str) -> None:
        label, style = ANSWERS[kind]
        custom_id = f"{game}:a:{match_id}:{question}:{kind}"
        super().__init__(discord.ui.Button(label=str(label), style=style, custom_id=custom_id))
        self.game, self.match_id, self.question, self.kind = game, match_id, question, kind

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> AnswerButton:
        if not hosted(match["game"], match["match"], match["question"]):
            return NotOurs(item)  # type: ignore[return-value]  # discord.py swaps in any item returned
        return cls(match["game"], int(match["match"]), int(match["question"]), match["kind"])

    @answered
    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()  # ending the match draws the final board
        service = service_of(interaction)
        reply = await service.answer(interaction.channel_id or 0, self.match_id,
                                     self.question, interaction.user.id, self.kind)  # fmt: skip
        await post_reply(interaction, service, reply)


class ConfirmButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=GAME
    + r":c:(?P<match>\d+):(?P<version>\d+):(?P<kind>resign|concede|declare|leave|abort)(?::(?P<arg>[a-z0-9-]{1,40}))?",
):
    """Confirms a command that ends the game against the presser's own side, or a moderator's
    abort of a started match. The match version
    is in the id: a confirmation given before the match changed is refused."""

    def __init__(self, game: str, match_id: int, version: int, kind: str, argument: str = "") -> None:
        custom_id = f"{game}:c:{match_id}:{version}:{kind}" + (f":{argument}" if argument else "")
        label = str(CONFIRMS[kind])
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.danger, custom_id=custom_id))
        self.game, self.match_id, self.version, self.kind, self.argument = game, match_id, version, kind, argument

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ConfirmButton:
        if not hosted(match["game"], match["match"], match["version"]):
            return NotOurs(item)  # type: ignore[return-value]  # discord.py swaps in any item returned
        return cls(match["game"], int(match["match"]), int(match["version"]), match["kind"], match["arg"] or "")

    @answered
    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        service = service_of(interaction)
        channel, user = interaction.channel_id or 0, interaction.user.id
        state = await service.state_of(channel)
        row = await service.match_in(channel)
        if row is None or row[0].id != self.match_id or state.version != self.version:
            raise ServiceError(M("the match changed since you were asked: send the command again if you still mean it"))
        if self.kind == "declare":
            reply = await service.declare(channel, user, self.argument, confirmed=True)
        elif self.kind == "concede":
            reply = await service.concede(channel, user, confirmed=True)
        elif self.kind == "leave":
            reply = await service.leave(channel, user, confirmed=True)
        elif self.kind == "abort":  # Manage Channels is checked again, as at the command
            reply = await service.abort(channel, user, can_manage=interaction.permissions.manage_channels,
                                        confirmed=True)  # fmt: skip
        else:
            reply = await service.resign(channel, user, confirmed=True)
        await post_reply(interaction, service, reply)


class SetupButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=GAME + r":u:(?P<match>\d+):(?P<board>\d+)",
):
    """Opens a private picker for a secret setup choice (a menu where the game offers one,
    else a form to type it)."""

    def __init__(self, game: str, match_id: int, board: int) -> None:
        super().__init__(discord.ui.Button(label=str(M("Set up (secret)")),
                                           style=discord.ButtonStyle.primary,
                                           custom_id=f"{game}:u:{match_id}:{board}"))  # fmt: skip
        self.game, self.match_id, self.board = game, match_id, board

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> SetupButton:
        if not hosted(match["game"], match["match"], match["board"], setup=True):
            return NotOurs(item)  # type: ignore[return-value]  # discord.py swaps in any item returned
        return cls(match["game"], int(match["match"]), int(match["board"]))

    @answered
    async def callback(self, interaction: discord.Interaction) -> None:
        picker = front_end(self.game).setup_picker
        if picker is None:
            await interaction.response.send_modal(SetupForm(self.game))
            return
        view = discord.ui.View(timeout=None)
        view.add_item(SetupSelect(self.game, self.match_id))
        await interaction.response.send_message(str(picker.placeholder), view=view, ephemeral=True)


class RematchButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=GAME + r":r:(?P<match>\d+)",
):
    """Accept a rematch of a finished match (the match is in the id: it outlives restarts)."""

    def __init__(self, game: str, match_id: int) -> None:
        super().__init__(discord.ui.Button(label=str(M("Rematch")), style=discord.ButtonStyle.primary,
                                           custom_id=f"{game}:r:{match_id}"))  # fmt: skip
        self.game, self.match_id = game, match_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> RematchButton:
        if not hosted(match["game"], match["match"]):
            return NotOurs(item)  # type: ignore[return-value]  # discord.py swaps in any item returned
        return cls(match["game"], int(match["match"]))

    @answered
    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()  # the rematch's first board is drawn when everyone accepted
        service = service_of(interaction)
        reply = await service.rematch(interaction.channel_id or 0, interaction.user.id, match_id=self.match_id,
                                      open_thread=thread_opener(interaction))  # fmt: skip
        await post_reply(interaction, service, reply)


def thread_opener(interaction: discord.Interaction) -> Callable[[], Coroutine[Any, Any, int | None]] | None:
    """In a match's thread: what opens a new thread beside it for a rematch (None elsewhere)."""
    thread = interaction.channel
    if not isinstance(thread, discord.Thread) or not isinstance(thread.parent, discord.TextChannel):
        return None
    parent = thread.parent

    async def open_thread() -> int | None:
        try:
            made = await parent.create_thread(name=f"{thread.name} — {M('Rematch')}"[:100],
                                              type=discord.ChannelType.public_thread,
                                              auto_archive_duration=10080)  # fmt: skip
        except discord.HTTPException:
            return None  # no right to open one: the rematch is played in the same thread
        return made.id

    return open_thread


class SetupSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=GAME + r":v:(?P<match>\d+)",
):
    def __init__(self, game: str, match_id: int) -> None:
        picker = front_end(game).setup_picker
        assert picker is not None
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=f"{game}:v:{match_id}", placeholder=str(picker.placeholder)[:150], min_values=picker.picks,
            max_values=picker.picks,
            options=[discord.SelectOption(label=str(label)[:100], value=value) for label, value in picker.options],
        )  # fmt: skip
        super().__init__(select)
        self.game, self.match_id = game, match_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> SetupSelect:
        if not hosted(match["game"], match["match"], setup=True) or front_end(match["game"]).setup_picker is None:
            return NotOurs(item)  # type: ignore[return-value]  # discord.py swaps in any item returned
        return cls(match["game"], int(match["match"]))

    @answered
    async def callback(self, interaction: discord.Interaction) -> None:
        picker = front_end(self.game).setup_picker
        assert picker is not None
        await interaction.response.defer()
        await _submit_setup(interaction, self.game, picker.choice(list(self.item.values)), picker=True)


class SetupForm(discord.ui.Modal):
    def __init__(self, game: str) -> None:
        title = M("Your secret {game} setup", game=get_game(game).title)
        super().__init__(title=str(title)[:45], timeout=600)
        self.game = game
        self.choice: discord.ui.TextInput[SetupForm] = discord.ui.TextInput(label=str(M("Your setup"))[:45],
                                                                            max_length=100)  # fmt: skip
        self.add_item(self.choice)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True)
        with speaking(str(interaction.locale.value) if interaction.locale else None, self.game):
            try:
                await _submit_setup(interaction, self.game, self.choice.value, picker=False)
            except ServiceError as error:
                await _refuse(interaction, error)


async def _submit_setup(interaction: discord.Interaction, game: str, choice: str, *, picker: bool) -> None:
    service = service_of(interaction)
    reply = await service.setup(interaction.channel_id or 0, interaction.user.id, choice)
    if picker:
        await interaction.edit_original_response(content=reply.text, view=None)
    else:
        await interaction.followup.send(reply.text, ephemeral=True)
    if reply.announce is not None:
        message = await followup(interaction, reply.announce, view=view_for(reply.announce))
        await service.posted(reply.announce, message.id)


DYNAMIC_ITEMS = (PanelButton, PickSelect, AnswerButton, ConfirmButton, SetupButton, SetupSelect, RematchButton)
