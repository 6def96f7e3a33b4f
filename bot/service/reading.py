"""Reading matches: the board, status, history, the game record and its replay, a member's
waiting turns, and standings. Nothing here changes a match."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import islice
from typing import TYPE_CHECKING, Any

from bot import ratings, texts
from bot.errors import NotAllowed, ServiceError
from bot.match import MatchState, Played
from bot.replies import Image, Reply
from bot.service import clocks
from bot.service.book import MatchBook
from bot.service.heavy import HeavyReads
from bot.service.play import recent_actions
from bot.storage import matches as queries
from bot.storage import ratings as rating_rows
from engine.api import EndingKind
from engine.i18n import M, P, T, Term, active
from engine.record import GameRecord
from engine.registry import get_game

if TYPE_CHECKING:
    from render import ReplayFile

log = logging.getLogger(__name__)
HISTORY_PAGE_SIZE = 15
REPLAY_ACTIONS_MAX = 1000  # frames of one animation at most
REPLAY_BYTES_MAX = 9_500_000  # under Discord's 10 MB upload limit for a server without boosts
MY_GAMES_SHOWN = 20
ENDINGS: dict[EndingKind, Term] = {
    EndingKind.RESIGNATION: T("resignation", "ending"),
    EndingKind.TIMEOUT: T("timeout", "ending"),
    EndingKind.AGREEMENT: T("agreement", "ending"),
    EndingKind.CONCESSION: T("concession", "ending"),
}


@dataclass(frozen=True, slots=True)
class TurnInfo:
    """One of a user's matches where it is their turn (or their setup is owed)."""

    match_id: int
    channel_id: int
    game: str
    seat: str
    seat_title: str
    actions_left: int
    board_message_id: int | None
    updated_at: float
    setting_up: bool = False  # a secret setup is owed, not a move


def history_line(state: MatchState, number: int, played: Played) -> str:
    if played.action is not None:
        what = state.rules.describe(played.events or ())
    else:
        kind = ENDINGS[played.ending] if played.ending is not None else T("ending", "ending")
        what = f"{state.seat_title(played.seat)}: {kind}" + (f" ({state.rules.describe(played.events)})"
                                                              if played.events else "")  # fmt: skip
    if played.user_id is not None:
        who = texts.mention(played.user_id)
    elif played.seat in state.computers:
        who = str(M("the computer"))
    else:
        who = str(M("the host"))
    return f"`{number:>3}` {what} — {who}"


def events_of(record: GameRecord, first: int, count: int) -> list[Sequence[Any]]:
    """The events of played entries `first` to `first + count - 1`, by replaying the game record
    (linear, and only as far as needed)."""
    steps = islice(record.steps(), first + 1, first + 1 + count)
    return [list(events) for _, events in steps]


def replay_gif(record: GameRecord, last: int, locale: str, max_bytes: int) -> ReplayFile:
    """The last `last` actions as a GIF of at most `max_bytes`, drawn once (in a worker process)."""
    from render import replay_file

    return replay_file(record, last=last, locale=locale, max_bytes=max_bytes)


SMALL_REPLAY = 30  # frames: a replay this short is drawn in a thread, not worth a process
SMALL_HISTORY = 500  # entries to replay for an old history page, likewise


