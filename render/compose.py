"""Pictures composed straight in a game's fixed palette, so a finished board needs no quantising.

A board is a copy of its cached empty board, already mapped onto the palette, with cached
sprites pasted on it. A sprite's opaque pixels map to the same palette entries wherever it
goes, but its anti-aliased edges and shadows blend with whatever lies under them. So each
paste is looked up by the sprite and the palette pixels under it: the first time, the sprite
is blended in RGB over them and the result mapped onto the palette; every later time, that
result is copied in. A game draws a limited set of sprites on a limited set of backgrounds (a
piece on each kind of square, with or without a frame or a neighbour's link), so once a bot has
drawn some boards nearly every paste is a copy of palette bytes. (Looking up only the pixels
under a sprite's translucent ones, or skipping the look where nothing was drawn yet, found more
pastes again but cost more than it saved: the masks and checks take longer than the copy.)
Words on a flat panel skip the look altogether (`on`). A piece alone in its square, where nothing
was drawn yet, skips it too: it is found by the piece and that square of the empty board (all
light squares are one), and where each piece goes on each square is worked out once
(`Palette.placement`); a piece reaching out of its square over nothing drawn yet is found the same
way, by the region of the empty board under it (regions are many: numbered by a digest). A part
of a picture that recurs whole (a panel's row of score cards, the same while the scores and the
turn stand) is kept as one piece, under a key that names everything it shows (`Picture.kept`).

The result differs from blending everything in RGB and mapping once at the end only where
translucent pixels lie on one another or on the empty board's own blends: they now blend over
the palette colour of what is under them, a step of the palette at most.

While a game's palette is being learned the same drawing code composes in RGB (`palette` None),
since there is no palette yet.

A board that will carry a strip under it (the clocks, `render/clocks.py`) is composed on a
canvas already tall enough for it (`Room`): the strip is then drawn in place, where copying a
finished board onto a taller canvas cost more than the strip. The board's own height still
bounds every paste, so the board is the same pixels either way.
"""

from __future__ import annotations

import hashlib
import itertools
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Generic, NamedTuple, TypeVar

from PIL import (
    Image,
    ImageDraw,
    _imaging,  # Pillow's C core: a raw encoder without the wrappers
)

from render.encode import to_palette
from render.memo import DRAWING

Colour = tuple[int, int, int]
Box = tuple[int, int, int, int]
CACHE_BYTES = 16 * 1024 * 1024  # composed pastes kept per palette: a game here settles near 10 MB
TILE_BYTES = 8 * 1024 * 1024  # pieces composed on an empty board's cells, kept per palette
STAMPS_KEPT = 8192
TALLER_BYTES = 8 * 1024 * 1024  # empty layers with room under them (the clocks strip), kept per palette
PARTS_BYTES = 8 * 1024 * 1024  # parts of pictures kept whole (a panel without its last line), per palette
K = TypeVar("K")
V = TypeVar("V")
_SERIAL = "render.serial"  # a sprite's number in its `info`: ids are reused once a sprite is gone, these never
_KNOWN = "render.known"
_serials = itertools.count()


def serial(sprite: Image.Image) -> int:
    """A picture's number for the caches: ids are reused once a picture is gone, these never."""
    number: int | None = sprite.info.get(_SERIAL)
    if number is None:
        number = sprite.info[_SERIAL] = next(_serials)
    return number


def _known(sprite: Image.Image) -> tuple[int, Box]:
    """A sprite's serial and the box round its visible pixels, in one look (pastes are many)."""
    found: tuple[int, Box] | None = sprite.info.get(_KNOWN)
    if found is None:
        alpha = sprite.getchannel("A") if sprite.mode == "RGBA" else Image.new("L", sprite.size, 255)
        found = sprite.info[_KNOWN] = (serial(sprite), alpha.getbbox() or (0, 0, 0, 0))
    return found


class Placement(NamedTuple):
    """A sprite placed on an empty board (`Palette.placement`), all a paste needs to know of it."""

    sprite: Image.Image
    at: tuple[int, int]  # its top left
    serial: int
    part: Box  # the part of it shown…
    box: Box  # …and where that goes
    cell: Box  # the square it stands in
    tile: tuple[int, int, int, int] | None  # its key as the piece on that cell of the empty board; None: it reaches out
    region: tuple[str, int, Box, int] | None  # reaching out: its key as the piece on that region of the empty board


