"""Reading matches: the board, status, history, the game record and its replay, a member's
waiting turns, and standings. Nothing here changes a match."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial

from bot import standings as elo
from bot import texts
from bot.errors import NotAllowed, ServiceError
from bot.match import MatchState, Played
from bot.replies import Image, Reply
from bot.service.book import MatchBook
from bot.service.play import recent_actions
from bot.storage import matches as queries
from engine.i18n import active
from engine.registry import get_game

HISTORY_PAGE_SIZE = 15
REPLAY_ACTIONS_MAX = 300  # frames of one animation at most
REPLAY_BYTES_MAX = 9_500_000  # under Discord's 10 MB upload limit for a server without boosts
MY_GAMES_SHOWN = 20


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
        what = state.rules.describe(played.events)
    else:
        kind = played.ending.value if played.ending is not None else "ending"
        what = f"{state.seat_title(played.seat)}: {kind}" + (f" ({state.rules.describe(played.events)})"
                                                              if played.events else "")  # fmt: skip
    who = texts.mention(played.user_id) if played.user_id is not None else "the host"
    if played.user_id is None and played.seat in state.computers:
        who = "the computer"
    return f"`{number:>3}` {what} — {who}"


class Reading:
    def __init__(self, book: MatchBook) -> None:
        self.book = book
        # Replays are long jobs: their own thread, so boards never queue behind them.
        self._replay_pool = ThreadPoolExecutor(1, thread_name_prefix="replay")

    async def close(self) -> None:
        await asyncio.to_thread(self._replay_pool.shutdown, wait=True)

    async def board(self, channel_id: int, user_id: int | None = None) -> Reply:
        row, state = await self.book.load(channel_id, open_only=False)
        mine = state.seats_of(user_id) if user_id is not None else []
        perspective = mine[0] if mine else None
        if row.status == "lobby":
            image = await self.book.render(state, perspective=perspective, read=True)
            return Reply(texts.lobby_text(state), image=image, match_id=row.id, game=row.game)
        image = await self.book.render(state, recent_actions(state), perspective=perspective, read=True)
        live = row.status == "active" and not state.is_over
        return Reply(
            texts.status_text(row, state), image=image, match_id=row.id, game=row.game,
            version=state.board_version, actionable=live and state.to_act is not None, setup=live and state.in_setup(),
        )  # fmt: skip

    async def status(self, channel_id: int) -> Reply:
        row, state = await self.book.load(channel_id, open_only=False)
        text = texts.lobby_text(state) if row.status == "lobby" else texts.status_text(row, state)
        return Reply(text, match_id=row.id, game=row.game)

    async def history(self, channel_id: int, page: int = 1) -> Reply:
        row, state = await self.book.load(channel_id, open_only=False)
        pages = max(1, -(-len(state.played) // HISTORY_PAGE_SIZE))
        page = min(max(page, 1), pages)
        first = (page - 1) * HISTORY_PAGE_SIZE
        chunk = state.played[first : first + HISTORY_PAGE_SIZE]
        if not chunk:
            return Reply("No actions yet.", match_id=row.id, game=row.game)
        lines = [history_line(state, number, p) for number, p in enumerate(chunk, start=first + 1)]
        more = f" (/{row.game} history page:{page + 1} for more)" if page < pages else ""
        return Reply(f"**History**, page {page} of {pages}{more}\n" + "\n".join(lines), match_id=row.id, game=row.game)

    async def export(self, channel_id: int) -> Reply:
        row, state = await self.book.load(channel_id, open_only=False)
        data = state.record().to_json().encode()
        return Reply(
            f"The game record of match #{row.id}: {texts.plural(len(state.played), 'action')}. "
            f"Start a casual copy with /{row.game} new from:<record> (or record:<this file>).",
            file=Image(data, f"{row.game}-match-{row.id}.json", f"{state.rules.title} game record (JSON)"),
            match_id=row.id,
            game=row.game,
        )

    async def replay(self, channel_id: int, last: int | None = None) -> Reply:
        row, state = await self.book.load(channel_id, open_only=False)
        if not state.played:
            raise NotAllowed("no actions have been played yet")
        if last is not None and last < 1:
            raise ServiceError("last must be at least 1")
        from render import render_replay

        total = len(state.played)
        shown = min(total if last is None else last, total, REPLAY_ACTIONS_MAX)
        record = state.record()
        loop = asyncio.get_running_loop()
        language = active().locale  # the worker thread does not see this task's catalogue
        draw = partial(render_replay, record, last=shown, locale=language)
        data = await loop.run_in_executor(self._replay_pool, draw)
        while len(data) > REPLAY_BYTES_MAX and shown > 1:
            # Frames of some games change more of the picture than others: fewer actions fit.
            shown = max(1, int(shown * REPLAY_BYTES_MAX / len(data) * 0.9))
            draw = partial(render_replay, record, last=shown, locale=language)
            data = await loop.run_in_executor(self._replay_pool, draw)
        scope = "the whole match" if shown == total else f"the last {shown} actions"
        if shown < min(total, last or total):
            scope += " (as many as fit in one upload)"
        return Reply(
            f"Replay of match #{row.id}: {scope}.",
            file=Image(data, f"{row.game}-match-{row.id}-replay.gif",
                       f"Animated replay of {state.rules.title} match #{row.id}, {shown} actions"),
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
            rules = get_game(row.game)
            state = rules.load(row.position)
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

    async def standings(self, guild_id: int, game: str = "nika") -> list[elo.Standing]:
        rules = get_game(game)
        async with self.book.storage.reading() as db:
            matches = await queries.finished_rated_matches(db, guild_id, game)
        return elo.ranked(elo.standings_of(rules, matches))

    async def stats(self, guild_id: int, user_id: int, game: str = "nika") -> Reply:
        table = await self.standings(guild_id, game)
        title = get_game(game).title
        for place, standing in enumerate(table, start=1):
            if standing.user_id == user_id:
                return Reply(
                    f"{texts.mention(user_id)} in {title}: rating **{standing.rating:.0f}** (#{place} of {len(table)})"
                    f" — {standing.wins} won, {standing.losses} lost, {standing.draws} drawn in "
                    f"{texts.plural(standing.games, 'rated match')}."
                )
        return Reply(f"{texts.mention(user_id)} has not finished a rated {title} match on this server yet.")

    async def leaderboard(self, guild_id: int, user_id: int | None = None, game: str = "nika", size: int = 10) -> Reply:
        rules = get_game(game)
        table = await self.standings(guild_id, game)
        if not table:
            return Reply(f"No rated {rules.title} match has finished on this server yet.")

        def line(place: int, s: elo.Standing) -> str:
            return f"`{place:>2}.` **{s.rating:.0f}** {texts.mention(s.user_id)} — {s.wins}W {s.losses}L {s.draws}D"

        lines = [line(place, s) for place, s in enumerate(table[:size], start=1)]
        mine = next((i for i, s in enumerate(table, start=1) if s.user_id == user_id), None)
        if mine is not None and mine > size:
            lines.append("…\n" + line(mine, table[mine - 1]))
        teams = any(len(side.seats) > 1 for side in rules.sides(max(rules.player_counts)))
        how = "Elo; a team is rated by its players' average" if teams else "Elo"
        return Reply(f"**{rules.title} leaderboard** ({how})\n" + "\n".join(lines))
