"""A player's rating as players read it: the value with its provisional mark, and the history
chart for `/<game> stats user:` (`render.tables.chart`)."""

from __future__ import annotations

from bot.ratings.system import PROVISIONAL_MATCHES, Rating
from bot.ratings.table import PlayerRating
from engine.i18n import M, P
from render.tables.chart import RatingChart, sample_points


def shown(player: PlayerRating) -> str:
    """"1432", or "1102?" while provisional (as chess sites mark it)."""
    return f"{player.display}?" if player.provisional else str(player.display)


def record_note(player: PlayerRating) -> str:
    if player.provisional:
        return str(P("provisional: {count} of {needed} rated match", "provisional: {count} of {needed} rated matches",
                     count=player.matches, needed=PROVISIONAL_MATCHES))  # fmt: skip
    return str(M("{wins} won · {losses} lost · {draws} drawn", wins=player.wins, losses=player.losses,
                 draws=player.draws))  # fmt: skip


def history_chart(player: PlayerRating, name: str, game: str) -> RatingChart:
    """The chart of `player`'s rating from their first rated match to now."""
    points = [Rating(), *(h.rating for h in player.history)]
    keep = sample_points([r.display for r in points])
    return RatingChart(
        str(M("{name} · {game}", name=name, game=game)), shown(player),
        tuple(points[i].display for i in keep), tuple(points[i].estimate for i in keep), record_note(player),
    )  # fmt: skip
