"""Pikemen in Spanish around the board: the picture's words and its alt text in the viewer's
language (the pieces and squares are the same picture), letters the sans font lacks drawn
all the same, the palette still covering everything; and the front end's help, rules,
menu questions and command names in Spanish, as Discord accepts them."""

from __future__ import annotations

import io
import re

import pytest
from PIL import Image, ImageChops

from engine.api import Ending, EndingKind
from engine.i18n import using
from engine.pikemen.game import GAME
from engine.pikemen.state import GameState
from engine.pikemen.words import seat_term
from render import render_state
from render.encode import png_bytes
from render.pikemen import panel
from render.pikemen.artist import ARTIST
from render.pikemen.board import compose
from render.pikemen.layout import HEIGHT, PANEL_TOP, WIDTH
from render.words import catalog

SPANISH = catalog("es")
FOUR = "R9:c2Mne,a8Lu Y0:f8Ls G4:- B2:a1Ln,f5Lw R/12/40"


def four_players() -> GameState:
    """Red to act; Yellow resigned (out), Green has no pieces left."""
    state, _ = GAME.end(GAME.load(FOUR), Ending(EndingKind.RESIGNATION, "yellow"))
    return state


def decode(png: bytes) -> Image.Image:
    with Image.open(io.BytesIO(png)) as image:
        assert image.format == "PNG" and image.mode == "P"
        return image.convert("RGB")


# --- the picture ------------------------------------------------------------------------


def test_a_spanish_board_is_a_png_with_spanish_alt_text():
    state = four_players()
    after, events = GAME.apply(state, GAME.parse_action("c2-e4 u"))
    board = render_state("pikemen", after, (events,), locale="es-ES")
    assert decode(board.png).size == (WIDTH, HEIGHT)
    assert board.alt_text == (
        "Tablero de Pikemen, 4 jugadores, gana quien llegue antes a 12 puntos. Turno de Azul. "
        "Puntos: Rojo 9, Amarillo 0 (fuera de la partida), Verde 4 (sin piezas), Azul 2. "
        "Último movimiento: Rojo cargó de c2 a e4 y lo puso de pie. "
        "Rojo: grandes a8 de pie; medianos e4 de pie. Amarillo: fuera. Verde: sin piezas. Azul: grandes a1 n, f5 w."
    )


def test_the_alt_text_gives_the_result_in_spanish():
    won, events = GAME.apply(four_players(), GAME.parse_action("c2xf5"))
    text = render_state("pikemen", won, (events,), locale="es-419").alt_text
    assert text.startswith("Tablero de Pikemen, 4 jugadores, gana quien llegue antes a 12 puntos. "
                           "Partida terminada: Rojo llega a 12 puntos y gana. ")  # fmt: skip


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_spanish_alt_text_fits_discord_with_every_piece(players):
    text = render_state("pikemen", GAME.new(players, {}, 0), locale="es").alt_text
    assert len(text) <= 1024 and text.count(" de pie") == {2: 30, 3: 36, 4: 36}[players]


def test_only_the_words_change_with_the_language():
    state = four_players()
    after, events = GAME.apply(state, GAME.parse_action("c2-e4 u"))
    english = decode(render_state("pikemen", after, (events,), locale="en").png)
    spanish = decode(render_state("pikemen", after, (events,), locale="es").png)
    board = (0, 0, WIDTH, PANEL_TOP)
    assert ImageChops.difference(english.crop(board), spanish.crop(board)).getbbox() is None
    assert ImageChops.difference(english.crop((0, PANEL_TOP, WIDTH, HEIGHT)),
                                 spanish.crop((0, PANEL_TOP, WIDTH, HEIGHT))).getbbox() is not None  # fmt: skip


def test_the_panel_words_are_spanish():
    state = four_players()
    with using(SPANISH):
        assert panel.status_words(state) == "Turno de Rojo"
        won, events = GAME.apply(state, GAME.parse_action("c2xf5"))
        assert panel.status_words(won) == "Gana Rojo"
        assert panel.line_words(won, events, None) == (
            "Último movimiento: Rojo cargó de c2 a f5 y capturó al piquero grande de Azul (+3, ahora 12). "
            "Rojo llega a 12 puntos y gana"
        )
        drawn, _ = GAME.end(state, Ending(EndingKind.AGREEMENT))
        assert panel.status_words(drawn) == "Empate: Rojo, Verde y Azul"
        assert panel.line_words(GAME.new(2, {}, 0), (), None).startswith("Carga con un piquero")


def test_tags_are_drawn_once_per_language():
    english, spanish = panel.tag("no-pieces", "en"), panel.tag("no-pieces", "es")
    assert english is panel.tag("no-pieces", "en") and spanish is panel.tag("no-pieces", "es")
    assert english.size != spanish.size  # "NO PIECES", "SIN PIEZAS"


def test_the_longest_seat_name_fits_its_card_with_four_players():
    left, _, right, _ = panel.card_box(4, 1)
    size, name = panel._fit("display", "AMARILLO", right - 10 - (left + 66), 16, 12)
    assert name == "AMARILLO" and size == 16  # whole, at the size the other names have


def test_the_palette_covers_a_spanish_board_as_well_as_an_english_one():
    won, events = GAME.apply(four_players(), GAME.parse_action("c2xf5"))
    errors = []
    for locale in ("en", "es"):
        with using(catalog(locale)):  # composed in RGB, as before a palette exists
            picture = compose(won, events, palette=None)
        errors.append(ImageChops.difference(picture, decode(png_bytes(picture, ARTIST.palette()))).getextrema())
    assert all(high <= english for (_, high), (_, english) in zip(errors[1], errors[0], strict=True))


