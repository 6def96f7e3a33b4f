"""Nika in Spanish around the board: the picture's words and its alt text in the viewer's
language (pieces, squares and marks are the same picture), lettered with accents, cached per
language, encoded with one palette and readable on a phone; and the front end's help, rules
and command names in Spanish, as Discord shows them."""

from __future__ import annotations

import io
import re

import pytest
from PIL import Image, ImageChops, ImageDraw

from engine.i18n import ENGLISH, using
from engine.nika.board import ROUTED_TRAY, City, Direction, Team
from engine.nika.game import GAME
from engine.nika.state import GameState, Outcome, Reason
from render import render_state
from render.encode import png_bytes
from render.nika import colours as C
from render.nika import status
from render.nika.artist import ARTIST
from render.nika.board import compose
from render.nika.description import alt_text
from render.nika.highlights import highlights
from render.nika.key import KEY_ROWS, KEY_SIZE, _width, key_lines, tray_label_box
from render.nika.layout import layout_for, region_box
from render.nika.numbering import badges
from render.nika.palette import palette_image
from render.nika.sprites import pass_tag
from render.nika.static_board import BOTTOM_RIGHT, TOP_RIGHT, free_corner, panel_box, static_board
from render.words import catalog

from .pictures import close, play, play_all
from .test_alt_text import ROUND, ROUND_ACTIONS, _heavy_action, _scattered_position
from .test_phone import ink_rows, phone

SPANISH = catalog("es")
PUSH = ("A:g4e,g5e,h4e,h5e,i4e,i5e S:d7s,d8e,j4n,e9n,f9n M:l5s,k11s,k12s T:j5w,k5w,q8w,r8w A2",
        "advance g4,g5,h4,h5,i4,i5")  # fmt: skip


def decode(png: bytes) -> Image.Image:
    with Image.open(io.BytesIO(png)) as image:
        assert image.format == "PNG" and image.mode == "P"
        return image.convert("RGB")


def spanish_alt(state: GameState, recent: list[list[object]]) -> str:
    with using(SPANISH):
        return alt_text(state, recent[-1] if recent else (), earlier=recent[:-1])


# --- the alt text -----------------------------------------------------------------------


def test_a_spanish_board_is_a_png_with_spanish_alt_text():
    state, events = play(*PUSH)
    board = render_state("nika", state, (events,), locale="es-ES")
    assert decode(board.png).size == layout_for(None).size
    assert board.alt_text == (
        "Tablero de Nika. Turno de Atenas (blanco), queda 1 acción. "
        "Última acción: Atenas avanzó g4 a i4 y g5 a i5 hacia el este; derrotó a Esparta en j4; "
        "empujó a Tebas de j5 a k5; empujó la pieza de Tebas en k5 hasta l5 y la derrotó. "
        "Atenas (blanco): h4 a j4, h5 a j5 al este; ninguna derrotada. "
        "Esparta (rojo): d7 al sur; d8 al este; e9, f9 al norte; 2 derrotadas. "
        "Messene (azul): k11, k12, l5 al sur; 3 derrotadas. "
        "Tebas (negro): k5, q8, r8 al oeste; 3 derrotadas."
    )
    assert render_state("nika", state, (events,)).alt_text.startswith("Nika board. Athens (white) to act, 1 action")


def test_every_action_since_the_viewers_last_turn_is_listed_in_spanish():
    text = spanish_alt(*play_all(ROUND, *ROUND_ACTIONS))
    assert (
        "Desde el último turno de Atenas: 1. Esparta movió de d7 a d6; "
        "2. Esparta reagrupó una pieza en a8 mirando al este; 3. Messene pasó; 4. Messene pasó; "
        "5. Tebas movió de q8 a p8; 6. Tebas movió de r8 a r7; "
        "7. Atenas avanzó g4 a i4 y g5 a i5 hacia el este, derrotó a Esparta en j4, empujó a Tebas de j5 a k5, "
        "empujó la pieza de Tebas en k5 hasta l5 y la derrotó. Atenas (blanco):" in text
    )


