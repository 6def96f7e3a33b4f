"""Geometry of the Nika board: squares, regions, neighbours and the start layout.

Squares are ints on a 21 x 15 grid (files a-u, ranks 1-15); only 144 are in play.
Everything here is a precomputed table so the rules never recompute geometry.

Cities, teams and directions keep English titles for seats, records and storage; what
players read is their `term`, translated where it is read.
"""

from __future__ import annotations

from enum import IntEnum

from engine.i18n import M, Message, T, Term

FILES = "abcdefghijklmnopqrstu"
FILE_COUNT = 21
RANK_COUNT = 15
GRID_SIZE = FILE_COUNT * RANK_COUNT

Square = int
OFF_GRID: Square = -1


class City(IntEnum):
    """The four cities, in turn order (clockwise from Athens)."""

    ATHENS = 0
    SPARTA = 1
    MESSENE = 2
    THEBES = 3

    @property
    def letter(self) -> str:
        return "ASMT"[self]

    @property
    def title(self) -> str:
        return self.name.capitalize()

    @property
    def term(self) -> Term:
        """The city's name as players read it: "Athens", "Atenas"."""
        return _CITY_TERMS[self]

    @property
    def team(self) -> Team:
        return Team(self % 2)

    @property
    def ally(self) -> City:
        return City((self + 2) % 4)

    @property
    def forward(self) -> Direction:
        return CITY_FORWARD[self]

    def is_enemy_of(self, other: City) -> bool:
        return (self - other) % 2 == 1

    @classmethod
    def from_letter(cls, letter: str) -> City:
        return cls("ASMT".index(letter.upper()))


class Team(IntEnum):
    ATHENS_MESSENE = 0
    SPARTA_THEBES = 1

    @property
    def slug(self) -> str:
        return ("athens-messene", "sparta-thebes")[self]

    @property
    def title(self) -> str:
        return ("Athens–Messene", "Sparta–Thebes")[self]

    @property
    def term(self) -> Term:
        return _TEAM_TERMS[self]

    @property
    def cities(self) -> tuple[City, City]:
        return (City(self), City(self + 2))

    @property
    def opponent(self) -> Team:
        return Team(1 - self)

    @classmethod
    def from_slug(cls, slug: str) -> Team:
        cleaned = slug.strip().lower().replace("–", "-").replace(" ", "-").replace("+", "-")
        for team in cls:
            if cleaned in (team.slug, team.name.lower().replace("_", "-")):
                return team
        raise ValueError(M("unknown team {team}: use athens-messene or sparta-thebes", team=repr(slug)))


class Direction(IntEnum):
    N = 0
    E = 1
    S = 2
    W = 3

    @property
    def opposite(self) -> Direction:
        return Direction((self + 2) % 4)

    @property
    def letter(self) -> str:
        return "nesw"[self]

    @property
    def word(self) -> Term:
        """The direction's name, translated where it is read ("north", "norte")."""
        return _DIRECTION_TERMS[self]

    @property
    def is_vertical(self) -> bool:
        return self in (Direction.N, Direction.S)


CITY_FORWARD = (Direction.N, Direction.E, Direction.S, Direction.W)
_CITY_TERMS = (T("Athens"), T("Sparta"), T("Messene"), T("Thebes"))
_TEAM_TERMS = (T("Athens–Messene"), T("Sparta–Thebes"))
_DIRECTION_TERMS = (T("north"), T("east"), T("south"), T("west"))
_DELTAS = ((0, 1), (1, 0), (0, -1), (-1, 0))


def square(file: int, rank: int) -> Square:
    """Square from a 0-based file (a=0) and a 1-based rank."""
    return file + FILE_COUNT * (rank - 1)


def file_of(sq: Square) -> int:
    return sq % FILE_COUNT


def rank_of(sq: Square) -> int:
    return sq // FILE_COUNT + 1


def square_name(sq: Square) -> str:
    return f"{FILES[file_of(sq)]}{rank_of(sq)}"


def parse_square_name(text: str) -> Square | None:
    """The grid square for a name like 'j6', or None when it names no grid square."""
    text = text.strip().lower()
    if len(text) < 2 or text[0] not in FILES or not text[1:].isdigit():
        return None
    rank = int(text[1:])
    if not 1 <= rank <= RANK_COUNT:
        return None
    return square(FILES.index(text[0]), rank)


def _block(files: str, ranks: range) -> frozenset[Square]:
    return frozenset(square(FILES.index(f), r) for f in files for r in ranks)


CENTRAL_AREA = _block("ghijklmno", range(7, 10))
RING = _block("defghijklmnopqr", range(4, 13)) - CENTRAL_AREA

