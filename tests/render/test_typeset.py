"""Lines set from kept words: the same as drawn afresh, and within their bound."""

from __future__ import annotations

import pytest

from engine.i18n import using
from render import typeset
from render.words import catalog

FACE = typeset.Face("plain", 16)
INK = (44, 34, 26)


def test_a_line_of_kept_words_is_the_line_of_words_made_afresh(monkeypatch: pytest.MonkeyPatch) -> None:
    text = "Last move: Red charged c2 to e4 and stood it upright"
    with using(catalog("en")):
        first = typeset.fit(text, 300, FACE, INK, 11)
        again = typeset.fit(text, 300, FACE, INK, 11)  # every word kept now
        monkeypatch.setattr(typeset, "_words", {})
        monkeypatch.setattr(typeset, "_advances", {})
        afresh = typeset.fit(text, 300, FACE, INK, 11)
    assert again == first
    assert [(w.text, w.width, w.ascent, w.sprite.tobytes()) for w in afresh.words] == [
        (w.text, w.width, w.ascent, w.sprite.tobytes()) for w in first.words
    ]
    assert afresh.face == first.face and afresh.width == first.width < 300


def test_kept_words_are_forgotten_past_their_bound_and_come_back(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(typeset, "WORDS_KEPT", 8)
    monkeypatch.setattr(typeset, "_words", {})
    monkeypatch.setattr(typeset, "_advances", {})
    monkeypatch.setattr(typeset, "_counts", {"words": 0, "advances": 0})
    with using(catalog("en")):
        widths = [typeset.advance(f"w{n}", FACE) for n in range(20)]
        words = [typeset.word(f"w{n}", FACE, INK) for n in range(20)]
        assert sum(map(len, typeset._words.values())) <= 8 and sum(map(len, typeset._advances.values())) <= 8
        assert [typeset.advance(f"w{n}", FACE) for n in range(20)] == widths
        assert [typeset.word(f"w{n}", FACE, INK).width for n in range(20)] == [w.width for w in words]
        english = typeset.word("w1", FACE, INK)
    with using(catalog("es")):
        assert typeset.word("w1", FACE, INK) is not english  # kept per language
