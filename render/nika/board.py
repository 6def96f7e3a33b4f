"""One board picture: the cached empty board, then highlights, pieces, trays and the status.

Everything here pastes cached sprites onto a copy of the cached board, in an
order that keeps the marks readable: washes and frames under the pieces,
phalanx links under the shields, arrows, seals and numbers on top.

A board can show several recent actions (everything since the viewer's last
turn). The latest keeps the bold marks; earlier ones get striped origins and slim
frames in the acting city's colour, and every action is numbered in order
(1 = oldest) on a badge of its city's colour where it ended.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from engine.nika.board import NEIGHBOUR, OFF_GRID, City, Direction, Square
from engine.nika.events import Event
from engine.nika.position import Position
from engine.nika.state import GameState
from render.compose import Palette, Picture
from render.nika import colours as C
from render.nika import sprites, status
from render.nika.highlights import Highlights, highlights
from render.nika.layout import Layout, layout_for
from render.nika.numbering import Badge, badges, edge_centre, rally_badge_centre, rout_badge_centre, seals
from render.nika.static_board import panel_box, static_board, tray_slots

FROM_ALPHA = 190
EARLIER_FROM_ALPHA = 220  # earlier actions' origins: stripes of the same colour


def compose(
    state: GameState,
    events: Sequence[Event] = (),
    perspective: City | None = None,
    *,
    earlier: Sequence[Sequence[Event]] = (),
    caption: str | None = None,
    title: str | None = None,
    palette: Palette | None = None,
) -> Image.Image:
    """The board in Nika's palette ('P'), with `events` (the action just played) highlighted,
    and the `earlier` actions since the viewer's last turn, oldest first, marked more lightly
    and numbered. A picture with a `title` or `caption` (a replay frame, a rules example) has
    them in the central plaque in place of whose turn it is, unless the game is over and the
    plaque is a banner. With `palette` None (while the palette is
    learned) the board is composed in RGB."""
    layout = layout_for(perspective)
    picture = Picture(static_board(layout.up), palette)
    latest = highlights(events)
    before = [highlights(action) for action in earlier]
    position = state.position
    _draw_under(picture, layout, position, latest, before)
    _draw_links(picture, layout, position)
    _draw_pieces(picture, layout, position, latest)
    _draw_over(picture, layout, position, latest, before)
    _draw_trays(picture, layout, position, [*before, latest])
    if before:  # one action needs no number
        for badge in badges(layout, position, [*before, latest]):
            _paste_badge(picture, badge)
    box = panel_box(layout)
    size = (box[2] - box[0], box[3] - box[1])
    if (caption is not None or title is not None) and state.outcome is None:
        # A replay frame's plaque says what the action did, by the city that did it: what a
        # viewer follows, and (unlike the turn panel) little of it changes from frame to frame.
        picture.paste(status.replay_panel(size, latest.actor), box[:2])
        status.set_caption(picture, box, caption or "", title)
    else:
        picture.paste(status.panel_for(size, position.to_act, position.actions_left, state.outcome), box[:2])
    return picture.image


def _paste_badge(picture: Picture, badge: Badge) -> None:
    """A number's badge, or a city's pass tag, centred on its spot."""
    if badge.passed:
        _paste_on(picture, sprites.pass_tag(badge.city, badge.numbers, latest=badge.latest), badge.centre)
    else:
        _paste_on(picture, sprites.number_badge(badge.city, badge.number, latest=badge.latest), badge.centre)


def _paste_on(picture: Picture, sprite: Image.Image, centre: tuple[float, float]) -> None:
    x = round(centre[0] - sprite.width / 2)
    y = round(centre[1] - sprite.height / 2)
    picture.paste(sprite, (x, y))


def _draw_under(
    picture: Picture, layout: Layout, position: Position, latest: Highlights, before: Sequence[Highlights]
) -> None:
    faint = sprites.square_hatch(C.FROM_FILL, EARLIER_FROM_ALPHA)
    for marks in before:  # oldest first, so later marks cover earlier ones on a shared square
        for sq in marks.origins:
            picture.paste(faint, layout.box(sq)[:2])
        if marks.actor is not None:
            slim = sprites.thin_frame(marks.actor)
            for sq in marks.arrivals:
                picture.paste(slim, layout.box(sq)[:2])
    wash = sprites.square_fill(C.FROM_FILL, FROM_ALPHA)
    frame = sprites.square_frame(C.TO_FRAME)
    for sq in latest.origins:
        picture.paste(wash, layout.box(sq)[:2])
    ghosts = {sq: city for marks in (*before, latest) for city, sq in marks.routs}
    for sq, city in ghosts.items():
        if position.piece_at(sq) is None:
            ghost = sprites.rout_ghost(city)
            picture.paste(ghost, layout.box(sq)[:2])
    rallied = sprites.square_frame(C.RALLY_MARK)
    for sq in latest.arrivals:
        picture.paste(rallied if sq in latest.rallied else frame, layout.box(sq)[:2])


def _draw_links(picture: Picture, layout: Layout, position: Position) -> None:
    """Join orthogonal neighbours of one city that share a facing: a phalanx reads as one body."""
    for piece in position.pieces():
        for direction in (Direction.N, Direction.E):  # each pair once
            other = NEIGHBOUR[direction][piece.square]
            if other == OFF_GRID:
                continue
            neighbour = position.piece_at(other)
            if neighbour is None or neighbour.city != piece.city or neighbour.facing != piece.facing:
                continue
            (x0, y0), (x1, y1) = layout.center(piece.square), layout.center(other)
            bar = sprites.link(piece.city, vertical=x0 == x1)
            _paste_on(picture, bar, ((x0 + x1) / 2, (y0 + y1) / 2))


def _draw_pieces(picture: Picture, layout: Layout, position: Position, marks: Highlights) -> None:
    if marks.winner is not None:
        _paste_on(picture, sprites.victory_wreath(), layout.center(marks.winner))
    pieces = []
    for piece in position.pieces():
        square = layout.box(piece.square)
        pieces.append((sprites.token(piece.city, layout.screen(piece.facing)), square[:2], square))
    picture.paste_all(pieces)


def _screen_step(layout: Layout, frm: Square, to: Square) -> int:
    (x0, y0), (x1, y1) = layout.center(frm), layout.center(to)
    if x0 == x1:
        return 0 if y1 < y0 else 2
    return 1 if x1 > x0 else 3


def _draw_over(
    picture: Picture, layout: Layout, position: Position, latest: Highlights, before: Sequence[Highlights]
) -> None:
    # The acting pieces' own steps need no arrow: the wash behind and the spear ahead show them.
    everything = (*before, latest)
    for marks in everything:
        for frm, to in marks.pushes:
            _paste_on(picture, sprites.arrow(C.PUSH, _screen_step(layout, frm, to)), edge_centre(layout, frm, to))
    routed, rallied = seals(position, everything)
    for sq in routed:
        _paste_on(picture, sprites.rout_badge(), rout_badge_centre(layout, sq))
    for sq in rallied:
        _paste_on(picture, sprites.rally_badge(), rally_badge_centre(layout, sq))


def _fresh_routs(actions: Sequence[Highlights], position: Position) -> dict[City, int]:
    """How many of each city's routed pieces fell during these actions and are still in the tray."""
    fresh = dict.fromkeys(City, 0)
    for marks in actions:
        for city, _ in marks.routs:
            fresh[city] += 1
        if marks.rallied and marks.actor is not None:
            fresh[marks.actor] = max(0, fresh[marks.actor] - len(marks.rallied))
    return {city: min(count, position.routed(city)) for city, count in fresh.items()}


def _draw_trays(picture: Picture, layout: Layout, position: Position, actions: Sequence[Highlights]) -> None:
    fresh = _fresh_routs(actions, position)
    ring = sprites.ring(C.ROUT, sprites.TRAY_TOKEN_RADIUS + 3)
    for city in City:
        routed = position.routed(city)
        slots = tray_slots(layout, city)
        token = sprites.tray_token(city)
        for index, centre in enumerate(slots[:routed]):
            _paste_on(picture, token, centre)
            if index >= routed - fresh[city]:  # routed by one of the actions shown
                _paste_on(picture, ring, centre)
