"""Player-facing sentences built from a match's state, for any game. Mentions are written
<@id>; the front ends decide how they look (a ping on Discord, @name in the console).
Sentences are whole: no game notation is dropped into the middle of prose."""

from __future__ import annotations

from collections.abc import Sequence

from bot.match import MatchState, Proposal, ProposalKind
from bot.match.state import Party
from bot.storage import MatchRow


def mention(user_id: int | None) -> str:
    return f"<@{user_id}>" if user_id is not None else "nobody"


def party_text(state: MatchState, party: Party) -> str:
    """A member as a mention; a computer seat as 'the computer (Thebes)'."""
    return mention(party) if isinstance(party, int) else f"the computer ({state.seat_title(party)})"


def message_link(guild_id: int, channel_id: int, message_id: int | None = None) -> str:
    """A jump link to a channel, or to one message in it."""
    tail = f"/{message_id}" if message_id else ""
    return f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}{tail}"


def sentence(words: object) -> str:
    """Words as a sentence: capitalised, with a full stop. A Message renders in the active language."""
    text = str(words).strip()
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?", "…")) else text + "."


def joined(words: Sequence[str]) -> str:
    """'A', 'A and B', 'A, B and C'."""
    words = list(words)
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def possessive(title: str) -> str:
    return f"{title}'" if title.endswith("s") else f"{title}'s"


def seat_names(state: MatchState, seats: Sequence[str]) -> str:
    return joined([state.seat_title(s) for s in seats])


def plural(count: int, word: str) -> str:
    if count == 1:
        return f"{count} {word}"
    return f"{count} {word}{'es' if word.endswith(('s', 'x', 'ch', 'sh')) else 's'}"


def holder_text(state: MatchState, seat: str) -> str:
    if state.is_computer(seat):
        return f"computer ({state.computers[seat]})"
    holder = state.seats.get(seat)
    return mention(holder) if holder is not None else "*open*"


def lobby_text(state: MatchState) -> str:
    """Every seat with its side (where sides have several seats) and who holds it."""
    teams = any(len(side.seats) > 1 for side in state.sides)
    lines = []
    for seat in state.table:
        name = f"{seat.title} ({state.side_title(seat.side)})" if teams else seat.title
        lines.append(f"{name}: {holder_text(state, seat.slug)}")
    return f"**{state.rules.title} lobby**\n" + "\n".join(lines)


def seating_text(state: MatchState) -> str:
    return " · ".join(f"{seat.title}: {holder_text(state, seat.slug)}" for seat in state.table)


def scores_text(state: MatchState) -> str:
    scores = state.rules.score(state.game)
    if not scores:
        return ""
    target = state.options.get("target")
    out = set(state.table_slugs()) - set(state.seats_in_play())
    parts = [f"{state.seat_title(seat)} {points}" + (" (out)" if seat in out else "") for seat, points in scores]
    over = state.rules.outcome(state.game) is not None
    tail = f" (first to {target} points wins)" if target and not over else ""
    return "Scores: " + " · ".join(parts) + tail


def next_text(state: MatchState) -> str:
    """Who acts now, with the actions left where a turn has several; or who must still set up."""
    seat = state.to_act
    if seat is None:
        pending = state.setup_pending()
        if pending:
            who = joined([f"{state.seat_title(s)} ({holder_text(state, s)})" for s in pending])
            return f"Waiting for {who} to set up: /{state.rules.slug} setup."
        return ""
    who = holder_text(state, seat)
    if state.rules.actions_per_turn > 1:
        left = state.rules.actions_left(state.game)
        return f"{state.seat_title(seat)} to act ({plural(left, 'action')} left) — {who}"
    return f"{state.seat_title(seat)} to act — {who}"


def outcome_text(state: MatchState) -> str:
    outcome = state.rules.outcome(state.game)
    return sentence(outcome.summary) if outcome is not None else ""


def proposal_text(state: MatchState, proposal: Proposal) -> str:
    waiting = ", ".join(party_text(state, p) for p in sorted(state.waiting_for(proposal), key=str))
    slug = state.rules.slug
    if proposal.kind is ProposalKind.DRAW:
        return f"Draw offered by {mention(proposal.by)}; waiting for {waiting}: /{slug} draw choice:accept or decline"
    claim = state.rules.claim
    title = claim.title if claim else "a claim"
    verbs = f"/{slug} {claim.concede_verb} or /{slug} {claim.challenge_verb}" if claim else ""
    return (
        f"{title} declared for {state.side_title(proposal.side or '')} by {mention(proposal.by)}; "
        f"waiting for {waiting}: {verbs}"
    )


def status_text(row: MatchRow, state: MatchState) -> str:
    outcome = state.rules.outcome(state.game)
    if outcome is not None:
        return f"Match #{row.id} is over. {sentence(outcome.summary)} {seating_text(state)}"
    if row.status == "aborted":
        return f"Match #{row.id} was aborted."
    lines = [f"Match #{row.id} of {state.rules.title}, action {len(state.played)}. {seating_text(state)}"]
    scores = scores_text(state)
    if scores:
        lines.append(scores)
    lines.append(next_text(state))
    if state.proposal is not None:
        lines.append(proposal_text(state, state.proposal))
    return "\n".join(line for line in lines if line)
