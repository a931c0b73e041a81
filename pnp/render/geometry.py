"""Units, paper and card sizes, imposition grids and crop marks.

Everything here is pure arithmetic in PDF points (1/72 in), so unit conversion and imposition
have exactly one home and can be tested without drawing anything.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from pnp import paper as paper_table

PT_PER_UNIT = {"pt": 1.0, "in": 72.0, "mm": 72.0 / 25.4, "cm": 720.0 / 25.4}
MM = PT_PER_UNIT["mm"]

_LENGTH_RE = re.compile(r"^\s*([+-]?(?:\d+(?:\.\d*)?|\.\d+))\s*(mm|cm|in|pt)\s*$")


class GeometryError(ValueError):
    """A size, paper or card name that cannot be understood; callers turn it into a Diagnostic."""


def parse_length(value: str | int | float) -> float:
    """`'63.5mm'` -> points. Every length in YAML carries a unit; only a bare 0 may omit it."""
    if isinstance(value, bool):
        raise GeometryError(f"{value!r} is not a length")
    if isinstance(value, int | float):
        if value == 0:
            return 0.0
        raise GeometryError(f"length {value!r} has no unit (write e.g. '{value}mm')")
    if not isinstance(value, str):
        raise GeometryError(f"{value!r} is not a length")
    m = _LENGTH_RE.match(value)
    if not m:
        raise GeometryError(f"{value!r} is not a length with a unit (mm, cm, in, pt)")
    return float(m.group(1)) * PT_PER_UNIT[m.group(2)]


def mm(value: float) -> float:
    """Millimetres -> points, for code that works in the print conventions' unit."""
    return value * MM


def to_mm(points: float) -> float:
    return points / MM


#: paper name -> (width, height) in points, portrait (the table is pnp/paper.py)
PAPERS: dict[str, tuple[float, float]] = {name: p.size for name, p in paper_table.PAPERS.items()}

#: card size name -> (width, height) in millimetres (DESIGN.md print conventions)
CARD_SIZES_MM: dict[str, tuple[float, float]] = {
    "poker": (63.5, 88.9),
    "bridge": (57, 89),
    "tarot": (70, 120),
    "mini-euro": (44, 68),
    "mini-american": (41, 63),
    "euro": (59, 92),
    "square": (70, 70),
}
_CARD_ALIASES = {"mini_euro": "mini-euro", "mini euro": "mini-euro",
                 "mini_american": "mini-american", "mini american": "mini-american"}

_PAPER_RE = re.compile(r"^\s*([^x×]+?)\s*[x×]\s*([^x×]+?)\s*$")


def parse_paper(spec: str) -> tuple[float, float]:
    """A paper name (`a4`, `letter`, ...) or `210mmx297mm` -> (width, height) in points."""
    key = spec.strip().lower()
    if key in PAPERS:
        return PAPERS[key]
    m = _PAPER_RE.match(key)
    if m:
        w, h = parse_length(m.group(1)), parse_length(m.group(2))
        if w > 0 and h > 0:
            return (w, h)
    raise GeometryError(f"unknown paper {spec!r} (use {paper_table.names_text()} or "
                        f"{paper_table.CUSTOM_EXAMPLE})")


def card_size(spec: str | Mapping[str, str]) -> tuple[float, float]:
    """A named card size or `{width: 63.5mm, height: 88.9mm}` -> (width, height) in points."""
    if isinstance(spec, str):
        key = spec.strip().lower()
        key = _CARD_ALIASES.get(key, key)
        if key in CARD_SIZES_MM:
            w, h = CARD_SIZES_MM[key]
            return (mm(w), mm(h))
        names = ", ".join(CARD_SIZES_MM)
        raise GeometryError(f"unknown card size {spec!r} (use {names} or {{width, height}})")
    if isinstance(spec, Mapping) and "width" in spec and "height" in spec:
        w, h = parse_length(spec["width"]), parse_length(spec["height"])
        if w <= 0 or h <= 0:
            raise GeometryError("card width and height must be positive")
        return (w, h)
    raise GeometryError(f"card size {spec!r} is neither a name nor {{width, height}}")


