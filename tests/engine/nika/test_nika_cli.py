"""`python -m engine start | legal | apply | serve`."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

from nika_scenarios import START, legal

from engine import get_game
from engine.__main__ import main, serve
from tests.engine.serving import serve_over_a_pipe

PROJECT = Path(__file__).resolve().parents[3]


def test_start_prints_the_start_position(capsys):
    assert main(["--game", "nika", "start"]) == 0
    assert capsys.readouterr().out == START + "\n"


def test_legal_prints_every_legal_action_one_per_line(capsys):
    assert main(["--game", "nika", "legal", START]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert set(lines) == legal(START) and len(lines) == len(set(lines))
    assert "advance k4,k5" in lines and lines[-1] == "pass"


def test_apply_prints_the_new_position_and_the_events(capsys):
    assert main(["--game", "nika", "apply", START, "advance k4,k5", "Move J6 West"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == (
        "A:i6w,j4w,j5w,k5n,k6n,l4e S:d7s,d8e,d9n,e8e,e9n,f9n "
        "M:j12w,k11s,k12s,l10e,l11e,l12e T:p7s,q7s,q8w,r7s,r8w,r9n S2"
    )
    assert [json.loads(line)["event"] for line in out[1:]] == ["advanced", "moved"]


def test_apply_reports_a_win(capsys):
    assert main(["--game", "nika", "apply", "A:k12n S:- M:- T:- A2", "move k12 n"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == "result: athens-messene (Athens–Messene reached the victory area)"


def test_apply_refuses_an_illegal_action_on_stderr(capsys):
    assert main(["--game", "nika", "apply", START, "move k6 n"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == "error: k6 is not one of your pieces: it is empty\n"


def test_a_bad_position_is_an_error(capsys):
    assert main(["--game", "nika", "legal", "A:k7n S:- M:- T:- A2"]) == 1
    assert "k7 is in the central area" in capsys.readouterr().err


def test_serve_answers_json_lines_in_process():
    requests = [
        {"position": START, "actions": ["advance k4,k5"]},
        {"position": "A:k5n S:- M:- T:- A2", "legal": True},
        {"position": START, "actions": ["move k6 n"]},
    ]
    stdin = io.StringIO("\n".join(json.dumps(r) for r in requests) + "\n\n")
    stdout = io.StringIO()
    serve(stdin, stdout, get_game("nika"))
    replies = [json.loads(line) for line in stdout.getvalue().splitlines()]
    assert replies[0]["position"] == (
        "A:j4w,j5w,j6w,k5n,k6n,l4e S:d7s,d8e,d9n,e8e,e9n,f9n "
        "M:j12w,k11s,k12s,l10e,l11e,l12e T:p7s,q7s,q8w,r7s,r8w,r9n A1"
    )
    assert replies[0]["events"] == [{"event": "advanced", "city": "athens", "squares": "k4,k5", "direction": "n"}]
    assert replies[0]["result"] is None
    assert set(replies[1]["legal"]) == legal("A:k5n S:- M:- T:- A2")
    assert replies[2] == {"error": "k6 is not one of your pieces: it is empty"}


def test_serve_over_a_pipe():
    requests = [
        {"position": "A:k12n S:- M:- T:- A2", "actions": ["move k12 n"]},
        {"position": START, "actions": ["pass"] * 8},
        {"position": "A:k12n S:- M:- T:- A2", "actions": ["move k12 n", "pass"]},
        "this is not json",
        ["a", "list"],
        {"position": START, "actions": "pass"},
        {"position": "garbage", "legal": True},
    ]
    replies = serve_over_a_pipe(requests, "nika")
    assert replies[0]["result"] == "athens-messene"
    assert replies[0]["events"][-1] == {"event": "win", "team": "athens-messene", "city": "athens", "square": "k13"}
    assert replies[1]["result"] == "draw"
    assert replies[1]["events"][-1] == {"event": "draw", "reason": "passes"}
    assert replies[2]["error"].startswith("the game is over")
    assert replies[3]["error"].startswith("invalid JSON")
    assert replies[4]["error"].startswith("a request is")
    assert replies[5] == {"error": '"actions" must be a list of action strings'}
    assert "a position has five fields" in replies[6]["error"]


def test_start_via_subprocess():
    argv = [sys.executable, "-m", "engine", "--game", "nika", "start"]
    done = subprocess.run(argv, capture_output=True, text=True, cwd=PROJECT, timeout=60, check=True)
    assert done.stdout.strip() == START
