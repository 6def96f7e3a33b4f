"""Options typed as text (the console, hostile input) parsed once, at the edge, into their
real types, with one polite refusal per problem. Discord types its options itself; both
paths then meet the same checks (`checked`)."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from bot.commands.spec import CommandSpec, OptionKind, OptionSpec
from bot.errors import ServiceError

TEXT_MAX = 6000  # longer than any position; a game record comes as a file
NUMBER_MAX_DIGITS = 12
_ASCII_INTEGER = re.compile(r"^[+-]?[0-9]{1,12}$")
_ASCII_NUMBER = re.compile(r"^[+-]?(?:[0-9]{1,12}(?:\.[0-9]{0,6})?|\.[0-9]{1,6})$")
_MENTION = re.compile(r"^<@!?([0-9]{1,20})>$")
RECORD_BYTES_MAX = 1_000_000
_TRUE = frozenset({"true", "yes", "on", "1", "y"})
_FALSE = frozenset({"false", "no", "off", "0", "n"})


def _shown(text: str, limit: int = 24) -> str:
    text = text.strip()
    return repr(text if len(text) <= limit else text[: limit - 1] + "…")


def parse_value(option: OptionSpec, text: str, *, users: Mapping[str, int] | None = None) -> Any:
    """One option's text as its type; ServiceError saying what is wanted otherwise."""
    text = text.strip()
    name = option.name
    if option.kind is OptionKind.INTEGER:
        if not _ASCII_INTEGER.match(text):
            raise ServiceError(f"{name} must be a whole number, like {option.min_value or 1}")
        return int(text)
    if option.kind is OptionKind.NUMBER:
        if not _ASCII_NUMBER.match(text):
            raise ServiceError(f"{name} must be a number, like {option.min_value or 1}")
        return float(text)
    if option.kind is OptionKind.BOOLEAN:
        word = text.lower()
        if word in _TRUE:
            return True
        if word in _FALSE:
            return False
        raise ServiceError(f"{name} is true or false")
    if option.kind is OptionKind.USER:
        found = _MENTION.match(text)
        if found:
            return int(found.group(1))
        key = text.lstrip("@").lower()
        if users is not None and key in users:
            return users[key]
        raise ServiceError(f"{name} must be a member, like @alice")
    if option.kind is OptionKind.ATTACHMENT:
        return read_record_file(text)
    if len(text) > TEXT_MAX:
        raise ServiceError(f"{name} is far too long")
    return text


def read_record_file(path_text: str) -> str:
    """The console's `record:<path>`: the file's text (Discord sends the file itself)."""
    path = Path(path_text.strip()).expanduser()
    try:
        if not path.is_file():
            raise ServiceError(f"there is no file {_shown(path_text, 60)}")
        if path.stat().st_size > RECORD_BYTES_MAX:
            raise ServiceError("that file is too large to be a game record")
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError as error:
        raise ServiceError(f"cannot read {_shown(path_text, 60)}: {error.strerror or error}") from None


def checked(command: CommandSpec, values: Mapping[str, Any]) -> dict[str, Any]:
    """The same checks whatever typed the values: ranges, choices, lengths, required options."""
    result: dict[str, Any] = {}
    for option in command.options:
        if option.name not in values or values[option.name] is None:
            if option.required:
                raise ServiceError(f"/{command.game} {command.name} needs the {option.name} option")
            continue
        value = values[option.name]
        if option.kind in (OptionKind.INTEGER, OptionKind.NUMBER):
            if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
                raise ServiceError(f"{option.name} must be a number")
            low, high = option.min_value, option.max_value
            if (low is not None and value < low) or (high is not None and value > high):
                raise ServiceError(f"{option.name} is from {low} to {high}")
        if isinstance(value, str):
            if option.max_length is not None and len(value) > option.max_length:
                raise ServiceError(f"{option.name} is at most {option.max_length} characters")
            if option.choices:
                match = _choice(option, value)
                if match is None:
                    allowed = ", ".join(c.value for c in option.choices)
                    raise ServiceError(f"{_shown(value)} is not a choice for {option.name}: use {allowed}")
                value = match
        result[option.name] = value
    return result


def _choice(option: OptionSpec, value: str) -> str | None:
    cleaned = value.strip().lower()
    for choice in option.choices:
        if cleaned in (choice.value.lower(), choice.label.lower()):
            return choice.value
    return None


def parse_options(
    command: CommandSpec, pairs: Iterable[tuple[str, str]], *, users: Mapping[str, int] | None = None
) -> dict[str, Any]:
    """name:value pairs as typed in the console: unknown and repeated options are refused
    with the command's real options."""
    known = ", ".join(o.name for o in command.options) or "none"
    values: dict[str, Any] = {}
    for name, text in pairs:
        option = command.option(name)
        if option is None:
            raise ServiceError(f"/{command.game} {command.name} has no option {_shown(name)}; its options: {known}")
        if name in values:
            raise ServiceError(f"the option {name} is given twice")
        values[name] = parse_value(option, text, users=users)
    return values
