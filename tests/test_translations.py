"""Every word the project shows players has its Spanish: the whole catalogue, checked at once.

`bot.translations` collects every English message from the code (each M, P and T call) and
the command surface (commands, options, choices, seats, sides); a catalogue that lacks one,
has a placeholder the English has not (or the reverse), or lacks a plural form, fails here.
A missing entry would fall back to English at run time: this test is what keeps it from
happening unnoticed.
"""

from __future__ import annotations

from bot.translations import english_messages, problems
from engine.i18n import M, using
from render.words import LANGUAGES, catalog


def test_the_spanish_catalogue_is_complete_with_matching_placeholders() -> None:
    assert len(english_messages()) > 800  # the whole project was collected, not one corner of it
    assert problems("es") == []


def test_every_language_listed_is_checked_and_english_is_the_source() -> None:
    assert LANGUAGES == ("en", "es")


def test_a_message_without_a_translation_falls_back_to_english() -> None:
    with using(catalog("es")):
        assert str(M("a sentence no catalogue has, {name}", name="Ana")) == "a sentence no catalogue has, Ana"
