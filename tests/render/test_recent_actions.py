"""A player coming back sees every action since their last turn: each marked, numbered in
order (1 = oldest) in the acting city's colour, the latest the most prominent."""

import itertools
import math

import pytest
from PIL import Image, ImageChops

from engine.i18n import using
from engine.nika.board import ROUTED_TRAY, City
from render.nika import colours as C
from render.nika import compose
from render.nika.artist import ARTIST
from render.nika.board import EARLIER_FROM_ALPHA
from render.nika.highlights import highlights
from render.nika.layout import layout_for, region_box, square_center
from render.nika.numbering import badge_radius, badges, edge_centre, rout_badge_centre, seals
from render.nika.palette import palette
from render.nika.sprites import (
    BADGE_LATEST_RADIUS,
    BADGE_RADIUS,
    LATEST_RING,
    PASS_DISC_OVERLAP,
    TRAY_TOKEN_RADIUS,
    number_badge,
    pass_tag,
)
from render.nika.static_board import static_board, tray_slots
from render.words import catalog

from .pictures import board_image, close, pixel, play, play_all, recent_image, sq

# Athens comes back after a full round: Sparta moved and rallied, Messene passed twice,
# Thebes moved twice, and Athens has just advanced, pushing and routing.
ROUND = "A:g4e,g5e,h4e,h5e,i4e,i5e S:d7s,d8e,j4n,e9n,f9n M:l5s,k11s,k12s T:j5w,k5w,q8w,r8w S2"
ROUND_ACTIONS = (
    "move d7 s",
    "rally a8 e",
    "pass",
    "pass",
    "move q8 w",
    "move r8 s",
    "advance g4,g5,h4,h5,i4,i5",
)
ACTORS = [City.SPARTA, City.SPARTA, City.MESSENE, City.MESSENE, City.THEBES, City.THEBES, City.ATHENS]


def _badges(state, recent, perspective=None):
    return badges(layout_for(perspective), state.position, [highlights(events) for events in recent])


def _shows_badge(image, badge) -> bool:
    """The badge's disc in its city's colour (below the digits), in an ink outline (a pass tag's
    first disc, at its left end)."""
    x, y = badge.centre
    if badge.passed:
        tag = pass_tag(badge.city, badge.numbers, latest=badge.latest)
        x -= tag.width / 2 - badge_radius(latest=badge.latest and len(badge.numbers) == 1) - 5.5
    radius = BADGE_LATEST_RADIUS if badge.latest else BADGE_RADIUS
    outline = any(close(pixel(image, (x - radius - step, y)), C.INK, 40) for step in (0, 1, 2))
    return outline and close(pixel(image, (x, y + radius - 3)), C.CITY[badge.city], 30)


@pytest.mark.parametrize("perspective", [None, City.SPARTA])
def test_every_action_since_the_viewers_last_turn_is_numbered_in_its_city_colour(perspective):
    state, recent = play_all(ROUND, *ROUND_ACTIONS)
    image = recent_image(state, recent, perspective)
    found = _badges(state, recent, perspective)
    assert [number for badge in found for number in badge.numbers] == [1, 2, 3, 4, 5, 6, 7]
    assert [badge.city for badge in found for _ in badge.numbers] == ACTORS
    for badge in found:
        assert _shows_badge(image, badge), badge
    layout = layout_for(perspective)
    for badge in found:
        if not badge.passed:  # on a square the action ended on
            ends = highlights(recent[badge.number - 1]).ends
            assert any(_inside(layout.box(end), badge.centre) for end in ends), badge


def _inside(box, point) -> bool:
    left, top, right, bottom = box
    return left <= point[0] < right and top <= point[1] < bottom


def test_the_latest_action_is_the_most_prominent():
    state, recent = play_all(ROUND, *ROUND_ACTIONS)
    image = recent_image(state, recent)
    *earlier, latest = _badges(state, recent)
    assert latest.latest and not any(badge.latest for badge in earlier)
    x, y = latest.centre
    ring = [BADGE_LATEST_RADIUS + LATEST_RING - inside for inside in (0.6, 1.2, 1.8)]
    assert any(close(pixel(image, (x, y - r)), C.TO_FRAME, 30) for r in ring)  # ringed in the arrival frame's orange
    # Its arrivals keep the bold orange frame; an earlier arrival (Sparta's d6) a slim one in red.
    left, top, _, _ = layout_for(None).box(sq("i5"))
    assert close(pixel(image, (left + 2, top + 12)), C.TO_FRAME)
    left, top, _, _ = layout_for(None).box(sq("d6"))
    assert close(pixel(image, (left + 4.3, top + 14)), C.CITY[City.SPARTA], 30)
    assert not close(pixel(image, (left + 2, top + 12)), C.TO_FRAME, 40)


def test_earlier_origins_are_striped_the_latest_washed():
    state, recent = play_all(ROUND, *ROUND_ACTIONS)
    image = recent_image(state, recent)
    left, top, right, bottom = layout_for(None).box(sq("d7"))  # Sparta's first move left d7
    tint = C.TINT[City.SPARTA]
    stripe = C.mix(tint, C.FROM_FILL, EARLIER_FROM_ALPHA / 255)
    seen = [pixel(image, (x, y)) for x in range(left + 6, right - 6) for y in range(top + 6, bottom - 6)]
    assert any(close(p, tint, 6) for p in seen) and any(close(p, stripe, 10) for p in seen)
    # The latest action's origins (g4, g5) keep the solid wash.
    assert close(pixel(image, square_center(sq("g4"))), C.mix(C.TINT[City.ATHENS], C.FROM_FILL, 190 / 255), 10)


