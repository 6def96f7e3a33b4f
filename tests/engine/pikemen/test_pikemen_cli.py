"""`python -m engine --game pikemen start | legal | apply | serve`."""

from __future__ import annotations

import io
import json

from pikemen_scenarios import START_2, legal

from engine.__main__ import main, serve
from engine.pikemen.game import GAME
from tests.engine.serving import serve_over_a_pipe

WIN = "R9:c2Mne,a1Su B4:f5Lw,a8Lu,h8Lu R/12/3"
TIE_3 = "R4:a1Lne,h8Lu Y6:c3Mn B3:h1Lu R/12/0"  # red takes yellow's last piece: 6 all, nobody can reach 12
TIE_2 = "R7:a1Lne,h8Lu B9:c3Mn R/12/0"  # red takes blue's last piece: 9 all


def test_start_prints_the_start_position_for_each_player_count(capsys):
    assert main(["--game", "pikemen", "start"]) == 0
    assert capsys.readouterr().out == START_2 + "\n"
    for players in (3, 4):
        assert main(["--game", "pikemen", "start", "--players", str(players)]) == 0
        assert capsys.readouterr().out == GAME.notation(GAME.new(players, {}, 0)) + "\n"


def test_start_takes_the_target_option(capsys):
    assert main(["--game", "pikemen", "start", "--players", "4", "--option", "target=15"]) == 0
    assert capsys.readouterr().out.rstrip().endswith(" R/15/0")
    # Players may agree to any higher target (the rules' "agree to a higher number"): up to the
    # points the others have on the board, 30 with two players.
    assert main(["--game", "pikemen", "start", "--option", "target=30"]) == 0
    assert capsys.readouterr().out.rstrip().endswith(" R/30/0")
    assert main(["--game", "pikemen", "start", "--option", "target=31"]) == 1
    assert "with 2 players the target is at most 30 points" in capsys.readouterr().err
    assert main(["--game", "pikemen", "start", "--option", "target=11"]) == 1
    assert "target is a whole number from 12 to 54, e.g. 12, 15, 20" in capsys.readouterr().err


def test_legal_prints_every_legal_move_one_per_line(capsys):
    assert main(["--game", "pikemen", "legal", WIN]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert set(lines) == legal(WIN) and len(lines) == len(set(lines)) and "c2xf5 u" in lines


def test_apply_prints_the_position_the_events_and_the_result(capsys):
    assert main(["--game", "pikemen", "apply", WIN, "c2xf5"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "R12:a1Su,f5Mne B4:a8Lu,h8Lu B/12/0"
    assert [json.loads(line)["event"] for line in out[1:-1]] == ["charged", "ended"]
    assert out[-1] == "result: red (Red reaches 12 points and wins)"


def test_apply_refuses_an_illegal_move_on_stderr(capsys):
    assert main(["--game", "pikemen", "apply", START_2, "a6-a4"]) == 1
    assert capsys.readouterr().err == (
        "error: the large pikeman on a6 stands upright: only charge it after reorienting\n"
    )


def test_serve_answers_with_the_result():
    requests = [
        {"position": START_2, "actions": ["b7 s"]},
        {"position": WIN, "actions": ["c2xf5"]},
        {"position": TIE_3, "actions": ["a1xc3"]},
        {"position": TIE_2, "actions": ["a1xc3"]},
        {"position": WIN, "legal": True},
        {"position": START_2, "actions": ["b7 u"]},
    ]
    stdin = io.StringIO("\n".join(json.dumps(r) for r in requests) + "\n")
    stdout = io.StringIO()
    serve(stdin, stdout, GAME)
    replies = [json.loads(line) for line in stdout.getvalue().splitlines()]
    assert replies[0]["result"] is None and replies[0]["position"].endswith(" B/12/1")
    assert replies[0]["events"] == [
        {"event": "turned", "seat": "red", "square": "b7", "size": "M", "from": "u", "orientation": "s"}
    ]
    assert [reply["result"] for reply in replies[1:4]] == ["red", "draw:red,yellow", "draw"]
    assert set(replies[4]["legal"]) == legal(WIN)
    assert replies[5]["error"].startswith("b7 already stands upright: turn it to another orientation")


def test_serve_over_a_pipe():
    [reply] = serve_over_a_pipe([{"position": WIN, "actions": ["c2xf5"]}], game="pikemen")
    assert reply["result"] == "red"
