"""Ending early: resigning, draws by agreement, and the game's claim (a side declared the
winner, which the others concede or challenge) when it has one."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.commands.front_end import FrontEnd
from bot.commands.spec import CommandOption, CommandSpec, Context, Runner, on_service
from bot.replies import Reply
from engine.api import AnyGame, Choice

DRAW_CHOICES = tuple(Choice(c, c) for c in ("offer", "accept", "decline"))


async def _draw(ctx: Context, o: Mapping[str, Any]) -> Reply:
    return await ctx.service.draw(ctx.who.channel_id, ctx.who.user_id, o.get("choice") or "")


def _claim_runner(option: str) -> Runner:
    async def run(ctx: Context, o: Mapping[str, Any]) -> Reply:
        return await ctx.service.declare(ctx.who.channel_id, ctx.who.user_id, o.get(option) or "")

    return run


def commands(rules: AnyGame, front: FrontEnd) -> tuple[CommandSpec, ...]:
    specs = [
        CommandSpec("resign", "Give up the match for your side", on_service("resign")),
        CommandSpec("draw", "Offer, accept or decline a draw (everyone must agree)", _draw,
                    (CommandOption("choice", "Offer a draw, or answer the one on offer", required=True,
                                   choices=DRAW_CHOICES),)),
    ]  # fmt: skip
    claim = rules.claim
    if claim is not None:
        sides = tuple(Choice(s.slug, s.title) for s in rules.sides(max(rules.player_counts)))
        specs += [
            CommandSpec(claim.verb, f"Declare {claim.title}: a {claim.option} has secured victory",
                        _claim_runner(claim.option),
                        (CommandOption(claim.option, f"The {claim.option} whose victory is certain", required=True,
                                       choices=sides),)),
            CommandSpec(claim.concede_verb, f"Accept the {claim.title} declaration against your {claim.option}",
                        on_service("concede")),
            CommandSpec(claim.challenge_verb, f"Refuse the {claim.title} declaration: play goes on",
                        on_service("challenge")),
        ]  # fmt: skip
    return tuple(specs)
