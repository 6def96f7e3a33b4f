"""The central plaque: whose turn it is and how many actions are left, or the result.

Panels are drawn per (size, status, language) and cached: a game only ever shows
a few dozen different ones. Sizes come from the layout, so the plaque adapts to the
rotated perspectives where it stands upright. Words are templates of the active
language; the city's name is drawn large wherever its template puts it.
"""

from __future__ import annotations

from PIL import Image

from engine.i18n import M, Message, P
from engine.nika.board import City, Team
from engine.nika.state import Outcome, Reason
from render import fonts, typeset
from render.canvas import Canvas, Point
from render.compose import Picture
from render.memo import built_once
from render.nika import colours as C
from render.nika import sprites
from render.nika.emblems import laurel

CLEAR = (0, 0, 0, 0)
NAME_SIZE = 44
LINE_SIZE = 30  # "to act" and the actions left
PIP_RADIUS = 8.5
_CITY = "\0"  # stands for the city's name while its template is split around it

_REASON_TEXT = {
    Reason.VICTORY: M("reached the victory area"),
    Reason.CONCESSION: M("declared Nika · conceded"),
    Reason.RESIGNATION: M("won by resignation"),
    Reason.YIELDED: M("the opponents conceded"),
    Reason.PASSES: M("four turns of passes"),
    Reason.REPETITION: M("position repeated three times"),
    Reason.AGREEMENT: M("agreed by all players"),
}


def _around_city() -> tuple[str, str]:
    """The words before and after the city's name in "{city} to act" ("", "to act"; "Turno de", "")."""
    before, _, after = str(M("{city} to act", city=_CITY)).partition(_CITY)
    return before.strip(), after.strip()


def _fit(text: str, width: float, size: float, weight: int = 700, *, plain: bool = False) -> float:
    """The largest size up to `size` at which `text` fits in `width` pixels."""
    font = fonts.plain(100) if plain else fonts.display(100, weight)
    return min(size, width * 100 / max(font.getlength(text), 1e-6))


def _shield(canvas: Canvas, centre: Point, radius: float, city: City) -> None:
    """A big shield, lifted off the plaque by its shadow."""
    canvas.circle((centre[0] + 1, centre[1] + 2.5), radius + 2, (0, 0, 0, 70))
    sprites.shield(canvas, centre, radius, city, outline=min(2.5, radius * 0.1))


def _pips(canvas: Canvas, centre: Point, left: int, radius: float = 6.5) -> None:
    """Two action pips: filled for actions still to play, hollow for the one used."""
    x, y = centre
    for i in range(2):
        px = x + (i - 0.5) * radius * 3
        if i < left:
            canvas.circle((px, y), radius, C.MEANDER, outline=C.INK, width=1.2)
        else:
            canvas.circle((px, y), radius, None, outline=C.LABEL, width=1.6)


def _turn_shield_radius(height: int) -> float:
    return min(height * 0.36, 40)


def text_column(size: tuple[int, int]) -> int:
    """Where the turn panel's words start: right of the shield on a wide plaque, else at the left."""
    width, height = size
    return round(_turn_shield_radius(height) * 2 + 40) if width >= height else 0


