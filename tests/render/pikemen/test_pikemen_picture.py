"""The Pikemen picture: a PNG that decodes, the same bytes every time, pieces that read at
400 px wide (eight distinct pointers, upright clearly different, size without colour),
colours told apart by lightness too, perspectives, the last move, the panel, alt text."""

from __future__ import annotations

import io
import itertools
import math

import pytest
from PIL import Image

from engine.api import Ending, EndingKind
from engine.pikemen.game import GAME
from engine.pikemen.geometry import Orientation, parse_square_name
from engine.pikemen.state import GameState
from render import render_state
from render.__main__ import main as render_main
from render.api import ALT_TEXT_MAX
from render.pikemen import colours as C
from render.pikemen import panel
from render.pikemen.board import BADGE_INSET
from render.pikemen.description import alt_text
from render.pikemen.layout import CELL, HEIGHT, WIDTH, layout_for
from render.pikemen.palette import palette_image

PHONE = 400  # Discord on a phone shows the picture about this wide
SCALE = PHONE / WIDTH


def decode(png: bytes) -> Image.Image:
    with Image.open(io.BytesIO(png)) as image:
        assert image.format == "PNG" and image.mode == "P"
        return image.convert("RGB")


def picture(state: GameState, recent: tuple[object, ...] = (), perspective: str | None = None) -> Image.Image:
    return decode(render_state("pikemen", state, recent, perspective=perspective).png)


def on_phone(image: Image.Image) -> Image.Image:
    return image.resize((PHONE, round(image.height * SCALE)), Image.Resampling.LANCZOS)


def sq(name: str) -> int:
    found = parse_square_name(name)
    assert found is not None
    return found