VICTORY_AREA: dict[City, frozenset[Square]] = {
    City.ATHENS: _block("jkl", range(13, 14)),
    City.MESSENE: _block("jkl", range(3, 4)),
    City.SPARTA: _block("s", range(7, 10)),
    City.THEBES: _block("c", range(7, 10)),
}
RALLY_AREA: dict[City, frozenset[Square]] = {
    City.ATHENS: _block("jkl", range(1, 3)),
    City.MESSENE: _block("jkl", range(14, 16)),
    City.SPARTA: _block("ab", range(7, 10)),
    City.THEBES: _block("tu", range(7, 10)),
}
HOME_STRIP: dict[City, frozenset[Square]] = {
    City.ATHENS: _block("ghijklmno", range(4, 7)),
    City.MESSENE: _block("ghijklmno", range(10, 13)),
    City.SPARTA: _block("def", range(4, 13)),
    City.THEBES: _block("pqr", range(4, 13)),
}
# Where the printed board keeps each city's routed pieces: drawn as trays, not squares.
ROUTED_TRAY: dict[City, frozenset[Square]] = {
    City.ATHENS: _block("ghi", range(1, 3)),
    City.MESSENE: _block("mno", range(14, 16)),
    City.SPARTA: _block("ab", range(10, 13)),
    City.THEBES: _block("tu", range(4, 7)),
}

SQUARES: frozenset[Square] = RING.union(*VICTORY_AREA.values(), *RALLY_AREA.values())
assert len(SQUARES) == 144

# IN_PLAY[sq] for every grid square; NEIGHBOUR[d][sq] is the next grid square or OFF_GRID.
IN_PLAY: tuple[bool, ...] = tuple(sq in SQUARES for sq in range(GRID_SIZE))
NEIGHBOUR: tuple[tuple[Square, ...], ...] = tuple(
    tuple(
        square(file_of(sq) + df, rank_of(sq) + dr)
        if 0 <= file_of(sq) + df < FILE_COUNT and 1 <= rank_of(sq) + dr <= RANK_COUNT
        else OFF_GRID
        for sq in range(GRID_SIZE)
    )
    for df, dr in _DELTAS
)
# ENTERABLE[team][sq]: in play and not a victory area of the other team.
ENTERABLE: tuple[tuple[bool, ...], ...] = tuple(
    tuple(IN_PLAY[sq] and not any(sq in VICTORY_AREA[c] for c in team.opponent.cities) for sq in range(GRID_SIZE))
    for team in Team
)
# VICTORY_OWNER[sq] is the city whose victory area holds sq, or None.
VICTORY_OWNER: tuple[City | None, ...] = tuple(
    next((c for c, area in VICTORY_AREA.items() if sq in area), None) for sq in range(GRID_SIZE)
)
RALLY_OWNER: tuple[City | None, ...] = tuple(
    next((c for c, area in RALLY_AREA.items() if sq in area), None) for sq in range(GRID_SIZE)
)


def sort_key(sq: Square) -> tuple[int, int]:
    """Canonical order: by file, then by rank."""
    return (file_of(sq), rank_of(sq))


def not_in_play_text(sq: Square) -> Message:
    """Why a grid square (or OFF_GRID) cannot be stood on, as a clause: 'k7 is in the central area'."""
    if sq == OFF_GRID:
        return M("that is off the board")
    name = square_name(sq)
    if sq in CENTRAL_AREA:
        return M("{square} is in the central area", square=name)
    owner = VICTORY_OWNER[sq]
    if owner is not None:
        return M("{square} is in {city:poss} victory area", square=name, city=owner.term)
    owner = RALLY_OWNER[sq]
    if owner is not None:
        return M("{square} is in {city:poss} rally area", square=name, city=owner.term)
    for city, tray in ROUTED_TRAY.items():
        if sq in tray:
            return M("{square} is in {city:poss} routed-pieces box", square=name, city=city.term)
    if sq in RING:
        return M("{square} is in the ring", square=name)
    return M("{square} is off the board", square=name)


def victory_owner(sq: Square) -> City:
    """Whose victory area holds `sq`: for a square in play that a team may not enter, which can
    only be an enemy victory area."""
    owner = VICTORY_OWNER[sq]
    if owner is None:
        raise ValueError(f"{square_name(sq)} is in no victory area")
    return owner


START_LAYOUT = (
    "A:j4w,j5w,j6w,k4n,k5n,l4e S:d7s,d8e,d9n,e8e,e9n,f9n M:j12w,k11s,k12s,l10e,l11e,l12e T:p7s,q7s,q8w,r7s,r8w,r9n A2"
)