@built_once
def turn_panel(size: tuple[int, int], city: City, actions_left: int) -> Image.Image:
    """'ATHENS to act', the city's shield, and the actions left in words and as two pips.

    Every line is heavy and large enough to read when Discord shows the board 400 px wide."""
    width, height = size
    canvas = Canvas(size, CLEAR, scale=3)
    name = str(city.term).upper()
    before, after = _around_city()
    if width >= height:
        actions = str(P("{count} action left", "{count} actions left", count=actions_left))
        radius = _turn_shield_radius(height)
        _shield(canvas, (radius + 14, height / 2), radius, city)
        x = text_column(size)
        room = width - x - 10
        # The name and the words around it share a line, shrunk together if a long name needs it.
        gap = 12
        parts = ((before, LINE_SIZE), (name, NAME_SIZE), (after, LINE_SIZE))
        words = [(text, points) for text, points in parts if text]
        natural = _length(*words[0], 800)
        for text, points in words[1:]:
            natural = natural + gap + _length(text, points, 800)
        shrink = min(1.0, room / natural)
        baseline = height * 0.44
        left: float = x
        for text, points in words:
            canvas.text((left, baseline), text, points * shrink, C.INK, weight=800, anchor="ls")
            left = left + (_length(text, points, 800) + gap) * shrink
        pips = PIP_RADIUS * 5
        line = _fit(actions, room - pips - 8, LINE_SIZE, 800)
        canvas.text((x, height * 0.78), actions, line, C.INK, weight=800, anchor="ls")
        _pips(canvas, (width - 10 - pips / 2, height * 0.78 - line * 0.35), actions_left, PIP_RADIUS)
    else:
        radius = min(width * 0.32, 40)
        _shield(canvas, (width / 2, radius + 16), radius, city)
        y = radius * 2 + 58
        # Two lines: the name and the words after it, or the words before it and the name.
        lines = [(name, 30), (after, 26)] if not before else [(before, 26), (name, 30)]
        for offset, (text, most) in zip((0, 38), lines, strict=True):
            canvas.text((width / 2, y + offset), text, _fit(text, width - 12, most, 800), C.INK, weight=800)
        _pips(canvas, (width / 2, y + 82), actions_left, PIP_RADIUS)
        # The actions left on two lines, as the language breaks them ("2 actions" / "left").
        rows = str(P("{count} action\nleft", "{count} actions\nleft", count=actions_left)).split("\n")
        letters = min(_fit(row, width - 12, 24, 800) for row in rows)
        for index, row in enumerate(rows):
            canvas.text((width / 2, y + 122 + letters * 1.25 * index), row, letters, C.INK, weight=800)
    return canvas.result()


def _length(text: str, size: float, weight: int) -> float:
    return fonts.display(100, weight).getlength(text) * size / 100


@built_once
def result_panel(size: tuple[int, int], winner: Team | None, reason: Reason) -> Image.Image:
    """The banner that replaces the turn panel when the game is over: 'Nika!' and the
    winners' shields in laurels, or 'Draw' over all four shields; then how it ended."""
    width, height = size
    canvas = Canvas(size, CLEAR, scale=3)
    ribbon = C.mix(C.BRONZE, C.WHITE, 0.55) if winner is not None else C.mix(C.PANEL, C.LABEL, 0.12)
    canvas.rect((0, 0, width, height), C.BRONZE_DARK, radius=6)
    canvas.rect((2.5, 2.5, width - 2.5, height - 2.5), ribbon, radius=4)
    detail = str(_REASON_TEXT.get(reason, ""))
    if width >= height:
        _result_wide(canvas, size, winner, detail)
    else:
        _result_tall(canvas, size, winner, detail)
    return canvas.result()


def _result_wide(canvas: Canvas, size: tuple[int, int], winner: Team | None, detail: str) -> None:
    width, height = size
    middle, top_row = width / 2, height * 0.33
    if winner is None:
        canvas.text((middle, height * 0.3), str(M("DRAW")), 40, C.INK, weight=900)
        for i, city in enumerate(City):
            _shield(canvas, (middle + (i - 1.5) * 34, height * 0.61), 13, city)
    else:
        radius = min(height * 0.18, 24)
        for city, x in zip(winner.cities, (radius + 26, width - radius - 26), strict=True):
            laurel(canvas, (x, top_row + 2), radius + 8, C.OLIVE, leaves=6)
            _shield(canvas, (x, top_row), radius, city)
        canvas.text((middle, top_row), str(M("Nika!")), 40, C.INK, weight=900)
        line = str(_winners(winner)).upper()
        canvas.text((middle, height * 0.66), line, _fit(line, width - 24, 26, 800), C.INK, weight=800)
    canvas.text((middle, height * 0.87), detail, _fit(detail, width - 40, 16), C.LABEL)


