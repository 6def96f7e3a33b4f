import pytest
from PIL import Image

from render.__main__ import main


def test_cli_writes_the_board_and_prints_alt_text(tmp_path, capsys):
    out = tmp_path / "board.png"
    assert main(["--game", "nika", "start", "-o", str(out), "--last", "move l4 e", "--perspective", "sparta"]) == 0
    with Image.open(out) as image:
        assert image.size == (876, 1200)
    assert "Last action: Athens moved l4 to m4." in capsys.readouterr().out


def test_cli_reports_bad_input(tmp_path, capsys):
    assert main(["--game", "nika", "start", "-o", str(tmp_path / "x.png"), "--last", "move k9 n"]) == 2
    assert "error:" in capsys.readouterr().err
    assert main(["--game", "nika", "A:j4w S:- M:- T:-", "-o", str(tmp_path / "x.png")]) == 2


def test_the_game_is_named_when_several_are_installed(capsys):
    with pytest.raises(SystemExit) as ended:
        main(["start", "-o", "x.png"])
    assert ended.value.code == 2 and "the following arguments are required: --game" in capsys.readouterr().err
