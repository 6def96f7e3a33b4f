"""The last action is drawn where the events say it happened."""

from engine.nika.board import City
from engine.nika.events import Pushed, Rallied, Routed
from render.nika import colours as C
from render.nika.highlights import highlights
from render.nika.layout import layout_for, square_center
from render.nika.numbering import rally_badge_centre, rout_badge_centre
from render.nika.sprites import TRAY_TOKEN_RADIUS
from render.nika.static_board import panel_box, tray_slots

from .pictures import board_image, close, pixel, play, sq

PUSH_AND_ROUT = "A:g4e,g5e,h4e,h5e,i4e,i5e S:d7s,d8e,j4n,e9n,f9n M:l5s,k11s,k12s T:j5w,k5w,q8w,r8w A2"
ADVANCE = "advance g4,g5,h4,h5,i4,i5"


def _frame_pixel(image, name, perspective=None):
    """On the frame's left side, high enough to be clear of the shield's shadow."""
    left, top, _, _ = layout_for(perspective).box(sq(name))
    return pixel(image, (left + 2, top + 12))


def test_events_become_marks():
    _, events = play(PUSH_AND_ROUT, ADVANCE)
    marks = highlights(events)
    assert marks.origins == {sq("g4"), sq("g5")}
    assert marks.arrivals == {sq(n) for n in ("h4", "h5", "i4", "i5", "j4", "j5")}
    # The front Thebes piece is pushed on into Messene's l5 and routed: a push drawn, then the rout.
    assert marks.pushes == ((sq("j5"), sq("k5")), (sq("k5"), sq("l5")))
    assert set(marks.routs) == {(City.SPARTA, sq("j4")), (City.THEBES, sq("k5"))}
    assert highlights([]) == highlights(())
    assert not highlights([])


def test_origin_is_washed_and_destination_framed():
    state, events = play("start", "move l4 e")
    plain, marked = board_image(state), board_image(state, events)
    origin = square_center(sq("l4"))
    assert pixel(plain, origin) == C.TINT[City.ATHENS]
    assert close(pixel(marked, origin), C.mix(C.TINT[City.ATHENS], C.FROM_FILL, 190 / 255), 10)
    assert close(_frame_pixel(marked, "m4"), C.TO_FRAME)
    assert not close(_frame_pixel(plain, "m4"), C.TO_FRAME, 40)


def test_push_path_is_an_arrow_across_the_edge():
    state, events = play(PUSH_AND_ROUT, ADVANCE)
    assert Pushed(City.THEBES, sq("j5"), sq("k5")) in events
    image = board_image(state, events)
    (x0, y0), (x1, y1) = square_center(sq("j5")), square_center(sq("k5"))
    assert close(pixel(image, ((x0 + x1) / 2, (y0 + y1) / 2)), C.PUSH)
    # No arrow where nothing was pushed.
    _, y2 = square_center(sq("k4"))
    assert not close(pixel(image, ((x0 + x1) / 2, y2)), C.PUSH, 60)


def test_rotated_view_draws_the_arrow_on_the_same_squares():
    state, events = play(PUSH_AND_ROUT, ADVANCE)
    image = board_image(state, events, perspective=City.SPARTA)
    (x0, y0), (x1, y1) = (square_center(sq(n), City.SPARTA) for n in ("j5", "k5"))
    assert x0 == x1  # east is up for Sparta: the push runs up the image
    assert close(pixel(image, ((x0 + x1) / 2, (y0 + y1) / 2)), C.PUSH)


def test_routed_pieces_are_marked_where_they_fell():
    state, events = play(PUSH_AND_ROUT, ADVANCE)
    assert {e for e in events if isinstance(e, Routed)} == {
        Routed(City.SPARTA, sq("j4")),
        Routed(City.THEBES, sq("k5"), pushed_to=sq("l5")),
    }
    image, plain = board_image(state, events), board_image(state)
    layout = layout_for(None)
    for name in ("j4", "k5"):
        x, y = rout_badge_centre(layout, sq(name))
        assert close(pixel(image, (x, y + 8)), C.ROUT)  # below the white cross, on the red seal
        assert not close(pixel(plain, (x, y + 8)), C.ROUT, 60)
    x, y = rout_badge_centre(layout, sq("i5"))
    assert not close(pixel(image, (x, y + 8)), C.ROUT, 60)


def test_freshly_routed_pieces_are_ringed_in_their_tray():
    state, events = play(PUSH_AND_ROUT, ADVANCE)
    image = board_image(state, events)
    slots = tray_slots(layout_for(None), City.SPARTA)
    # Sparta had one routed before; the second slot is the fresh one.
    x, y = slots[1]
    assert close(pixel(image, (x, y - TRAY_TOKEN_RADIUS - 3)), C.ROUT, 30)
    x, y = slots[0]
    assert not close(pixel(image, (x, y - TRAY_TOKEN_RADIUS - 3)), C.ROUT, 60)


def test_rallied_piece_is_marked_new():
    state, events = play("A:j4w,j5w,k4n,k5n S:d7s,d8e,e8e,e9n,f9n M:j12w T:p7s S1", "rally a8 e")
    assert events == [Rallied(City.SPARTA, sq("a8"), events[0].facing)]
    image = board_image(state, events)
    x, y = rally_badge_centre(layout_for(None), sq("a8"))
    assert close(pixel(image, (x, y + 9)), C.RALLY_MARK)
    assert close(_frame_pixel(image, "a8"), C.RALLY_MARK)


def test_winner_gets_a_banner():
    state, events = play("A:k12n,j5w S:d7s M:k11s T:p7s A1", "move k12 n")
    assert state.outcome is not None
    image = board_image(state, events)
    left, top, right, _ = panel_box(layout_for(None))
    ribbon = pixel(image, ((left + right) / 2, top + 6))
    assert close(ribbon, C.mix(C.BRONZE, C.WHITE, 0.55), 10)
    left, top, _, _ = layout_for(None).box(sq("k13"))
    assert close(pixel(image, (left + 3, top + 3)), C.TO_FRAME)  # a corner of the frame, clear of the wreath
