from engine.nika.board import FILE_COUNT, FILES, RANK_COUNT, SQUARES, City, Direction, file_of, rank_of, square
from render.nika.layout import CELL, MARGIN, image_size, layout_for, square_box, square_center

from .pictures import sq

PERSPECTIVES = [None, *City]


def test_north_up_puts_a1_bottom_left_and_u15_top_right():
    width, height = image_size()
    assert (width, height) == (FILE_COUNT * CELL + 2 * MARGIN, RANK_COUNT * CELL + 2 * MARGIN)
    assert square_center(sq("a1")) == (MARGIN + CELL // 2, height - MARGIN - CELL // 2)
    assert square_center(sq("u15")) == (width - MARGIN - CELL // 2, MARGIN + CELL // 2)


def test_board_image_is_about_1200_wide():
    assert image_size() == (1200, 876)
    assert image_size(City.SPARTA) == (876, 1200)


def test_each_perspective_points_the_city_forward_up():
    for city in City:
        layout = layout_for(city)
        assert layout.screen(city.forward) == 0
        # One step forward from a square is one cell up in the image.
        x0, y0 = square_center(sq("k5"), city)
        forward = {Direction.N: "k6", Direction.E: "l5", Direction.S: "k4", Direction.W: "j5"}[city.forward]
        x1, y1 = square_center(sq(forward), city)
        assert (x1 - x0, y1 - y0) == (0, -CELL)


def test_cells_and_squares_are_inverse_and_inside_the_image():
    for perspective in PERSPECTIVES:
        layout = layout_for(perspective)
        width, height = layout.size
        seen = set()
        for s in range(FILE_COUNT * RANK_COUNT):
            column, row = layout.cell_of(s)
            assert layout.square_at(column, row) == s
            seen.add((column, row))
        assert len(seen) == FILE_COUNT * RANK_COUNT
        for s in SQUARES:
            left, top, right, bottom = square_box(s, perspective)
            assert MARGIN <= left < right <= width - MARGIN
            assert MARGIN <= top < bottom <= height - MARGIN


def test_coordinate_labels_move_with_their_squares():
    for perspective in PERSPECTIVES:
        layout = layout_for(perspective)
        for s in SQUARES:
            column, row = layout.cell_of(s)
            file_label, rank_label = FILES[file_of(s)], str(rank_of(s))
            if layout.is_upright:
                assert (layout.column_label(column), layout.row_label(row)) == (file_label, rank_label)
            else:
                assert (layout.column_label(column), layout.row_label(row)) == (rank_label, file_label)


def test_sparta_view_has_north_on_the_left():
    layout = layout_for(City.SPARTA)
    assert layout.screen(Direction.N) == 3
    assert layout.cell_of(square(0, RANK_COUNT))[0] == 0  # rank 15 is the first column