def test_the_alt_text_gives_the_result_in_spanish():
    won, events = play("A:k12n S:d7s M:k11s T:p7s A1", "move k12 n")
    assert spanish_alt(won, [events]).startswith(
        "Tablero de Nika. Partida terminada: ganan Atenas y Messene (una pieza llegó a su área de victoria). "
        "Última acción: Atenas movió de k12 a k13; Atenas llegó a su área de victoria en k13."
    )
    start = GameState.start()
    drawn = spanish_alt(start.conclude(Outcome(None, Reason.AGREEMENT)), [])
    assert drawn.startswith("Tablero de Nika. Partida terminada. Empate de mutuo acuerdo. Atenas (blanco):")
    resigned = spanish_alt(start.conclude(Outcome(Team.SPARTA_THEBES, Reason.RESIGNATION)), [])
    assert resigned.startswith("Tablero de Nika. Partida terminada: ganan Esparta y Tebas (los rivales se rindieron).")


def test_an_empty_city_and_a_terse_action_read_in_spanish():
    text = spanish_alt(GameState.from_notation("A:- S:d7s M:- T:- A2"), [])
    assert "Atenas (blanco): ninguna pieza en el tablero; 6 derrotadas." in text
    state = GameState.from_position(_scattered_position())
    text = spanish_alt(state, [_heavy_action(City(i % 4), i) for i in range(12)])
    assert len(text) <= 1024 and all(f"{n}. " in text for n in range(1, 13))
    assert "11. Messene avanzó 6 piezas al este, empujó 9, derrotó 3;" in text  # older actions, briefer
    assert "1. Atenas avanzó; 2. Esparta avanzó;" in text  # the oldest, barest
    assert "Tebas (negro):" in text  # every city's pieces are still there


# --- the picture ------------------------------------------------------------------------


def _word_boxes(perspective: City | None) -> list[tuple[int, int, int, int]]:
    """Where the board has words: the plaque, the key, the teams, each tray and its caption."""
    layout = layout_for(perspective)
    boxes = [panel_box(layout), free_corner(layout, TOP_RIGHT), free_corner(layout, BOTTOM_RIGHT)]
    for city in City:
        boxes += [tray_label_box(layout, city), region_box(layout, ROUTED_TRAY[city])]
    return boxes


@pytest.mark.parametrize("perspective", [None, City.SPARTA])
def test_only_the_words_change_with_the_language(perspective):
    state, recent = play_all(ROUND, *ROUND_ACTIONS)  # passes too: their tags carry a word
    seat = perspective.name.lower() if perspective else None
    english = decode(render_state("nika", state, recent, perspective=seat, locale="en").png)
    spanish = decode(render_state("nika", state, recent, perspective=seat, locale="es").png)
    words = Image.new("L", english.size, 255)
    layout = layout_for(perspective)
    # Sparta's initial is a word too (S, E for Esparta): its pieces' squares may change. Pass tags
    # carry a word and find room beside labels whose length changes with the language.
    spartan = [layout.box(piece.square) for piece in state.position.pieces() if piece.city is City.SPARTA]
    tags = []
    for locale in ("en", "es"):
        with using(catalog(locale)):
            for badge in badges(layout, state.position, [highlights(events) for events in recent]):
                if badge.passed:
                    tag = pass_tag(badge.city, badge.numbers, latest=badge.latest)
                    x, y = badge.centre[0] - tag.width / 2, badge.centre[1] - tag.height / 2
                    tags.append((round(x), round(y), round(x) + tag.width, round(y) + tag.height))
    for left, top, right, bottom in [*_word_boxes(perspective), *spartan, *tags]:
        ImageDraw.Draw(words).rectangle((left - 2, top - 2, right + 2, bottom + 2), fill=0)
    changed = ImageChops.difference(english, spanish).convert("L")
    assert ImageChops.multiply(changed, words).getbbox() is None  # pieces, squares and marks: the same
    for box in _word_boxes(perspective)[:3]:
        assert ImageChops.difference(english.crop(box), spanish.crop(box)).getbbox() is not None, box


def test_the_plaque_says_whose_turn_it_is_in_spanish_word_order():
    with using(SPANISH):
        assert status._around_city() == ("Turno de", "")
    with using(ENGLISH):
        assert status._around_city() == ("", "to act")


