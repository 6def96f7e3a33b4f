"""An event's standings as a picture, in the boards' style, with its alt text.

The caller gives the words already chosen (the event's title, column headers, each row's
cells as text: `bot/tournament/present.py` makes them); this module only lays them out. A
picture shows at most `MAX_ROWS` rows, a page of the standings: `more` says how many follow,
and the text standings list everyone.

Laid out for a phone: 720 pixels wide, so that on a 400-pixel screen names and numbers are
still 13 to 14 pixels tall.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from PIL import Image

from engine.i18n import M, P
from render import fonts
from render.api import ALT_TEXT_MAX, RenderedBoard
from render.canvas import Canvas
from render.encode import png_bytes
from render.memo import DRAWING
from render.tables import style as S

WIDTH = 720
MARGIN = 24
TITLE_SIZE = 34
SUBTITLE_SIZE = 20
HEADER_SIZE = 19
ROW = 46
NAME_SIZE = 24
CELL_SIZE = 25
PLACE_WIDTH = 64
CELL_WIDTH = 92
MAX_ROWS = 20
SCALE = 2  # drawn at twice the size, then shrunk: smooth edges at a fraction of the boards' cost


class Mark(Enum):
    NONE = "none"
    WINNER = "winner"  # the event is over and this row won it
    WITHDRAWN = "withdrawn"
    YOU = "you"  # the reader's own row


@dataclass(frozen=True, slots=True)
class Column:
    header: str  # short, drawn above the column ("Pts", "Bh")
    name: str  # written out, for the alt text ("points", "Buchholz")
    width: int = CELL_WIDTH  # wider for words ("semi-final")


@dataclass(frozen=True, slots=True)
class Row:
    place: int
    shared: bool  # the place is shared ("3=")
    name: str
    cells: tuple[str, ...]
    mark: Mark = Mark.NONE
    note: str = ""  # a few words after the name, e.g. "withdrawn"


@dataclass(frozen=True, slots=True)
class StandingsTable:
    title: str  # "Spring Swiss"
    subtitle: str  # "Nika · Swiss · after round 3 of 5"
    columns: tuple[Column, ...]
    rows: tuple[Row, ...]
    more: int = 0  # rows not shown (the next pages)

    def __post_init__(self) -> None:
        if len(self.rows) > MAX_ROWS:
            raise ValueError(f"a standings picture shows at most {MAX_ROWS} rows, not {len(self.rows)}")
        for row in self.rows:
            if len(row.cells) != len(self.columns):
                raise ValueError(f"row {row.place}: {len(row.cells)} cells for {len(self.columns)} columns")


def place_text(row: Row) -> str:
    return f"{row.place}=" if row.shared else str(row.place)


_MEDALS = {1: S.GOLD, 2: S.SILVER, 3: S.COPPER}


def picture(table: StandingsTable) -> Image.Image:
    head = MARGIN + TITLE_SIZE + 12 + SUBTITLE_SIZE + 26
    header_top = head + 14
    rows_top = header_top + HEADER_SIZE + 16
    footer = 40 if table.more else 18
    height = rows_top + ROW * max(len(table.rows), 1) + footer
    canvas = Canvas((WIDTH, height), S.PARCHMENT, scale=SCALE, mode="RGB")
    with DRAWING:  # the shared fonts serve one thread at a time
        _draw(canvas, table, head, header_top, rows_top)
    return canvas.image.reduce(SCALE)  # box-averaging by the drawing scale: as smooth here, and far faster


def _draw(canvas: Canvas, table: StandingsTable, head: int, header_top: int, rows_top: int) -> None:
    width = WIDTH
    canvas.text((MARGIN, MARGIN + TITLE_SIZE / 2), _fit_display(table.title, width - 2 * MARGIN, TITLE_SIZE),
                TITLE_SIZE, S.INK, weight=800, anchor="lm")  # fmt: skip
    subtitle = S.fit(table.subtitle, S.names_font(SUBTITLE_SIZE * SCALE), (width - 2 * MARGIN) * SCALE)
    _name(canvas, (MARGIN, MARGIN + TITLE_SIZE + 12 + SUBTITLE_SIZE / 2), subtitle, SUBTITLE_SIZE, S.LABEL)
    S.meander_band(canvas, (MARGIN, head - 8), width - 2 * MARGIN, 2.2, S.MEANDER)

    lefts = [width - MARGIN - sum(c.width for c in table.columns[i:]) for i in range(len(table.columns))]
    cells_left = lefts[0] if lefts else width - MARGIN
    y = header_top + HEADER_SIZE / 2
    canvas.text((MARGIN + PLACE_WIDTH / 2, y), "#", HEADER_SIZE + 2, S.LABEL, mark=True)
    canvas.text((MARGIN + PLACE_WIDTH + 4, y), str(M("Player")).upper(), HEADER_SIZE,
                S.LABEL, weight=700, anchor="lm")  # fmt: skip
    for column, left in zip(table.columns, lefts, strict=True):
        x = left + column.width / 2
        canvas.text((x, y), _fit_display(column.header.upper(), column.width - 6, HEADER_SIZE), HEADER_SIZE, S.LABEL,
                    weight=700)  # fmt: skip
    canvas.rect((MARGIN, rows_top - 5, width - MARGIN, rows_top - 3), S.BRONZE)

    if not table.rows:
        _name(canvas, (MARGIN + PLACE_WIDTH + 4, rows_top + ROW / 2), str(M("Nobody has entered yet.")), NAME_SIZE,
              S.MUTED)  # fmt: skip
    for index, row in enumerate(table.rows):
        top = rows_top + ROW * index
        background = S.HIGHLIGHT if row.mark is Mark.YOU else S.BAND if index % 2 else S.PANEL
        canvas.rect((MARGIN, top, width - MARGIN, top + ROW), background)
        ink = S.MUTED if row.mark is Mark.WITHDRAWN else S.INK
        middle = top + ROW / 2
        medal = _MEDALS.get(row.place)
        centre = (MARGIN + PLACE_WIDTH / 2, middle)
        if medal is not None and row.mark is not Mark.WITHDRAWN:
            canvas.circle(centre, 17, S.BRONZE_DARK)
            canvas.circle(centre, 15.5, medal)
            _text(canvas, centre, place_text(row), 17 if row.shared else 20, S.INK, anchor="mm", stroke=0.3)
        else:
            _text(canvas, centre, place_text(row), CELL_SIZE - 3, ink, anchor="mm")
        name_left = MARGIN + PLACE_WIDTH + 4
        room = (cells_left - name_left - 10) * SCALE
        font = S.names_font(NAME_SIZE * SCALE)
        name = S.fit(S.drawable_name(row.name) or "?", font, room)
        _text(canvas, (name_left, middle), name, NAME_SIZE, ink, anchor="lm",
              stroke=0.5 if row.mark is Mark.WINNER else 0)  # fmt: skip
        if row.note:
            used = font.getlength(name) / SCALE + 10
            note_room = (cells_left - name_left - 10 - used) * SCALE
            if note_room > 40 * SCALE:
                note = S.fit(row.note, S.names_font(17 * SCALE), note_room)
                _name(canvas, (name_left + used, middle + 1), note, 17, S.MUTED)
        for index, (column, left, cell) in enumerate(zip(table.columns, lefts, row.cells, strict=True)):
            bold = index == 0
            size = CELL_SIZE if bold else CELL_SIZE - 2
            text = S.fit(cell, S.names_font(size * SCALE), (column.width - 8) * SCALE)
            _text(canvas, (left + column.width / 2, middle), text, size, ink, anchor="mm", stroke=0.5 if bold else 0)
    bottom = rows_top + ROW * max(len(table.rows), 1)
    canvas.rect((MARGIN, bottom + 2, width - MARGIN, bottom + 4), S.BRONZE)
    if table.more:
        more = str(P("… and {count} more", "… and {count} more", count=table.more))
        _name(canvas, (MARGIN + PLACE_WIDTH + 4, bottom + 22), more, 18, S.LABEL)


def _name(canvas: Canvas, left_middle: tuple[float, float], text: str, size: float, ink: S.RGB) -> None:
    """Text in the names' font, placed by its left end and vertical middle."""
    _text(canvas, left_middle, text, size, ink, anchor="lm")


