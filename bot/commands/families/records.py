"""Records: the replay (an animation, or the game record), standings, and a member's matches
waiting for them on this server."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot import texts
from bot.commands.front_end import FrontEnd
from bot.commands.spec import CommandOption, CommandSpec, Context, OptionKind
from bot.replies import Reply
from engine.api import AnyGame, Choice
from engine.i18n import M, P, Term
from engine.registry import get_game

REPLAY_FORMATS = (Choice("animation", "animation (GIF)"), Choice("record", "game record (JSON)"))
MY_GAMES_SHOWN = 20
MY_GAMES_BUDGET = 2000 - 60  # Discord's message length, less room for the count of the rest


async def _replay(ctx: Context, o: Mapping[str, Any]) -> Reply:
    if o.get("format") == "record":
        return await ctx.service.export(ctx.who.channel_id)
    return await ctx.service.replay(ctx.who.channel_id, o.get("last"), user_id=ctx.who.user_id)


async def _stats(ctx: Context, o: Mapping[str, Any]) -> Reply:
    user = o.get("user")
    if user is not None:
        return await ctx.service.stats(ctx.who.guild_id, user, ctx.game, name=dict(ctx.who.names).get(user))
    return await ctx.service.leaderboard(ctx.who.guild_id, ctx.who.user_id, ctx.game)


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


def commands(rules: AnyGame, front: FrontEnd) -> tuple[CommandSpec, ...]:
    return (
        CommandSpec("replay", "Replay this channel's match as an animation, or export it", _replay, (
            CommandOption("last", "Only the last N actions", OptionKind.INTEGER, min_value=1, max_value=10000),
            CommandOption("format", "An animation, or the game record file", choices=REPLAY_FORMATS),
        ), cooldown=True),
        CommandSpec("stats", "The server's leaderboard, or one player's record", _stats,
                    (CommandOption("user", "A player (leave empty for the leaderboard)", OptionKind.USER),),
                    cooldown=True),
        CommandSpec("mygames", "Matches on this server where it is your turn", _my_games, private=True),
    )  # fmt: skip