def test_the_key_keeps_long_spanish_labels_readable_on_a_turned_board():
    layout = layout_for(City.SPARTA)
    left, _, right, _ = free_corner(layout, TOP_RIGHT)
    room = right - left - 52  # beside the icons
    with using(SPANISH):
        rows, size = key_lines(room)
        one_line = min(size, *(room * KEY_SIZE / _width(str(text).upper(), KEY_SIZE, 700) for _, text in KEY_ROWS))
    assert [lines for _, lines in rows] == [["ÁREA DE", "VICTORIA"], ["ÁREA DE", "REAGRUPAMIENTO"],
                                            ["PIEZAS", "DERROTADAS"]]  # fmt: skip
    assert size >= 10 and size >= one_line * 1.4  # on one line "ÁREA DE REAGRUPAMIENTO" would be 7 px
    with using(ENGLISH):
        rows, size = key_lines(room)
    assert all(len(lines) == 1 for _, lines in rows) and size < KEY_SIZE  # English keeps one line


def test_drawings_with_words_are_cached_once_per_language():
    with using(ENGLISH):
        english = static_board(Direction.N)
        assert static_board(Direction.N) is english
    with using(SPANISH):
        spanish = static_board(Direction.N)
        assert static_board(Direction.N) is spanish
        panel = status.turn_panel((444, 120), City.SPARTA, 2)
    assert spanish is not english and ImageChops.difference(english, spanish).getbbox() is not None
    with using(ENGLISH):
        assert ImageChops.difference(status.turn_panel((444, 120), City.SPARTA, 2), panel).getbbox() is not None


def test_one_palette_serves_every_language():
    with using(SPANISH):
        spanish = palette_image()
    assert spanish.getpalette() == palette_image().getpalette()
    won, events = play("A:k12n S:d7s M:k11s T:p7s A1", "move k12 n")
    picture = ARTIST.picture(won, (events,), locale="es")
    encoded = png_bytes(picture, ARTIST.palette())
    with using(SPANISH):
        assert png_bytes(picture, ARTIST.palette()) == encoded  # the same bytes whatever language encodes
    errors = []
    for locale in ("en", "es"):
        with using(catalog(locale)):  # composed in RGB, as before a palette exists
            drawn = compose(won, events, palette=None)
        errors.append(ImageChops.difference(drawn, decode(png_bytes(drawn, ARTIST.palette()))).getextrema())
    assert all(high <= english for (_, high), (_, english) in zip(errors[1], errors[0], strict=True))


@pytest.mark.parametrize("perspective", [None, "sparta"])
def test_the_spanish_status_reads_at_phone_width(perspective):
    state = GAME.new(4, {}, 0)
    small, scale = phone(decode(render_state("nika", state, perspective=perspective, locale="es").png))
    left, top, right, bottom = panel_box(layout_for(City[perspective.upper()] if perspective else None))
    words = (left + 4, top + (bottom - top) * 0.3, right - 4, bottom - 4)
    rows, share = ink_rows(small, [v * scale for v in words], C.PANEL)
    assert rows >= 12 and share >= 0.02, (rows, share)


def test_the_tray_captions_fit_their_trays_in_spanish():
    """The narrow trays' captions ("ESPARTA", "DERROTADAS") keep clear of their box's sides."""
    picture = decode(render_state("nika", GameState.start(), locale="es").png)
    layout = layout_for(None)
    for city in (City.SPARTA, City.THEBES):  # two squares wide
        left, top, right, bottom = tray_label_box(layout, city)
        inked = [
            x for x in range(left, right) for y in range(top, bottom) if close(picture.getpixel((x, y)), C.INK, 60)
        ]
        assert inked and left + 2 < min(inked) and max(inked) < right - 2, city


# --- the front end ----------------------------------------------------------------------


