"""Options typed as text (the console, hostile input) parsed once, at the edge, into their
real types, with one polite refusal per problem. Discord types its options itself; both
paths then meet the same checks (`checked`)."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from bot.commands.spec import CommandOption, CommandSpec, OptionKind
from bot.errors import ServiceError
from engine.i18n import M, Message, Term, choices_shown, chosen

TEXT_MAX = 6000  # longer than any position; a game record comes as a file
NUMBER_MAX_DIGITS = 12
# ASCII digits only, and few of them: str.isdigit() accepts "²" and "٣", which int() refuses
# or reads differently, int() of 5,000 digits raises, and float() takes "inf" and "nan".
_ASCII_INTEGER = re.compile(rf"[+-]?[0-9]{{1,{NUMBER_MAX_DIGITS}}}")
_ASCII_NUMBER = re.compile(rf"[+-]?(?:[0-9]{{1,{NUMBER_MAX_DIGITS}}}(?:\.[0-9]{{0,6}})?|\.[0-9]{{1,6}})")
_MENTION = re.compile(r"<@!?([0-9]{1,20})>")
SNOWFLAKE_MAX = 2**63 - 1  # Discord's ids are 64-bit signed; SQLite's integers too
RECORD_BYTES_MAX = 1_000_000
# English, and Spanish as a Spanish speaker types them (accents optional: `sí`, `si`).
_TRUE = frozenset({"true", "yes", "on", "1", "y", "sí", "si", "verdadero", "s"})
_FALSE = frozenset({"false", "no", "off", "0", "n", "falso"})


def _shown(text: str, limit: int = 24) -> str:
    text = text.strip()
    return repr(text if len(text) <= limit else text[: limit - 1] + "…")


def _named(option: CommandOption) -> Term:
    """The option's name as players see it (Discord shows option names translated)."""
    return Term(option.name, "option")


def parse_value(option: CommandOption, text: str, *, users: Mapping[str, int] | None = None) -> Any:
    """One option's text as its type; ServiceError saying what is wanted otherwise."""
    text = text.strip()
    name = _named(option)
    if option.kind is OptionKind.INTEGER:
        if not _ASCII_INTEGER.fullmatch(text):
            raise ServiceError(M("{name} must be a whole number, like {example}", name=name,
                                 example=option.min_value or 1))  # fmt: skip
        return int(text)
    if option.kind is OptionKind.NUMBER:
        if not _ASCII_NUMBER.fullmatch(text):
            raise ServiceError(M("{name} must be a number, like {example}", name=name, example=option.min_value or 1))
        return float(text)
    if option.kind is OptionKind.BOOLEAN:
        word = text.lower()
        if word in _TRUE:
            return True
        if word in _FALSE:
            return False
        raise ServiceError(M("{name} is true or false", name=name))
    if option.kind is OptionKind.USER:
        found = _MENTION.fullmatch(text)
        if found and 0 < int(found.group(1)) <= SNOWFLAKE_MAX:
            return int(found.group(1))
        key = text.lstrip("@").lower()
        if users is not None and key in users:
            return users[key]
        raise ServiceError(M("{name} must be a member, like @alice", name=name))
    if not text:  # `to:` with nothing after it: say so, not what the empty text fails to be
        raise ServiceError(_empty(option))
    if option.kind is OptionKind.ATTACHMENT:
        return read_record_file(text)
    if len(text) > TEXT_MAX:
        raise ServiceError(M("{name} is far too long", name=name))
    return text


def read_record_file(path_text: str) -> str:
    """The console's `record:<path>`: the file's text (Discord sends the file itself)."""
    shown = _shown(path_text, 60)
    try:
        path = Path(path_text.strip()).expanduser()
        if path.is_dir():
            raise ServiceError(M("{path} is a folder: name a game record file in it", path=shown))
        if not path.is_file():
            raise ServiceError(M("there is no file {path}", path=shown))
        with path.open("rb") as file:  # read at most the limit: st_size lies for /proc and growing files
            data = file.read(RECORD_BYTES_MAX + 1)
    except OSError as error:
        raise ServiceError(M("cannot read {path}: {reason}", path=shown, reason=error.strerror or str(error))) from None
    except (ValueError, RuntimeError):  # a NUL byte in the path; "~nobody" with no such home
        raise ServiceError(M("{path} is not a file name", path=shown)) from None
    return record_text(path.name, data)


def record_text(name: str, data: bytes) -> str:
    """A record file's text (a typed path, or a file sent on Discord). A game record is the JSON
    object an export writes: any other file (a README, a picture) is named as not one, rather
    than read as position notation and refused for its fields."""
    if len(data) > RECORD_BYTES_MAX:
        raise ServiceError(M("that file is too large to be a game record"))
    text = data.decode("utf-8", errors="replace")
    if not text.lstrip("\ufeff \t\r\n").startswith("{"):
        raise ServiceError(M("{file} is not a game record: a record is the file that replay with format:record "
                             "exports", file=_shown(name, 60)))  # fmt: skip
    return text


def _empty(option: CommandOption) -> Message:
    if option.choices:
        return M("{name}: is empty: write one of {allowed}", name=_named(option),
                 allowed=", ".join(c.value for c in option.choices))  # fmt: skip
    if option.description:
        return M("{name}: is empty: {description}", name=_named(option), description=M(option.description))
    return M("{name}: is empty", name=_named(option))


