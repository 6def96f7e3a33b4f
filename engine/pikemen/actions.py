"""Moves as typed values, their canonical notation, and a tolerant parser.

    a6-a3      charge        a6xa3      charge that captures
    a6-a3 u    charge, then stand upright (or turn to any direction: a6xa3 ne)
    b7 se      turn in place (reorient only)

On input `-` and `x` are the same and spaces are optional (`a6a3u`); orientations are
letters, English or Spanish words (`noreste`, `arriba`), arrows or emoji. Whether a charge
captures, or whether its turn is really one, depends on the position:
`PikemenGame.canonical` settles that.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.errors import NotationError
from engine.i18n import M
from engine.pikemen.geometry import Orientation, Square, direction_between, parse_square_name, square_name


@dataclass(frozen=True, slots=True)
class Charge:
    """Move a flat piece along the way it points; `orientation` is its turn afterwards
    (None: it keeps pointing the way it charged). `capture` is how it is written."""

    frm: Square
    to: Square
    orientation: Orientation | None = None
    capture: bool = False

    def notation(self) -> str:
        text = f"{square_name(self.frm)}{'x' if self.capture else '-'}{square_name(self.to)}"
        return text if self.orientation is None else f"{text} {self.orientation.letter}"


@dataclass(frozen=True, slots=True)
class Reorient:
    """Turn a piece where it stands to a different orientation."""

    square: Square
    orientation: Orientation

    def notation(self) -> str:
        return f"{square_name(self.square)} {self.orientation.letter}"


Action = Charge | Reorient

USAGE = M("write a charge like a6-a3 (a6-a3 ne to turn it afterwards) or a turn in place like b7 se")
# English and Spanish words and letters (`so`, `o`, `no`: suroeste, oeste, noroeste, which mean
# nothing else here); canonical output stays the English letters.
_WORDS: dict[str, Orientation] = {}
for _o, _names in {
    Orientation.N: ("n", "north", "norte", "↑"),
    Orientation.NE: ("ne", "northeast", "noreste", "↗"),
    Orientation.E: ("e", "east", "este", "→"),
    Orientation.SE: ("se", "southeast", "sureste", "sudeste", "↘"),
    Orientation.S: ("s", "south", "sur", "↓"),
    Orientation.SW: ("sw", "so", "southwest", "suroeste", "sudoeste", "↙"),
    Orientation.W: ("w", "o", "west", "oeste", "←"),
    Orientation.NW: ("nw", "no", "northwest", "noroeste", "↖"),
    Orientation.U: ("u", "up", "upright", "stand", "standing", "arriba", "depie", "▲"),
}.items():
    for _name in _names:
        _WORDS[_name] = _o
# Emoji arrows (their variation selectors are dropped first) read as the plain arrows.
_EMOJI = str.maketrans({"⬆": "↑", "➡": "→", "⬇": "↓", "⬅": "←", "\ufe0f": None, "\ufe0e": None,
                        "×": "x", "–": "-", "—": "-"})  # fmt: skip
# Compass words written in two parts ("north east", "sur-oeste", "de pie") become one.
_COMPASS = re.compile(r"(north|south)[\s_-]*(east|west)|\b(nor|sur|sud)[\s_-]+(este|oeste)\b|\b(de)[\s_-]+(pie)\b")
_TOKEN = re.compile(r"\s*(?:(?P<square>[a-z]\d+)|(?P<sep>[-x:])|(?P<word>[a-z]+|[↑↗→↘↓↙←↖▲])|(?P<other>\S))")
_FILLERS = frozenset({"to", "then", "and", "charge", "turn", "move", "facing", "pointing",
                      "a", "hasta", "hacia", "luego", "y", "cargar", "girar"})  # fmt: skip


def shown(text: str, limit: int = 30) -> str:
    """What a player typed, quoted and cut short, for an error message."""
    text = text.strip()
    return repr(text if len(text) <= limit else text[: limit - 1] + "…")


def _joined(text: str) -> str:
    return _COMPASS.sub(lambda match: "".join(part for part in match.groups() if part), text)


def parse_orientation(text: str) -> Orientation:
    key = _joined(text.translate(_EMOJI).strip().lower())
    found = _WORDS.get(key)
    if found is None:
        raise NotationError(
            M("{text} is not an orientation: use n, ne, e, se, s, sw, w, nw, or u for upright", text=shown(text))
        )
    return found


def parse_square(text: str) -> Square:
    sq = parse_square_name(text.strip())
    if sq is None:
        raise NotationError(M("{text} is not a square: files run a–h and ranks 1–8, like b7", text=shown(text)))
    return sq


def parse_action(text: str) -> Action:
    """A move from notation, tolerantly; NotationError says how to write it otherwise."""
    normal = _joined(text.translate(_EMOJI).lower())
    squares: list[str] = []
    words: list[str] = []
    capture = False
    for match in _TOKEN.finditer(normal):
        if match.group("square"):
            if words:
                raise NotationError(M("the orientation comes last: {usage}", usage=USAGE))
            squares.append(match.group("square"))
        elif match.group("sep"):
            capture = capture or match.group("sep") == "x"
        elif match.group("word") and match.group("word") not in _FILLERS:
            words.append(match.group("word"))
        elif match.group("other"):
            raise NotationError(M("I can't read {text}: {usage}", text=shown(text), usage=USAGE))
    if not squares:
        if text.strip():
            raise NotationError(M("I can't read {text}: {usage}", text=shown(text), usage=USAGE))
        raise NotationError(M("a move is needed: {usage}", usage=USAGE))
    return _action(list(map(parse_square, squares)), [parse_orientation(word) for word in words], capture)


def _action(squares: list[Square], orientations: list[Orientation], capture: bool) -> Action:
    if len(squares) > 2:
        raise NotationError(M("a move names one or two squares: {usage}", usage=USAGE))
    if len(orientations) > 1:
        raise NotationError(M("give one orientation at the end, like a6-a3 ne"))
    orientation = orientations[0] if orientations else None
    if len(squares) == 1:
        if orientation is None:
            name = square_name(squares[0])
            raise NotationError(
                M("{square} alone is not a move: add where it charges (like a6-a3) or how it turns ({square} se)",
                  square=name)
            )  # fmt: skip
        return Reorient(squares[0], orientation)
    frm, to = squares
    if frm == to:
        raise NotationError(
            M("{frm}-{to} goes nowhere: a charge moves at least one square", frm=square_name(frm), to=square_name(to))
        )
    if direction_between(frm, to) is None:
        raise NotationError(
            M("{frm} to {to} is not a straight line: a pikeman charges along a rank, a file or a diagonal",
              frm=square_name(frm), to=square_name(to))
        )  # fmt: skip
    return Charge(frm, to, orientation, capture)