class _Kept(Generic[K, V]):
    """Values kept within a bound of bytes (each put with its size), the oldest forgotten first;
    one put again under its key replaces the first and is counted once."""

    def __init__(self, bound: int) -> None:
        self.bound = bound
        self.kept: dict[K, tuple[V, int]] = {}  # oldest first
        self.bytes = 0
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        found = self.kept.get(key)
        return None if found is None else found[0]

    def put(self, key: K, value: V, size: int) -> None:
        with self._lock:
            replaced = self.kept.pop(key, None)
            if replaced is not None:
                self.bytes -= replaced[1]
            self.kept[key] = (value, size)
            self.bytes += size
            while self.bytes > self.bound and len(self.kept) > 1:
                self.bytes -= self.kept.pop(next(iter(self.kept)))[1]


class Palette:
    """A game's fixed palette, with the layers and pastes already mapped onto it."""

    def __init__(self, holder: Image.Image) -> None:
        self.holder = holder  # a 'P' image carrying the palette
        raw = holder.getpalette() or []
        self._index: dict[Colour, int] = {}
        for i in range(0, len(raw), 3):
            self._index.setdefault((raw[i], raw[i + 1], raw[i + 2]), i // 3)
        self._lock = threading.Lock()
        self._layers: dict[int, Image.Image] = {}
        self._pastes: dict[tuple[int, Box, bytes], Any] = {}  # Pillow's core images
        self._stamps: dict[tuple[int, Box, Colour], Any] = {}
        self._cells: dict[tuple[int, Box], int] = {}
        self._contents: dict[bytes, int] = {}
        self._tiles: dict[tuple[object, ...], Any] = {}
        self._regions: dict[bytes, int] = {}
        self._taller: _Kept[tuple[int, int], Image.Image] = _Kept(TALLER_BYTES)
        self._parts: _Kept[tuple[object, ...], tuple[Box, Any]] = _Kept(PARTS_BYTES)
        self._bytes = 0
        self._tile_bytes = 0

    def index(self, colour: Sequence[int]) -> int:
        """The palette entry of a flat colour the game draws (it is in the palette exactly)."""
        return self._index[(colour[0], colour[1], colour[2])]

    def layer(self, picture: Image.Image) -> Image.Image:
        """A cached picture (an empty board, a tile) mapped onto the palette once; read-only."""
        number = serial(picture)
        found = self._layers.get(number)
        if found is None:
            found = to_palette(picture.convert("RGB"), self.holder)
            found.info.clear()  # not the picture's serial: a layer is no sprite
            with self._lock:
                self._layers[number] = found
        return found

    def taller(self, base: Image.Image, rows: int) -> Image.Image:
        """`base`'s layer with `rows` more under it (to be set by whoever asked), kept: copying it
        is one pass over memory, where building it again (a new canvas, the layer pasted in)
        touches a board's worth twice; read-only."""
        return _made_taller(self._taller, (serial(base), rows), lambda: self.layer(base), rows)

    def placement(self, base: Image.Image, sprite: Image.Image, at: tuple[int, int], cell: Box) -> Placement | None:
        """A cached sprite with its top left at `at` on a picture of the empty board `base`,
        standing in `cell` (`Picture.place_all`); None if it lies outside the picture."""
        serial, visible = _known(sprite)
        clipped = _clip(visible, at, base.size)
        if clipped is None:
            return None
        part, box = clipped
        left, top, right, bottom = cell
        inside = left <= box[0] and top <= box[1] and box[2] <= right and box[3] <= bottom
        tile = (serial, box[0] - left, box[1] - top, self.cell(base, cell)) if inside else None
        region = None if inside else ("reaching", serial, part, self.region(base, box))
        return Placement(sprite, at, serial, part, box, cell, tile, region)

    def part(self, key: tuple[object, ...]) -> tuple[Box, Any] | None:
        """A part of a picture kept whole (`Picture.kept`): where it goes and its pixels (Pillow's
        core image), or None."""
        return self._parts.get(key)

    def keep_part(self, key: tuple[object, ...], box: Box, core: Any) -> None:
        """Keep a part under `key`, in place of any kept before under it (drawn again where
        something lay over it), within PARTS_BYTES: the oldest go first."""
        self._parts.put(key, (box, core), _area(box))

    def stamped(self, sprite: Image.Image, part: Box, on: Colour) -> Any:
        """`part` of a cached sprite over the flat colour `on`, as palette pixels (Pillow's core image)."""
        key = (serial(sprite), part, on)
        found = self._stamps.get(key)
        if found is None:
            background = Image.new("RGB", (part[2] - part[0], part[3] - part[1]), on)
            piece = sprite.crop(part)
            background.paste(piece, (0, 0), piece)
            found = to_palette(background, self.holder).im
            with self._lock:
                if len(self._stamps) > STAMPS_KEPT:  # words come and go: forget the older half
                    for old in list(self._stamps)[: len(self._stamps) // 2]:
                        del self._stamps[old]
                self._stamps[key] = found
        return found

    def cell(self, base: Image.Image, box: Box) -> int:
        """Which of the distinct cells of empty boards `box` of `base` is: equal cells (two light
        squares) share a number."""
        key = (serial(base), box)
        found = self._cells.get(key)
        if found is None:
            content = _raw(self.layer(base).im.crop(box))
            with self._lock:
                found = self._contents.setdefault(content, len(self._contents))
                self._cells[key] = found
        return found

    def region(self, base: Image.Image, box: Box) -> int:
        """Which of the distinct regions of empty boards `box` of `base` is, for a piece that
        reaches out of its cell (regions of equal pixels share a number): found by a digest of
        its pixels, as there are many more of them than cells."""
        content = hashlib.blake2b(_raw(self.layer(base).im.crop(box)), digest_size=16).digest()
        with self._lock:
            return self._regions.setdefault(content, len(self._regions))

    def tile(self, key: tuple[object, ...], result: Any, size: int) -> None:
        with self._lock:
            if self._tile_bytes > TILE_BYTES:  # start again: what recurs comes back
                self._tiles.clear()
                self._tile_bytes = 0
            self._tiles[key] = result
            self._tile_bytes += size

    def composed(self, serial: int, part: Box, under: bytes) -> Any:
        """What `part` of a cached sprite became over the palette pixels `under` (Pillow's core
        image of the result), or None the first time."""
        return self._pastes.get((serial, part, under))

    def remember(self, serial: int, part: Box, under: bytes, result: Any) -> None:
        with self._lock:
            if self._bytes > CACHE_BYTES:  # forget the older half; what recurs comes back
                for old in list(self._pastes)[: len(self._pastes) // 2]:
                    self._bytes -= 2 * len(old[2])
                    del self._pastes[old]
            self._pastes[(serial, part, under)] = result
            self._bytes += 2 * len(under)


def _raw(core: Any) -> bytes:
    """The pixels of a core image as bytes: `Image.tobytes` without its per-call overhead, which
    costs more than the rest of a paste."""
    width, height = core.size
    encoder = _imaging.raw_encoder(core.mode, core.mode, 0, 1)
    encoder.setimage(core, (0, 0, width, height))
    parts = []
    while True:
        _, status, data = encoder.encode(width * height + 64)
        parts.append(data)
        if status:
            return b"".join(parts)


_CUTS = "render.cuts"
_SHOWN = [0] + [255] * 255  # an alpha channel to a mask of where anything shows


def _cut(sprite: Image.Image, part: Box) -> tuple[Image.Image, Image.Image]:
    """`part` of a sprite, and a mask of where it shows, kept with the sprite: a paste not found
    yet is most often the same sprite again on other pixels, and making the mask (a table
    through Pillow's Python wrappers) cost more than the blend itself."""
    cuts: dict[Box, tuple[Image.Image, Image.Image]] = sprite.info.setdefault(_CUTS, {})
    found = cuts.get(part)
    if found is None:
        piece = sprite.crop(part)
        found = cuts[part] = (piece, piece.getchannel("A").point(_SHOWN))
    return found


def _made_taller(kept: _Kept[tuple[int, int], Image.Image], key: tuple[int, int], picture: Callable[[], Image.Image],
                 rows: int) -> Image.Image:  # fmt: skip
    """`picture()` with `rows` more under it (in its palette, to be set by whoever asked), kept
    under `key` (its source's serial and the rows)."""
    found = kept.get(key)
    if found is None:
        source = picture()
        found = source.crop((0, 0, source.width, source.height + rows))
        kept.put(key, found, found.width * found.height)
    return found


class Room:
    """Rows asked for under the next board composed in a palette (the clocks strip), the number
    depending on the board's width: the first `Picture` made while it is open (`room_under`)
    takes them, and says which canvas it composed on and how tall its board is. An artist that
    composes otherwise leaves it unclaimed, and its picture is copied taller as before."""

    def __init__(self, rows_for: Callable[[int], int]) -> None:
        self.rows_for = rows_for
        self.canvas: Image.Image | None = None  # the claiming picture's image, board and room
        self.board_height = 0

    def claim(self, base: Image.Image, palette: Palette) -> Image.Image:
        """A canvas for composing on `base`: its empty layer and the rows under it (their pixels
        left for the strip to set), in the palette."""
        return self.take(palette.taller(base, self.rows_for(base.width)), base.height)

    def take(self, taller: Image.Image, board_height: int) -> Image.Image:
        """A copy of `taller` (a board's empty picture with the rows under it) as the canvas."""
        self.board_height = board_height
        self.canvas = taller.copy()
        return self.canvas


_room: ContextVar[Room | None] = ContextVar("render.compose.room", default=None)
_taller_pictures: _Kept[tuple[int, int], Image.Image] = _Kept(TALLER_BYTES)  # plugins' empty boards, made taller


def board_canvas(empty: Image.Image) -> Image.Image:
    """A copy of `empty` (an artist's cached empty board, a 'P' picture in its palette) to draw a
    board on. While the host wants rows under the board (the clocks strip, `room_under`), the
    copy has them already, below `empty`'s height: the artist draws within `empty`'s size, and
    the strip is drawn there instead of under a copy of the finished board made taller. For an
    artist that does not compose through `Picture` (a plugin drawing its own picture)."""
    room = _room.get()
    if room is None or room.canvas is not None or empty.mode != "P":
        return empty.copy()
    rows = room.rows_for(empty.width)
    return room.take(_made_taller(_taller_pictures, (serial(empty), rows), lambda: empty, rows), empty.height)


@contextmanager
def room_under(room: Room | None) -> Iterator[None]:
    """While open, the next board composed in a palette on this thread (or task) takes `room`."""
    token = _room.set(room)
    try:
        yield
    finally:
        _room.reset(token)


class _Keeping:
    """`Picture.kept`'s block. A class, not a generator: a panel opens several a board, and a
    generator's context manager costs several times as much to enter and leave."""

    __slots__ = ("key", "picture", "start")

    def __init__(self, picture: Picture, key: tuple[object, ...]) -> None:
        self.picture = picture
        self.key = key
        self.start = -1  # where the block's boxes begin in `drawn`; -1: nothing to keep

    def __enter__(self) -> bool:
        picture = self.picture
        palette = picture.palette
        if palette is None:
            return False
        self.key = key = (serial(picture._base), *self.key)
        drawn = picture._drawn
        found = palette.part(key)
        if found is not None and not _overlaps(found[0], drawn):
            picture._core.paste(found[1], found[0])
            drawn.append(found[0])
            return True
        self.start = len(drawn)
        return False

    def __exit__(self, kind: type[BaseException] | None, *_: object) -> None:
        start = self.start
        if start < 0 or kind is not None:  # found, not palette-composed, or the block failed: nothing kept
            return
        picture = self.picture
        assert picture.palette is not None
        drawn = picture._drawn
        boxes = drawn[start:]
        if not boxes:
            return
        box = (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))
        whole = _area(box) * 3 > picture._width * picture._height  # drawn anywhere
        if not whole and not _overlaps(box, drawn[:start]):
            picture.palette.keep_part(self.key, box, picture._core.crop(box))


class Picture:
    """One board being composed: in a game's palette, or in RGB while the palette is learned."""

    def __init__(self, base: Image.Image, palette: Palette | None) -> None:
        self.palette = palette
        if palette is None:
            self.image = base.convert("RGB").copy()
        else:
            room = _room.get()
            if room is not None and room.canvas is None:  # rows under the board: composed on a taller canvas
                self.image = room.claim(base, palette)
            else:
                self.image = palette.layer(base).copy()
        self._core = self.image.im  # Pillow's core: a paste is a few microseconds, its wrappers cost more
        self._width, self._height = base.size  # the board's: every paste stays inside it, never in the room
        self._base = base
        self._drawn: list[Box] = []  # where the picture may differ from its empty board
        self._draw: ImageDraw.ImageDraw | None = None

    def paste(self, sprite: Image.Image, at: tuple[int, int], *, on: Colour | None = None) -> None:
        """A cached RGBA sprite (drawn once and kept, or kept while it is reused) at `at`, its top
        left. `on`: the flat colour everywhere under the box round its visible pixels (words on a
        panel), so the paste needs no look at the picture."""
        palette = self.palette
        if palette is None:
            self.image.paste(sprite, at, sprite)
            return
        serial, visible = _known(sprite)
        x, y = at
        left, top, right, bottom = visible
        if right > left and x + left >= 0 and y + top >= 0 and x + right <= self._width and y + bottom <= self._height:
            part, box = visible, (x + left, y + top, x + right, y + bottom)  # the usual case: all inside
        else:
            clipped = self._clip(visible, at)
            if clipped is None:
                return
            part, box = clipped
        core = self._core
        self._drawn.append(box)
        if on is not None:
            core.paste(palette.stamped(sprite, part, on), box)
            return
        core.paste(self._looked(sprite, serial, part, box), box)

    def paste_all(self, pastes: Sequence[tuple[Image.Image, tuple[int, int], Box]]) -> None:
        """A board's pieces in one loop: cached sprites, each at its top left and standing in the
        cell (a square's box) given with it; as `place_all`."""
        palette = self.palette
        if palette is None:
            for sprite, at, _ in pastes:
                self.image.paste(sprite, at, sprite)
            return
        placements = (palette.placement(self._base, sprite, at, cell) for sprite, at, cell in pastes)
        self.place_all([placed for placed in placements if placed is not None])

    def place_all(self, placements: Sequence[Placement]) -> None:
        """A board's pieces, placed on this picture's empty board already (`Palette.placement`,
        which a game may keep: a piece on a square is placed the same on every board). A piece
        that lies inside its cell, where nothing has been drawn yet, is found by the piece and
        that cell of the empty board (all light squares are one), without a look at the picture;
        any other as `paste`."""
        palette = self.palette
        if palette is None:
            for sprite, at, *_ in placements:
                self.image.paste(sprite, at, sprite)
            return
        drawn, paste, tiles = self._drawn, self._core.paste, palette._tiles
        placed: list[Box] = []  # the pieces found by their cells so far (not in `drawn`: each keeps to its own)
        for sprite, _, serial, part, box, cell, tile, region in placements:
            if tile is not None:
                placed.append(box)
                if not _overlaps(cell, drawn):  # nothing drawn over the cell yet: the empty board's
                    found = tiles.get(tile)
                    paste(self._on_empty(tile, sprite, part, box) if found is None else found, box)
                    continue
            elif region is not None and not _overlaps(box, drawn) and not _overlaps(box, placed):
                drawn.append(box)  # reaching out, over nothing drawn yet: the empty board's region
                found = tiles.get(region)
                paste(self._on_empty(region, sprite, part, box) if found is None else found, box)
                continue
            else:
                drawn.append(box)  # it reaches into a neighbour's cell
            paste(self._looked(sprite, serial, part, box), box)  # over something drawn: looked at

    def stamp_all(self, stamps: Sequence[tuple[Image.Image, tuple[int, int], Colour]]) -> None:
        """Several cached sprites, each pasted as `paste` with `on` (the flat colour under its
        box), in one loop: a panel's words and cards."""
        palette = self.palette
        if palette is None:
            for sprite, at, _ in stamps:
                self.image.paste(sprite, at, sprite)
            return
        core, width, height, drawn, stamped = self._core, self._width, self._height, self._drawn, palette.stamped
        for sprite, (x, y), on in stamps:
            _, visible = _known(sprite)
            left, top, right, bottom = visible
            if right > left and x + left >= 0 and y + top >= 0 and x + right <= width and y + bottom <= height:
                part, box = visible, (x + left, y + top, x + right, y + bottom)
            else:
                clipped = self._clip(visible, (x, y))
                if clipped is None:
                    continue
                part, box = clipped
            drawn.append(box)
            core.paste(stamped(sprite, part, on), box)

    def kept(self, key: tuple[object, ...]) -> _Keeping:
        """A part of the picture that recurs whole from picture to picture (a panel's cards, the
        same while the scores stand), as a `with` block: it yields True where an earlier picture
        on the same empty board kept it under `key` and it was pasted in one piece; else False,
        and what the block then draws is kept at its end. `key` must name everything the block
        draws; what was drawn before must not lie where the part goes (then it is drawn, and not
        kept)."""
        return _Keeping(self, key)

    def put(self, tile: Image.Image, at: tuple[int, int]) -> None:
        """A cached opaque sprite (no transparency: a tile) with its top left at `at`."""
        x, y = at
        box = (x, y, x + tile.width, y + tile.height)
        if self.palette is None:
            self.image.paste(tile, box)
            return
        self._drawn.append(box)
        self._core.paste(self.palette.layer(tile).im, box)

    def paste_once(self, sprite: Image.Image, at: tuple[int, int]) -> None:
        """A sprite drawn for this picture alone: blended, not remembered."""
        if self.palette is None:
            self.image.paste(sprite, at, sprite)
            return
        clipped = self._clip((0, 0, *sprite.size), at)
        if clipped is not None:
            part, box = clipped
            self._drawn.append(box)
            self._core.paste(self._blend(sprite, part, box), box)

    def _on_empty(self, key: tuple[object, ...], sprite: Image.Image, part: Box, box: Box) -> Any:
        """`part` of the sprite blended at `box` over the empty board, kept in the palette under
        `key` (the sprite and the cell or region of the empty board it lies on)."""
        assert self.palette is not None
        found = self._blend(sprite, part, box)
        self.palette.tile(key, found, _area(box))
        return found

    def _looked(self, sprite: Image.Image, serial: int, part: Box, box: Box) -> Any:
        """`part` of the sprite over what the picture holds at `box`, found by those palette
        pixels (blended and remembered the first time), as Pillow's core image."""
        assert self.palette is not None
        under = _raw(self._core.crop(box))
        found = self.palette.composed(serial, part, under)
        if found is None:
            found = self._blend(sprite, part, box)
            self.palette.remember(serial, part, under, found)
        return found

    def _blend(self, sprite: Image.Image, part: Box, box: Box) -> Any:
        """`part` of the sprite over the picture's `box`, blended in RGB and mapped onto the
        palette where the sprite shows; elsewhere the picture's own palette pixels, since a blend
        colour of the empty board need not map back onto itself. Pillow's core image of it: done
        core to core, as a new paste is most of a board's drawing where its wrappers would cost
        as much again."""
        assert self.palette is not None
        region = self._core.crop(box)  # in the palette, which it carries
        background = region.convert("RGB")
        piece, shown = _cut(sprite, part)
        background.paste(piece.im, (0, 0, *region.size), piece.im)
        blended = background.convert("P", Image.Dither.NONE, self.palette.holder.im)
        region.paste(blended, (0, 0, *region.size), shown.im)
        return region

    def ink(self, colour: Colour) -> int | Colour:
        """What to draw a flat colour with: its palette entry, or the colour itself in RGB."""
        return colour if self.palette is None else self.palette.index(colour)

    @property
    def draw(self) -> ImageDraw.ImageDraw:
        """Pillow's hard-edged primitives (rectangles, lines) for flat colours, through `ink`."""
        if self._draw is None:
            self._draw = ImageDraw.Draw(self.image)
            self._drawn.append((0, 0, self._width, self._height))  # not tracked: it may be anywhere
        return self._draw

    def _clip(self, within: Box, at: tuple[int, int]) -> tuple[Box, Box] | None:
        return _clip(within, at, (self._width, self._height))


def _clip(within: Box, at: tuple[int, int], size: tuple[int, int]) -> tuple[Box, Box] | None:
    """(the part of a sprite's box `within` inside a picture of `size`, where it goes), or None if
    it is all outside."""
    x, y = at
    width, height = size
    left, top, right, bottom = within
    if right <= left or bottom <= top:  # nothing visible
        return None
    if x + left >= 0 and y + top >= 0 and x + right <= width and y + bottom <= height:
        return within, (x + left, y + top, x + right, y + bottom)  # the usual case: all inside
    left, top = max(left, -x), max(top, -y)
    right, bottom = min(right, width - x), min(bottom, height - y)
    if right <= left or bottom <= top:
        return None
    return (left, top, right, bottom), (x + left, y + top, x + right, y + bottom)


def _area(box: Box) -> int:
    return (box[2] - box[0]) * (box[3] - box[1])


def _overlaps(box: Box, boxes: Sequence[Box]) -> bool:
    left, top, right, bottom = box
    for a, b, c, d in boxes:  # noqa: SIM110  # a loop: any() over a generator costs more, asked for every piece
        if a < right and left < c and b < bottom and top < d:
            return True
    return False


def shared(learn: Callable[[], Image.Image]) -> Callable[[], Palette]:
    """A game's one `Palette` per process, made from its learned palette image on first use."""
    made: list[Palette] = []

    def palette() -> Palette:
        if not made:
            with DRAWING:  # learning draws sprites
                if not made:
                    made.append(Palette(learn()))
        return made[0]

    return palette
