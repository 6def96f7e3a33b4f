"""Numica in Spanish around the board: the picture's words and its alt text in the viewer's
language (Discord's `es-ES` or `es-419`), the front end's help, rules digest and menus, and
slash-command names Discord accepts. Squares, notation and command values stay as written."""

from __future__ import annotations

import io
import random
import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_file
from numica_pictures import START, TILES, play
from PIL import Image, ImageChops

from bot.commands.front_end import named
from bot.commands.group import commands_for, names_of
from bot.games.numica import FRONT_END
from bot.translations import KEYWORDS
from engine.api import Ending, EndingKind
from engine.i18n import placeholders, using
from engine.numica.game import GAME
from render import render_state
from render.encode import png_bytes
from render.numica import panels
from render.numica.artist import ARTIST
from render.numica.board import compose
from render.numica.layout import BOARD_LEFT, BOARD_SIZE, BOARD_TOP, HEADER, HEIGHT, LEGEND_TOP, WIDTH
from render.words import catalog, po_file

SPANISH = catalog("es")
ROOT = Path(__file__).resolve().parents[3]
DISCORD_NAME = re.compile(r"^[-_\w]{1,32}$")


def decoded(png: bytes) -> Image.Image:
    with Image.open(io.BytesIO(png)) as image:
        return image.convert("RGB")


def region(image: Image.Image, box: tuple[int, int, int, int]) -> bytes:
    return image.crop(box).tobytes()


# --- alt text -------------------------------------------------------------------------------


def test_the_alt_text_reads_the_status_pieces_and_tiles_in_spanish():
    text = render_state("numica", GAME.load(START), locale="es-ES").alt_text
    assert text.startswith(
        "Tablero de Numica. Mueve Rojo. Cada pieza: su casilla, su forma y la loseta que tiene debajo. "
        "Rojo (8 piezas): a1 cuadrada sobre 1, aún sin mover; b1 redonda sobre X, aún sin mover;"
    )
    assert "d1 redonda sobre alfil, aún sin mover" in text and "b8 cuadrada sobre caballo" in text
    assert "Rojo ha capturado: cuadradas 0, redondas 0." in text
    assert f"Losetas, de la fila 8 a la fila 1, columnas de la a a la h: {TILES.replace('/', ', ')}." in text


def test_latin_american_spanish_reads_the_same_and_english_is_unchanged():
    state, events = play(START, "b1-c2")
    assert render_state("numica", state, [events], locale="es-419") == render_state(
        "numica", state, [events], locale="es-ES"
    )
    assert render_state("numica", state, [events]).alt_text.startswith("Numica board. Blue to move. Last move: ")


def test_the_last_move_and_a_capture_are_read_in_spanish():
    board = f"{TILES} red:a1s,c1s,d1o,e1s,f1o,g1s,h1o,b6o* blue:a8o,b8s,c8o,d8s,e8o,f8s,g8o,a7s* red/4"
    state, events = play(board, "b6xa7")
    text = ARTIST.alt_text(state, [events], locale="es")
    assert "Mueve Azul. Último movimiento: Rojo capturó la pieza cuadrada de Azul en a7 (b6xa7)." in text
    assert "a7 redonda sobre caballo." in text  # moved: no mark
    assert "Azul (7 piezas)" in text and "Rojo ha capturado: cuadradas 1, redondas 0." in text


def test_the_result_is_read_first_in_spanish():
    resigned, _ = GAME.end(GAME.load(START), Ending(EndingKind.RESIGNATION, "blue"))
    assert ARTIST.alt_text(resigned, locale="es").startswith(
        "Tablero de Numica. Partida terminada: Rojo gana, Azul se rindió."
    )
    drawn, _ = GAME.end(GAME.load(START), Ending(EndingKind.AGREEMENT))
    assert ARTIST.alt_text(drawn, locale="es").startswith(
        "Tablero de Numica. Partida terminada: Empate, de mutuo acuerdo."
    )


def test_while_setting_up_the_alt_text_explains_the_secret_rows_in_spanish():
    assert ARTIST.alt_text(GAME.load(f"{TILES} setup"), locale="es").startswith(
        "Tablero de Numica. Los dos bandos colocan sus filas iniciales, cada uno en secreto; después Rojo mueve "
        "primero. Rojo ocupa la fila 1 y Azul la fila 8."
    )


@pytest.mark.parametrize("seed", range(2))
def test_the_spanish_alt_text_always_fits_discord(seed):
    rng = random.Random(seed)
    state = GAME.new(2, {"setup": "random"}, seed)
    while GAME.outcome(state) is None:
        state, events = GAME.apply(state, rng.choice(GAME.legal_actions(state)))
        text = ARTIST.alt_text(state, [events], locale="es")
        assert len(text) <= 1024 and "Losetas" in text


# --- the picture -------------------------------------------------------------------------------


def test_a_spanish_board_is_the_same_board_with_its_words_in_spanish():
    state, events = play(START, "b1-c2")
    english = render_state("numica", state, [events], locale="en")
    spanish = render_state("numica", state, [events], locale="es")
    assert spanish.alt_text.startswith("Tablero de Numica. Mueve Azul.")
    english_image, spanish_image = decoded(english.png), decoded(spanish.png)
    assert spanish_image.size == english_image.size == (WIDTH, HEIGHT)
    board = (BOARD_LEFT, BOARD_TOP, BOARD_LEFT + BOARD_SIZE, BOARD_TOP + BOARD_SIZE)
    assert region(spanish_image, board) == region(english_image, board)  # tiles, pieces and marks
    for words in ((0, 0, WIDTH, HEADER), (0, LEGEND_TOP, WIDTH, HEIGHT)):  # the status line, the legend
        assert region(spanish_image, words) != region(english_image, words)


