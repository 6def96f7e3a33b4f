import io
import random

from PIL import Image

from engine.nika.state import GameState
from engine.record import GameRecord, RecordEntry
from render import REPLAY_EXTENSION, render_replay, replay_filename
from render.encode import to_palette
from render.nika.board import compose
from render.nika.palette import palette_image
from render.replay import FIRST_FRAME_MS, FRAME_MS, LAST_FRAME_MS, frame_caption


def _record(actions: int, seed: int = 7) -> GameRecord:
    rng = random.Random(seed)
    state = GameState.start()
    record = GameRecord("nika", state.notation())
    for _ in range(actions):
        action = rng.choice(state.legal_actions())
        record.entries.append(RecordEntry(state.seat_to_act(), action.notation()))
        state, _ = state.apply(action)
    return record


TITLES = {c: c.title() for c in ("athens", "sparta", "messene", "thebes")}


def _frames(gif: bytes) -> tuple[int, tuple[int, int], str]:
    with Image.open(io.BytesIO(gif)) as image:
        return image.n_frames, image.size, image.format or ""


def test_one_frame_per_action_plus_the_start():
    gif = render_replay(_record(6))
    assert REPLAY_EXTENSION == "gif" and replay_filename("nika") == "nika-replay.gif"
    assert _frames(gif) == (7, (1200, 876), "GIF")


def test_last_actions_only():
    record = _record(6)
    assert _frames(render_replay(record, last=2))[0] == 3
    assert _frames(render_replay(record, last=0))[0] == 1
    assert _frames(render_replay(record, last=50))[0] == 7


def test_a_game_without_actions_is_one_frame():
    assert _frames(render_replay(GameRecord("nika", GameState.start().notation())))[0] == 1


def test_replay_is_deterministic_and_frames_differ():
    record = _record(4)
    gif = render_replay(record)
    assert gif == render_replay(record)
    with Image.open(io.BytesIO(gif)) as image:
        first = image.convert("RGB").tobytes()
        image.seek(1)
        second = image.convert("RGB").tobytes()
    assert first != second


def test_frames_show_the_boards_with_their_highlights_and_times():
    record = _record(5)
    steps = record.replay()
    with Image.open(io.BytesIO(render_replay(record, last=3))) as image:
        durations = []
        for index, number in enumerate(range(2, 6)):
            image.seek(index)
            durations.append(image.info["duration"])
            state, events = steps[number]
            board = compose(state, [] if index == 0 else events, caption=frame_caption(record, number, TITLES))
            assert image.convert("RGB").tobytes() == to_palette(board, palette_image()).convert("RGB").tobytes()
    assert durations == [FIRST_FRAME_MS, FRAME_MS, FRAME_MS, LAST_FRAME_MS]