def printed_deck_sizes(game: Any) -> list[tuple[Any, tuple[float, float]]]:
    """Each printed deck with its card size in points; a deck whose size does not parse is
    left out (the data check reports it). Exports sort decks into cards, tokens and boards
    by this size."""
    out = []
    for deck in game.decks.values():
        if not deck.printed:
            continue
        try:
            out.append((deck, card_size(deck.size)))
        except GeometryError:
            continue
    return out


def size_key(size: tuple[float, float]) -> tuple[float, float]:
    """Sizes equal to 1/100 pt compare equal (named and explicit poker are one size group)."""
    return (round(size[0], 2), round(size[1], 2))


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    width: float
    height: float

    @property
    def x1(self) -> float:
        return self.x + self.width

    @property
    def y1(self) -> float:
        return self.y + self.height

    def grow(self, left: float, bottom: float, right: float, top: float) -> Rect:
        return Rect(self.x - left, self.y - bottom, self.width + left + right,
                    self.height + bottom + top)

    def as_box(self) -> tuple[float, float, float, float]:
        """PDF box order: x0, y0, x1, y1."""
        return (self.x, self.y, self.x1, self.y1)


@dataclass(frozen=True)
class Grid:
    """Cards butted together on one sheet: shared cut lines, bleed only around the block."""

    paper: tuple[float, float]
    card: tuple[float, float]
    bleed: float
    margin: float
    cols: int
    rows: int
    x0: float  # lower-left corner of the trimmed block
    y0: float

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    @property
    def block(self) -> Rect:
        return Rect(self.x0, self.y0, self.cols * self.card[0], self.rows * self.card[1])

    def cell(self, index: int) -> tuple[int, int]:
        """(column, row) of the index-th card on a page, rows counted from the top."""
        k = index % self.per_page
        return (k % self.cols, k // self.cols)

    def trim_rect(self, col: int, row: int) -> Rect:
        w, h = self.card
        return Rect(self.x0 + col * w, self.y0 + (self.rows - 1 - row) * h, w, h)

    def art_rect(self, col: int, row: int, filled: int | None = None) -> Rect:
        """The trim box grown by the bleed on each side with no card next to it.

        `filled` is how many cells of the page hold a card (default: all), so the last, partly
        filled page still gets bleed where its neighbour is empty.
        """
        b = self.bleed
        n = self.per_page if filled is None else filled

        def empty(c: int, r: int) -> bool:
            return not (0 <= c < self.cols and 0 <= r < self.rows) or r * self.cols + c >= n

        return self.trim_rect(col, row).grow(
            b if empty(col - 1, row) else 0, b if empty(col, row + 1) else 0,
            b if empty(col + 1, row) else 0, b if empty(col, row - 1) else 0)

    @property
    def cut_xs(self) -> list[float]:
        return [self.x0 + i * self.card[0] for i in range(self.cols + 1)]

    @property
    def cut_ys(self) -> list[float]:
        return [self.y0 + j * self.card[1] for j in range(self.rows + 1)]


def impose_grid(
    paper: tuple[float, float], card: tuple[float, float], bleed: float = mm(3),
    margin: float = mm(3),
) -> Grid:
    """As many cards as fit inside the margin (bleed included), the block centred on the page."""
    pw, ph = paper
    cw, ch = card
    cols = int(math.floor((pw - 2 * margin - 2 * bleed + 1e-6) / cw))
    rows = int(math.floor((ph - 2 * margin - 2 * bleed + 1e-6) / ch))
    if cols < 1 or rows < 1:
        raise GeometryError(
            f"a {to_mm(cw):.1f}×{to_mm(ch):.1f} mm card with {to_mm(bleed):.1f} mm bleed does not "
            f"fit on a {to_mm(pw):.0f}×{to_mm(ph):.0f} mm page")
    return Grid(paper, card, bleed, margin, cols, rows,
                (pw - cols * cw) / 2, (ph - rows * ch) / 2)


Segment = tuple[float, float, float, float]


def crop_marks(grid: Grid, gap: float = mm(1), length: float = mm(5),
               edge: float = mm(1), cells: Sequence[tuple[int, int]] | None = None,
               ) -> list[Segment]:
    """Segments continuing every cut line into the margin, starting past the bleed.

    `cells` are the (column, row) positions that hold a card (default: all); a partly filled
    last sheet gets marks only for the cut lines of its cards, around the block they fill.
    Marks never enter the artwork (block + bleed) and stop `edge` short of the paper edge.
    """
    return list(_crop_marks(grid, gap, length, edge, None if cells is None else tuple(cells)))


@lru_cache(maxsize=256)
def _crop_marks(grid: Grid, gap: float, length: float, edge: float,
                cells: tuple[tuple[int, int], ...] | None) -> tuple[Segment, ...]:
    """crop_marks, once per page shape: every full sheet of a deck has the same marks."""
    pw, ph = grid.paper
    if cells is None:
        blk, cut_xs, cut_ys = grid.block, grid.cut_xs, grid.cut_ys
    else:
        rects = [grid.trim_rect(c, r) for c, r in cells]
        if not rects:
            return []
        cut_xs = sorted({round(v, 4) for r in rects for v in (r.x, r.x1)})
        cut_ys = sorted({round(v, 4) for r in rects for v in (r.y, r.y1)})
        blk = Rect(cut_xs[0], cut_ys[0], cut_xs[-1] - cut_xs[0], cut_ys[-1] - cut_ys[0])
    start = grid.bleed + gap

    def spans(lo: float, hi: float, size: float) -> list[tuple[float, float]]:
        """Where the marks of a block from `lo` to `hi` run along a page `size` long: before
        it and after it, each stopped `edge` short of the paper (left out if little is left)."""
        out = []
        for a, b in ((lo - start - length, lo - start), (hi + start, hi + start + length)):
            a, b = max(a, edge), min(b, size - edge)
            if b - a > 0.5:
                out.append((a, b))
        return out

    up, across = spans(blk.y, blk.y1, ph), spans(blk.x, blk.x1, pw)
    return tuple([(x, a, x, b) for x in cut_xs for a, b in up]
                 + [(a, y, b, y) for y in cut_ys for a, b in across])


DUPLEX_MODES = ("long", "short")


def back_cell(grid: Grid, col: int, row: int, duplex: str) -> tuple[int, int]:
    """Where the back of the card at (col, row) goes on the back page.

    Long-edge flip mirrors columns, short-edge flip mirrors rows (portrait sheets).
    """
    if duplex == "long":
        return (grid.cols - 1 - col, row)
    if duplex == "short":
        return (col, grid.rows - 1 - row)
    raise GeometryError(f"duplex must be one of {DUPLEX_MODES}, not {duplex!r}")


def back_to_front(x: float, y: float, paper: tuple[float, float], duplex: str) -> tuple[float, float]:
    """The front-page point that lies behind back-page point (x, y) once the sheet is flipped."""
    pw, ph = paper
    if duplex == "long":
        return (pw - x, y)
    if duplex == "short":
        return (x, ph - y)
    raise GeometryError(f"duplex must be one of {DUPLEX_MODES}, not {duplex!r}")



def calibration_label(front_offset: float, axis: str, duplex: str) -> float:
    """The number printed on the calibration ruler at `front_offset` from the page centre.

    Chosen so that the value a user reads under the back side's line is exactly the duplex
    offset to enter (offsets move the back page as the printer prints it: +x right, +y up).
    """
    if duplex not in DUPLEX_MODES:
        raise GeometryError(f"duplex must be one of {DUPLEX_MODES}, not {duplex!r}")
    mirrored = (axis == "x") == (duplex == "short")
    return -front_offset if mirrored else front_offset