def piece_pixels(image: Image.Image, square: str, perspective: str | None = None, scale: float = SCALE) -> list[tuple]:
    """(dx, dy) of the pixels around a square that differ clearly from its empty colour, in
    cells from its centre, in a picture scaled by `scale`."""
    cx, cy = (v * scale for v in layout_for(perspective).center(sq(square)))
    empty = C.LIGHT if (sq(square) % 8 + sq(square) // 8 + 1) % 2 == 1 else C.DARK
    reach = CELL * scale * 0.56
    found = []
    for y in range(math.floor(cy - reach), math.ceil(cy + reach)):
        for x in range(math.floor(cx - reach), math.ceil(cx + reach)):
            colour = image.getpixel((x, y))
            if max(abs(a - b) for a, b in zip(colour, empty, strict=True)) > 60:
                found.append(((x + 0.5 - cx) / (CELL * scale), (y + 0.5 - cy) / (CELL * scale)))
    return found


def seat_pixels(image: Image.Image, square: str, seat: str, perspective: str | None = None) -> list[tuple]:
    """(dx, dy) in cells from the square's centre of the pixels in the seat's colour (any shade:
    not the board, the outline or the shadow), in a picture scaled to the phone's width."""
    cx, cy = (v * SCALE for v in layout_for(perspective).center(sq(square)))
    reach = CELL * SCALE * 0.6
    found = []
    for y in range(math.floor(cy - reach), math.ceil(cy + reach)):
        for x in range(math.floor(cx - reach), math.ceil(cx + reach)):
            r, g, b = image.getpixel((x, y))
            if (r - max(g, b) if seat == "red" else b - max(r, g)) > 45:
                found.append(((x + 0.5 - cx) / (CELL * SCALE), (y + 0.5 - cy) / (CELL * SCALE)))
    return found


def heading(points: list[tuple]) -> float:
    """Where a lying piece points (compass degrees, 0 up, clockwise): from its centre of mass
    to its farthest point, the tip (the base corners are much nearer the centre of mass)."""
    mx = sum(p[0] for p in points) / len(points)
    my = sum(p[1] for p in points) / len(points)
    tip = max(points, key=lambda p: math.dist(p, (mx, my)))
    return math.degrees(math.atan2(tip[0] - mx, my - tip[1])) % 360


def angle_between(a: float, b: float) -> float:
    return abs((a - b + 180) % 360 - 180)


def lone(seat: str, piece: str) -> GameState:
    """One piece of `seat` on d4, with the other side's pieces far away in the corners."""
    if seat == "red":
        return GAME.load(f"R6:d4{piece} B6:h8Lu,h1Lu R/12/0")
    return GAME.load(f"R6:h8Lu,a8Lu B6:d4{piece},h1Lu R/12/0")


def test_the_board_is_a_png_with_alt_text():
    rendered = render_state("pikemen", GAME.new(4, {}, 0))
    assert rendered.png.startswith(b"\x89PNG\r\n\x1a\n")
    assert decode(rendered.png).size == (WIDTH, HEIGHT)
    assert rendered.alt_text.startswith("Pikemen board, 4 players, first to 12 points. Red to act.")


def test_the_same_board_gives_the_same_bytes():
    state = GAME.load("R6:c2Lne B6:f5Lw,a8Lu,h1Lu R/12/0")
    after, events = GAME.apply(state, GAME.parse_action("c2xf5 u"))
    assert render_state("pikemen", after, (events,)) == render_state("pikemen", after, (events,))


@pytest.mark.parametrize("size", ["S", "M", "L"])
@pytest.mark.parametrize("seat", ["red", "blue"])
def test_the_eight_directions_are_told_apart_on_a_phone(size, seat):
    for orientation in Orientation:
        if orientation is Orientation.U:
            continue
        found = seat_pixels(on_phone(picture(lone(seat, f"{size}{orientation.letter}"))), "d4", seat)
        assert angle_between(heading(found), 45 * orientation) < 10, orientation
        # The tip itself is drawn: a point a third of a square out that way is covered.
        tip = (0.3 * math.sin(math.radians(45 * orientation)), -0.3 * math.cos(math.radians(45 * orientation)))
        assert any(math.dist(tip, p) < 0.06 for p in found), orientation


def test_a_piece_turned_for_a_perspective_points_where_the_board_turned():
    for seat, screen in (("red", 270), ("yellow", 90), ("blue", 0), (None, 0)):
        found = seat_pixels(on_phone(picture(lone("red", "Ln"), perspective=seat)), "d4", "red", seat)
        assert angle_between(heading(found), screen) < 10, seat


def test_an_upright_piece_is_a_square_and_a_flat_one_is_not():
    def shape(piece: str) -> tuple[float, float]:
        found = piece_pixels(on_phone(picture(lone("red", piece))), "d4")
        xs, ys = [p[0] for p in found], [p[1] for p in found]
        width, height = max(xs) - min(xs), max(ys) - min(ys)
        cell = 1 / (CELL * SCALE)
        return width / height, len(found) * cell * cell / (width * height)  # aspect, share of its box filled

    for size in "SML":
        aspect, filled = shape(f"{size}u")
        assert 0.9 < aspect < 1.12 and filled > 0.85
        for direction in ("n", "e", "ne"):
            _, flat_filled = shape(f"{size}{direction}")
            assert flat_filled < 0.68


def test_sizes_differ_without_colour():
    for orientation in ("u", "n", "se"):
        areas = [len(piece_pixels(on_phone(picture(lone("red", f"{s}{orientation}"))), "d4")) for s in "SML"]
        assert areas[0] * 1.2 < areas[1] and areas[1] * 1.2 < areas[2], orientation


def test_the_seat_colours_differ_in_lightness_as_well_as_hue():
    def lightness(rgb: tuple[int, int, int]) -> float:
        def linear(c: int) -> float:
            v = c / 255
            return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

        y = 0.2126 * linear(rgb[0]) + 0.7152 * linear(rgb[1]) + 0.0722 * linear(rgb[2])
        return 116 * y ** (1 / 3) - 16

    order = [lightness(C.SEAT[seat]) for seat in ("yellow", "green", "red", "blue")]
    assert all(a - b > 6 for a, b in itertools.pairwise(order))
    assert all(C.SEAT_MARK[seat] in (C.INK, C.WHITE) for seat in C.SEAT)


def test_every_flat_colour_is_in_the_palette_exactly():
    colours = palette_image().getpalette() or []
    table = {tuple(colours[i : i + 3]) for i in range(0, len(colours), 3)}
    assert set(C.FLAT_COLOURS) <= table


def test_perspectives_bring_each_seats_home_nearest_the_viewer():
    assert layout_for(None).cell_of(sq("a8")) == (0, 0)
    assert layout_for("red").cell_of(sq("a8")) == (0, 7)  # bottom left
    assert layout_for("yellow").cell_of(sq("h8")) == (7, 7)  # bottom right
    assert layout_for("yellow").cell_of(sq("h5"))[1] == 7  # the three-player right-hand block, at the bottom
    assert layout_for("green").cell_of(sq("h1")) == (7, 7) and layout_for("blue").cell_of(sq("a1")) == (0, 7)
    for seat in ("red", "yellow", "green", "blue", None):
        layout = layout_for(seat)
        assert {layout.square_at(*layout.cell_of(s)) for s in range(64)} == set(range(64))
        assert all(layout.square_at(*layout.cell_of(s)) == s for s in range(64))


def test_the_last_move_is_marked_on_the_board():
    state = GAME.load("R6:c2Lne B6:f5Lw,a8Lu,h1Lu R/12/0")
    after, events = GAME.apply(state, GAME.parse_action("c2xf5 u"))
    image = picture(after, (events,))
    layout = layout_for(None)
    left, top, right, bottom = layout.box(sq("c2"))
    washed = image.getpixel((left + 4, bottom - 4))
    assert max(abs(a - b) for a, b in zip(washed, C.mix(C.DARK, C.FROM_WASH, 0.67), strict=True)) < 14
    left, top, right, bottom = layout.box(sq("f5"))
    assert image.getpixel((left + 3, bottom - 12)) == C.TO_FRAME  # the arrival frame
    capture = image.getpixel((right - 10, top + 18))  # the capture seal on the top-right corner, below its cross
    turn = image.getpixel((left + 10, top + 10))  # the turning seal on the top-left
    assert max(abs(a - b) for a, b in zip(capture, C.CAPTURE, strict=True)) < 30
    assert max(abs(a - b) for a, b in zip(turn, C.TURN, strict=True)) < 30
    plain = picture(after)
    assert plain.getpixel((left + 3, bottom - 12)) != C.TO_FRAME


def test_every_move_since_the_viewers_last_turn_is_numbered_in_its_seats_colour():
    # Four players: after Red's move, Yellow, Green and Blue move; Red comes back to three
    # numbered moves, the latest ringed, and the alt text lists them in the same order.
    state = GAME.new(4, {}, 0)
    recent = []
    for move in ("b6 se", "g6 sw", "f3 nw", "c3 ne"):
        state, events = GAME.apply(state, GAME.parse_action(move))
        recent.append(events)
    image = picture(state, tuple(recent[1:]))
    layout = layout_for(None)
    for seat, square in (("yellow", "g6"), ("green", "f3"), ("blue", "c3")):
        _, _, right, bottom = layout.box(sq(square))
        badge = image.getpixel((right - BADGE_INSET + 5, bottom - BADGE_INSET))  # right of the digit
        assert max(abs(a - b) for a, b in zip(badge, C.SEAT[seat], strict=True)) < 30, seat
    _, _, right, bottom = layout.box(sq("c3"))
    ring = image.getpixel((right - BADGE_INSET + 14, bottom - BADGE_INSET))
    assert max(abs(a - b) for a, b in zip(ring, C.TO_FRAME, strict=True)) < 40  # the latest move's ring
    text = render_state("pikemen", state, tuple(recent[1:])).alt_text
    assert ("Recent moves, oldest first: 1. Yellow turned g6 to point south-west; "
            "2. Green turned f3 to point north-west; 3. Blue turned c3 to point north-east.") in text  # fmt: skip
    alone = picture(state, (recent[-1],))  # one move: no numbers, as in a two-player game
    _, _, right, bottom = layout.box(sq("g6"))
    assert alone.getpixel((right - BADGE_INSET + 5, bottom - BADGE_INSET)) != image.getpixel(
        (right - BADGE_INSET + 5, bottom - BADGE_INSET)
    )


def test_the_panel_marks_who_acts_who_is_out_and_who_won():
    state = GAME.load("R9:c2Mne,a8Lu Y0:f8Ls G4:- B2:a1Ln,f5Lw R/12/40")
    state, _ = GAME.end(state, Ending(EndingKind.RESIGNATION, "yellow"))
    assert [panel._kind(state, seat, False) for seat in range(4)] == ["to-act", "out", "waiting", "waiting"]
    assert panel.status_words(state) == "Red to act"
    image = picture(state)
    left, top, _, bottom = panel.card_box(4, 0)
    assert image.getpixel((left + 1, (top + bottom) // 2)) == C.INK  # the bold frame of the card to act
    left, top, _, bottom = panel.card_box(4, 1)
    assert image.getpixel((left + 40, bottom - 6)) == C.OUT_CARD
    won, _ = GAME.apply(state, GAME.parse_action("c2xf5"))
    assert [panel._kind(won, seat, False) for seat in range(4)] == ["winner", "out", "lost", "lost"]
    assert panel.status_words(won) == "Red wins"
    drawn, _ = GAME.end(state, Ending(EndingKind.AGREEMENT))
    assert panel.status_words(drawn) == "Draw: Red, Green and Blue"


def test_alt_text_lets_a_blind_player_follow_the_game():
    state = GAME.load("R9:c2Mne,a8Lu Y0:f8Ls G4:- B2:a1Ln,f5Lw R/12/40")
    state, _ = GAME.end(state, Ending(EndingKind.RESIGNATION, "yellow"))
    after, events = GAME.apply(state, GAME.parse_action("c2-e4 u"))
    assert alt_text(after, events) == (
        "Pikemen board, 4 players, first to 12 points. Blue to act. "
        "Scores: Red 9, Yellow 0 (out of the game), Green 4 (no pieces left), Blue 2. "
        "Last move: Red charged c2 to e4 and stood it upright. "
        "Red: large a8 up; medium e4 up. Yellow: out. Green: no pieces. Blue: large a1 n, f5 w."
    )
    won, events = GAME.apply(state, GAME.parse_action("c2xf5"))
    assert alt_text(won, events).startswith(
        "Pikemen board, 4 players, first to 12 points. Game over: Red reaches 12 points and wins. "
    )


def test_the_last_move_kept_once_said_is_said_in_each_viewers_language():
    """The panel and the alt text say the last move from one kept sentence: kept per language."""
    state = GAME.load("R9:c2Mne,a8Lu Y0:f8Ls G4:- B2:a1Ln,f5Lw R/12/40")
    after, events = GAME.apply(state, GAME.parse_action("c2-e4 u"))
    said = [render_state("pikemen", after, (events,), locale=locale).alt_text for locale in ("en", "es", "en")]
    assert "Last move: Red charged c2 to e4 and stood it upright." in said[0]
    assert said[2] == said[0] and said[1] != said[0] and "charged" not in said[1]
    won, events = GAME.apply(state, GAME.parse_action("c2xf5"))  # an ending's events are said afresh
    assert "Last move: Red charged c2 to f5" in render_state("pikemen", won, (events,)).alt_text


@pytest.mark.parametrize("players", [2, 3, 4])
def test_alt_text_fits_discord_with_every_piece(players):
    state = GAME.new(players, {}, 0)
    text = render_state("pikemen", state).alt_text
    assert len(text) <= ALT_TEXT_MAX and text.count(" up") == {2: 30, 3: 36, 4: 36}[players]


def test_the_command_line_draws_a_board(tmp_path, capsys):
    out = tmp_path / "board.png"
    assert render_main(["--game", "pikemen", "start", "--players", "3", "-o", str(out), "--perspective", "yellow"]) == 0
    assert decode(out.read_bytes()).size == (WIDTH, HEIGHT)
    assert capsys.readouterr().out.startswith("Pikemen board, 3 players")
