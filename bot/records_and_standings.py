"""Replays of a match and the server's standings. Part of MatchService."""

from __future__ import annotations

import asyncio
from typing import Any

from bot import standings as elo
from bot.errors import NotAllowed, ServiceError
from bot.replies import Image, Reply
from bot.storage import matches as queries
from bot.texts import mention

REPLAY_ACTIONS_MAX = 300  # an animation longer than this would exceed Discord's upload limit


class RecordsAndStandings:
    """Mixin for MatchService: it relies on the service's db, loading and replay thread."""

    db: Any

    async def replay(self, guild_id: int, channel_id: int, last: int | None = None) -> Reply:
        row, state = await self._load(channel_id, open_only=False)
        if not state.played:
            raise NotAllowed("no actions have been played yet")
        if last is not None and last < 1:
            raise ServiceError("last must be at least 1")
        from render import REPLAY_FILENAME, render_replay

        total = len(state.played)
        shown = min(total if last is None else last, total, REPLAY_ACTIONS_MAX)
        record = state.record()
        loop = asyncio.get_running_loop()
        data = await loop.run_in_executor(self._replay_pool, lambda: render_replay(record, last=shown))
        scope = "the whole match" if shown == total else f"the last {shown} actions"
        if last is None and shown < total:
            scope += f" (an animation shows at most {REPLAY_ACTIONS_MAX})"
        return Reply(
            f"Replay of match #{row.id}: {scope}.",
            file=Image(data, REPLAY_FILENAME, f"Animated replay of Nika match #{row.id}, {shown} actions"),
            match_id=row.id,
        )

    async def standings(self, guild_id: int) -> list[elo.Standing]:
        async with self.db.reading() as db:
            matches = await queries.finished_rated_matches(db, guild_id)
        return elo.ranked(elo.standings(matches))

    async def stats(self, guild_id: int, user_id: int) -> Reply:
        table = await self.standings(guild_id)
        for place, standing in enumerate(table, start=1):
            if standing.user_id == user_id:
                return Reply(
                    f"{mention(user_id)}: rating **{standing.rating:.0f}** (#{place} of {len(table)}) — "
                    f"{standing.wins} won, {standing.losses} lost, {standing.draws} drawn in {standing.games} "
                    "rated matches."
                )
        return Reply(f"{mention(user_id)} has not finished a rated match on this server yet.")

    async def leaderboard(self, guild_id: int, user_id: int | None = None, size: int = 10) -> Reply:
        table = await self.standings(guild_id)
        if not table:
            return Reply("No rated match has finished on this server yet.")
        lines = [
            f"`{place:>2}.` **{s.rating:.0f}** {mention(s.user_id)} — {s.wins}W {s.losses}L {s.draws}D"
            for place, s in enumerate(table[:size], start=1)
        ]
        mine = next((i for i, s in enumerate(table, start=1) if s.user_id == user_id), None)
        if mine is not None and mine > size:
            s = table[mine - 1]
            lines.append(f"…\n`{mine:>2}.` **{s.rating:.0f}** {mention(s.user_id)} — {s.wins}W {s.losses}L {s.draws}D")
        return Reply("**Leaderboard** (Elo; a team is rated by its players' average)\n" + "\n".join(lines))