def test_the_words_cached_for_one_language_never_reach_another():
    state, events = play(START, "b1-c2")
    first = render_state("numica", state, [events], locale="en").png
    render_state("numica", state, [events], locale="es")
    assert render_state("numica", state, [events], locale="en").png == first
    assert panels.legend("es") is not panels.legend("en")
    assert (
        panels.band(GAME.load(START).to_act, "to move", "es").tobytes()
        != panels.band(GAME.load(START).to_act, "to move", "en").tobytes()
    )


@pytest.mark.parametrize("locale", ["en", "es"])
def test_the_legend_words_stay_inside_the_legend(locale):
    legend = panels.legend(locale)
    dark = legend.convert("L").point(lambda value: 255 if value < 90 else 0)
    alpha = legend.getchannel("A").point(lambda value: 255 if value > 128 else 0)
    inked = ImageChops.multiply(dark, alpha).getbbox()
    assert inked is not None and inked[2] <= legend.width - 12


def test_the_fixed_palette_holds_a_spanish_board_as_well_as_an_english_one():
    board = f"{TILES} red:a1s,c1s,d1o,e1s,f1o,g1s,h1o,b6o* blue:a8o,b8s,c8o,d8s,e8o,f8s,g8o,a7s* red/64"
    state, events = play(board, "b6xa7")
    for locale in ("en", "es"):
        with using(catalog(locale)):  # composed in RGB, as before a palette exists
            drawn = compose(state, events, caption=None, locale=locale, palette=None)
        encoded = decoded(png_bytes(drawn, ARTIST.palette()))
        error = ImageChops.difference(drawn, encoded).convert("L").histogram()
        assert sum(error[25:]) <= 0.001 * drawn.width * drawn.height, locale


# --- the front end ------------------------------------------------------------------------------


def test_the_help_names_commands_and_options_as_a_spanish_client_shows_them():
    with using(SPANISH):
        text = named(FRONT_END.help, names_of("numica"))
    assert text.startswith("**Numica en Discord** — dos jugadores, 64 losetas")
    assert "`/numica mover desde:c1 hasta:c4`" in text and "`colocación:elegir`" in text
    assert "`/numica {new} bando:rojo`".format(new=SPANISH.gettext("new", "command")) in text
    english = named(FRONT_END.help, names_of("numica"))
    assert "**Numica on Discord**" in english and "`/numica move from:c1 to:c4`" in english


def test_the_rules_digest_menus_and_setup_picker_speak_spanish():
    with using(SPANISH):
        assert str(FRONT_END.rules).startswith("**Numica en un minuto**\n**Piezas:** cada bando tiene 4 piezas")
        assert FRONT_END.ask(()) == "¿Qué pieza mueves?" and FRONT_END.ask(("c1",)) == "Mover c1 a…"
        picker = FRONT_END.setup_picker
        assert picker is not None and str(picker.placeholder).startswith("Elige las 4 columnas de tu fila inicial")
        assert [str(label) for label, _ in picker.options[:2]] == ["columna a", "columna b"]
        assert [value for _, value in picker.options[:2]] == ["a", "b"]  # the values stay as they are
    assert FRONT_END.ask(("c1",)) == "Move c1 to…"


def test_spanish_command_and_option_names_are_valid_and_distinct_for_discord():
    specs = commands_for("numica").values()
    names = [SPANISH.gettext(spec.name, "command") for spec in specs]
    assert len(set(names)) == len(names) and all(DISCORD_NAME.match(n) and n == n.lower() for n in names)
    assert {"mover", "colocar"} <= set(names)
    for spec in specs:
        options = [SPANISH.gettext(option.name, "option") for option in spec.options]
        assert len(set(options)) == len(options) and all(DISCORD_NAME.match(o) and o == o.lower() for o in options)
        texts = [spec.description, *(o.description for o in spec.options)]
        texts += [choice.label for o in spec.options for choice in o.choices]
        assert all(len(SPANISH.gettext(text)) <= 100 for text in texts)
    move = commands_for("numica")["move"]
    assert [SPANISH.gettext(option.name, "option") for option in move.options] == ["desde", "hasta"]
    assert SPANISH.gettext(move.description) == "Mueve una de tus piezas como lo permita la loseta que tiene debajo"


def test_every_message_of_numicas_picture_and_front_end_has_spanish_with_the_same_placeholders():
    po = po_file("es")
    paths = [*sorted((ROOT / "render" / "numica").glob("*.py")), ROOT / "bot" / "games" / "numica.py"]
    checked = 0
    for path in paths:
        for _, text, _, context in extract_from_file("python", path, keywords=KEYWORDS, comment_tags=()):
            if context in ("command", "option"):
                continue  # the help's command names: every game's surface, shown as Discord shows them
            english = text if isinstance(text, tuple) else (text,)
            entry = po.get(english[0] if len(english) == 1 else english, context=context)
            assert entry is not None and entry.string, f"no Spanish for {english[0]!r} ({path.name})"
            forms = entry.string if isinstance(entry.string, tuple) else (entry.string,)
            wanted = set().union(*(placeholders(form) for form in english)) - {"count"}
            for form in forms:
                assert wanted <= placeholders(form) <= wanted | {"count"}, form
            checked += 1
    assert checked > 40
