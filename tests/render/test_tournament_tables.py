"""The standings picture and the rating chart: real PNG bytes, the same every time, readable
on a phone, with alt text; built from real standings and ratings."""

from __future__ import annotations

import io
from fractions import Fraction

import pytest
from PIL import Image

from bot.ratings import RatedResult, recompute
from bot.ratings.present import history_chart
from bot.tournament import Event, Format, standings
from bot.tournament.present import points_text, standings_lines, standings_table, subtitle
from engine.i18n import using
from render.tables import Column, Mark, Row, StandingsTable, rating_chart_image, standings_image
from render.tables import style as S
from render.tables.standings import MARGIN, MAX_ROWS, PLACE_WIDTH, ROW
from render.words import catalog
from tests.tournament.helpers import better_seed_wins, entrants, play

from .test_phone import PHONE, ink_rows, phone

NAMES = {1: "Ana", 2: "Bartholomew of the Northern Shores", 3: "Carla 🐉 Ruiz", 4: "Dmitri", 5: "Eleni Παπαδοπούλου",
         6: "Guo 郭", 7: "Hannah", 8: "Ilse"}  # fmt: skip


def decoded(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    assert image.format == "PNG"
    return image


def swiss_standings():
    event = Event(Format.SWISS, entrants(8), seed=1, rounds=3)
    state, _ = play(event, better_seed_wins, withdraw={6: 2})
    return event, standings(state)


def test_points_are_written_as_players_read_them() -> None:
    assert [points_text(Fraction(n, 2)) for n in range(5)] == ["0", "½", "1", "1½", "2"]
    assert points_text(Fraction(7, 3)) == "2.33"
    with using(catalog("es")):
        assert points_text(Fraction(7, 3)) == "2,33" and points_text(Fraction(5, 2)) == "2½"


def test_the_standings_picture_is_deterministic_and_readable_on_a_phone() -> None:
    event, table = swiss_standings()
    shape = standings_table("Spring Swiss", subtitle("Nika", event, 3, True), event, table, NAMES, finished=True,
                            viewer=4)  # fmt: skip
    first, second = standings_image(shape), standings_image(shape)
    assert first.png == second.png  # the same table, the same bytes
    image = decoded(first.png)
    assert image.width == 720 and image.mode == "P"
    assert [row.mark for row in shape.rows][:1] == [Mark.WINNER]
    assert Mark.WITHDRAWN in [row.mark for row in shape.rows] and Mark.YOU in [row.mark for row in shape.rows]
    small, scale = phone(image.convert("RGB"))
    assert small.width == PHONE
    top = image.height - 18 - ROW * len(shape.rows)
    for index in range(len(shape.rows)):
        y = top + ROW * index
        names = (MARGIN + PLACE_WIDTH + 4, y + 8, MARGIN + PLACE_WIDTH + 120, y + ROW - 8)
        points = (720 - MARGIN - 4 * 92, y + 8, 720 - MARGIN - 3 * 92, y + ROW - 8)
        background = small.getpixel((int((MARGIN + 2) * scale), int((y + 3) * scale)))
        for box in (names, points):
            rows, _ = ink_rows(small, [v * scale for v in box], background, ratio=3.0)
            assert rows >= 7, (index, box, rows)  # a name and a score still stand 7+ pixels tall on a phone


def test_the_alt_text_reads_every_row_with_its_columns() -> None:
    event, table = swiss_standings()
    shape = standings_table("Spring Swiss", subtitle("Nika", event, 3, True), event, table, NAMES, finished=True)
    alt = standings_image(shape).alt_text
    assert alt.startswith("Standings of Spring Swiss, Nika · Swiss · final standings. 1. Ana: points 3, Buchholz")
    assert "Carla 🐉 Ruiz" in alt and "(withdrawn)" in alt and len(alt) <= 1024
    lines = standings_lines(event, table, {e: f"<@{e}>" for e in NAMES})
    assert lines[0].startswith("1. <@1> — Pts 3 · Bh ") and len(lines) == 8


def test_names_the_font_cannot_draw_lose_those_characters_only() -> None:
    assert S.drawable_name("Carla 🐉 Ruiz") == "Carla Ruiz"
    assert S.drawable_name("Guo 郭") == "Guo"
    assert S.drawable_name("Eleni Παπαδοπούλου") == "Eleni Παπαδοπούλου"
    assert S.drawable_name("Zoë Ñúñez") == "Zoë Ñúñez"


def test_spanish_standings() -> None:
    event, table = swiss_standings()
    with using(catalog("es")):
        shape = standings_table("Suizo de primavera", subtitle("Nika", event, 2, False), event, table, NAMES)
        rendered = standings_image(shape)
    assert [c.header for c in shape.columns] == ["Ptos", "Bh", "BhM", "PG"]
    assert shape.subtitle == "Nika · suizo · ronda 2 de 3"
    assert rendered.alt_text.startswith("Clasificación de Suizo de primavera, Nika · suizo · ronda 2 de 3. 1. Ana:")
    assert "(se retiró)" in rendered.alt_text


def test_a_picture_is_a_page_of_twenty_rows_and_says_how_many_follow() -> None:
    many = tuple(Row(i, False, f"Player {i}", (str(i),)) for i in range(1, MAX_ROWS + 1))
    shape = StandingsTable("Big Swiss", "Nika · Swiss · round 3 of 8", (Column("Pts", "points"),), many, more=180)
    image = decoded(standings_image(shape).png)
    assert image.height < 1200
    assert standings_image(shape).alt_text.endswith("… and 180 more")
    with pytest.raises(ValueError, match="at most 20 rows"):
        StandingsTable("x", "y", (), tuple(Row(i, False, "p", ()) for i in range(MAX_ROWS + 1)))


def test_knockout_rows_name_the_round_reached() -> None:
    event = Event(Format.KNOCKOUT, entrants(8))
    state, _ = play(event, better_seed_wins)
    shape = standings_table("Cup", subtitle("Numica", event, 3, True), event, standings(state), NAMES, finished=True)
    assert [row.cells[0] for row in shape.rows] == ["champion", "final", "semi-final", "semi-final",
                                                    "quarter-final", "quarter-final", "quarter-final",
                                                    "quarter-final"]  # fmt: skip
    assert decoded(standings_image(shape).png).width == 720


def test_the_rating_chart_is_deterministic_readable_and_described() -> None:
    results = [RatedResult(i, ((1,), (2 + i % 3,)), (1, 2) if i % 4 else (2, 1)) for i in range(24)]
    player = recompute(results)[1]
    chart = history_chart(player, "Ana", "Nika")
    first, second = rating_chart_image(chart), rating_chart_image(chart)
    assert first.png == second.png
    image = decoded(first.png)
    assert image.size == (640, 300)
    small, scale = phone(image.convert("RGB"))
    rows, _ = ink_rows(small, [v * scale for v in (460, 14, 620, 54)], S.PARCHMENT)
    assert rows >= 12  # the current value, large on the phone too
    assert first.alt_text.startswith(f"Rating history of Ana · Nika: {player.display} after 24 rated matches; "
                                     "it started at 1000")  # fmt: skip