def _text(canvas: Canvas, at: tuple[float, float], text: str, size: float, ink: S.RGB, *, anchor: str,
          stroke: float = 0) -> None:  # fmt: skip
    """Text in the names' font (which also has ½ and the other fractions), placed by `anchor`."""
    x, y = at
    canvas.draw.text((x * SCALE, y * SCALE), text, font=S.names_font(round(size * SCALE)), fill=ink, anchor=anchor,
                     stroke_width=round(stroke * SCALE), stroke_fill=ink)  # fmt: skip


def _fit_display(text: str, width: float, size: float) -> str:
    font = fonts.display(round(size * SCALE), 700)
    return S.fit(text, font, width * SCALE)


def alt_text(table: StandingsTable) -> str:
    """The standings read out: the title, then each row with its place and every column."""
    parts = [str(M("Standings of {title}, {subtitle}.", title=table.title, subtitle=table.subtitle))]
    if not table.rows:
        parts.append(str(M("Nobody has entered yet.")))
    for index, row in enumerate(table.rows):
        cells = ", ".join(f"{column.name} {cell}" for column, cell in zip(table.columns, row.cells, strict=True))
        line = str(M("{place}. {name}: {cells}.", place=place_text(row), name=row.name, cells=cells))
        if row.note:
            line = line[:-1] + f" ({row.note})."
        left = len(table.rows) - index
        tail = str(P("… and {count} more", "… and {count} more", count=left + table.more))
        if sum(len(p) + 1 for p in parts) + len(line) + len(tail) + 2 > ALT_TEXT_MAX:
            parts.append(tail)
            break
        parts.append(line)
    else:
        if table.more:
            parts.append(str(P("… and {count} more", "… and {count} more", count=table.more)))
    return " ".join(parts)[:ALT_TEXT_MAX]


def standings_image(table: StandingsTable) -> RenderedBoard:
    """PNG bytes (the same bytes for the same table) and alt text."""
    return RenderedBoard(png_bytes(picture(table), S.palette()), alt_text(table))
