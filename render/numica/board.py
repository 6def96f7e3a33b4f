"""One picture: the cached page, then tiles, the last move's marks, pieces, bands and status.

The page (frame, coordinates, legend) is drawn once per perspective and language; tiles,
pieces and panels are cached sprites, so a board is a copy and a few dozen pastes. Words
are drawn in `locale`'s language, which the artist also makes the active one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image

from engine.numica.board import COLOURS, FILES, SIZE, Colour
from engine.numica.events import Captured, Event, Moved
from engine.numica.state import GameState
from render import typeset
from render.canvas import Canvas
from render.compose import Palette, Picture
from render.memo import built_once
from render.numica import colours as C
from render.numica import panels, sprites
from render.numica.layout import (
    BOARD_LEFT,
    BOARD_SIZE,
    BOARD_TOP,
    CELL,
    HEADER,
    HEIGHT,
    LABEL,
    LEGEND_TOP,
    PAD,
    RIM,
    WIDTH,
    band_top,
    box,
)
from render.numica.status import band_status, headline

BADGE_INSET = sprites.BADGE // 2 - 2


@dataclass(frozen=True, slots=True)
class LastMove:
    frm: int
    to: int
    captured: Captured | None


def last_move(events: Sequence[Event]) -> LastMove | None:
    moved = next((e for e in events if isinstance(e, Moved)), None)
    if moved is None:
        return None
    return LastMove(moved.frm, moved.to, next((e for e in events if isinstance(e, Captured)), None))


def compose(
    state: GameState,
    events: Sequence[Event] = (),
    perspective: Colour = Colour.RED,
    *,
    caption: str | None = None,
    title: str | None = None,
    locale: str = "en",
    palette: Palette | None = None,
) -> Image.Image:
    """The board in Numica's palette ('P'; RGB with `palette` None, while it is learned), turned
    for `perspective`, with the move of `events` marked. The status line is in the active
    language, the cached layers in `locale`'s: the same one."""
    picture = Picture(page(perspective, caption is not None, locale), palette)
    position = state.position
    move = last_move(events)
    for sq, symbol in enumerate(position.tiles):
        picture.put(sprites.tile(symbol, move is not None and sq == move.frm), box(sq, perspective)[:2])
    if state.setting_up and state.outcome is None:
        for colour in COLOURS:
            row = sprites.back_row_frame(colour)
            left = min(box(colour.back_rank * SIZE + f, perspective)[0] for f in range(SIZE))
            picture.paste(row, (left, box(colour.back_rank * SIZE, perspective)[1]))
    if move is not None:
        picture.paste(sprites.frame(C.TO_MARK, 6), box(move.to, perspective)[:2])
    for piece in position.pieces():
        sprite = sprites.piece(piece.colour, piece.shape, piece.moved, position.tiles[piece.square])
        picture.paste(sprite, box(piece.square, perspective)[:2])
    if move is not None and move.captured is not None:
        badge = sprites.capture_badge()
        _, top, right, _ = box(move.to, perspective)
        picture.paste(badge, (right - BADGE_INSET - badge.width // 2, top + BADGE_INSET - badge.height // 2))
    fresh = move.captured if move is not None else None
    for colour in COLOURS:
        top = band_top(colour, perspective)
        status = band_status(state, colour)
        if title is not None and status == "to move":
            # A replay frame's caption names the mover; a pill flipping between the bands would
            # make every GIF frame span the whole picture.
            status = ""
        picture.paste(panels.band(colour, status, locale), (PAD, top))
        if state.setting_up:
            end = panels.arranging_note(colour, locale)
        else:
            taken = fresh.shape if fresh is not None and fresh.colour is colour.opponent else None
            end = panels.captures(colour.opponent, state.captures(colour), taken, locale)
        picture.paste(end, (WIDTH - PAD - end.width, top))
    text, detail, accent = headline(state)
    if title is not None and state.outcome is None:
        # What the picture is, not whose move is next: the caption says who moved, and a status
        # naming the next side would change in every frame of a replay, like the pill above.
        text, detail, accent = title, "", None
    words = panels.status_words(text, accent, with_detail=bool(detail))
    picture.paste(words, (WIDTH - PAD - words.width, 0))
    if detail:
        below = panels.status_detail(detail)
        picture.paste(below, (WIDTH - PAD - below.width, HEADER // 2 + 4))
    if caption is not None:
        line = typeset.fit(caption, panels.CAPTION_WIDTH, panels.CAPTION_FACE, C.LABEL, 10)
        typeset.set_line(picture, line, (PAD + 5, HEADER - panels.CAPTION / 2 - 2), anchor="lm")
    return picture.image


@built_once
def page(perspective: Colour, captioned: bool = False, locale: str = "en") -> Image.Image:
    """Everything that never changes for a view: the page, the game's name, the board's frame,
    coordinates and the legend (in `locale`'s language). Replay frames (`captioned`) lift the
    name over their caption."""
    canvas = Canvas((WIDTH, HEIGHT), C.PAPER, scale=3, mode="RGB")
    panels.title(canvas, captioned=captioned)
    left, top = BOARD_LEFT - RIM, BOARD_TOP - RIM
    right, bottom = BOARD_LEFT + BOARD_SIZE + RIM, BOARD_TOP + BOARD_SIZE + RIM
    canvas.rect((left + 2, top + 4, right + 2, bottom + 4), C.mix(C.PAPER, C.RIM_DARK, 0.3), radius=10)
    canvas.rect((left, top, right, bottom), C.RIM_DARK, radius=10)
    canvas.rect((left + 2, top + 2, right - 2, bottom - 2), C.RIM, radius=8)
    for index in range(SIZE):
        file = FILES[index] if perspective is Colour.RED else FILES[SIZE - 1 - index]
        rank = str(SIZE - index) if perspective is Colour.RED else str(index + 1)
        x = BOARD_LEFT + index * CELL + CELL / 2
        y = BOARD_TOP + index * CELL + CELL / 2
        canvas.text((x, bottom + LABEL / 2 + 1), file, 19, C.LABEL, mark=True, stroke=0.5, stroke_fill=C.LABEL)
        canvas.text((left - LABEL / 2 - 1, y), rank, 19, C.LABEL, mark=True, stroke=0.5, stroke_fill=C.LABEL)
    image = canvas.result()
    legend = panels.legend(locale)
    image.paste(legend, (PAD, LEGEND_TOP), legend)
    return image
