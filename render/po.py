"""A small reader of gettext .po files: the translated entries a catalogue needs at run time.

Babel reads .po files completely (comments, locations, flags, headers) and is what the project's
tools and translation checks use; reading a language's words with it took a tenth of a second
and more at every start of a Spanish console or bot. This reads only what translating needs,
with the same outcome (tests/render/test_po_reader.py compares the two on every catalogue):
entries keyed by (context, message), singular or plural, untranslated and fuzzy ones left out.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\"}
_ESCAPE = re.compile(r"\\(.)")
_KEYWORD = re.compile(r'^(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?)\s+(".*")\s*$')


@dataclass
class Entry:
    """One message of a .po file: its context, English text (and plural), and translations."""

    context: str | None = None
    id: str = ""
    plural: str | None = None
    strings: dict[int, str] = field(default_factory=dict)
    fuzzy: bool = False

    @property
    def key(self) -> tuple[str | None, str]:
        return self.context, self.id


def _string(quoted: str) -> str:
    return _ESCAPE.sub(lambda m: _ESCAPES.get(m.group(1), "\\" + m.group(1)), quoted[1:-1])


def read_entries(lines: Iterable[str]) -> Iterator[Entry]:
    """The entries of a .po file, in order (the header, whose text is empty, included); obsolete
    entries (`#~`) are left out, as catalogues leave them."""
    entry: Entry | None = None
    fuzzy = False  # a `#, fuzzy` flag seen for the entry about to start
    target: tuple[str, int] | None = None  # where a continuing "…" line goes
    for raw in lines:
        line = raw.strip()
        if not line:
            continue
        ends = entry is not None and target is not None and target[0] == "msgstr"
        if line.startswith("#"):
            if ends:  # comments belong to the next entry
                assert entry is not None
                yield entry
                entry, target = None, None
            if line.startswith("#,") and "fuzzy" in (flag.strip() for flag in line[2:].split(",")):
                fuzzy = True
            continue
        if line.startswith('"'):
            if entry is not None and target is not None:
                _append(entry, target, _string(line))
            continue
        match = _KEYWORD.match(line)
        if match is None:
            continue
        keyword, index, quoted = match.groups()
        if keyword in ("msgctxt", "msgid") and ends:
            assert entry is not None
            yield entry
            entry = None
        if entry is None:
            entry, fuzzy = Entry(fuzzy=fuzzy), False
        text = _string(quoted)
        if keyword == "msgctxt":
            entry.context, target = text, ("msgctxt", 0)
        elif keyword == "msgid":
            entry.id, target = text, ("msgid", 0)
        elif keyword == "msgid_plural":
            entry.plural, target = text, ("msgid_plural", 0)
        else:
            number = int(index) if index is not None else 0
            entry.strings[number], target = text, ("msgstr", number)
    if entry is not None:
        yield entry


def _append(entry: Entry, target: tuple[str, int], text: str) -> None:
    kind, number = target
    if kind == "msgctxt":
        entry.context = (entry.context or "") + text
    elif kind == "msgid":
        entry.id += text
    elif kind == "msgid_plural":
        entry.plural = (entry.plural or "") + text
    else:
        entry.strings[number] = entry.strings.get(number, "") + text


def read_file(path: Path) -> list[Entry]:
    with path.open(encoding="utf-8") as handle:
        return list(read_entries(handle))


def plural_expression(header: Entry | None) -> str | None:
    """The `plural=` expression of a catalogue's header (`Plural-Forms: nplurals=2; plural=(n != 1);`)."""
    if header is None:
        return None
    for line in header.strings.get(0, "").splitlines():
        name, _, value = line.partition(":")
        if name.strip().lower() == "plural-forms":
            for part in value.split(";"):
                key, _, expression = part.partition("=")
                if key.strip() == "plural":
                    return expression.strip() or None
    return None
