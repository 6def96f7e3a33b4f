"""The /nika command surface, independent of Discord: a name and its options in, a
Reply out. The Discord cog and the local console both call `dispatch`, so a command
means the same thing everywhere."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass

from bot.errors import ServiceError
from bot.help_text import HELP, RULES, RULES_EXAMPLE_ACTION, RULES_EXAMPLE_POSITION
from bot.replies import Reply
from bot.service import MatchService
from bot.texts import message_link
from engine.nika import GameState


@dataclass(frozen=True, slots=True)
class Invoker:
    """Who typed a command, and where."""

    guild_id: int
    channel_id: int
    user_id: int
    can_manage: bool = False  # holds Manage Channels here, as the front end reports


def action_text(name: str, options: Mapping[str, str]) -> str | None:
    """The action notation for a board command, or None for other commands."""
    try:
        if name == "move":
            return f"move {options['piece']} {options['direction']}"
        if name == "rotate":
            return f"rotate {options['pieces']} {options['facing']}"
        if name == "advance":
            return f"advance {options['pieces']}"
        if name == "rally":
            return f"rally {options['square']} {options['facing']}"
    except KeyError as missing:
        raise ServiceError(f"/nika {name} needs the {missing.args[0]} option") from None
    if name == "pass":
        return "pass"
    if name == "play":
        return options.get("action", "")
    return None


Handler = Callable[[MatchService, Invoker, Mapping[str, str]], Awaitable[Reply]]


async def _rules(service: MatchService, who: Invoker, options: Mapping[str, str]) -> Reply:
    before = GameState.from_notation(RULES_EXAMPLE_POSITION)
    after, events = before.parse_and_apply(RULES_EXAMPLE_ACTION)
    return Reply(RULES, image=await service.render(after, events))


def _page(options: Mapping[str, str]) -> int:
    text = str(options.get("page", "1")).strip()
    if not text.isdigit():
        raise ServiceError("page must be a number, like 2")
    return int(text)


PRIVATE_COMMANDS = ("help", "rules", "history", "settings", "mygames")


async def _static(text: str) -> Reply:
    return Reply(text)


def _number(options: Mapping[str, str], name: str) -> float | None:
    text = options.get(name, "").strip()
    if not text:
        return None
    try:
        return float(text)
    except ValueError:
        raise ServiceError(f"{name} must be a number") from None


def _deadline(options: Mapping[str, str]) -> int | None:
    text = options.get("deadline", "").strip().lower().removesuffix("days").removesuffix("day").strip()
    if not text:
        return None
    if text in ("none", "no", "off", "0"):
        return 0
    if not text.isdigit():
        raise ServiceError("deadline is none, 1, 2, 3 or 7 days")
    return int(text)


def _switch(options: Mapping[str, str], name: str) -> bool | None:
    text = options.get(name, "").strip().lower()
    if not text:
        return None
    if text not in ("on", "off", "true", "false", "yes", "no"):
        raise ServiceError(f"{name} is on or off")
    return text in ("on", "true", "yes")


async def _settings(service: MatchService, who: Invoker, options: Mapping[str, str]) -> Reply:
    scope = options.get("scope", "match").strip().lower()
    if scope not in ("match", "server"):
        raise ServiceError("scope is match or server")
    return await service.settings(
        who.guild_id,
        who.channel_id,
        who.user_id,
        reminder_hours=_number(options, "reminder_hours"),
        deadline_days=_deadline(options),
        server_default=scope == "server",
        dm_reminders=_switch(options, "dm"),
        can_manage=who.can_manage,
    )


async def _replay(service: MatchService, who: Invoker, options: Mapping[str, str]) -> Reply:
    if options.get("format", "animation") == "record":
        return await service.export(who.guild_id, who.channel_id)
    last = _number(options, "last")
    return await service.replay(who.guild_id, who.channel_id, int(last) if last is not None else None)


async def _stats(service: MatchService, who: Invoker, options: Mapping[str, str]) -> Reply:
    user = options.get("user", "").strip().removeprefix("<@").removesuffix(">").lstrip("!")
    if user:
        if not user.isdigit():
            raise ServiceError("user must be a member of this server")
        return await service.stats(who.guild_id, int(user))
    return await service.leaderboard(who.guild_id, who.user_id)


async def _my_games(service: MatchService, who: Invoker) -> Reply:
    turns = await service.my_turns(who.guild_id, who.user_id)
    if not turns:
        return Reply("It is not your turn in any match on this server.")
    lines = [
        f"<#{t.channel_id}> — {t.city.title} to act ({t.actions_left} action{'s' if t.actions_left > 1 else ''} "
        f"left): {message_link(who.guild_id, t.channel_id, t.board_message_id)}"
        for t in turns
    ]
    return Reply("**Your turn in:**\n" + "\n".join(lines))


HANDLERS: dict[str, Handler] = {
    "new": lambda s, w, o: s.new_match(
        w.guild_id, w.channel_id, w.user_id, o.get("city", ""), start=o.get("from"), deadline_days=_deadline(o)
    ),
    "join": lambda s, w, o: s.join(w.guild_id, w.channel_id, w.user_id, o.get("city", "")),
    "leave": lambda s, w, o: s.leave(w.guild_id, w.channel_id, w.user_id),
    "start": lambda s, w, o: s.start(w.guild_id, w.channel_id, w.user_id),
    "abort": lambda s, w, o: s.abort(w.guild_id, w.channel_id, w.user_id, can_manage=w.can_manage),
    "undo": lambda s, w, o: s.undo(w.guild_id, w.channel_id, w.user_id),
    "board": lambda s, w, o: s.board(w.guild_id, w.channel_id),
    "history": lambda s, w, o: s.history(w.guild_id, w.channel_id, _page(o)),
    "resign": lambda s, w, o: s.resign(w.guild_id, w.channel_id, w.user_id),
    "draw": lambda s, w, o: s.draw(w.guild_id, w.channel_id, w.user_id, o.get("choice", "")),
    "declare": lambda s, w, o: s.declare(w.guild_id, w.channel_id, w.user_id, o.get("team", "")),
    "concede": lambda s, w, o: s.concede(w.guild_id, w.channel_id, w.user_id),
    "challenge": lambda s, w, o: s.challenge(w.guild_id, w.channel_id, w.user_id),
    "export": lambda s, w, o: s.export(w.guild_id, w.channel_id),
    "rules": _rules,
    "help": lambda s, w, o: _static(HELP),
    "settings": _settings,
    "replay": _replay,
    "stats": _stats,
    "mygames": lambda s, w, o: _my_games(s, w),
}
# Commands whose reply only the invoker should see.


async def dispatch(service: MatchService, who: Invoker, name: str, options: Mapping[str, str]) -> Reply:
    """Run `/nika <name>` with its options. Refusals raise ServiceError."""
    action = action_text(name, options)
    if action is not None:
        return await service.act(who.guild_id, who.channel_id, who.user_id, action)
    handler = HANDLERS.get(name)
    if handler is None:
        raise ServiceError(f"there is no /nika {name}: try /nika help")
    return await handler(service, who, options)
