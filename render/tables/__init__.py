"""Pictures that are not boards: an event's standings table and a player's rating chart,
in the boards' style, as deterministic PNG bytes with alt text.

    standings_image(StandingsTable) -> RenderedBoard
    rating_chart_image(RatingChart) -> RenderedBoard
"""

from render.tables.chart import RatingChart, rating_chart_image
from render.tables.standings import Column, Mark, Row, StandingsTable, standings_image

__all__ = ["Column", "Mark", "RatingChart", "Row", "StandingsTable", "rating_chart_image", "standings_image"]