def command_path(command: CommandSpec) -> str | Message:
    """What goes before a command's name, as the reader's client shows it: `<game>`, `tournament`
    (a top-level group is named alike in every language, bot/command_translator.py), or
    `<game> torneo` (a group within a game's is translated like a command)."""
    if command.game and command.group:
        return Message("{game} {group}", {"game": command.game, "group": Term(command.group, "command")})
    return command.game or command.group


def missing(command: CommandSpec, option: CommandOption) -> Message:
    """A required option left out, with what to write (a newcomer at the console has no form):
    its choices, or else what Discord shows under it."""
    where: dict[str, Any] = {"game": command_path(command), "command": Term(command.name, "command"),
                             "option": _named(option)}  # fmt: skip
    if option.choices:
        allowed = choices_shown(c.value for c in option.choices)
        return M("/{game} {command} needs the {option} option, one of: {allowed}", allowed=allowed, **where)
    if option.description:
        return M("/{game} {command} needs the {option} option: {description}", description=M(option.description),
                 **where)  # fmt: skip
    return M("/{game} {command} needs the {option} option", **where)


def checked(command: CommandSpec, values: Mapping[str, Any]) -> dict[str, Any]:
    """The same checks whatever typed the values: ranges, choices, lengths, required options."""
    result: dict[str, Any] = {}
    for option in command.options:
        if option.name not in values or values[option.name] is None:
            if option.required:
                raise ServiceError(missing(command, option))
            continue
        value = values[option.name]
        _check_type(option, value)
        if option.kind is OptionKind.TEXT and isinstance(value, str) and not value.strip():
            raise ServiceError(_empty(option))
        if option.kind in (OptionKind.INTEGER, OptionKind.NUMBER):
            value = _number(option, value)
        if option.kind is OptionKind.USER and (
            isinstance(value, bool) or not isinstance(value, int) or not 0 < value <= SNOWFLAKE_MAX
        ):
            raise ServiceError(M("{name} must be a member, like @alice", name=_named(option)))
        if isinstance(value, str):
            if option.max_length is not None and len(value) > option.max_length:
                raise ServiceError(M("{name} is at most {count} characters", name=_named(option),
                                     count=option.max_length))  # fmt: skip
            if option.choices:
                match = _choice(option, value)
                if match is None:
                    allowed = choices_shown(c.value for c in option.choices)
                    raise ServiceError(M("{value} is not a choice for {name}: use {allowed}", value=_shown(value),
                                         name=_named(option), allowed=allowed))  # fmt: skip
                value = match
        result[option.name] = value
    return result


def _check_type(option: CommandOption, value: Any) -> None:
    """A value of another type than its option's (a number for a text, a list for a choice) is
    refused here, like any bad input: nothing past this point has to guard against it."""
    name = _named(option)
    if option.kind in (OptionKind.TEXT, OptionKind.ATTACHMENT) and not isinstance(value, str):
        raise ServiceError(M("{name} must be text", name=name))
    if option.kind is OptionKind.BOOLEAN and not isinstance(value, bool):
        raise ServiceError(M("{name} is true or false", name=name))


def _number(option: CommandOption, value: Any) -> int | float:
    """A typed number within the option's range. Ints are compared as ints: a 5,000-digit
    one cannot become a float (OverflowError), and inf or NaN never reach a comparison."""
    name = _named(option)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ServiceError(M("{name} must be a number", name=name))
    if option.kind is OptionKind.INTEGER and not isinstance(value, int):
        if not (math.isfinite(value) and value.is_integer()):
            raise ServiceError(M("{name} must be a whole number", name=name))
        value = int(value)
    if isinstance(value, float) and not math.isfinite(value):
        raise ServiceError(M("{name} must be a number", name=name))
    low, high = option.min_value, option.max_value
    if (low is not None and value < low) or (high is not None and value > high):
        if low is not None and high is not None:
            raise ServiceError(M("{name} is from {low} to {high}", name=name, low=low, high=high))
        if low is not None:
            raise ServiceError(M("{name} is at least {low}", name=name, low=low))
        raise ServiceError(M("{name} is at most {high}", name=name, high=high))
    if isinstance(value, int) and abs(value) >= 2**63:  # no store or clock takes more
        raise ServiceError(M("{name} is far too large", name=name))
    if option.choices and str(value) not in {c.value for c in option.choices}:
        allowed = choices_shown(c.value for c in option.choices)
        raise ServiceError(M("{name} is one of {allowed}", name=name, allowed=allowed))
    number: int | float = value  # checked above: an int, or a finite float
    return number


def _choice(option: CommandOption, value: str) -> str | None:
    """The choice typed: its value, its name in the reader's language (`rojo`), or its label."""
    return chosen([c.value for c in option.choices], value, [c.label for c in option.choices])


def parse_options(
    command: CommandSpec, pairs: Iterable[tuple[str, str]], *, users: Mapping[str, int] | None = None
) -> dict[str, Any]:
    """name:value pairs as typed in the console: unknown and repeated options are refused
    with the command's real options."""
    known = ", ".join(Term(o.name, "option").render() for o in command.options)  # as the reader's client names them
    values: dict[str, Any] = {}
    for name, text in pairs:
        option = command.option(name)
        if option is None and not known:
            raise ServiceError(M("/{game} {command} takes no options", game=command.game,
                                 command=Term(command.name, "command")))  # fmt: skip
        if option is None:
            raise ServiceError(M("/{game} {command} has no option {name}; its options: {known}", game=command.game,
                                 command=Term(command.name, "command"), name=_shown(name), known=known))  # fmt: skip
        if name in values:
            raise ServiceError(M("the option {name} is given twice", name=_named(option)))
        values[name] = parse_value(option, text, users=users)
    return values
