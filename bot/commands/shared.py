"""The command group of one game: the shared commands, written once here, with the game's
action commands (its front end) and claims (from its interface) put in their places.

`/nika` keeps the names and order of the first release: lobby, actions, undo, play, the
information commands, ending early (draws, then claims), then play across days.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from bot import texts
from bot.commands.spec import CommandSpec, Context, OptionKind, OptionSpec
from bot.errors import ServiceError
from bot.games import ActionCommand, front_end
from bot.replies import Reply
from bot.service import LEVELS
from engine.api import Choice, Game
from engine.i18n import M, P, Term, english
from engine.registry import get_game

DEADLINES = (
    Choice("none", "no deadline"),
    *(Choice(str(d), f"{d} day{'s' if d > 1 else ''} a turn") for d in (1, 2, 3, 7)),
)
SCOPES = (Choice("match", "this match"), Choice("server", "server default"))
SWITCH = (Choice("on", "on"), Choice("off", "off"))
REPLAY_FORMATS = (Choice("animation", "animation (GIF)"), Choice("record", "game record (JSON)"))
DRAW_CHOICES = tuple(Choice(c, c) for c in ("offer", "accept", "decline"))
COMPUTER_LEVELS = tuple(Choice(level, f"the computer ({level})") for level in LEVELS)


def seat_choices(rules: Game[Any]) -> tuple[Choice, ...]:
    """Every seat of every table, then the sides that have several seats (a whole team), then
    `random` where sides are single seats and there are two of them (Numica's side)."""
    labels = front_end(rules.slug).seat_labels
    found: dict[str, str] = {}
    teams: dict[str, str] = {}
    for players in sorted(rules.player_counts, reverse=True):  # the largest table's turn order first
        for seat in rules.seats(players):
            found.setdefault(seat.slug, english(labels.get(seat.slug, seat.title)))
        for side in rules.sides(players):
            if len(side.seats) > 1:
                teams.setdefault(side.slug, english(labels.get(side.slug, f"{side.title} (a whole team)")))
    choices = [Choice(v, label) for v, label in {**found, **teams}.items()]
    if not teams and rules.player_counts == (2,):
        choices.append(Choice("random", "random"))
    return tuple(choices)


def _deadline(value: str | None) -> int | None:
    if value is None:
        return None
    return 0 if value == "none" else int(value)


def _switch(value: str | None) -> bool | None:
    return None if value is None else value == "on"


def _options_of(rules: Game[Any], values: Mapping[str, Any]) -> dict[str, str]:
    return {option.name: str(values[option.name]) for option in rules.options if values.get(option.name) is not None}


async def _new(ctx: Context, o: Mapping[str, Any]) -> Reply:
    rules = get_game(ctx.game)
    start = o.get("record") or o.get("from")
    return await ctx.service.new_match(
        ctx.who.guild_id, ctx.who.channel_id, ctx.who.user_id, o.get(rules.seat_word) or "",
        game=ctx.game, players=o.get("players"), options=_options_of(rules, o), start=start,
        deadline_days=_deadline(o.get("deadline")), parent_channel_id=ctx.who.parent_channel_id,
    )  # fmt: skip


async def _join(ctx: Context, o: Mapping[str, Any]) -> Reply:
    rules = get_game(ctx.game)
    return await ctx.service.join(
        ctx.who.guild_id, ctx.who.channel_id, ctx.who.user_id, o.get(rules.seat_word) or "", computer=o.get("computer")
    )


async def _play(ctx: Context, o: Mapping[str, Any]) -> Reply:
    return await ctx.service.act(ctx.who.guild_id, ctx.who.channel_id, ctx.who.user_id, o.get("action") or "")


def _action_runner(command: ActionCommand) -> Any:
    async def run(ctx: Context, o: Mapping[str, Any]) -> Reply:
        text = command.notation({k: str(v) for k, v in o.items()})
        return await ctx.service.act(ctx.who.guild_id, ctx.who.channel_id, ctx.who.user_id, text)

    return run


async def _rules(ctx: Context, o: Mapping[str, Any]) -> Reply:
    front = front_end(ctx.game)
    if front.rules_example is None:
        return Reply(str(front.rules))
    rules = get_game(ctx.game)
    position, action = front.rules_example
    after, events = rules.apply(rules.load(position), rules.parse_action(action))
    return Reply(str(front.rules), image=await ctx.service.book.render_example(ctx.game, after, [events]))


# Messages, not text: each reader gets them in their own language.
DISCORD_HELP = M(
    "Every option suggests only what is legal for you right now: start typing and pick. "
    "Or press the buttons under the latest board: they walk you through legal choices only."
)
CONSOLE_HELP = M(
    "**In this console** type the commands as text, options as name:value (Tab completes, Up recalls). "
    "`as @name` plays as someone else, `channel N` switches channel, `manage on` acts as a moderator, "
    "`help` lists these, `quit` leaves. Boards are written as PNG files into the boards folder."
)


async def _help(ctx: Context, o: Mapping[str, Any]) -> Reply:
    how = CONSOLE_HELP if ctx.who.console else DISCORD_HELP
    return Reply(f"{front_end(ctx.game).help}\n{how}")


async def _settings(ctx: Context, o: Mapping[str, Any]) -> Reply:
    hours = o.get("reminder_hours")
    return await ctx.service.settings(
        ctx.who.guild_id, ctx.who.channel_id, ctx.who.user_id,
        reminder_hours=float(hours) if hours is not None else None, deadline_days=_deadline(o.get("deadline")),
        server_default=o.get("scope") == "server", dm_reminders=_switch(o.get("dm")), can_manage=ctx.who.can_manage,
    )  # fmt: skip


async def _replay(ctx: Context, o: Mapping[str, Any]) -> Reply:
    if o.get("format") == "record":
        return await ctx.service.export(ctx.who.guild_id, ctx.who.channel_id)
    return await ctx.service.replay(ctx.who.guild_id, ctx.who.channel_id, o.get("last"), user_id=ctx.who.user_id)


async def _stats(ctx: Context, o: Mapping[str, Any]) -> Reply:
    user = o.get("user")
    if user is not None:
        return await ctx.service.stats(ctx.who.guild_id, user, ctx.game)
    return await ctx.service.leaderboard(ctx.who.guild_id, ctx.who.user_id, ctx.game)


MY_GAMES_SHOWN = 20
MY_GAMES_BUDGET = 2000 - 60  # Discord's message length, less room for the count of the rest


async def _my_games(ctx: Context, o: Mapping[str, Any]) -> Reply:
    turns = await ctx.service.my_turns(ctx.who.guild_id, ctx.who.user_id)
    if not turns:
        return Reply(str(M("It is not your turn in any match on this server.")))
    heading = str(M("**Your turn in:**"))
    lines: list[str] = []
    for t in turns[:MY_GAMES_SHOWN]:
        seat = Term(t.seat_title)
        if t.setting_up:
            doing = M("{seat} to set up", seat=seat)
        elif get_game(t.game).actions_per_turn > 1:
            doing = P("{seat} to act ({count} action left)", "{seat} to act ({count} actions left)",
                      count=t.actions_left, seat=seat)  # fmt: skip
        else:
            doing = M("{seat} to act", seat=seat)
        line = (f"<#{t.channel_id}> — {get_game(t.game).title}: {doing}: "
                f"{texts.message_link(ctx.who.guild_id, t.channel_id, t.board_message_id)}")  # fmt: skip
        # Lines are long with real ids: stop while the count of the rest still fits one message.
        if len(heading) + sum(len(x) + 1 for x in lines) + len(line) + 1 > MY_GAMES_BUDGET:
            break
        lines.append(line)
    more = len(turns) - len(lines)
    if more > 0:
        lines.append(str(M("…and {count} more, not shown.", count=more)))
    return Reply(heading + "\n" + "\n".join(lines))


async def _setup(ctx: Context, o: Mapping[str, Any]) -> Reply:
    return await ctx.service.setup(ctx.who.guild_id, ctx.who.channel_id, ctx.who.user_id, o.get("choice") or "")


def _simple(method: str, **fixed: Any) -> Any:
    async def run(ctx: Context, o: Mapping[str, Any]) -> Reply:
        call = getattr(ctx.service, method)
        return await call(ctx.who.guild_id, ctx.who.channel_id, ctx.who.user_id, **fixed)

    return run


async def _abort(ctx: Context, o: Mapping[str, Any]) -> Reply:
    return await ctx.service.abort(ctx.who.guild_id, ctx.who.channel_id, ctx.who.user_id, can_manage=ctx.who.can_manage)


async def _board(ctx: Context, o: Mapping[str, Any]) -> Reply:
    return await ctx.service.board(ctx.who.guild_id, ctx.who.channel_id, ctx.who.user_id)


async def _history(ctx: Context, o: Mapping[str, Any]) -> Reply:
    return await ctx.service.history(ctx.who.guild_id, ctx.who.channel_id, o.get("page") or 1,
                                     user_id=ctx.who.user_id)  # fmt: skip


async def _draw(ctx: Context, o: Mapping[str, Any]) -> Reply:
    return await ctx.service.draw(ctx.who.guild_id, ctx.who.channel_id, ctx.who.user_id, o.get("choice") or "")


def _claim_runner(option: str) -> Any:
    async def run(ctx: Context, o: Mapping[str, Any]) -> Reply:
        return await ctx.service.declare(ctx.who.guild_id, ctx.who.channel_id, ctx.who.user_id, o.get(option) or "")

    return run


@cache
def commands_for(slug: str) -> dict[str, CommandSpec]:
    """Every command of a game's group, in the order Discord shows them."""
    rules = get_game(slug)
    front = front_end(slug)
    seat = OptionSpec(
        rules.seat_word,
        f"The {rules.seat_word}, or whole team, you will play"
        if any(len(s.seats) > 1 for n in rules.player_counts for s in rules.sides(n))
        else f"The {rules.seat_word} you will play",
        required=True,
        choices=seat_choices(rules),
    )
    new_options = [seat]
    if rules.seat_sets_differ():
        counts = tuple(Choice(str(n), f"{n} players") for n in rules.player_counts)
        new_options.append(OptionSpec("players", "How many play", OptionKind.INTEGER,
                                      choices=counts))  # fmt: skip
    for option in rules.options:
        new_options.append(OptionSpec(option.name, option.description, choices=option.choices))
    new_options += [
        OptionSpec("deadline", "How long each turn may take before time runs out", choices=DEADLINES),
        OptionSpec("from", "Start a casual match from a position or a game record (text)", max_length=6000),
        OptionSpec("record", "Start a casual match from an exported game record (file)", OptionKind.ATTACHMENT),
        OptionSpec("thread", "Open the match in a new thread of this channel", OptionKind.BOOLEAN),
    ]
    join_seat = OptionSpec(seat.name, seat.description.replace("you will play", "to take"), required=True,
                           choices=seat.choices)  # fmt: skip
    game = slug
    specs: list[CommandSpec] = [
        CommandSpec(game, "new", f"Open a {rules.title} match in this channel and take a seat", _new,
                    tuple(new_options)),
        CommandSpec(game, "join", "Take a seat in this channel's lobby (or seat the computer in one)", _join,
                    (join_seat, OptionSpec("computer", "The creator seats the computer here instead, at a level",
                                           choices=COMPUTER_LEVELS))),
        CommandSpec(game, "leave", "Give up your seat (in a started match: resign)", _simple("leave")),
        CommandSpec(game, "start", "Start the match once every seat is held", _simple("start")),
        CommandSpec(game, "abort", "Abort this channel's match (creator in the lobby, or Manage Channels)", _abort),
    ]  # fmt: skip
    if rules.has_setup:
        specs.append(CommandSpec(game, "setup", "Make your secret setup choice (nobody sees it until all are made)",
                                 _setup, (OptionSpec("choice", "Your setup, e.g. sosoosos", required=True,
                                                     autocomplete=True, max_length=100),), private=True))  # fmt: skip
    for action in front.actions:
        specs.append(CommandSpec(game, action.name, action.description, _action_runner(action), action.options,
                                 path=action.path, normalize=action.normalize, plays=action.plays))  # fmt: skip
    example = front.play_example or "a move in notation"
    specs += [
        CommandSpec(game, "undo", "Take back your last action while you still may", _simple("undo")),
        CommandSpec(game, "play", f"Play any action in notation, e.g. {example.split(' · ')[0]}", _play,
                    (OptionSpec("action", example[:100], required=True, autocomplete=True, max_length=200),)),
        CommandSpec(game, "board", "Show this channel's board", _board, cooldown=True),
        CommandSpec(game, "history", "List the actions played so far", _history,
                    (OptionSpec("page", "Page number (15 actions a page)", OptionKind.INTEGER, min_value=1,
                                max_value=1000),), private=True, cooldown=True),
        CommandSpec(game, "rules", f"The rules of {rules.title} in one minute, with a picture", _rules, private=True),
        CommandSpec(game, "help", f"How to play {rules.title} here", _help, private=True),
        CommandSpec(game, "resign", "Give up the match for your side", _simple("resign")),
        CommandSpec(game, "draw", "Offer, accept or decline a draw (everyone must agree)", _draw,
                    (OptionSpec("choice", "Offer a draw, or answer the one on offer", required=True,
                                choices=DRAW_CHOICES),)),
    ]  # fmt: skip
    claim = rules.claim
    if claim is not None:
        sides = tuple(Choice(s.slug, s.title) for s in rules.sides(max(rules.player_counts)))
        specs += [
            CommandSpec(game, claim.verb, f"Declare {claim.title}: a {claim.option} has secured victory",
                        _claim_runner(claim.option),
                        (OptionSpec(claim.option, f"The {claim.option} whose victory is certain", required=True,
                                    choices=sides),)),
            CommandSpec(game, claim.concede_verb, f"Accept the {claim.title} declaration against your {claim.option}",
                        _simple("concede")),
            CommandSpec(game, claim.challenge_verb, f"Refuse the {claim.title} declaration: play goes on",
                        _simple("challenge")),
        ]  # fmt: skip
    specs += [
        CommandSpec(game, "settings", "Reminders, turn deadline, and reminders by DM", _settings, (
            OptionSpec("reminder_hours", "Remind the player to act after this many hours without a move",
                       OptionKind.INTEGER, min_value=1, max_value=168),
            OptionSpec("deadline", "Turn deadline (only before the match starts)", choices=DEADLINES),
            OptionSpec("scope", "Change this match, or the server's default reminder interval", choices=SCOPES),
            OptionSpec("dm", "Also send your reminders to you by direct message", choices=SWITCH),
        ), private=True),
        CommandSpec(game, "replay", "Replay this channel's match as an animation, or export it", _replay, (
            OptionSpec("last", "Only the last N actions", OptionKind.INTEGER, min_value=1, max_value=10000),
            OptionSpec("format", "An animation, or the game record file", choices=REPLAY_FORMATS),
        ), cooldown=True),
        CommandSpec(game, "stats", "The server's leaderboard, or one player's record", _stats,
                    (OptionSpec("user", "A player (leave empty for the leaderboard)", OptionKind.USER),),
                    cooldown=True),
        CommandSpec(game, "mygames", "Matches on this server where it is your turn", _my_games, private=True),
    ]  # fmt: skip
    return {spec.name: spec for spec in specs}


def refuse_unknown(slug: str, name: str) -> ServiceError:
    return ServiceError(M("there is no /{game} {name}: try /{game} {help}", game=slug, name=name[:30],
                          help=texts.command("help")))  # fmt: skip
