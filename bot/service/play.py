"""Playing a started match: actions, undo, secret setup choices, resigning, and the
proposals every game shares (draw offers, and claims a game declares, `Game.claim`), with
the board post that follows each. Works for any game through the interface."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from typing import Any

from bot import rating_gate, texts
from bot.errors import BoardChanged, ConfirmFirst, NotAllowed, NotInMatch, NotYourTurn, OutdatedBoard, ServiceError
from bot.match import Entry, EntryKind, MatchState, Proposal, ProposalKind
from bot.replies import Image, Reply
from bot.service import clocks
from bot.service.agreed_pause import refuse_while_paused
from bot.service.book import Logged, MatchBook
from bot.storage import Connection, MatchRow
from engine.i18n import M, Message, Term

CONFIRM_SECONDS = 60.0
RECENT_MAX = 12  # actions a board highlights at most
# Builds the post for a validated entry: (match row, state before, state after, events) -> Reply.
Build = Callable[[MatchRow, MatchState, MatchState, tuple[Any, ...]], Awaitable[Reply]]


def recent_actions(state: MatchState) -> list[tuple[Any, ...]]:
    """The events of every action since the previous turn of whoever acts now, oldest first,
    so a player coming back after days sees all that happened (at least the last action)."""
    played = list(state.played[-RECENT_MAX * 2 :])
    seat = state.to_act
    acting = state.seats.get(seat) if seat is not None else None
    picked: list[tuple[Any, ...]] = []
    index = len(played) - 1
    while index >= 0 and seat is not None and played[index].seat == seat:  # the current turn so far
        picked.append(played[index].events or ())
        index -= 1
    while index >= 0 and len(picked) < RECENT_MAX:
        entry = played[index]
        if picked and acting is not None and entry.user_id == acting:
            break
        picked.append(entry.events or ())
        index -= 1
    return [events for events in reversed(picked) if events]


class Play:
    def __init__(self, book: MatchBook) -> None:
        self.book = book
        # Commands awaiting confirmation: (match, user, kind, argument) -> when the request expires.
        self._confirmations: dict[tuple[int, int, str, str], float] = {}

    # --- entries ----------------------------------------------------------------------
    async def loaded(self, channel_id: int, expected_version: int | None = None) -> tuple[MatchRow, MatchState]:
        """The channel's started match, at the board version the player saw (if given)."""
        row, state = await self.book.load(channel_id)
        if row.status != "active":
            raise NotAllowed(_not_started(row))
        if expected_version is not None and expected_version != state.board_version:
            raise BoardChanged()
        return row, state

    async def announced(
        self, row: MatchRow, state: MatchState, new: MatchState, logged: Sequence[Logged], reply: Reply
    ) -> Reply:
        """Commit validated entries together with a backup of the post that announces them (the
        reply, or the public announcement that goes with a private answer). The front end reports
        its post (MatchService.posted); if it never does, the outbox posts the backup."""
        public = reply.announce if reply.announce is not None else reply
        kept: list[int] = []

        async def keep(db: Connection) -> None:
            kept.append(await self.book.keep_backup(db, row, public))

        await self.book.commit(row, state, new, logged, also=keep)
        if reply.announce is not None:
            return replace(reply, announce=replace(public, notice_ids=tuple(kept)))
        return replace(reply, notice_ids=tuple(kept))

    async def entry(self, channel_id: int, entry: Entry, build: Build, expected_version: int | None = None) -> Reply:
        """Validate one entry, build its post, and commit both (see `announced`)."""
        row, state = await self.loaded(channel_id, expected_version)
        new, events, logged = await self.book.validated(row, state, [entry])
        reply = await build(row, state, new, events)
        return await self.announced(row, state, new, logged, reply)

    async def act(self, channel_id: int, user_id: int, action: Any, *, expected_version: int | None = None) -> Reply:
        if not isinstance(action, str) and not hasattr(action, "notation"):
            raise ServiceError(M("that is not an action: give one in the game's notation"))
        text = action if isinstance(action, str) else action.notation()

        def headline(before: MatchState, after: MatchState, events: tuple[Any, ...]) -> str:
            return texts.sentence(after.rules.describe(events))

        entry = Entry(EntryKind.ACTION, user_id, text=text)
        return await self._board_entry(channel_id, entry, expected_version, headline)

    async def undo(self, channel_id: int, user_id: int, *, expected_version: int | None = None) -> Reply:
        def headline(before: MatchState, after: MatchState, events: tuple[Any, ...]) -> str:
            what = before.rules.describe(before.played[-1].events or ())
            return str(M("↩ {who} took back the last action ({what}).", who=texts.mention(user_id), what=what))

        entry = Entry(EntryKind.UNDO, user_id)
        return await self._board_entry(channel_id, entry, expected_version, headline)

    async def _board_entry(
        self,
        channel_id: int,
        entry: Entry,
        expected_version: int | None,
        headline: Callable[[MatchState, MatchState, tuple[Any, ...]], str],
    ) -> Reply:
        """Commit an entry that changes the board, with its board post backed up (see `announced`)."""

        async def build(row: MatchRow, before: MatchState, after: MatchState, events: tuple[Any, ...]) -> Reply:
            refuse_while_paused(row)
            return await self.board_reply(row, after, headline(before, after, events))

        return await self.entry(channel_id, entry, build, expected_version)

    async def setup(self, channel_id: int, user_id: int, choice: str, seat: str | None = None) -> Reply:
        row, state = await self.book.load(channel_id)
        if row.status != "active" or not state.in_setup():
            raise NotAllowed(M("there is no setup to make now"))
        refuse_while_paused(row)
        mine = [s for s in state.rules.setup_pending(state.game) if state.seats.get(s) == user_id]
        if not mine:
            raise NotInMatch(M("you have no setup to make in this match"))
        seat = seat if seat in mine else mine[0]
        chosen = Entry(EntryKind.SETUP, user_id, seat=seat, text=choice)
        new, events, logged = await self.book.validated(row, state, [chosen])
        return await self.announced(row, state, new, logged, await self._setup_reply(row, state, new, events, seat,
                                                                                     choice))  # fmt: skip

    async def _setup_reply(self, row: MatchRow, state: MatchState, new: MatchState, events: tuple[Any, ...],
                           seat: str, choice: str) -> Reply:  # fmt: skip
        """The private answer to a setup choice, with the public post that goes with it."""
        # The choice as the game stores it, in its own words (what it names each piece, say).
        canonical = {**new.setup, **new.revealed_setup}.get(seat, choice)
        labels = {c.value: c.label for c in state.rules.setup_choices(state.game, seat)}
        shown = labels.get(canonical, canonical)
        title = state.seat_title(seat)
        if new.in_setup():
            others = texts.seat_names(new, [s for s in new.setup_pending() if s != seat])
            if seat in state.setup:
                private = M("Your setup for {seat} is now {choice}. You can change it until {others} has chosen.",
                            seat=title, choice=shown, others=others)  # fmt: skip
            else:
                private = M("Your setup for {seat} is set: {choice}. You can change it until {others} has chosen.",
                            seat=title, choice=shown, others=others)  # fmt: skip
            # Whoever is awaited is named with their mention: a mention only in allowed_mentions pings nobody.
            awaited = texts.seats_and_holders(new, [s for s in new.setup_pending() if s != seat])
            public = M("{seat} has set up in secret. Waiting for {others}: /{game} {setup}.", seat=title,
                       others=awaited, game=row.game, setup=texts.command("setup"))  # fmt: skip
            mentions = tuple(uid for s in new.setup_pending() if (uid := new.seats.get(s)) is not None)
            announce = Reply(str(public), mentions=mentions, match_id=row.id, game=row.game, setup=True,
                             version=new.board_version)  # fmt: skip
            return Reply(str(private), match_id=row.id, game=row.game, announce=announce)
        headline = (texts.sentence(new.rules.describe(events)) if events
                    else str(M("Every side has set up: the game begins!")))  # fmt: skip
        board = await self.board_reply(row, new, headline, recent=[events] if events else [])
        revealed = M("Your setup for {seat} is set: {choice}. Every side's is revealed now.", seat=title, choice=shown)
        return Reply(str(revealed), match_id=row.id, game=row.game, announce=board)

    # --- endings against your own side ask first --------------------------------------
    def _confirmed(self, row: MatchRow, state: MatchState, entry: Entry, kind: str, argument: str,
                   message: Message, confirmed: bool) -> None:  # fmt: skip
        """Raise ConfirmFirst unless confirmed (a button) or asked again within a minute. An entry the
        match would refuse anyway (a claim while a draw is on offer) is refused now, not after asking."""
        if row.status != "active":
            raise NotAllowed(_not_started(row))
        self.book.validate(state, [entry])
        assert entry.user_id is not None
        self.ask_first(row, state, entry.user_id, kind, argument, message, confirmed)

    def ask_first(self, row: MatchRow, state: MatchState, user_id: int, kind: str, argument: str,
                  message: Message, confirmed: bool) -> None:  # fmt: skip
        """An irreversible step asks first: ConfirmFirst unless confirmed (a button) or the same
        command comes again within a minute (moderators are asked too)."""
        now = self.book.clock.now()
        key = (row.id, user_id, kind, argument)
        self._confirmations = {k: t for k, t in self._confirmations.items() if t > now}
        if confirmed or self._confirmations.pop(key, 0) > now:
            return
        self._confirmations[key] = now + CONFIRM_SECONDS
        raise ConfirmFirst(message, match_id=row.id, version=state.version, kind=kind, argument=argument)

    async def resign(self, channel_id: int, user_id: int, *, confirmed: bool = False) -> Reply:
        row, state = await self.book.load(channel_id)
        if user_id in state.players and row.status == "active":
            mine = [s for s in state.seats_in_play() if state.seats.get(s) == user_id]
            if mine:
                side = state.side_title(state.side_of(mine[0]))
                ends = (M("Resigning ends the match as a loss for {side}.", side=side) if len(state.sides) == 2
                        else M("Resigning takes you out of the game."))  # fmt: skip
                self._confirmed(row, state, Entry(EntryKind.RESIGN, user_id), "resign", "", ends, confirmed)

        async def build(row: MatchRow, before: MatchState, after: MatchState, events: tuple[Any, ...]) -> Reply:
            seat = after.played[-1].seat
            if events and not after.is_over:  # the game goes on without that seat (a free-for-all)
                headline = f"{texts.sentence(before.rules.describe(events))} ({texts.mention(user_id)})"
            else:
                headline = str(M("{who} resigned for {side}.", who=texts.mention(user_id),
                                 side=before.side_title(before.side_of(seat))))  # fmt: skip
            return await self.board_reply(row, after, headline, recent=[events] if events else None)

        return await self.entry(channel_id, Entry(EntryKind.RESIGN, user_id), build)

    async def draw(self, channel_id: int, user_id: int, choice: str) -> Reply:
        kinds = {"offer": EntryKind.DRAW_OFFER, "accept": EntryKind.DRAW_ACCEPT, "decline": EntryKind.DRAW_DECLINE}
        if choice not in kinds:
            raise ServiceError(M("choose offer, accept or decline"))
        return await self.propose(channel_id, Entry(kinds[choice], user_id))

    async def declare(self, channel_id: int, user_id: int, side: str, *, confirmed: bool = False) -> Reply:
        row, state = await self.book.load(channel_id)
        side = side.strip().lower().replace("–", "-").replace(" ", "-").replace("+", "-")
        mine = {state.side_of(s) for s in state.seats_of(user_id)}
        claim = state.rules.claim
        if claim and mine and side in {s.slug for s in state.sides} and side not in mine and row.status == "active":
            own = state.side_title(next(iter(mine)))
            self._confirmed(
                row, state, Entry(EntryKind.DECLARE, user_id, text=side), "declare", side,
                M("Declaring {claim} for {side} concedes the match for {own}.", claim=claim.title,
                  side=state.side_title(side), own=own), confirmed,
            )  # fmt: skip
        return await self.propose(channel_id, Entry(EntryKind.DECLARE, user_id, text=side))

    async def concede(self, channel_id: int, user_id: int, *, confirmed: bool = False) -> Reply:
        row, state = await self.book.load(channel_id)
        claim = state.declaration
        if claim is not None and user_id in state.waiting_for(claim):
            mine = {str(state.side_title(state.side_of(s))) for s in state.seats_of(user_id)}
            words: dict[str, Any] = {"side": state.side_title(claim.side or ""), "losers": texts.joined(sorted(mine))}
            if len(state.waiting_for(claim)) > 1:
                said = M("Conceding gives the match to {side} ({losers} loses) once your side's other players "
                         "concede too.", **words)  # fmt: skip
            else:
                said = M("Conceding gives the match to {side} ({losers} loses) at once.", **words)
            self._confirmed(row, state, Entry(EntryKind.CONCEDE, user_id), "concede", "", said, confirmed)
        return await self.propose(channel_id, Entry(EntryKind.CONCEDE, user_id))

    async def challenge(self, channel_id: int, user_id: int) -> Reply:
        return await self.propose(channel_id, Entry(EntryKind.CHALLENGE, user_id))

    async def propose(self, channel_id: int, entry: Entry) -> Reply:
        async def build(row: MatchRow, before: MatchState, after: MatchState, events: tuple[Any, ...]) -> Reply:
            return await self.proposal_reply(row, before, after, entry, events)

        return await self.entry(channel_id, entry, build)

    async def answer(self, channel_id: int, match_id: int, question: int, user_id: int, kind: str) -> Reply:
        """A press on a draw-offer or declaration button; `question` is the log entry that asked."""
        kinds = {k.value: k for k in (EntryKind.DRAW_ACCEPT, EntryKind.DRAW_DECLINE, EntryKind.CONCEDE,
                                      EntryKind.CHALLENGE)}  # fmt: skip
        if kind not in kinds:
            raise ServiceError(M("unknown answer {answer}", answer=repr(kind)))
        row, state = await self.book.load(channel_id)
        pending = state.draw_offer if kind.startswith("draw") else state.declaration
        if row.id != match_id or pending is None or pending.seq != question:
            raise NotAllowed(M("that question has been settled already: only the latest one can be answered"))
        if kinds[kind] is EntryKind.CONCEDE:
            return await self.concede(channel_id, user_id, confirmed=True)
        return await self.propose(channel_id, Entry(kinds[kind], user_id))

    # --- replies ----------------------------------------------------------------------
    async def proposal_reply(
        self, row: MatchRow, before: MatchState, after: MatchState, entry: Entry, events: tuple[Any, ...]
    ) -> Reply:
        headline, awaiting = offer_text(before, after, entry)
        if after.is_over:
            return await self.board_reply(row, after, headline, recent=[events] if events else None)
        answers: tuple[str, ...] = ()
        question = None
        proposal = after.proposal
        if proposal is not None and entry.kind in (EntryKind.DRAW_OFFER, EntryKind.DRAW_ACCEPT, EntryKind.DECLARE,
                                                   EntryKind.CONCEDE):  # fmt: skip
            answers = (("draw_accept", "draw_decline") if proposal.kind is ProposalKind.DRAW
                       else ("concede", "challenge"))  # fmt: skip
            question = proposal.seq
        return Reply(
            headline, mentions=awaiting, match_id=row.id, game=row.game, version=after.board_version,
            answers=answers, question=question,
        )  # fmt: skip

    async def board_reply(
        self, row: MatchRow, after: MatchState, headline: str, *, recent: Sequence[Sequence[Any]] | None = None
    ) -> Reply:
        """A board post: what happened, then who acts next (or the result), pinging them."""
        outcome = after.rules.outcome(after.game)
        scores = texts.scores_text(after)
        if outcome is not None:
            headline = _without_result(headline, outcome.summary)
            text = f"{headline}\n**{texts.sentence(outcome.summary)}** {texts.seating_text(after)}"
            if scores:
                text += f"\n{scores}"
            if row.rated and rating_gate.ended_early(after):
                text += f"\n{rating_gate.early_note()}"
            mentions = tuple(sorted(after.players))
        else:
            text = ""  # written below, with the clocks line
            actor = after.acting_user()
            pending = [uid for s in after.setup_pending() if (uid := after.seats.get(s)) is not None]
            mentions = (actor,) if actor is not None else tuple(pending)
        timed = await clocks.board_clocks(self.book.storage, row, after, self.book.clock.now())
        image: Image | None = await self.book.render(after, recent_actions(after) if recent is None else recent,
                                                     clocks=timed.picture)  # fmt: skip
        image = timed.describe(image)
        if outcome is None:  # the ping stays last, where the eye ends
            text = "\n".join(line for line in (headline, scores, timed.line, texts.next_text(after)) if line)
        return Reply(
            text, image=image, mentions=mentions, match_id=row.id, game=row.game, version=after.board_version,
            actionable=outcome is None and after.to_act is not None, setup=after.in_setup() and outcome is None,
            rematch=outcome is not None,
        )  # fmt: skip

    # --- what a player may do now -------------------------------------------------------
    async def legal_actions(self, channel_id: int, user_id: int) -> list[Any]:
        """What this user may play right now (nothing when it is not their turn)."""
        try:
            row, state = await self.book.load(channel_id)
        except ServiceError:
            return []
        if row.status != "active" or state.acting_user() != user_id:
            return []
        return list(state.rules.legal_actions(state.game))

    async def panel_actions(self, channel_id: int, match_id: int, board_version: int, user_id: int) -> list[Any]:
        """The legal actions behind a board's buttons, if that board is current and it is the user's turn."""
        try:
            row: MatchRow | None
            row, state = await self.book.load(channel_id)
        except ServiceError:
            row = None
        if row is None or row.id != match_id or state.board_version != board_version or state.is_over:
            latest = row if row is not None and row.id == match_id else None
            raise OutdatedBoard(
                latest.guild_id if latest else 0, channel_id, latest.board_message_id if latest else None
            )
        actor = state.acting_user()
        if actor != user_id:
            if user_id not in state.players:
                raise NotInMatch(M("you are not playing in this match"))
            if (left := state.left(user_id)) is not None:
                raise NotInMatch(left)
            seat = state.to_act
            if seat is None:
                raise NotYourTurn(M("the game has not begun: every side must set up first"))
            raise NotYourTurn(M("it is not your turn: {seat} is played by {who}", seat=state.seat_title(seat),
                                who=texts.holder_text(state, seat)))  # fmt: skip
        return list(state.rules.legal_actions(state.game))


