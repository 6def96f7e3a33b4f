"""Standings as players read them: the picture's table (`render.tables.standings`) and the
text version, in the active language. Names are given by the caller (display names for the
picture, mentions for text); nothing here looks anything up.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from bot.tournament import knockout, round_robin
from bot.tournament.model import EntrantId, Event, Format
from bot.tournament.standings import Standing, TieBreak
from engine.i18n import M, Message, active
from render.tables.standings import MAX_ROWS, Column, Mark, Row, StandingsTable

FORMAT_NAMES: dict[Format, Message] = {
    Format.ROUND_ROBIN: M("round robin"),
    Format.SWISS: M("Swiss"),
    Format.KNOCKOUT: M("knockout"),
    Format.PODS: M("pods"),
}

# (short header, name written out) of each column.
_POINTS = (M("Pts"), M("points"))
_PLAYED = (M("Played"), M("games played"))
_WON = (M("Won"), M("games won"))
_REACHED = (M("Reached"), M("round reached"))
_TIE_BREAK_WORDS: dict[TieBreak, tuple[Message, Message]] = {
    TieBreak.BUCHHOLZ: (M("Bh"), M("Buchholz")),
    TieBreak.MEDIAN_BUCHHOLZ: (M("MBh"), M("median Buchholz")),
    TieBreak.SONNEBORN_BERGER: (M("SB"), M("Sonneborn–Berger")),
    TieBreak.WINS: _WON,
}
_COLUMNS: dict[Format, tuple[tuple[str, int], ...]] = {
    # (what the column holds, its width in the picture)
    Format.SWISS: (("points", 92), (TieBreak.BUCHHOLZ, 92), (TieBreak.MEDIAN_BUCHHOLZ, 92), (TieBreak.WINS, 92)),
    Format.ROUND_ROBIN: (("points", 92), (TieBreak.SONNEBORN_BERGER, 92), (TieBreak.WINS, 92), ("played", 92)),
    Format.PODS: (("points", 92), (TieBreak.BUCHHOLZ, 92), (TieBreak.WINS, 92), ("played", 92)),
    Format.KNOCKOUT: (("reached", 180), (TieBreak.WINS, 92)),
}


def points_text(value: Fraction) -> str:
    """3, 3½, ½, or two decimals (2.33; 2,33 in Spanish) for thirds and finer."""
    whole, rest = divmod(value, 1)
    if rest == 0:
        return str(int(whole))
    if rest == Fraction(1, 2):
        return f"{int(whole)}½" if whole else "½"
    text = f"{float(value):.2f}"
    return text.replace(".", ",") if active().locale != "en" else text


def round_reached(event: Event, standing: Standing) -> str:
    """"champion", "final", "semi-final", … for a knockout row: the last round played or being played."""
    total = knockout.rounds_in(len(event.entrants))
    reached = int(standing.tie_breaks.get(TieBreak.ROUND_REACHED, 0))
    if reached > total:
        return str(M("champion"))
    left = total - reached  # rounds after this one
    if left == 0:
        return str(M("final"))
    if left == 1:
        return str(M("semi-final"))
    if left == 2:
        return str(M("quarter-final"))
    return str(M("round {number}", number=max(reached, 1)))


def subtitle(game: str, event: Event, rounds_paired: int, finished: bool) -> str:
    """"Nika · Swiss · after round 3 of 5", or "… · final standings"."""
    kind = FORMAT_NAMES[event.format]
    if finished:
        return str(M("{game} · {format} · final standings", game=game, format=kind))
    total = _total_rounds(event)
    if rounds_paired == 0:
        return str(M("{game} · {format} · not started", game=game, format=kind))
    if total is None:
        return str(M("{game} · {format} · round {round}", game=game, format=kind, round=rounds_paired))
    return str(M("{game} · {format} · round {round} of {total}", game=game, format=kind, round=rounds_paired,
                 total=total))  # fmt: skip


def _total_rounds(event: Event) -> int | None:
    if event.format is Format.ROUND_ROBIN:
        return round_robin.rounds_in(event)
    if event.format is Format.KNOCKOUT:
        return knockout.rounds_in(len(event.entrants))
    return event.rounds


def _cell(event: Event, standing: Standing, key: str) -> str:
    if key == "points":
        return points_text(standing.points)
    if key == "played":
        return str(standing.played)
    if key == "reached":
        return round_reached(event, standing)
    if key == TieBreak.WINS:
        return str(standing.wins)
    return points_text(standing.tie_breaks.get(TieBreak(key), Fraction(0)))


def _words(key: str) -> tuple[Message, Message]:
    if key == "points":
        return _POINTS
    if key == "played":
        return _PLAYED
    if key == "reached":
        return _REACHED
    return _TIE_BREAK_WORDS[TieBreak(key)]


def standings_table(title: str, subtitle_text: str, event: Event, table: Sequence[Standing],
                    names: Mapping[EntrantId, str], *, finished: bool = False, viewer: EntrantId | None = None,
                    page: int = 0) -> StandingsTable:  # fmt: skip
    """One page (`MAX_ROWS` rows) of the standings as the picture shows them."""
    keys = _COLUMNS[event.format]
    columns = tuple(Column(str(_words(k)[0]), str(_words(k)[1]), width) for k, width in keys)
    shown = table[page * MAX_ROWS : (page + 1) * MAX_ROWS]
    rows = []
    for standing in shown:
        mark = Mark.NONE
        if standing.withdrawn:
            mark = Mark.WITHDRAWN
        elif finished and standing.place == 1:
            mark = Mark.WINNER
        elif standing.entrant == viewer:
            mark = Mark.YOU
        note = str(M("withdrawn")) if standing.withdrawn else ""
        rows.append(Row(standing.place, standing.shared, names.get(standing.entrant, str(standing.entrant)),
                        tuple(_cell(event, standing, k) for k, _ in keys), mark, note))  # fmt: skip
    more = max(0, len(table) - (page + 1) * MAX_ROWS)
    return StandingsTable(title, subtitle_text, columns, tuple(rows), more)


def standings_lines(event: Event, table: Sequence[Standing], names: Mapping[EntrantId, str]) -> list[str]:
    """The standings as text, a line per entrant: "3=. @Ana — Pts 3½ · Bh 12 · MBh 8½ · Won 3"."""
    keys = _COLUMNS[event.format]
    lines = []
    for standing in table:
        place = f"{standing.place}=" if standing.shared else str(standing.place)
        cells = " · ".join(f"{_words(k)[0]} {_cell(event, standing, k)}" for k, _ in keys)
        line = f"{place}. {names.get(standing.entrant, str(standing.entrant))} — {cells}"
        if standing.withdrawn:
            line += f" ({M('withdrawn')})"
        lines.append(line)
    return lines
