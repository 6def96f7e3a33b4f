"""Pikemen's fixed palette: every flat colour of `colours.py` exactly, plus the blends that
anti-aliasing and shading produce, learned once from a swatch of everything drawn."""

from __future__ import annotations

from PIL import Image

from engine.api import Ending, EndingKind
from engine.i18n import ENGLISH, using
from engine.pikemen.game import GAME
from engine.pikemen.pieces import COLOURS
from engine.pikemen.state import GameState
from render.compose import shared
from render.encode import learn_palette
from render.memo import built_once
from render.pikemen import colours as C
from render.pikemen import panel, sprites
from render.pikemen.board import compose
from render.pikemen.layout import HEIGHT, PANEL_TOP, WIDTH

_SCENES = (
    "R7:a8Lu,b7Mse,c6Sn,d5Le,h8Mw Y3:f8Ls,g7Msw,h6Snw,e4Lne G5:h1Lu,g2Mnw,f3Ssw B2:a1Ln,b2Mne,c3Se R/12/3",
    "R9:a6Ls,c4Mnw B8:a3Mn,f6Lsw,h1Lu,g2Me B/15/7",
    "R2:a8Lu,b8Mw Y11:g5Lnw,h5Lu,f6Ssw B4:a1Lne,b1Ms,c3Sw Y/20/12",
)


def palette_image() -> Image.Image:
    """A 'P' image carrying the fixed palette, for `Image.quantize(palette=…)`. One palette
    serves every language: it is learned from the English board."""
    with using(ENGLISH):
        return _learned()


palette = shared(palette_image)  # the palette boards are composed in


@built_once
def _learned() -> Image.Image:
    return learn_palette(C.FLAT_COLOURS, _swatch())


def _swatch() -> Image.Image:
    tiles = []
    for background in (C.LIGHT, C.DARK):  # pieces only ever stand on the squares' own colours
        for seat in COLOURS:
            for size in (1, 2, 3):
                tiles += [_tile(background, sprites.flat(seat, size, d)) for d in range(8)]
                tiles.append(_tile(background, sprites.upright(seat, size)))
        marks = (sprites.capture_badge(), sprites.turn_badge(), sprites.trail_dot(5.5))
        tiles += [_tile(background, mark) for mark in (*marks, sprites.square_frame(C.TO_FRAME))]
    tiles += [_tile(C.mix(background, C.FROM_WASH, 0.67), sprites.trail_dot(9.0)) for background in (C.LIGHT, C.DARK)]
    tiles += [_tile(C.CARD, sprites.icon(seat)) for seat in COLOURS]
    tiles += [_tile(C.OUT_CARD, panel.out_icon(seat)) for seat in COLOURS]
    columns = 16
    rows = (len(tiles) + columns - 1) // columns
    size = sprites.SPRITE
    sheet = Image.new("RGB", (columns * size, rows * size), C.PAGE)
    for index, tile in enumerate(tiles):
        sheet.paste(tile, ((index % columns) * size, (index // columns) * size))
    # Whole pictures for the board, the frame and the panels of every kind; one static board
    # holds everything the others do, so the rest contribute only their panels.
    scenes = [_scene(text) for text in _SCENES]
    board = scenes[0]
    panels = [scene.crop((0, PANEL_TOP, scene.width, scene.height)) for scene in scenes[1:]]
    panels += [compose(GAME.new(players, {}, 0)).crop((0, PANEL_TOP, WIDTH, HEIGHT)) for players in (2, 3)]
    strip = Image.new("RGB", (WIDTH, sum(p.height for p in panels)), C.PAGE)
    for index, panel_picture in enumerate(panels):
        strip.paste(panel_picture, (0, index * panel_picture.height))
    swatch = Image.new("RGB", (WIDTH + sheet.width, max(board.height + strip.height, sheet.height)), C.PAGE)
    swatch.paste(board, (0, 0))
    swatch.paste(strip, (0, board.height))
    swatch.paste(sheet, (WIDTH, 0))
    return swatch


def _scene(text: str) -> Image.Image:
    """A picture whose top half is a mid-game board just after a move, and whose bottom half
    is the end of that game: every kind of card (to act, waiting, out, winner, draw)."""
    state = GameState.from_notation(text)
    legal = state.legal_actions()
    after, events = state.apply(legal[0])
    if len(state.position.seats) > 2:
        after, more = GAME.end(after, Ending(EndingKind.RESIGNATION, state.position.seats[1]))
        events = [*events, *more]
    over = after if after.outcome is not None else GAME.end(after, Ending(EndingKind.AGREEMENT))[0]
    left = compose(after, events)
    right = compose(over, ())
    both = Image.new("RGB", (left.width, left.height), C.PAGE)
    both.paste(left.crop((0, 0, left.width, left.height // 2)), (0, 0))
    both.paste(right.crop((0, left.height // 2, left.width, left.height)), (0, left.height // 2))
    return both


def _tile(background: C.RGB, sprite: Image.Image) -> Image.Image:
    size = sprites.SPRITE
    tile = Image.new("RGB", (size, size), background)
    tile.paste(sprite, ((size - sprite.width) // 2, (size - sprite.height) // 2), sprite)
    return tile