def test_the_help_is_spanish_and_names_the_commands_as_discord_shows_them():
    from bot.commands.front_end import named
    from bot.commands.group import names_of
    from bot.games.nika import HELP

    with using(SPANISH):
        text = named(HELP, names_of("nika"))
    assert text.startswith("**Nika en Discord** — un juego por equipos de hoplitas griegos")
    for command in ("`/nika mover pieza:j6 dirección:o`", "`/nika girar piezas:k5 orientación:o`",
                    "`/nika avanzar piezas:j4,j5,j6`", "`/nika reagrupar casilla:k1 orientación:n`",
                    "`/nika pasar`", "equipo:…`", "`/nika conceder`", "`/nika desafiar`"):  # fmt: skip
        assert command in text, command
    assert "{" not in text and "}" not in text
    english = named(HELP, names_of("nika"))
    assert english.startswith("**Nika on Discord** — a team game of Greek hoplites")
    assert "• `/nika move piece:j6 direction:w` — one piece steps one square and ends facing that way" in english
    assert "`/nika declare team:…` then the opponents `/nika concede` or `/nika challenge`." in english


def test_the_rules_digest_is_spanish():
    from bot.games.nika import RULES

    with using(SPANISH):
        text = str(RULES)
    assert text.startswith("**Nika en un minuto**\n**Objetivo:** lleva una de tus piezas a tu **área de victoria**")
    assert "**Falange:**" in text and "derrotados, nunca empujados" in text
    assert str(RULES).startswith("**Nika in one minute**\n**Goal:**")


DISCORD_NAME = re.compile(r"^[-_\w]{1,32}$")


def test_the_action_commands_have_spanish_names_discord_accepts():
    from bot.games.nika import ACTIONS, DIRECTIONS, FRONT_END

    names = [SPANISH.gettext(command.name, "command") for command in ACTIONS]
    assert names == ["mover", "girar", "avanzar", "reagrupar", "pasar"]
    for command in ACTIONS:
        options = [SPANISH.gettext(option.name, "option") for option in command.options]
        assert len(set(options)) == len(options)
        for name in [SPANISH.gettext(command.name, "command"), *options]:
            assert DISCORD_NAME.match(name) and name == name.lower(), name
        for text in [command.description, *(option.description for option in command.options)]:
            spanish = SPANISH.gettext(text)
            assert spanish != text and len(spanish) <= 100, text
    assert [SPANISH.gettext(o.name, "option") for o in ACTIONS[0].options] == ["pieza", "dirección"]
    assert [SPANISH.gettext(c.label) for c in DIRECTIONS] == ["norte (n)", "este (e)", "sur (s)", "oeste (w)"]
    for label in FRONT_END.seat_labels.values():
        assert SPANISH.gettext(str(label)) != label and len(SPANISH.gettext(str(label))) <= 100
    claims = [SPANISH.gettext(verb, "command") for verb in ("declare", "concede", "challenge")]
    assert claims == ["declarar", "conceder", "desafiar"] and SPANISH.gettext("team", "option") == "equipo"


def test_cities_and_teams_are_spanish_terms():
    assert [SPANISH.gettext(seat.title, "term") for seat in GAME.seats(4)] == ["Atenas", "Esparta", "Messene", "Tebas"]
    assert [SPANISH.gettext(side.title, "term") for side in GAME.sides(4)] == ["Atenas–Messene", "Esparta–Tebas"]


def test_no_two_nika_commands_share_a_spanish_name():
    from bot.commands.group import commands_for

    names = [SPANISH.gettext(spec.name, "command") for spec in commands_for("nika").values()]
    assert len(set(names)) == len(names) and {"mover", "girar", "avanzar", "reagrupar", "pasar"} <= set(names)


def test_shields_carry_the_same_sign_in_every_language():
    """A city's sign (one dot, two, a bar, three dots) needs no language: the pieces of a Spanish
    board are the English board's, and the four signs differ (issue 23: letters were S for
    Sparta and E for Esparta, and unreadable on a phone)."""
    from render.nika.sprites import SIGNS, token

    with using(catalog("en")):
        english = {city: token(city, 0).tobytes() for city in City}
    with using(catalog("es")):
        spanish = {city: token(city, 0).tobytes() for city in City}
    assert english == spanish
    assert len(set(SIGNS.values())) == len(City)
