"""Nika's words that are put together from parts: lists, and the outcome's summary.

Every sentence is one template (engine/i18n.py). A list is folded with list templates, so
that a language may join its last item its own way ("A, B y C"); the summary stays a
Message until someone reads it, in their language.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.i18n import M, Message, Summary, Text
from engine.nika.state import Outcome, Reason


def series(items: Sequence[Text]) -> Text:
    """Items as a list written with commas alone: 'Sparta's k6, Thebes' k7' (Spanish ends on 'y')."""
    text = items[0]
    for index, item in enumerate(items[1:], start=2):
        if index < len(items):
            text = M("{items}, {item}", items=text, item=item)
        else:
            text = M("{items}, {last}", items=text, last=item)
    return text


def listed(items: Sequence[Text]) -> Text:
    """Items as a list ending on 'and': 'j4 through j6, k4 and l5'."""
    if len(items) == 1:
        return items[0]
    head = items[0]
    for item in items[1:-1]:
        head = M("{items}, {item}", items=head, item=item)
    return M("{first} and {second}", first=head, second=items[-1])


def capitalised(text: Text) -> Message:
    """The words with a capital first letter, in whatever language they render."""
    return Message("{text:cap}", {"text": text})  # no words of its own: nothing to translate


def summary(outcome: Outcome) -> Summary:
    """One line for players: "Athens–Messene reached the victory area", "Draw by agreement"."""
    if outcome.winner is None:
        draws = {
            Reason.PASSES: M("Draw: four city turns in a row passed both actions"),
            Reason.REPETITION: M("Draw: the same position occurred three times"),
            Reason.AGREEMENT: M("Draw by agreement"),
        }
        return Summary.of(draws.get(outcome.reason, M("Draw")))
    team = outcome.winner.term
    wins = {
        Reason.VICTORY: M("{team} reached the victory area", team=team),
        Reason.CONCESSION: M("{team} declared Nika and the opponents conceded", team=team),
        Reason.RESIGNATION: M("{team} won by resignation", team=team),
        Reason.YIELDED: M("{team} won: {opponents} conceded", team=team, opponents=outcome.winner.opponent.term),
    }
    return Summary.of(wins[outcome.reason])
