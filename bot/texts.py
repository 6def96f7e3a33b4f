"""Player-facing sentences built from a match's state, for any game. Mentions are written
<@id>; the front ends decide how they look (a ping on Discord, @name in the console).
Sentences are whole: no game notation is dropped into the middle of prose.

Every sentence is a Message rendered in the active language (the reader's, set by the
front end around each command, button and timer post); seat and side titles are Terms;
command and option names are the catalogue's, so a reader sees the names their client
shows (`/<game> tablero` in Spanish)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from bot.lists import either as either  # the service words its lists through bot.texts
from bot.lists import joined as joined
from engine.i18n import M, P, T, Term, Text, active

if TYPE_CHECKING:  # only named: the console's greeting uses these words before any match loads
    from bot.match import MatchState, Proposal
    from bot.match.state import Party
    from bot.storage import MatchRow

# The computer's levels as players read them (typed as `fácil` too: engine.i18n.choice_name).
LEVELS: dict[str, Term] = {"easy": T("easy", "level"), "normal": T("normal", "level"), "hard": T("hard", "level")}


def command(name: str) -> Term:
    """A command's name as the reader's client shows it (`board`, `tablero`)."""
    return Term(name, "command")


def option(name: str) -> Term:
    """An option's name as the reader's client shows it (`choice`, `opción`)."""
    return Term(name, "option")


def data_text(english: str) -> str:
    """Words that live in data (a choice's label), looked up as Discord's translator does."""
    return active().gettext(english)


def level(name: str) -> Text:
    return LEVELS.get(name, name)


def mention(user_id: int | None) -> str:
    return f"<@{user_id}>" if user_id is not None else str(M("nobody"))


def party_text(state: MatchState, party: Party) -> str:
    """A member as a mention; a computer seat as 'the computer (South)'."""
    return mention(party) if isinstance(party, int) else str(M("the computer ({seat})", seat=state.seat_title(party)))


def message_link(guild_id: int, channel_id: int, message_id: int | None = None) -> str:
    """A jump link to a channel, or to one message in it."""
    tail = f"/{message_id}" if message_id else ""
    return f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}{tail}"


def sentence(words: object) -> str:
    """Words as a sentence: capitalised, with a full stop. A Message renders in the active language."""
    text = str(words).strip()
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?", "…")) else text + "."


def seat_names(state: MatchState, seats: Sequence[str]) -> str:
    return joined([state.seat_title(s) for s in seats])


def seats_and_holders(state: MatchState, seats: Sequence[str]) -> str:
    """Seats with who holds each (North (@alice)): the mentions in the text ping them."""
    return joined([_seat_and_holder(state, s) for s in seats])


def holder_text(state: MatchState, seat: str) -> str:
    if state.is_computer(seat):
        return str(M("computer ({level})", level=level(state.computers[seat])))
    holder = state.seats.get(seat)
    return mention(holder) if holder is not None else str(M("*open*"))


def lobby_text(state: MatchState) -> str:
    """Every seat with its side (where sides have several seats) and who holds it."""
    teams = any(len(side.seats) > 1 for side in state.sides)
    lines = []
    for seat in state.table:
        title = state.seat_title(seat.slug)
        name = f"{title} ({state.side_title(seat.side)})" if teams else str(title)
        lines.append(f"{name}: {holder_text(state, seat.slug)}")
    return str(M("**{game} lobby**", game=state.rules.title)) + "\n" + "\n".join(lines)


def seating_text(state: MatchState) -> str:
    return " · ".join(f"{state.seat_title(seat.slug)}: {holder_text(state, seat.slug)}" for seat in state.table)


def scores_text(state: MatchState) -> str:
    scores = state.rules.score(state.game)
    if not scores:
        return ""
    target = state.options.get("target")
    out = set(state.table_slugs()) - set(state.seats_in_play())
    parts = [
        str(M("{seat} {points} (out)", seat=state.seat_title(seat), points=points))
        if seat in out
        else f"{state.seat_title(seat)} {points}"
        for seat, points in scores
    ]
    over = state.rules.outcome(state.game) is not None
    if target and not over:
        return str(M("Scores: {scores} (first to {target} points wins)", scores=" · ".join(parts), target=target))
    return str(M("Scores: {scores}", scores=" · ".join(parts)))


def _seat_and_holder(state: MatchState, seat: str) -> str:
    """The seat and who holds it, e.g. North (@alice), or South (computer, hard): no nested brackets."""
    if state.is_computer(seat):
        return str(M("{seat} (computer, {level})", seat=state.seat_title(seat), level=level(state.computers[seat])))
    return f"{state.seat_title(seat)} ({holder_text(state, seat)})"


def next_text(state: MatchState) -> str:
    """Who acts now, with the actions left where a turn has several; or who must still set up."""
    seat = state.to_act
    if seat is None:
        pending = state.setup_pending()
        if pending:
            who = joined([_seat_and_holder(state, s) for s in pending])
            return str(M("Waiting for {who} to set up: /{game} {setup}.", who=who, game=state.rules.slug,
                         setup=command("setup")))  # fmt: skip
        return ""
    who = holder_text(state, seat)
    title = state.seat_title(seat)
    if state.rules.actions_per_turn > 1:
        left = state.rules.actions_left(state.game)
        return str(P("{seat} to act ({count} action left) — {who}", "{seat} to act ({count} actions left) — {who}",
                     count=left, seat=title, who=who))  # fmt: skip
    return str(M("{seat} to act — {who}", seat=title, who=who))


def outcome_text(state: MatchState) -> str:
    outcome = state.rules.outcome(state.game)
    return sentence(outcome.summary) if outcome is not None else ""


def proposal_text(state: MatchState, proposal: Proposal) -> str:
    waiting = ", ".join(party_text(state, p) for p in sorted(state.waiting_for(proposal), key=str))
    slug = state.rules.slug
    from bot.match import ProposalKind

    if proposal.kind is ProposalKind.DRAW:
        return str(M("Draw offered by {who}; waiting for {waiting}: /{game} {draw} {choice}:accept or decline",
                     who=mention(proposal.by), waiting=waiting, game=slug, draw=command("draw"),
                     choice=option("choice")))  # fmt: skip
    claim = state.rules.claim
    if claim is None:
        return ""
    return str(M(
        "{claim} declared for {side} by {who}; waiting for {waiting}: /{game} {concede} or /{game} {challenge}",
        claim=claim.title, side=state.side_title(proposal.side or ""), who=mention(proposal.by), waiting=waiting,
        game=slug, concede=command(claim.concede_verb), challenge=command(claim.challenge_verb),
    ))  # fmt: skip


def status_text(row: MatchRow, state: MatchState) -> str:
    outcome = state.rules.outcome(state.game)
    if outcome is not None:
        over = M("Match #{id} is over.", id=row.id)
        return f"{over} {sentence(outcome.summary)} {seating_text(state)}"
    if row.status == "aborted":
        return str(M("Match #{id} was aborted.", id=row.id))
    where = M("Match #{id} of {game}, action {count}.", id=row.id, game=state.rules.title, count=len(state.played))
    lines = [f"{where} {seating_text(state)}"]
    scores = scores_text(state)
    if scores:
        lines.append(scores)
    lines.append(next_text(state))
    if state.proposal is not None:
        lines.append(proposal_text(state, state.proposal))
    return "\n".join(line for line in lines if line)
