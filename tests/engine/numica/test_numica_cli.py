"""`python -m engine --game numica start | legal | apply | serve`."""

from __future__ import annotations

import io
import json
import random

from numica_scenarios import legal, position

from engine.__main__ import main, serve
from engine.numica import deal
from engine.numica.board import tile_text
from engine.numica.game import GAME
from engine.registry import get_game
from tests.engine.serving import serve_over_a_pipe

ABOUT_TO_WIN = position(red="d4s*,a1o,b1o,g1s,h1s", blue="f5s*,a8o,c8o,e8o,h8o,h7s*", tiles_at="d4=K a1=1")


def start_position(seed: int) -> str:
    """What `start --seed N` prints: the deal and both back rows drawn from the seed."""
    rng = random.Random(seed)
    state = GAME.new(2, {}, seed)
    rows = {seat: rng.choice(list(GAME.setup_choices(state, seat))).value for seat in ("red", "blue")}
    return GAME.notation(GAME.apply_setup(state, rows)[0])


def test_start_prints_a_dealt_board_with_both_back_rows(capsys):
    assert main(["--game", "numica", "start", "--seed", "5"]) == 0
    out = capsys.readouterr().out.strip()
    assert out == start_position(5)
    assert out.startswith(tile_text(deal(random.Random(5))) + " red:")
    assert out.endswith(" red/0") and out.count("s") >= 8


def test_start_with_random_rows_uses_the_option(capsys):
    assert main(["--game", "numica", "start", "--seed", "5", "--option", "setup=random"]) == 0
    assert capsys.readouterr().out.strip() == GAME.notation(GAME.new(2, {"setup": "random"}, 5))


def test_legal_prints_every_move_once(capsys):
    assert main(["--game", "numica", "legal", ABOUT_TO_WIN]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert set(lines) == legal(ABOUT_TO_WIN) and len(lines) == len(set(lines)) and "d4xf5" in lines


def test_apply_prints_the_position_the_events_and_the_result(capsys):
    assert main(["--game", "numica", "apply", ABOUT_TO_WIN, "d4 f5"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == GAME.notation(GAME.apply(GAME.load(ABOUT_TO_WIN), GAME.parse_action("d4xf5"))[0])
    assert [json.loads(line)["event"] for line in out[1:-1]] == ["moved", "captured", "end"]
    assert out[-1] == "result: red (Red wins: 3 square pieces captured)"


def test_apply_refuses_an_illegal_move_on_stderr(capsys):
    assert main(["--game", "numica", "apply", ABOUT_TO_WIN, "d4-d5"]) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith("error: d4 stands on a knight tile")


def test_serve_answers_with_result_null_red_blue_or_draw():
    requests = [
        {"position": "start", "actions": [GAME.legal_actions(GAME.load(start_position(0)))[0].notation()]},
        {"position": ABOUT_TO_WIN, "actions": ["d4xf5"]},
        {"position": ABOUT_TO_WIN.replace("red/0", "red/99"), "actions": ["a1-a2"]},
        {"position": ABOUT_TO_WIN, "legal": True},
        {"position": ABOUT_TO_WIN, "actions": ["d4-d5"]},
    ]
    replies = _serve(requests)
    assert replies[0]["result"] is None and replies[0]["events"][0]["event"] == "moved"
    assert replies[1]["result"] == "red"
    assert replies[2]["result"] == "draw" and replies[2]["events"][-1]["reason"] == "quiet-moves"
    assert set(replies[3]["legal"]) == legal(ABOUT_TO_WIN)
    assert replies[4]["error"].startswith("d4 stands on a knight tile")


def test_serve_reports_a_blue_win():
    board = position(red="f4s*,a1o,c1o,e1s,h2o*", blue="d5s*,a8o,b8o,g8s,h8s", tiles_at="d5=K", turn="blue/3")
    assert _serve([{"position": board, "actions": ["d5xf4"]}])[0]["result"] == "blue"


def test_serve_over_a_pipe():
    [reply] = serve_over_a_pipe([{"position": ABOUT_TO_WIN, "actions": ["d4xf5"]}], game="numica")
    assert reply["result"] == "red"


def _serve(requests: list[dict]) -> list[dict]:
    stdout = io.StringIO()
    serve(io.StringIO("\n".join(json.dumps(r) for r in requests) + "\n"), stdout, get_game("numica"))
    return [json.loads(line) for line in stdout.getvalue().splitlines()]
