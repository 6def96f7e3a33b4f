from hypothesis import given, settings
from hypothesis import strategies as st

from engine.nika.board import ENTERABLE, SQUARES, City, Direction, Team, sort_key
from engine.nika.events import Advanced, Moved, Passed, Pushed, Rallied, Routed, Won
from engine.nika.position import Piece, Position
from engine.nika.state import GameState, Outcome, Reason
from render.nika import alt_text

from .pictures import play, sq

LIMIT = 1024
START = GameState.start()


def test_start_position_reads_whose_turn_and_every_piece():
    text = alt_text(START)
    assert text.startswith("Nika board. Athens (white) to act, 2 actions left.")
    assert "Athens (white): j4 through j6 west; k4, k5 north; l4 east; none routed." in text
    assert "Sparta (red):" in text and "Messene (blue):" in text and "Thebes (black):" in text
    assert "Last action" not in text


def test_last_action_with_push_and_routs():
    state, events = play(
        "A:g4e,g5e,h4e,h5e,i4e,i5e S:d7s,d8e,j4n,e9n,f9n M:l5s,k11s,k12s T:j5w,k5w,q8w,r8w A2",
        "advance g4,g5,h4,h5,i4,i5",
    )
    text = alt_text(state, events)
    assert "Athens (white) to act, 1 action left." in text
    assert (
        "Last action: Athens advanced g4 through i4 and g5 through i5 east; routed Sparta on j4; "
        "pushed Thebes j5 to k5; routed Thebes on k5." in text
    )
    assert "Sparta (red): d7 south; d8 east; e9, f9 north; 2 routed." in text
    assert "Thebes (black): k5, q8, r8 west; 3 routed." in text


def test_rally_move_and_pass_are_described():
    assert "Sparta rallied a piece on a8 facing east" in alt_text(*play("A:j4w S:d7s M:j12w T:p7s S1", "rally a8 e"))
    assert "Athens moved l4 to m4" in alt_text(*play("start", "move l4 e"))
    assert "Athens passed" in alt_text(*play("start", "pass"))
    assert "Athens turned j4 through j6 to face north" in alt_text(*play("start", "rotate j4,j5,j6 n"))


def test_results():
    state, events = play("A:k12n S:d7s M:k11s T:p7s A1", "move k12 n")
    text = alt_text(state, events)
    assert text.startswith("Nika board. Game over: Athens and Messene win (a piece reached its victory area).")
    assert "Athens reached its victory area on k13" in text
    drawn = alt_text(START.conclude(Outcome(None, Reason.AGREEMENT)))
    assert drawn.startswith("Nika board. Game over. Draw by agreement.")
    resigned = alt_text(START.conclude(Outcome(Team.SPARTA_THEBES, Reason.RESIGNATION)))
    assert "Sparta and Thebes win" in resigned


def test_empty_city():
    text = alt_text(GameState.from_notation("A:- S:d7s M:- T:- A2"))
    assert "Athens (white): no pieces on the board; 6 routed." in text


def _scattered_position() -> Position:
    """24 pieces, none next to another with the same facing, on two-digit ranks where possible."""
    squares = sorted((s for s in SQUARES if ENTERABLE[0][s] and ENTERABLE[1][s]), key=lambda s: (-(s // 21), s))
    pieces, used = [], set()
    for s in squares:
        if len(pieces) == 24:
            break
        if any(abs(s - u) in (1, 21) for u in used):
            continue
        used.add(s)
        index = len(pieces)
        pieces.append(Piece(City(index % 4), s, Direction(index // 4 % 4)))
    return Position.from_pieces(pieces, City.THEBES, 1)


def test_worst_case_fits_discords_limit():
    position = _scattered_position()
    events = [
        Advanced(City.THEBES, tuple(sq(n) for n in ("p10", "p11", "p12", "q10", "q11", "q12")), Direction.W),
        *[Pushed(City.ATHENS, sq(f"{f}{r}"), sq(f"{f}{r}")) for f in "mno" for r in (10, 11, 12)],
        *[Routed(City.MESSENE, sq(f"l{r}")) for r in (10, 11, 12)],
        Won(Team.SPARTA_THEBES, City.THEBES, sq("c8")),
    ]
    text = alt_text(GameState.from_position(position), events)
    assert len(text) <= LIMIT
    assert "Thebes (black):" in text


pieces_strategy = st.lists(
    st.tuples(st.sampled_from(sorted(SQUARES, key=sort_key)), st.sampled_from(list(Direction))),
    max_size=24,
    unique_by=lambda p: p[0],
)
cities = st.sampled_from(list(City))
squares = st.sampled_from(sorted(SQUARES))
directions = st.sampled_from(list(Direction))
event_strategy = st.lists(
    st.one_of(
        st.builds(Moved, cities, squares, squares),
        st.builds(Pushed, cities, squares, squares),
        st.builds(Routed, cities, squares),
        st.builds(Rallied, cities, squares, directions),
        st.builds(Passed, cities),
    ),
    max_size=30,
)


@settings(max_examples=150, deadline=None)
@given(pieces_strategy, st.sampled_from(list(City)), st.integers(1, 2), event_strategy)
def test_alt_text_never_exceeds_the_limit(placed, to_act, left, events):
    pieces = []
    counts = dict.fromkeys(City, 0)
    for index, (s, facing) in enumerate(placed):
        city = City(index % 4)
        if counts[city] < 6 and ENTERABLE[city.team][s]:
            counts[city] += 1
            pieces.append(Piece(city, s, facing))
    state = GameState.from_position(Position.from_pieces(pieces, to_act, left))
    text = alt_text(state, events)
    assert len(text) <= LIMIT
    assert text.startswith("Nika board.")
