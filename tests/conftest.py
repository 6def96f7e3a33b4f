"""The suites host every installed game, found by entry points as the bot finds them: the
built-in three and tic-tac-toe, a package from outside the host (tests/plugins/tictactoe),
which the test environment installs (README's quick start; .ci/run)."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, distribution

import pytest

PLUGIN = "boardgame-tictactoe"


def pytest_sessionstart(session: pytest.Session) -> None:
    try:
        distribution(PLUGIN)
    except PackageNotFoundError:
        pytest.exit(
            f"the test game package {PLUGIN} is not installed: run  pip install -e tests/plugins/tictactoe  "
            "(the README's quick start installs it)",
            returncode=4,
        )