def offer_text(before: MatchState, after: MatchState, entry: Entry) -> tuple[str, tuple[int, ...]]:
    """The headline for a move made away from the board, and who must now answer."""
    who = texts.mention(entry.user_id) if entry.user_id is not None else texts.party_text(before, entry.seat or "")
    slug = before.rules.slug
    proposal: Proposal | None = after.proposal
    claim = before.rules.claim
    if entry.kind in (EntryKind.DRAW_OFFER, EntryKind.DRAW_ACCEPT) and proposal is not None:
        waiting = _members(after.waiting_for(proposal))
        words: dict[str, Any] = {
            "who": who, "game": slug, "draw": texts.command("draw"), "choice": texts.option("choice"),
            "waiting": ", ".join(texts.party_text(after, p) for p in sorted(after.waiting_for(proposal), key=str)),
        }  # fmt: skip
        if entry.kind is EntryKind.DRAW_OFFER:
            said = M("{who} offers a draw. Waiting for {waiting}: /{game} {draw} {choice}:accept or "
                     "{choice}:decline.", **words)  # fmt: skip
        else:
            said = M("{who} accepts the draw. Waiting for {waiting}: /{game} {draw} {choice}:accept or "
                     "{choice}:decline.", **words)  # fmt: skip
        return str(said), waiting
    if entry.kind is EntryKind.DRAW_ACCEPT:
        return str(M("{who} accepts the draw. Everyone agreed.", who=who)), ()
    if entry.kind is EntryKind.DRAW_DECLINE:
        return str(M("{who} declined the draw; play goes on.", who=who)), ()
    if claim is not None and entry.kind in (EntryKind.DECLARE, EntryKind.CONCEDE) and proposal is not None:
        waiting = _members(after.waiting_for(proposal))
        words = {
            "who": who, "claim": claim.title, "side": after.side_title(proposal.side or ""), "game": slug,
            "waiting": ", ".join(texts.party_text(after, p) for p in sorted(after.waiting_for(proposal), key=str)),
            "concede": texts.command(claim.concede_verb), "challenge": texts.command(claim.challenge_verb),
        }  # fmt: skip
        if entry.kind is EntryKind.DECLARE:
            said = M("{who} declares **{claim}** for {side}! {waiting}: /{game} {concede}, or /{game} {challenge} "
                     "to play on.", **words)  # fmt: skip
        else:
            said = M("{who} concedes. {waiting}: /{game} {concede}, or /{game} {challenge} to play on.", **words)
        return str(said), waiting
    if claim is not None and entry.kind is EntryKind.DECLARE:
        side = (entry.text or "").strip().lower()
        losers = texts.joined([Term(s.title) for s in before.sides if s.slug != side])
        return str(M("{losers} conceded ({who} declared {claim} for {side}).", losers=losers, who=who,
                     claim=claim.title, side=before.side_title(side))), ()  # fmt: skip
    if entry.kind is EntryKind.CONCEDE:
        return str(M("{who} concedes.", who=who)), ()
    return str(M("{who} challenges the {claim} declaration: play goes on.", who=who,
                 claim=claim.title if claim else "")), ()  # fmt: skip


def _not_started(row: MatchRow) -> Message:
    return M("the match has not started yet: /{game} {start} once every seat is held", game=row.game,
             start=texts.command("start"))  # fmt: skip


def _without_result(headline: str, result: object) -> str:
    """The headline without a copy of the result at its end: the post states it in bold."""
    summary = str(result)
    bare = headline.rstrip(".!")
    # After a full stop the result starts a sentence: "… (the 2-day deadline). A Rojo se le acabó …".
    for tail in (f" — {summary}", f"; {summary}", f". {summary}", f". {summary[:1].upper()}{summary[1:]}"):
        if bare.endswith(tail.rstrip(".!")):
            return texts.sentence(bare[: -len(tail.rstrip(".!"))])
    return headline


def _members(parties: frozenset[Any]) -> tuple[int, ...]:
    return tuple(sorted(p for p in parties if isinstance(p, int)))
