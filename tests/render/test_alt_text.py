from hypothesis import given, settings
from hypothesis import strategies as st

from engine.nika.board import ENTERABLE, SQUARES, City, Direction, Team, sort_key
from engine.nika.events import Advanced, Moved, Passed, Pushed, Rallied, Routed, Won
from engine.nika.position import Piece, Position
from engine.nika.state import GameState, Outcome, Reason
from render.nika import alt_text

from .pictures import play, play_all, sq

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
        "pushed Thebes j5 to k5; pushed Thebes' k5 into l5, routing it." in text
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


@settings(derandomize=True, max_examples=150, deadline=None)
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


# --- several recent actions ---------------------------------------------------------------

ROUND = "A:g4e,g5e,h4e,h5e,i4e,i5e S:d7s,d8e,j4n,e9n,f9n M:l5s,k11s,k12s T:j5w,k5w,q8w,r8w S2"
ROUND_ACTIONS = ("move d7 s", "rally a8 e", "pass", "pass", "move q8 w", "move r8 s", "advance g4,g5,h4,h5,i4,i5")


def _told(state, recent):
    return alt_text(state, recent[-1], earlier=recent[:-1])


def test_every_action_since_the_viewers_last_turn_is_listed_in_order():
    text = _told(*play_all(ROUND, *ROUND_ACTIONS))
    assert text.startswith("Nika board. Athens (white) to act, 1 action left. Since Athens' last turn: ")
    assert (
        "Since Athens' last turn: 1. Sparta moved d7 to d6; 2. Sparta rallied a piece on a8 facing east; "
        "3. Messene passed; 4. Messene passed; 5. Thebes moved q8 to p8; 6. Thebes moved r8 to r7; "
        "7. Athens advanced g4 through i4 and g5 through i5 east, routed Sparta on j4, pushed Thebes j5 to k5, "
        "pushed Thebes' k5 into l5, routing it. Athens (white):" in text
    )


def test_the_list_starts_after_the_turn_of_the_city_before_the_first_action():
    # One player holds Athens and Messene: after Messene's turn only Thebes played.
    state, _ = play_all("start", "move l4 e", "move m4 e", "move d7 s", "move d6 s", "pass", "pass")
    state, thebes = play_all(state.notation(), "move p7 s", "move q7 s")
    told = _told(state, thebes)
    assert "left. Since Messene's last turn: 1. Thebes moved p7 to p6; 2. Thebes moved q7 to q6." in told


def _heavy_action(city, index):
    """An advance of six that pushes nine pieces and routs three: about 300 characters told in full."""
    files = "defghijklmnopqr"
    column = files[index % 12]
    return [
        Advanced(city, tuple(sq(f"{column}{r}") for r in range(4, 10)), Direction.E),
        *[Pushed(City((city + 1) % 4), sq(f"{files[index % 12 + 1]}{r}"), sq(f"{files[index % 12 + 2]}{r}"))
          for r in range(4, 13)],
        *[Routed(City((city + 3) % 4), sq(f"{files[index % 12 + 2]}{r}")) for r in (4, 5, 6)],
    ]  # fmt: skip


def test_older_actions_are_shortened_first_to_fit_discords_limit():
    state = GameState.from_position(_scattered_position())
    recent = [_heavy_action(City(i % 4), i) for i in range(12)]
    text = _told(state, recent)
    assert len(text) <= LIMIT
    assert all(f"{n}. " in text for n in range(1, 13))
    assert "12. Thebes advanced o4 through o9 east, pushed Athens p4 to q4," in text  # the latest in full
    assert "11. Messene advanced 6 pieces east, pushed 9, routed 3;" in text  # the older, briefer
    assert "1. Athens advanced; 2. Sparta advanced;" in text  # and the oldest barest
    assert "Thebes (black):" in text  # and every city's pieces are still there


event_lists = st.lists(event_strategy, min_size=1, max_size=12)


@settings(derandomize=True, max_examples=60, deadline=None)
@given(pieces_strategy, event_lists)
def test_alt_text_with_recent_actions_never_exceeds_the_limit(placed, recent):
    pieces = []
    counts = dict.fromkeys(City, 0)
    for index, (s, facing) in enumerate(placed):
        city = City(index % 4)
        if counts[city] < 6 and ENTERABLE[city.team][s]:
            counts[city] += 1
            pieces.append(Piece(city, s, facing))
    state = GameState.from_position(Position.from_pieces(pieces, City.ATHENS, 2))
    text = _told(state, recent)
    assert len(text) <= LIMIT
    assert text.startswith("Nika board.")