def test_a_spanish_board_reads_at_phone_width():
    """At 400 px the status stays tall enough to read: its capitals keep 8 px or more."""
    picture = decode(render_state("pikemen", four_players(), locale="es").png)
    phone = picture.resize((400, round(picture.height * 400 / WIDTH)), Image.Resampling.LANCZOS)
    scale = 400 / WIDTH
    top = round((PANEL_TOP + 4) * scale)
    status = phone.crop((200, top, 400, top + round(34 * scale)))
    rows = [y for y in range(status.height) if any(sum(status.getpixel((x, y))) < 300 for x in range(status.width))]
    assert rows and rows[-1] - rows[0] + 1 >= 8


# --- the front end ----------------------------------------------------------------------


def test_the_help_is_spanish_and_names_the_commands_as_discord_shows_them():
    from bot.commands.front_end import named
    from bot.commands.group import names_of
    from bot.games.pikemen import HELP

    with using(SPANISH):
        text = named(HELP, names_of("pikemen"))
    assert text.startswith("**Pikemen en Discord**")
    assert "`/pikemen cargar pieza:a6 hasta:a3`" in text and "`/pikemen girar pieza:b7 orientación:se`" in text
    assert "empieza el jugador más alto" in text
    assert "{" not in text and "}" not in text
    english = named(HELP, names_of("pikemen"))
    assert english.startswith("**Pikemen on Discord**") and "`/pikemen charge piece:a6 to:a3`" in english


def test_the_rules_digest_and_menu_questions_are_spanish():
    from bot.games.pikemen import FRONT_END, RULES

    with using(SPANISH):
        assert str(RULES).startswith("**Pikemen en un minuto**")
        assert FRONT_END.ask(()) == "¿Qué pieza tuya? Puedes hacerla cargar o girarla."
        assert FRONT_END.ask(("a6",)) == "¿Hasta qué casilla carga la pieza de a6? ¿O la giras en el sitio?"
        assert FRONT_END.ask(("b7", "turn")) == "¿Hacia dónde giras la pieza de b7 (o la pones de pie)?"
        assert FRONT_END.ask(("a6", "a3")) == "La pieza de a6 carga hasta a3. ¿Hacia dónde apunta después?"
    assert FRONT_END.ask(("a6",)) == "Charge a6 to which square — or turn it in place?"


DISCORD_NAME = re.compile(r"^[-_\w]{1,32}$")


def test_the_action_commands_have_spanish_names_discord_accepts():
    from bot.games.pikemen import ACTIONS, FRONT_END

    names = {SPANISH.gettext(command.name, "command") for command in ACTIONS}
    assert names == {"cargar", "girar"}
    for command in ACTIONS:
        options = [SPANISH.gettext(option.name, "option") for option in command.options]
        assert len(set(options)) == len(options)
        for name in [SPANISH.gettext(command.name, "command"), *options]:
            assert DISCORD_NAME.match(name) and name == name.lower(), name
        for text in [command.description, *(option.description for option in command.options)]:
            spanish = SPANISH.gettext(text)
            assert spanish != text and len(spanish) <= 100, text
    assert [SPANISH.gettext(o.name, "option") for o in ACTIONS[0].options] == ["pieza", "hasta", "orientación"]
    for label in FRONT_END.seat_labels.values():
        assert SPANISH.gettext(label) != label and len(SPANISH.gettext(label)) <= 100
    for option in GAME.options:
        assert SPANISH.gettext(option.name, "option") == "objetivo"
        assert [SPANISH.gettext(c.label) for c in option.choices] == ["12 puntos", "15 puntos", "20 puntos"]


def test_seats_are_spanish_terms():
    assert [SPANISH.gettext(seat.title, "term") for seat in GAME.seats(4)] == ["Rojo", "Amarillo", "Verde", "Azul"]


def test_pieces_carry_signs_that_need_no_language():
    """Not the seat's English letter (B for Azul, Y for Amarillo): a sign, the same in every
    language, different for every seat, that does not look like the pips."""
    from render.pikemen import colours as C
    from render.pikemen.sprites import upright

    signs = {}
    for seat in ("red", "yellow", "green", "blue"):
        drawn = {}
        for locale in ("en", "es"):
            with using(catalog(locale)):
                drawn[locale] = upright(seat, 3)
        assert drawn["en"].tobytes() == drawn["es"].tobytes()
        plate = drawn["en"].convert("RGB").crop((44, 44, 64, 64))  # the middle of the standing piece
        signs[seat] = frozenset(
            (x, y) for x in range(20) for y in range(20) if plate.getpixel((x, y)) == C.SEAT_MARK[seat]
        )
    assert all(len(sign) > 12 for sign in signs.values())
    assert len(set(signs.values())) == 4  # four different shapes
    for seat, sign in signs.items():  # none is the English initial the pieces used to carry
        letter = _glyph(seat[0].upper(), 18, (44, 44, 64, 64))
        assert len(sign & letter) < 0.5 * len(sign | letter), seat
    with using(catalog("es")):
        initials = [str(seat_term(seat))[0] for seat in ("red", "yellow", "green", "blue")]
    assert len(set(initials)) < 4  # Amarillo and Azul: Spanish initials could not have served


def _glyph(text: str, size: int, box: tuple[int, int, int, int]) -> frozenset[tuple[int, int]]:
    """The pixels a letter covers, drawn as the pieces drew their letters, within `box`."""
    from render.canvas import Canvas
    from render.pikemen.sprites import HALF, SPRITE

    canvas = Canvas((SPRITE, SPRITE), (0, 0, 0, 0))
    canvas.text((HALF, HALF + 0.5), text, size, (255, 255, 255), weight=800)
    alpha = canvas.result().getchannel("A").crop(box)
    return frozenset((x, y) for x in range(alpha.width) for y in range(alpha.height) if alpha.getpixel((x, y)) > 128)