def _result_tall(canvas: Canvas, size: tuple[int, int], winner: Team | None, detail: str) -> None:
    width, height = size
    middle = width / 2
    title = str(M("DRAW") if winner is None else M("NIKA!"))
    y = height / 2 - (110 if winner is None else 190)
    canvas.text((middle, y), title, _fit(title, width - 14, 32, 900), C.INK, weight=900)
    y += 48
    if winner is None:
        for city in City:
            _shield(canvas, (middle, y + 6), 15, city)
            y += 40
        y += 10
    else:
        for city in winner.cities:
            name = str(city.term).upper()
            laurel(canvas, (middle, y + 26), 32, C.OLIVE, leaves=6)
            _shield(canvas, (middle, y + 24), 24, city)
            canvas.text((middle, y + 78), name, _fit(name, width - 14, 24, 800), C.INK, weight=800)
            y += 112
        canvas.text((middle, y), str(M("WIN")), 26, C.INK, weight=800)
        y += 44
    words = detail.split(" ")
    half = (len(words) + 1) // 2
    for part in (" ".join(words[:half]), " ".join(words[half:])):
        canvas.text((middle, y), part, _fit(part, width - 16, 16), C.LABEL)
        y += 22


def _winners(team: Team) -> Message:
    """The banner's line under "Nika!": "Athens & Messene win"."""
    first, second = (city.term for city in team.cities)
    return M("{first} & {second} win", first=first, second=second)


@built_once
def replay_panel(size: tuple[int, int], city: City | None) -> Image.Image:
    """A replay frame's plaque: the shield of the city that just acted, where the turn panel has
    the city to act; the frame's caption is set beside it (`set_caption`)."""
    width, height = size
    canvas = Canvas(size, CLEAR, scale=3)
    if city is not None:
        if width >= height:
            radius = _turn_shield_radius(height)
            _shield(canvas, (radius + 14, height / 2), radius, city)
        else:
            radius = min(width * 0.32, 40)
            _shield(canvas, (width / 2, radius + 16), radius, city)
    return canvas.result()


COUNTER = typeset.Face("mark", 20)
SENTENCE = typeset.Face("plain", 27)
SENTENCE_SMALLEST = 21  # on two lines; smaller than this, three lines


def set_caption(picture: Picture, box: tuple[int, int, int, int], caption: str, title: str | None) -> None:
    """A replay frame's or rules example's words on its plaque: small, which action of how many
    (or the `title`), then what it did, large enough to read on a phone, on up to two lines
    (three on an upright plaque)."""
    left, top, right, bottom = box
    head, middle, said = caption.partition(" · ")
    if not middle:  # no count: the title goes above what happened
        head, said = title or "", caption
    size = (right - left, bottom - top)
    if size[0] >= size[1]:
        x, room = left + text_column(size), right - left - text_column(size) - 12
        if typeset.fits(said, room, SENTENCE.smaller(SENTENCE_SMALLEST), 2):
            typeset.set_line(picture, typeset.line(head, COUNTER, C.LABEL), (x, top + 28))
            words = typeset.wrap(said, room, SENTENCE, C.INK, 2, SENTENCE_SMALLEST)
            for row, found in enumerate(words):
                typeset.set_line(picture, found, (x, top + (76 if len(words) == 1 else 64 + 33 * row)))
        else:  # a long sentence: three closer lines rather than type too small for a phone
            typeset.set_line(picture, typeset.line(head, COUNTER, C.LABEL), (x, top + 24))
            for row, found in enumerate(typeset.wrap(said, room, SENTENCE.smaller(23), C.INK, 3, 14)):
                typeset.set_line(picture, found, (x, top + 53 + 27 * row))
    else:
        centre, room = (left + right) / 2, right - left - 12
        y = top + round(min(size[0] * 0.32, 40) * 2 + 60)
        typeset.set_line(picture, typeset.line(head, COUNTER, C.LABEL), (centre, y), anchor="ms")
        for row, found in enumerate(typeset.wrap(said, room, SENTENCE.smaller(22), C.INK, 3, 14)):
            typeset.set_line(picture, found, (centre, y + 40 + 30 * row), anchor="ms")


def panel_for(size: tuple[int, int], city: City, actions_left: int, outcome: Outcome | None) -> Image.Image:
    if outcome is not None:
        return result_panel(size, outcome.winner, outcome.reason)
    return turn_panel(size, city, actions_left)
