"""The run-time .po reader (render/po.py) gives the catalogue Babel's reading gives: on every
language's real files, and on a file with every construct the format allows that translators use."""

from __future__ import annotations

import io
from pathlib import Path

from babel.messages.pofile import read_po

from engine import plugins
from render import po
from render.words import LANGUAGES, PoCatalog, _entries, _read_entries, catalog, game_po_file, po_file

TRICKY = r'''# a header comment
msgid ""
msgstr ""
"Language: es\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\n"

#: somewhere.py:3
msgid "plain"
msgstr "llano"

msgctxt "command"
msgid "board"
msgstr "tablero"

msgid ""
"two "
"lines with \"quotes\"\n"
msgstr ""
"dos "
"líneas con \"comillas\"\n"

#, fuzzy
msgid "unsure"
msgstr "dudoso"

#, python-format, fuzzy
msgid "unsure too"
msgstr "dudoso también"

msgid "untranslated"
msgstr ""

msgid "{count} day"
msgid_plural "{count} days"
msgstr[0] "{count} día"
msgstr[1] "{count} días"

msgid "half a plural"
msgid_plural "half plurals"
msgstr[0] "medio"
msgstr[1] ""

#~ msgid "gone"
#~ msgstr "ido"

msgid "tab\there and a backslash \\ too"
msgstr "tab\taquí y una barra \\ también"
'''


def test_a_file_with_every_construct_reads_as_babel_reads_it() -> None:
    babel = _entries(read_po(io.BytesIO(TRICKY.encode()), locale="es"))
    entries = list(po.read_entries(io.StringIO(TRICKY)))
    assert _read_entries(entries) == babel
    single, plurals = babel
    assert single[("command", "board")] == "tablero" and single[(None, 'two lines with "quotes"\n')].startswith("dos")
    assert plurals[(None, "{count} day")] == ("{count} día", "{count} días")
    assert (None, "unsure") not in single and (None, "unsure too") not in single and (None, "gone") not in single
    assert (None, "half a plural") not in plurals and (None, "untranslated") not in single
    assert po.plural_expression(entries[0]) == "(n != 1)"


def test_every_languages_catalogue_is_the_one_babel_reads() -> None:
    for language in LANGUAGES:
        if language == "en":
            continue
        fast = catalog(language)
        games = {slug: game_po_file(slug, language) for slug in plugins.names(plugins.CATALOGUES)}
        slow = PoCatalog.from_po(language, po_file(language), games)
        assert isinstance(fast, PoCatalog)
        assert (fast._single, fast._plurals, fast._games) == (slow._single, slow._plurals, slow._games)
        assert len(fast._single) > 1000 and set(fast._games) == set(plugins.names(plugins.CATALOGUES))
        assert [fast._plural(n) for n in range(30)] == [slow._plural(n) for n in range(30)]


def test_a_game_catalogue_is_found_without_importing_the_game(tmp_path: Path) -> None:
    import subprocess
    import sys

    code = ("import sys; from render.words import catalog; catalog('es'); "
            "print(sorted(m for m in sys.modules if m.startswith(('PIL', 'babel', 'render.nika'))))")  # fmt: skip
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert done.stdout.strip() == "[]"  # no artist, Pillow or Babel: the folder is found on the path
