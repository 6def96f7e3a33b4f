"""Hostile values for every kind of option, and command lines built from them, for the
hostile-input property test. Deterministic: everything comes from a seeded Random.

Each value is something a member can really send: the console reads any line, and Discord
sends any text in a text or autocomplete option (typed options it checks itself, so the
Discord-typed values are of the right Python type but of any size or sign)."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

from bot.commands.spec import CommandOption, CommandSpec, OptionKind

UNICODE_DIGITS = ["²", "⁹", "³", "١٢", "１２", "߃", "𝟗", "Ⅻ", "½", "໒"]
NUMBERS = [
    "inf", "-inf", "Infinity", "NaN", "nan", "-nan", "1e309", "-1e309", "1e3", "0x10", "0b1", "1_000", "+5", "-5",
    "0", "-0", "00", "5.0", ".5", "5.", "1" * 13, "9" * 4301, "9" * 5000, "-" + "9" * 5000, "1/2", "٣.٥",
]  # fmt: skip
CONTROL = ["\x00", "\x07", "\x1b[2J", "\x1b]0;pwned\x07", "\u202e", "\ufeff", "\u200b", "\r\n", "\t", "\x7f", "\udcff"]
MENTIONS = [
    "@everyone", "@here", "<@11>", "<@!22>", "<@&1>", "<#1>", "<@0>", "<@-1>", "<@99999999999999999999>",
    "<@" + "9" * 5000 + ">", "<@18446744073709551616>", "@", "@@alice", "<@11> <@22>", "<:emoji:123>",
]  # fmt: skip
SHAPES = ["", " ", "  \t ", "null", "true", "[]", "{}", '""', "```", "**bold**", "||spoiler||", "'; DROP TABLE log;--"]


def nested_record(depth: int, opener: str = "[", closer: str = "]") -> str:
    return opener * depth + closer * depth


@cache
def hostile_records() -> tuple[str, ...]:
    """Game records no real export looks like: deep, huge numbers, wrong types, NaN, far too long."""
    base = {"format": "game-record", "version": 2, "game": "tictactoe", "start": "".join(["...", "/..."] * 2) + " x"}
    records = [
        nested_record(2000),
        '{"a":' * 2000 + "1" + "}" * 2000,
        json.dumps({**base, "version": 0})[:-1] + ', "x": ' + "9" * 5000 + "}",
        '{"format": "game-record", "version": ' + "9" * 5000 + "}",
        '{"format": "game-record", "version": 2, "game": "tictactoe", "seed": ' + "9" * 5000 + "}",
        '{"format": "game-record", "version": NaN}',
        '{"format": "game-record", "version": Infinity, "game": "nika"}',
        json.dumps({**base, "players": 1e308}),
        json.dumps({**base, "seed": -1}),
        json.dumps({**base, "actions": [{"seat": "x", "action": "a1"}] * 3000}),
        json.dumps({**base, "actions": "a1 b2"}),
        json.dumps({**base, "actions": [[["a1"]]]}),
        json.dumps({**base, "options": {"first": ["x"]}}),
        json.dumps({**base, "game": "chess"}),
        json.dumps({**base, "game": "x" * 5000}),
        json.dumps({**base, "start": "x" * 5000}),
        json.dumps({**base, "actions": [{"seat": "x", "end": "nonsense"}]}),
        json.dumps({**base, "actions": [{"seat": "x", "end": ["resignation"]}]}),
        json.dumps({"format": "nika-record", "version": 1, "start": "", "actions": [{"city": 5}]}),
        json.dumps({"format": "nika-record", "version": 1, "start": "x", "ending": {"reason": 1, "result": []}}),
        "{" + '"k": 1,' * 3000 + '"k": 1}',
        '{"format": "game-record"' + " " * 5000 + "}",
        "{not json",
        "{" + "\x00" * 10 + "}",
    ]
    return tuple(records)


def notation_garbage(rng: random.Random, length: int | None = None) -> str:
    alphabet = "abcdefghijklmnopqrstuvwxyz0123456789 ,-:/.@#<>!?*NESWnesw↑→↓←²⁹" + "".join(CONTROL)
    size = rng.choice([1, 2, 3, 5, 8, 20, 250]) if length is None else length
    return "".join(rng.choice(alphabet) for _ in range(size))


def text_values(rng: random.Random, valid: Sequence[str]) -> list[str]:
    """A text option: the valid words among lots of hostile ones."""
    return [
        *valid,
        *(v.upper() for v in valid[:2]),
        *(f" {v} " for v in valid[:2]),
        *(v + "\x00" for v in valid[:1]),
        *UNICODE_DIGITS, *NUMBERS[:8], *CONTROL, *MENTIONS, *SHAPES,
        "x" * 7000, "🙂" * 1200, "ａｔｈｅｎｓ", "a" * 201, "\n".join(["line"] * 300),
        notation_garbage(rng), notation_garbage(rng), notation_garbage(rng, 2),
        rng.choice(hostile_records()),
    ]  # fmt: skip


def integer_texts(option: CommandOption) -> list[str]:
    low = option.min_value if option.min_value is not None else 1
    high = option.max_value if option.max_value is not None else 10
    valid = [str(low), str(high), str(high + 1), str(low - 1)]
    return [*valid, *UNICODE_DIGITS, *NUMBERS, *SHAPES[:3], *CONTROL[:3], "5 5", "five", "٣"]


def user_texts() -> list[str]:
    return [*MENTIONS, "@alice", "@bob", "bob", "@nobody", *UNICODE_DIGITS[:3], "", "@" + "x" * 5000]


def boolean_texts() -> list[str]:
    return ["true", "false", "yes", "no", "on", "1", "0", "maybe", "", "²", "TRUE", "nul", "\x00"]


def text_for(option: CommandOption, rng: random.Random, valid: Sequence[str], files: Sequence[Path]) -> str:
    """One console text for an option."""
    if option.kind is OptionKind.INTEGER:
        return rng.choice(integer_texts(option))
    if option.kind is OptionKind.NUMBER:
        return rng.choice(NUMBERS)
    if option.kind is OptionKind.BOOLEAN:
        return rng.choice(boolean_texts())
    if option.kind is OptionKind.USER:
        return rng.choice(user_texts())
    if option.kind is OptionKind.ATTACHMENT:
        return str(rng.choice(files)) if rng.random() < 0.8 else rng.choice(["", ".", "/nonexistent/x.json", "~"])
    words = [c.value for c in option.choices] or list(valid)
    return rng.choice(text_values(rng, words))


def typed_value(option: CommandOption, rng: random.Random, valid: Sequence[str]) -> Any:
    """What Discord could deliver, already typed: any int or float, any text, a member's id."""
    if option.kind is OptionKind.INTEGER:
        return rng.choice([0, -1, 1, 2, 7, 1000, 1001, 10_000, 10_001, 2**63, -(2**63), 10**5000, True])
    if option.kind is OptionKind.NUMBER:
        return rng.choice([float("inf"), float("-inf"), float("nan"), 1e308, -0.0, 0.5, 2**1000])
    if option.kind is OptionKind.BOOLEAN:
        return rng.choice([True, False])
    if option.kind is OptionKind.USER:
        return rng.choice([11, 22, 55, 0, 2**63 - 1, 2**64 + 5])
    if option.kind is OptionKind.ATTACHMENT:
        return rng.choice([*hostile_records(), "", "\x00" * 100, "x" * 1_000_001])
    words = [c.value for c in option.choices] or list(valid)
    return rng.choice(text_values(rng, words))


