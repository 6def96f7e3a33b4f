"""Player-facing sentences built from a match's state. Mentions are written <@id>;
the front ends decide how they look (a ping on Discord, @name in the console)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.match import CITY_NAMES, Entry, MatchState
from bot.storage import MatchRow
from engine.nika import City


def mention(user_id: int | None) -> str:
    return f"<@{user_id}>" if user_id is not None else "nobody"


def message_link(guild_id: int, channel_id: int, message_id: int | None = None) -> str:
    """A jump link to a channel, or to one message in it."""
    tail = f"/{message_id}" if message_id else ""
    return f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}{tail}"


def sentence(text: str) -> str:
    return text if text.endswith((".", "!", "?")) else text + "."


def seat_names(cities: Sequence[str]) -> str:
    return " and ".join(City[c.upper()].title for c in cities)


def lobby_text(state: MatchState) -> str:
    lines = [
        f"{City[c.upper()].title} ({City[c.upper()].team.title}): {mention(uid) if uid else '*open*'}"
        for c, uid in ((c, state.seats.get(c)) for c in CITY_NAMES)
    ]
    return "**Lobby**\n" + "\n".join(lines)


def seating_text(state: MatchState) -> str:
    return " · ".join(f"{city.title}: {mention(state.holder(city))}" for city in City)


def next_text(state: MatchState, previous: int | None = None) -> str:
    game = state.game
    city = game.to_act
    user = state.holder(city)
    left = game.position.actions_left
    plural = "action" if left == 1 else "actions"
    if previous is not None and user == previous and state.played and state.played[-1].city != city:
        return f"{city.title} to act next ({left} {plural}) — {mention(user)}, you hold {city.title} too."
    return f"{city.title} to act ({left} {plural} left) — {mention(user)}"


def status_text(row: MatchRow, state: MatchState) -> str:
    if state.game.outcome is not None:
        return f"Match #{row.id} is over: {state.game.outcome.describe()}. {seating_text(state)}"
    if row.status == "aborted":
        return f"Match #{row.id} was aborted."
    lines = [f"Match #{row.id}, action {len(state.played)}. {seating_text(state)}", next_text(state)]
    if state.draw_offer:
        waiting = sorted(state.players - state.draw_offer.accepted)
        lines.append(f"Draw offered by {mention(state.draw_offer.by)}; waiting for {', '.join(map(mention, waiting))}")
    if state.declaration:
        waiting = sorted(state.team_players(state.declaration.team.opponent) - state.declaration.conceded)
        lines.append(
            f"Nika declared for {state.declaration.team.title} by {mention(state.declaration.by)}; "
            f"waiting for {', '.join(map(mention, waiting))} to concede or challenge"
        )
    return "\n".join(lines)


def offer_text(before: MatchState, after: MatchState, entry: Entry) -> tuple[str, tuple[int, ...]]:
    """The headline for a move made away from the board, and who must now answer."""
    who = mention(entry.user_id)
    if entry.kind == "resign":
        return f"{who} resigned for {before.team_of(entry.user_id or 0).title}.", ()
    if entry.kind in ("draw_offer", "draw_accept") and after.draw_offer is not None:
        waiting = tuple(sorted(after.players - after.draw_offer.accepted))
        verb = "offers a draw" if entry.kind == "draw_offer" else "accepts the draw"
        return f"{who} {verb}. Waiting for {', '.join(map(mention, waiting))}: /nika draw accept or decline.", waiting
    if entry.kind == "draw_accept":
        return f"{who} accepts the draw. Everyone agreed.", ()
    if entry.kind == "draw_decline":
        return f"{who} declined the draw; play goes on.", ()
    if entry.kind in ("declare", "concede") and after.declaration is not None:
        team = after.declaration.team
        waiting = tuple(sorted(after.team_players(team.opponent) - after.declaration.conceded))
        verb = f"declares **Nika** for {team.title}!" if entry.kind == "declare" else "concedes."
        return (
            f"{who} {verb} {', '.join(map(mention, waiting))}: /nika concede, or /nika challenge to play on.",
            waiting,
        )
    if entry.kind == "declare":
        return f"{who} declares **Nika**, conceding for their own side.", ()
    if entry.kind == "concede":
        return f"{who} concedes.", ()
    return f"{who} challenges the Nika declaration: play goes on.", ()
