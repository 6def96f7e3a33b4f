"""Every letter a board may show is drawn as a letter, never as the font's empty box."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PIL import Image, ImageDraw, ImageFont

from engine.i18n import ENGLISH, using
from render import fonts
from render.words import LANGUAGES, catalog, po_file

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


def _glyph(font: Font, char: str) -> bytes:
    image = Image.new("L", (90, 90))
    ImageDraw.Draw(image).text((20, 20), char, font=font, fill=255)
    return image.tobytes()


def missing(font: Font, text: str) -> set[str]:
    """The characters of `text` the font draws as its 'missing letter' box."""
    box = _glyph(font, "\uffff")
    return {char for char in set(text) - {" ", "\n"} if _glyph(font, char) == box}


# Catalogues hold Discord's texts too (menus, help pages), where these signs are shown by
# the reader's own fonts; no board draws them.
DISCORD_ONLY = {"✕", "✗", "•", "→", "↩", "⌛", "⏰", "⚠", "\ufe0f", "⏸", "▶", "⏩", "🏖", "⏱"}


def _translated(language: str) -> Iterator[str]:
    for message in po_file(language):
        if message.id and message.string:
            yield from message.string if isinstance(message.string, tuple | list) else (message.string,)


@pytest.mark.parametrize("language", [lang for lang in LANGUAGES if lang != "en"])
def test_every_letter_of_a_translation_is_in_the_fonts_drawn_in_that_language(language: str) -> None:
    letters = "".join(char for char in "".join(_translated(language)) if char not in DISCORD_ONLY)
    assert len(set(letters)) > 40  # the catalogue was read
    with using(catalog(language)):
        assert missing(fonts.plain(40), letters) == set()
        assert missing(fonts.display(40), letters.upper()) == set()


def test_english_plain_text_is_drawn_with_ascii_stand_ins_for_the_signs_its_font_lacks() -> None:
    english = "".join(str(message.id[0] if isinstance(message.id, tuple) else message.id) for message in po_file("es"))
    with using(ENGLISH):
        assert missing(fonts.plain(40), "Athens–Messene — wins…") == {"–", "—"}
        assert missing(fonts.plain(40), fonts.drawable(english)) <= DISCORD_ONLY
        assert fonts.drawable("Athens–Messene — wins…") == "Athens-Messene - wins…"


def test_a_translation_draws_with_its_own_font_and_english_keeps_pillows() -> None:
    with using(catalog("es")):
        spanish = fonts.plain(20)
        assert fonts.drawable("a — b…") == "a — b…"
    with using(ENGLISH):
        assert fonts.plain(20) is not spanish
        assert fonts.plain(20).getname()[0] != spanish.getname()[0]  # type: ignore[union-attr]
