"""A position: the pieces, every seat's score and whether it is out, who acts, the target
and the turns since the last capture; with its one-line notation.

    R0:a4Su,a5Mu,…,e8Su B3!:- R/12/0

One field per seat in turn order (letter, score, `!` if out, pieces sorted a1, b1, …, h1,
a2, … or `-`), then `<seat to act>/<target>/<turns since the last capture>`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from engine.errors import NotationError
from engine.i18n import M
from engine.pikemen.geometry import SQUARES, Orientation, Square, parse_square_name, square_name
from engine.pikemen.pieces import (
    LETTERS,
    ORIENTATION_OF,
    PIECE_OF,
    SEAT_OF,
    SIZE_OF,
    TABLES,
    Piece,
    Size,
    code_of,
)
from engine.pikemen.setup import most_points
from engine.pikemen.words import seat_term

TARGETS = (12, 15, 20)  # the targets offered; any from the first to `most_points` is allowed
EXAMPLE = "R0:a8Lu,b7Mse B2:h1Lu,g4Sn R/12/0"
_SEAT_FIELD = re.compile(r"^([a-z])(\d{1,4})(!?):(.*)$", re.IGNORECASE)
_PIECE = re.compile(r"^([a-h][1-8])([sml])(ne|nw|se|sw|n|e|s|w|u)$", re.IGNORECASE)
_FINAL = re.compile(r"^([a-z])/(\d{1,4})/(\d{1,4})$", re.IGNORECASE)
_TABLE_OF_LETTERS = {"".join(LETTERS[s] for s in seats): seats for seats in TABLES.values()}


@dataclass(frozen=True, slots=True)
class Position:
    """Immutable. `board` holds 64 piece codes (0 for empty, see pieces.py); seats are
    indices into `seats`. `counts` and `material` (pieces and points on the board per
    seat) follow from the board and are kept for speed."""

    seats: tuple[str, ...]
    board: tuple[int, ...]
    scores: tuple[int, ...]
    out: tuple[bool, ...]
    to_act: int
    target: int
    quiet: int
    counts: tuple[int, ...] = field(compare=False)
    material: tuple[int, ...] = field(compare=False)

    @classmethod
    def build(
        cls, seats: tuple[str, ...], board: tuple[int, ...], scores: tuple[int, ...], out: tuple[bool, ...],
        to_act: int, target: int, quiet: int = 0,
    ) -> Position:  # fmt: skip
        counts, material = [0] * len(seats), [0] * len(seats)
        for code in board:
            if code:
                counts[SEAT_OF[code]] += 1
                material[SEAT_OF[code]] += SIZE_OF[code]
        return cls(seats, board, scores, out, to_act, target, quiet, tuple(counts), tuple(material))

    # --- reading ------------------------------------------------------------------------
    @property
    def key(self) -> tuple[tuple[int, ...], tuple[int, ...], int]:
        """What makes two positions the same for the repetition rule: pieces, scores, who acts."""
        return (self.board, self.scores, self.to_act)

    @property
    def seat_slug(self) -> str:
        return self.seats[self.to_act]

    def piece_at(self, sq: Square) -> Piece | None:
        return PIECE_OF[self.board[sq]]

    def pieces(self, seat: int | None = None) -> list[tuple[Square, Piece]]:
        """(square, piece) in square order, of one seat or all."""
        found = []
        for sq in SQUARES:
            piece = PIECE_OF[self.board[sq]]
            if piece is not None and (seat is None or piece.seat == seat):
                found.append((sq, piece))
        return found

    def in_play(self, seat: int) -> bool:
        return not self.out[seat]

    def seats_in_play(self) -> tuple[int, ...]:
        return tuple(i for i, gone in enumerate(self.out) if not gone)

    def can_move(self, seat: int) -> bool:
        """In the game and with pieces: the seats the turn does not skip."""
        return not self.out[seat] and self.counts[seat] > 0

    def next_seat(self, after: int) -> int:
        return next_seat(self.out, self.counts, after)

    # --- notation -----------------------------------------------------------------------
    def notation(self) -> str:
        fields = []
        for seat, slug in enumerate(self.seats):
            pieces = ",".join(
                f"{square_name(sq)}{Size(SIZE_OF[c]).letter}{Orientation(ORIENTATION_OF[c]).letter}"
                for sq, c in enumerate(self.board)
                if c and SEAT_OF[c] == seat
            )
            fields.append(f"{LETTERS[slug]}{self.scores[seat]}{'!' if self.out[seat] else ''}:{pieces or '-'}")
        fields.append(f"{LETTERS[self.seats[self.to_act]]}/{self.target}/{self.quiet}")
        return " ".join(fields)

    @classmethod
    def from_notation(cls, text: str) -> Position:
        """Parse a position (pieces in any order, letters in any case); NotationError says what is wrong."""
        fields = text.split()
        if len(fields) < 3:
            raise NotationError(
                M("a position is one field per seat and a final field, like {example}", example=EXAMPLE)
            )
        *seat_fields, final = fields
        parsed = []
        for text_field in seat_fields:
            match = _SEAT_FIELD.match(text_field)
            if match is None:
                raise NotationError(
                    M("{text} is not a seat field: write the seat's letter, its score, ! if it is out, then : and "
                      "its pieces like a8Lu,c6Sne (or - for none)", text=_cut(text_field))
                )  # fmt: skip
            parsed.append(match.groups())
        seats = _TABLE_OF_LETTERS.get("".join(letter.upper() for letter, *_ in parsed))
        if seats is None:
            raise NotationError(
                M("the seats are R B (2 players), R Y B (3 players) or R Y G B (4 players), in that order")
            )
        board = [0] * 64
        for seat, (_, _, gone, pieces) in enumerate(parsed):
            if pieces == "-":
                continue
            for item in pieces.split(","):
                sq, code = _piece(item, seat)
                if board[sq]:
                    raise NotationError(M("{square} holds two pieces", square=square_name(sq)))
                if gone:
                    raise NotationError(
                        M("{seat} is out of the game (!) and has no pieces on the board", seat=seat_term(seats[seat]))
                    )
                board[sq] = code
        match = _FINAL.match(final)
        if match is None:
            raise NotationError(
                M("the last field is the seat to act, the target and the turns since the last capture, like R/12/0")
            )
        letter, target, quiet = match.groups()
        letters = [LETTERS[slug] for slug in seats]
        if letter.upper() not in letters:
            raise NotationError(
                M("{letter} is not a seat of this game: the seat to act is one of {letters}", letter=letter,
                  letters=", ".join(letters))
            )  # fmt: skip
        most = most_points(len(seats)) if len(seats) in (2, 3, 4) else TARGETS[-1]
        if not TARGETS[0] <= int(target) <= most:
            raise NotationError(M("the target is from {low} to {high} points with {players} players",
                                  low=TARGETS[0], high=most, players=len(seats)))  # fmt: skip
        return cls.build(
            seats, tuple(board), tuple(int(score) for _, score, _, _ in parsed), tuple(bool(g) for *_, g, _ in parsed),
            letters.index(letter.upper()), int(target), int(quiet),
        )  # fmt: skip


def next_seat(out: tuple[bool, ...], counts: tuple[int, ...], after: int) -> int:
    """Who acts after seat `after`: the next seat in turn order that is in the game and has
    pieces (`after` itself if nobody else has). Seats without pieces are skipped."""
    n = len(out)
    for k in range(1, n + 1):
        i = (after + k) % n
        if not out[i] and counts[i]:
            return i
    for k in range(1, n + 1):  # nobody can move, so the game is over; the field still names a seat in it
        i = (after + k) % n
        if not out[i]:
            return i
    return after


def _piece(text: str, seat: int) -> tuple[Square, int]:
    match = _PIECE.match(text.strip())
    if match is None:
        raise NotationError(
            M("{text} is not a piece: write its square, size (S, M or L) and orientation (n ne e se s sw w nw, or u "
              "for upright), like a8Lu or c6Sne", text=_cut(text))
        )  # fmt: skip
    name, size, orientation = match.groups()
    sq = parse_square_name(name)
    assert sq is not None
    return sq, code_of(seat, Size[size.upper()], Orientation[orientation.upper()])


def _cut(text: str, limit: int = 30) -> str:
    return repr(text if len(text) <= limit else text[: limit - 1] + "…")