class Reading:
    def __init__(self, book: MatchBook, heavy: HeavyReads) -> None:
        self.book = book
        # Replays and old history pages are long jobs: queued per member, in a worker process.
        self.heavy = heavy

    async def close(self) -> None:
        await self.heavy.close()

    async def board(self, channel_id: int, user_id: int | None = None) -> Reply:
        row, state = await self.book.load(channel_id, open_only=False)
        mine = state.seats_of(user_id) if user_id is not None else []
        perspective = mine[0] if mine else None
        if row.status == "lobby":
            image = await self.book.render(state, perspective=perspective, read=True)
            return Reply(texts.lobby_text(state), image=image, match_id=row.id, game=row.game)
        shown: Image | None = await self.book.render(state, recent_actions(state), perspective=perspective, read=True)
        live = row.status == "active" and not state.is_over
        clock_line, shown = await clocks.clocked(self.book.storage, row, state, self.book.clock.now(), shown)
        text = "\n".join(line for line in (texts.status_text(row, state), clock_line) if line)
        return Reply(
            text, image=shown, match_id=row.id, game=row.game,
            version=state.board_version, actionable=live and state.to_act is not None, setup=live and state.in_setup(),
        )  # fmt: skip

    async def status(self, channel_id: int) -> Reply:
        row, state = await self.book.load(channel_id, open_only=False)
        text = texts.lobby_text(state) if row.status == "lobby" else texts.status_text(row, state)
        return Reply(text, match_id=row.id, game=row.game)

    async def history(self, channel_id: int, page: int = 1, user_id: int | None = None) -> Reply:
        row, state = await self.book.load(channel_id, open_only=False)
        pages = max(1, -(-len(state.played) // HISTORY_PAGE_SIZE))
        page = min(max(page, 1), pages)
        first = (page - 1) * HISTORY_PAGE_SIZE
        older = first < state.played.first_kept  # long ago: the steps are in the log only
        steps = await self.book.steps(row, state) if older else state.played.kept()
        shown = first - (0 if older else state.played.first_kept)
        chunk = steps[shown : shown + HISTORY_PAGE_SIZE]
        if not chunk:
            return Reply(str(M("No actions yet.")), match_id=row.id, game=row.game)
        if any(p.events is None for p in chunk):  # long ago: the events are no longer kept
            every = steps if older else await self.book.steps(row, state)
            record = await self.book.record(row, state, every)
            small = first + len(chunk) <= SMALL_HISTORY
            events = await self.heavy.run(user_id or 0, events_of, record, first, len(chunk), small=small)
            chunk = [replace(p, events=tuple(e)) for p, e in zip(chunk, events, strict=True)]
        lines = [history_line(state, number, p) for number, p in enumerate(chunk, start=first + 1)]
        if page < pages:
            title = M("**History**, page {page} of {pages} (/{game} {history} {page_option}:{next} for more)",
                      page=page, pages=pages, game=row.game, history=texts.command("history"),
                      page_option=texts.option("page"), next=page + 1)  # fmt: skip
        else:
            title = M("**History**, page {page} of {pages}", page=page, pages=pages)
        return Reply(f"{title}\n" + "\n".join(lines), match_id=row.id, game=row.game)

    async def export(self, channel_id: int) -> Reply:
        row, state = await self.book.load(channel_id, open_only=False)
        record = await self.book.record(row, state)
        data = await asyncio.to_thread(lambda: record.to_json().encode())  # a long match's: thousands of entries
        said = P(
            "The game record of match #{id}: {count} action. Start a casual copy with /{game} {new} {from_option}:"
            "<record> (or {record}:<this file>).",
            "The game record of match #{id}: {count} actions. Start a casual copy with /{game} {new} {from_option}:"
            "<record> (or {record}:<this file>).",
            count=len(state.played), id=row.id, game=row.game, new=texts.command("new"),
            from_option=texts.option("from"), record=texts.option("record"),
        )  # fmt: skip
        return Reply(
            str(said),
            file=Image(
                data, f"{row.game}-match-{row.id}.json", str(M("{game} game record (JSON)", game=state.rules.title))
            ),
            match_id=row.id,
            game=row.game,
        )

    async def replay(self, channel_id: int, last: int | None = None, user_id: int | None = None) -> Reply:
        self.heavy.check(user_id or 0)
        row, state = await self.book.load(channel_id, open_only=False)
        if not state.played:
            raise NotAllowed(M("no actions have been played yet"))
        if last is not None and last < 1:
            raise ServiceError(M("{last} must be at least 1", last=texts.option("last")))
        total = len(state.played)
        wanted = min(total if last is None else last, total, REPLAY_ACTIONS_MAX)
        record = await self.book.record(row, state)  # every step, older ones from the log
        language = active().locale  # the worker does not see this task's catalogue
        # One drawing pass: a match too long for one upload (none up to REPLAY_ACTIONS_MAX
        # actions in bench/render.py) opens at a later action instead of being drawn again.
        replay = await self.heavy.run(user_id or 0, replay_gif, record, wanted, language, REPLAY_BYTES_MAX,
                                      small=wanted <= SMALL_REPLAY)  # fmt: skip
        data, shown = replay.gif, replay.actions
        if replay.cut:
            said = P("Replay of match #{id}: the last {count} action (as many as fit in one upload).",
                     "Replay of match #{id}: the last {count} actions (as many as fit in one upload).",
                     count=shown, id=row.id)  # fmt: skip
        elif shown == total:
            said = M("Replay of match #{id}: the whole match.", id=row.id)
        else:
            said = P("Replay of match #{id}: the last {count} action.",
                     "Replay of match #{id}: the last {count} actions.", count=shown, id=row.id)  # fmt: skip
        described = P("Animated replay of {game} match #{id}, {count} action",
                      "Animated replay of {game} match #{id}, {count} actions", count=shown, game=state.rules.title,
                      id=row.id)  # fmt: skip
        return Reply(
            str(said),
            file=Image(data, f"{row.game}-match-{row.id}-replay.gif", str(described)),
            match_id=row.id,
            game=row.game,
        )  # fmt: skip

    async def my_turns(self, guild_id: int, user_id: int) -> list[TurnInfo]:
        async with self.book.storage.reading() as db:
            rows = await queries.open_matches_of(db, guild_id, user_id)
        found = []
        for row, seats in rows:
            if row.status != "active":
                continue
            try:
                rules = get_game(row.game)
                state = rules.load(row.position)
            except (ValueError, KeyError) as error:  # a damaged row, or a game no longer installed,
                # must not hide the member's other matches
                log.error("stored match does not load", extra={"match": row.id, "error": str(error)})
                continue
            setting_up = bool(rules.setup_pending(state))
            if setting_up:  # those who already chose in secret are not waited for
                _, match = await self.book.load_match(row.id)
                owed = [s for s in match.setup_pending() if s in seats]
                seat = owed[0] if owed else None
            else:
                seat = row.to_act if row.to_act in seats else None
            if seat is None:
                continue
            title = next((s.title for s in rules.seats(row.players) if s.slug == seat), seat)
            found.append(TurnInfo(row.id, row.channel_id, row.game, seat, title, rules.actions_left(state),
                                  row.board_message_id, row.updated_at, setting_up))  # fmt: skip
        return found

    async def standings(self, guild_id: int, game: str) -> list[ratings.PlayerRating]:
        """The server's OpenSkill table of a game (docs/tournaments.md, "Ratings"), as stored: each
        rated result is rated in the transaction that finishes its match (bot/storage/ratings.py).
        Which matches are rated is decided when they end (bot/rating_gate.py)."""
        get_game(game)  # an unknown game is refused here, as before
        async with self.book.storage.reading() as db:
            table = await rating_rows.table(db, guild_id, game)
        return ratings.ranked(table)

    async def stats(self, guild_id: int, user_id: int, game: str, *, name: str | None = None) -> Reply:
        from bot.ratings.present import history_chart, shown  # Pillow's charts: not before a first use

        table = await self.standings(guild_id, game)
        mine = next((p for p in table if p.user_id == user_id), None)
        if mine is not None:  # the chart's points, from the stored history
            async with self.book.storage.reading() as db:
                mine.history = await rating_rows.history(db, guild_id, game, user_id)
        title = get_game(game).title
        for place, standing in enumerate(table, start=1):
            if standing.user_id == user_id:
                text = str(P(
                    "{who} in {game}: rating **{rating}** (#{place} of {players}) — {wins} won, {losses} lost, "
                    "{draws} drawn in {count} rated match.",
                    "{who} in {game}: rating **{rating}** (#{place} of {players}) — {wins} won, {losses} lost, "
                    "{draws} drawn in {count} rated matches.",
                    count=standing.matches, who=texts.mention(user_id), game=title, rating=shown(standing),
                    place=place, players=len(table), wins=standing.wins, losses=standing.losses, draws=standing.draws,
                ))  # fmt: skip
                chart = history_chart(standing, name or f"#{user_id}", title)
                from render.tables import rating_chart_image

                drawn = await asyncio.to_thread(rating_chart_image, chart)
                image = Image(drawn.png, f"rating-{user_id}.png", drawn.alt_text[:1024])
                return Reply(text, image=image)
        return Reply(str(M("{who} has not finished a rated {game} match on this server yet.",
                           who=texts.mention(user_id), game=title)))  # fmt: skip

    async def leaderboard(self, guild_id: int, user_id: int | None, game: str, size: int = 10) -> Reply:
        from bot.ratings.present import shown

        rules = get_game(game)
        table = await self.standings(guild_id, game)
        if not table:
            return Reply(str(M("No rated {game} match has finished on this server yet.", game=rules.title)))

        def line(place: int, s: ratings.PlayerRating) -> str:
            tally = M("{wins}W {losses}L {draws}D", wins=s.wins, losses=s.losses, draws=s.draws)
            return f"`{place:>2}.` **{shown(s)}** {texts.mention(s.user_id)} — {tally}"

        lines = [line(place, s) for place, s in enumerate(table[:size], start=1)]
        mine = next((i for i, s in enumerate(table, start=1) if s.user_id == user_id), None)
        if mine is not None and mine > size:
            lines.append("…\n" + line(mine, table[mine - 1]))
        title = M("**{game} leaderboard** (OpenSkill; ? marks a provisional rating)", game=rules.title)
        return Reply(f"{title}\n" + "\n".join(lines))