def quoted(value: str) -> str:
    """As typed on one console line (a line has no line breaks)."""
    return value.replace("\n", " ").replace("\r", " ")


def hostile_line(game: str, command: CommandSpec, rng: random.Random, valid: Sequence[str],
                 files: Sequence[Path]) -> str:  # fmt: skip
    """A console line for the command: options hostile, valid, missing, unknown or repeated."""
    roll = rng.random()
    if roll < 0.03:
        return rng.choice([
            f"/{game}", f"/{game} ²", f"/{game} {command.name}{rng.choice(CONTROL)}", "/", "/²",
            f"/{game.upper()} {command.name.upper()}", f"{game} {command.name}", f"/{game} " + "x" * 10_000,
            f"/{game} {command.name} :", f"/{game} {command.name} ::::", f"/{game} {command.name} junk before:1",
        ])  # fmt: skip
    parts = [f"/{game} {command.name}"]
    for option in command.options:
        if rng.random() < 0.25 and not option.required:
            continue
        parts.append(f"{option.name}:{quoted(text_for(option, rng, valid, files))}")
        if rng.random() < 0.05:
            parts.append(f"{option.name}:{quoted(text_for(option, rng, valid, files))}")  # repeated
    if rng.random() < 0.08:
        parts.append(rng.choice(["city:athens", "page:1", "x:y", "thread:true", "ÿ:1", "_:_", "a" * 300 + ":1"]))
    if rng.random() < 0.02:
        parts.append(" ".join(f"o{n}:{n}" for n in range(500)))
    return " ".join(parts)


def hostile_typed(command: CommandSpec, rng: random.Random, valid: Sequence[str]) -> dict[str, Any]:
    """Options as the Discord cog hands them to dispatch."""
    values: dict[str, Any] = {}
    for option in command.options:
        if rng.random() < 0.25 and not option.required:
            continue
        values[option.name] = typed_value(option, rng, valid)
    return values