def test_a_square_several_actions_ended_on_shows_every_number():
    state, recent = play_all("A:j4w S:d7s,d8e M:j12w T:p7s S2", "move d7 s", "rotate d6 e")
    image = recent_image(state, recent)
    first, second = _badges(state, recent)
    box = layout_for(None).box(sq("d6"))
    assert _inside(box, first.centre) and _inside(box, second.centre)
    assert math.dist(first.centre, second.centre) >= badge_radius(latest=False) + badge_radius(latest=True) - 3
    assert _shows_badge(image, first) and _shows_badge(image, second)


def test_numbers_keep_clear_of_routed_seals_and_push_arrows():
    state, recent = play_all(ROUND, *ROUND_ACTIONS)
    layout = layout_for(None)
    marks = [highlights(events) for events in recent]
    routed, _ = seals(state.position, marks)
    assert sq("j4") in routed  # Sparta's piece fell where an Athenian now stands
    others = [(rout_badge_centre(layout, s), 13) for s in routed]
    others += [(edge_centre(layout, *step), 13) for m in marks for step in m.pushes]
    for badge in _badges(state, recent):
        for centre, radius in others:
            assert math.dist(badge.centre, centre) >= badge_radius(latest=badge.latest) + radius - 3, badge


def test_a_citys_passes_share_a_tag_beside_its_tray():
    state, recent = play_all(ROUND, *ROUND_ACTIONS)
    image = recent_image(state, recent)
    passes = [badge for badge in _badges(state, recent) if badge.passed]
    assert [(badge.numbers, badge.city) for badge in passes] == [((3, 4), City.MESSENE)]
    tray = region_box(layout_for(None), ROUTED_TRAY[City.MESSENE])
    assert math.dist(passes[0].centre, ((tray[0] + tray[2]) / 2, (tray[1] + tray[3]) / 2)) < 200  # near it
    tag = pass_tag(City.MESSENE, (3, 4), latest=False)
    disc = number_badge(City.MESSENE, 3, latest=False).width
    first = round(passes[0].centre[0] - tag.width / 2) + disc / 2
    for number, x in ((3, first - 5), (4, first + disc - PASS_DISC_OVERLAP + 5)):  # beside each digit
        assert close(pixel(image, (x, passes[0].centre[1] + 8)), C.CITY[City.MESSENE], 40), number


ALL_PASS = "A:g4e,g5e,h4e,h5e,i4e,i5e S:d7s,d8e,j4n,e9n,f9n M:l5s,k11s,k12s T:j5w,k5w,q8w,r8w A2"


@pytest.mark.parametrize("perspective", [None, *City])
@pytest.mark.parametrize("locale", ["en", "es"])
def test_pass_tags_cover_nothing(perspective, locale):
    """Every city passes twice: each tag lies on bare parchment, clear of the trays and of every
    word and square of the board, in every view and language."""
    state, recent = play_all(ALL_PASS, *["pass"] * 8)
    layout = layout_for(perspective)
    with using(catalog(locale)):
        empty = static_board(layout.up).convert("RGB")
        found = [badge for badge in _badges(state, recent, perspective) if badge.passed]
        tags = [pass_tag(badge.city, badge.numbers, latest=badge.latest) for badge in found]
    assert sorted(badge.numbers for badge in found) == [(1, 2), (3, 4), (5, 6), (7, 8)]
    bare = Image.new("RGB", empty.size, C.PARCHMENT)
    boxes = []
    for badge, tag in zip(found, tags, strict=True):
        left, top, right, bottom = tag.getchannel("A").getbbox()
        x, y = round(badge.centre[0] - tag.width / 2), round(badge.centre[1] - tag.height / 2)
        box = (x + left, y + top, x + right, y + bottom)
        assert ImageChops.difference(empty.crop(box), bare.crop(box)).getbbox() is None, (badge.city, box)
        for tray in ROUTED_TRAY.values():  # as drawn: inside the cells it stands in
            left, top, right, bottom = region_box(layout, tray)
            assert not _overlap(box, (left + 4, top + 4, right - 4, bottom - 4))
        boxes.append(box)
    assert not any(_overlap(a, b) for a, b in itertools.combinations(boxes, 2))


def _overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_pieces_routed_by_any_recent_action_are_ringed_in_their_tray():
    # Athens routs a Spartan and a Theban, then passes: the routs are no longer the last action.
    state, recent = play_all(
        "A:g4e,g5e,h4e,h5e,i4e,i5e S:d7s,d8e,j4n,e9n,f9n M:l5s,k11s,k12s T:j5w,k5w,q8w,r8w A2",
        "advance g4,g5,h4,h5,i4,i5",
        "pass",
    )
    image = recent_image(state, recent)
    x, y = tray_slots(layout_for(None), City.SPARTA)[1]  # Sparta had one routed already
    assert close(pixel(image, (x, y - TRAY_TOKEN_RADIUS - 3)), C.ROUT, 30)
    x, y = tray_slots(layout_for(None), City.SPARTA)[0]
    assert not close(pixel(image, (x, y - TRAY_TOKEN_RADIUS - 3)), C.ROUT, 60)


def test_a_single_action_is_marked_as_before_without_a_number():
    state, events = play("start", "move l4 e")
    assert ARTIST.picture(state, [events]).tobytes() == compose(state, events, palette=palette()).tobytes()
    image = board_image(state, events)
    left, _, right, bottom = layout_for(None).box(sq("m4"))
    for corner in ((right - 9, bottom - 9), (left + 9, bottom - 9)):
        assert not close(pixel(image, corner), C.INK, 60)  # no badge outline in the corners
