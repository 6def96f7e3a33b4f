"""The game interface itself (engine/api.py): what it refuses so that a game cannot go wrong
in ways the host would only notice later."""

from __future__ import annotations

import pytest
from tictactoe.game import TicTacToe

from bot.errors import IllegalMove
from bot.match import Entry, EntryKind, MatchState
from engine import GameOver, IllegalAction, NotationError, get_game
from engine.api import Outcome, check_outcome


def test_an_unknown_game_is_a_key_error_that_lists_the_installed_ones():
    with pytest.raises(KeyError, match="no game called 'chess'; installed: nika, numica, pikemen, tictactoe"):
        get_game("chess")


def test_errors_share_one_base_players_can_read():
    assert issubclass(NotationError, IllegalAction) and issubclass(GameOver, IllegalAction)


def test_an_outcome_takes_whole_seat_slugs_never_the_letters_of_one():
    assert Outcome.win("north", "line", "North wins").winners == {"north"}
    assert Outcome.win(("north", "east"), "line", "they win").winners == {"north", "east"}
    assert Outcome.draw(["north", "south"], "full", "drawn").drawn == {"north", "south"}
    with pytest.raises(TypeError, match="a set of seat slugs, not 'north'"):
        Outcome("north", frozenset(), "line", "North wins")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="winners or drawn seats, not both"):
        Outcome(frozenset({"north"}), frozenset({"south"}), "line", "x")


class Lettered(TicTacToe):
    """A game with the trap: its winners are the letters of a word, not its seats."""

    slug = "lettered"

    def outcome(self, state):  # type: ignore[no-untyped-def]
        found = super().outcome(state)
        return None if found is None else Outcome(frozenset("xylophone"), frozenset(), "line", "X wins")


def test_the_host_refuses_an_outcome_that_names_no_seat_of_the_game():
    game = Lettered()
    state = game.load("xx./oo./... x")
    won, _ = game.apply(state, game.parse_action("c3"))
    with pytest.raises(ValueError, match=r"lettered's outcome names seats it does not have: \['e', 'h', 'l'"):
        check_outcome(game, won, game.outcome(won))
    match = MatchState.begin(game, {"x": 1, "o": 2}, "xx./oo./... x")
    with pytest.raises(ValueError, match="outcome names seats it does not have"):
        match.with_entry(Entry(EntryKind.ACTION, 1, text="c3"))  # never stored: the game is at fault
    honest = MatchState.begin(TicTacToe(), {"x": 1, "o": 2}, "xx./oo./... x")
    after, _ = honest.with_entry(Entry(EntryKind.ACTION, 1, text="c3"))
    assert after.rules.outcome(after.game).winners == {"x"}
    with pytest.raises(IllegalMove, match="a3 is taken"):
        honest.with_entry(Entry(EntryKind.ACTION, 1, text="a3"))
