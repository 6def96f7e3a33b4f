"""Animated GIFs of palette pictures that store each frame's changes only, with Pillow alone.

Consecutive boards differ in a few squares and a line of text. Each frame after the first is
written as the rectangle that changed, and inside it every pixel that did not change is
transparent: long runs of one index, which GIF's LZW compression packs into almost nothing.
Frames are never disposed, so each one is drawn over the last and the picture a viewer sees
is exactly the frame given. Every frame uses the pictures' own palette as the global table;
the transparent index is one the frame's changed pixels do not use (a frame that uses all 256
is written without transparency). Every frame is kept even if nothing changed (one transparent
pixel keeps its time), so a replay has one frame per action.

Frames are written one at a time, so only the previous frame is held in memory. With a byte
budget, once the animation looks likely to exceed it, the writer also keeps some frames (at most
40, evenly spaced) encoded whole: if the finished animation is too large, it opens with the
earliest of them from which the rest fits. One drawing pass, whatever the length.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable
from dataclasses import dataclass

from PIL import GifImagePlugin, Image, ImageChops

PALETTE_SIZE = 256
WHOLE_FRAMES_KEPT = 40  # at most this many frames kept whole, evenly spaced, when the budget may be exceeded


@dataclass(frozen=True, slots=True)
class Animation:
    data: bytes
    first: int  # the index of the first frame kept: 0 unless earlier ones were dropped to fit
    frames: int  # how many frames it holds


def _header(size: tuple[int, int], palette: list[int]) -> bytes:
    colours = bytes(palette[: 3 * PALETTE_SIZE]).ljust(3 * PALETTE_SIZE, b"\0")
    screen = struct.pack("<HHBBB", size[0], size[1], 0xF7, 0, 0)  # a global table of 2**(7+1) colours
    loop = b"!\xff\x0bNETSCAPE2.0\x03\x01" + struct.pack("<H", 0) + b"\x00"  # repeat forever
    return b"GIF89a" + screen + colours + loop


def _frame(image: Image.Image, at: tuple[int, int], duration: int, transparency: int | None = None) -> bytes:
    params: dict[str, int] = {"duration": duration, "disposal": 1}
    if transparency is not None:
        params["transparency"] = transparency
    return b"".join(GifImagePlugin.getdata(image, at, **params))


def _unchanged(current: Image.Image, previous: Image.Image) -> Image.Image:
    """An 'L' mask, 255 where two palette pictures of one size have the same index."""
    return ImageChops.subtract_modulo(current, previous).point(lambda v: 255 if v == 0 else 0, "L")


def _changes(frame: Image.Image, previous: Image.Image, duration: int) -> bytes:
    """The frame as the rectangle that differs from the previous one, unchanged pixels transparent."""
    box = ImageChops.subtract_modulo(frame, previous).getbbox(alpha_only=False)
    if box is None:  # nothing changed: one transparent pixel keeps the frame's time
        return _frame(Image.new("P", (1, 1), 0), (0, 0), duration, transparency=0)
    current, before = frame.crop(box), previous.crop(box)
    same = _unchanged(current, before)
    used = current.histogram(mask=ImageChops.invert(same))
    free = next((index for index, count in enumerate(used[:PALETTE_SIZE]) if not count), None)
    if free is None:  # every index drawn: no room for transparency in this frame
        return _frame(current, box[:2], duration)
    current.paste(free, (0, 0, *current.size), same)
    return _frame(current, box[:2], duration, transparency=free)


def gif_bytes(
    frames: Iterable[tuple[Image.Image, int]],
    *,
    count: int | None = None,
    max_bytes: int | None = None,
    opening_ms: int | None = None,
) -> Animation:
    """An endlessly looping GIF of (palette picture, milliseconds) frames, all of one size and
    palette. With `max_bytes` (and `count`, the number of frames to come, to see the budget
    coming), the earliest frames are dropped if the whole does not fit; the first frame kept
    is shown for `opening_ms`."""
    header = b""
    opening = b""
    changes: list[bytes] = []
    wholes: dict[int, bytes] = {}  # frame index -> that frame encoded whole, to open with
    total = 0
    stride = max(1, (count or 0) // WHOLE_FRAMES_KEPT)
    previous: Image.Image | None = None
    for index, (frame, duration) in enumerate(frames):
        if frame.mode != "P":
            raise ValueError("GIF frames are palette pictures")
        if previous is None:
            header = _header(frame.size, frame.getpalette() or [])
            opening = _frame(frame, (0, 0), duration)
            total = len(header) + len(opening) + 1
        else:
            change = _changes(frame, previous, duration)
            changes.append(change)
            total += len(change)
            if max_bytes is not None and index % stride == 0 and _at_risk(total, index, count, max_bytes):
                wholes[index] = _frame(frame, (0, 0), opening_ms or duration)
        previous = frame
    if previous is None:
        raise ValueError("an animation needs at least one frame")
    frames_in = len(changes) + 1
    if max_bytes is None or total <= max_bytes:
        return Animation(header + opening + b"".join(changes) + b";", 0, frames_in)
    # Too large: open with the earliest whole frame from which the rest fits. (changes[i] is
    # frame i + 1: what follows frame `index` is changes[index:].)
    rest = sum(len(change) for change in changes)
    start = 0
    for index in sorted(wholes):
        rest -= sum(len(change) for change in changes[start:index])
        start = index
        if len(header) + len(wholes[index]) + rest + 1 <= max_bytes:
            return Animation(header + wholes[index] + b"".join(changes[index:]) + b";", index, frames_in - index)
    last = frames_in - 1  # nothing fits: the last picture alone, as it ends
    return Animation(header + _frame(previous, (0, 0), opening_ms or 0) + b";", last, 1)


def _at_risk(total: int, index: int, count: int | None, max_bytes: int) -> bool:
    """Whether the animation may end up larger than `max_bytes`: past half of it already, or
    heading past it at the rate so far."""
    if total > max_bytes // 2:
        return True
    return count is not None and total / (index + 1) * count > max_bytes
