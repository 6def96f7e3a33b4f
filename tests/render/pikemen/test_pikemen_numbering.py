"""A player back after several moves sees each one numbered, what it did, and no clutter: a
trail from the square each earlier charge left, badges kept apart, and at most six of them."""

from __future__ import annotations

import itertools
import math
import random

from engine.pikemen.game import GAME
from engine.pikemen.geometry import parse_square_name
from render.pikemen import colours as C
from render.pikemen.highlights import highlights
from render.pikemen.layout import layout_for
from render.pikemen.numbering import INSET, MOST_NUMBERED, SEAL_RADIUS, badge_radius, numbered, shown

from .test_pikemen_picture import picture

# Yellow charges to e4, Green charges in and takes it there, Blue turns: two moves end on e4.
START = "R0:a8Lu,b8Lu Y0:e6Ms,h8Lu G0:g4Lw,h1Lu B0:a1Ln,b1Lu Y/12/0"
MOVES = ("e6-e4", "g4xe4", "a1 ne")


def sq(name: str) -> int:
    found = parse_square_name(name)
    assert found is not None
    return found


def _played(start: str, *moves: str) -> tuple[object, tuple[object, ...]]:
    state, recent = GAME.load(start), []
    for move in moves:
        state, events = GAME.apply(state, GAME.parse_action(move))
        recent.append(events)
    return state, tuple(recent)


def _near(colour: tuple[int, ...], seat: str, tolerance: int = 40) -> bool:
    return max(abs(a - b) for a, b in zip(colour, C.SEAT[seat], strict=False)) <= tolerance


def test_two_moves_ending_on_one_square_keep_their_badges_apart():
    state, recent = _played(START, *MOVES)
    layout = layout_for(None)
    found = numbered(layout, recent)
    assert [(badge.number, badge.seat) for badge in found] == [(1, "yellow"), (2, "green"), (3, "blue")]
    left, top, right, bottom = layout.box(sq("e4"))
    first, second = found[0].centre, found[1].centre
    for x, y in (first, second):
        assert left <= x <= right and top <= y <= bottom  # both on the square they ended on
    assert math.dist(first, second) >= 2 * badge_radius(latest=False) - 2
    image = picture(state, recent)
    for badge in found[:2]:  # each shows, in its seat's colour (below its digits)
        x, y = badge.centre
        assert _near(image.getpixel((round(x), round(y + 7))), badge.seat), badge


def test_each_earlier_charge_draws_a_trail_from_the_square_it_left():
    state, recent = _played(START, *MOVES)
    image = picture(state, recent)
    layout = layout_for(None)
    (x, y), (fx, fy) = layout.center(sq("e5")), layout.center(sq("f4"))
    assert _near(image.getpixel((x, y)), "yellow")  # e6 to e4, through e5
    assert _near(image.getpixel((fx, fy)), "green")  # g4 to e4, through f4
    ex, ey = layout.center(sq("e6"))
    assert _near(image.getpixel((ex, round(ey - 7.5))), "yellow")  # the ring where it began
    alone = picture(state, recent[-1:])  # the latest move alone (two players): no trails, no numbers
    assert not _near(alone.getpixel((x, y)), "yellow") and not _near(alone.getpixel((fx, fy)), "green")


def test_at_most_six_moves_are_numbered_and_described():
    state, recent = GAME.new(4, {}, 0), []
    rng = random.Random(5)
    while len(recent) < 10:
        state, events = GAME.apply(state, rng.choice(list(GAME.legal_actions(state))))
        recent.append(events)
    assert len(shown(recent)) == MOST_NUMBERED == 6
    from render.pikemen.artist import ARTIST

    text = ARTIST.alt_text(state, tuple(recent))
    assert "6. " in text and "7. " not in text
    assert [badge.number for badge in numbered(layout_for(None), shown(recent))] == [1, 2, 3, 4, 5, 6]


def test_badges_never_overlap_one_another_or_the_latest_seals():
    """Random four-player playouts, a board after every six moves: no two marks cover each other."""
    rng = random.Random(11)
    for game in range(12):
        state, recent = GAME.new(4, {}, game), []
        for _ in range(rng.randrange(6, 60)):
            if GAME.outcome(state) is not None:
                break
            state, events = GAME.apply(state, rng.choice(list(GAME.legal_actions(state))))
            recent.append(events)
        for perspective in (None, "red"):
            layout = layout_for(perspective)
            found = numbered(layout, shown(recent))
            for a, b in itertools.combinations(found, 2):
                apart = math.dist(a.centre, b.centre)
                assert apart >= badge_radius(latest=a.latest) + badge_radius(latest=b.latest) - 2.5, (game, a, b)
            arrival = highlights(recent[-1]).arrival
            if arrival is not None:
                left, top, right, _ = layout.box(arrival)
                for seal in ((right - INSET, top + INSET), (left + INSET, top + INSET)):
                    for badge in found:
                        assert math.dist(seal, badge.centre) >= SEAL_RADIUS + badge_radius(latest=badge.latest) - 2.5
