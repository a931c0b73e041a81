"""Boards: track loops, serpentine paths and chart/table panels composed into one board.

The renderer reads tracks, charts and tables as data; it knows how to lay N spaces out as a loop
or a path, never what a space does. A board is laid out once, at the width of its large paper
(so the large print is 1:1), then printed whole or tiled across home pages (pnp.render.tiling).
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pnp.data.effects import format_effect
from pnp.data.model import Board, Chart, GameDef, Space, Table, Track
from pnp.diagnostics import ERROR, WARNING, Diagnostic, has_errors
from pnp.paper import LARGE_PAPERS, file_part
from pnp.render import fonts, tiling
from pnp.render.geometry import GeometryError, Rect, mm, parse_paper, to_mm
from pnp.render.kinds import paper_and_items
from pnp.render.pdfwrite import pdf_bytes, write_outputs
from pnp.render.scalebar import HEIGHT, LENGTH, draw_scale_bar_in
from pnp.render.text import FittedText, Word, fit_together, fit_width, fit_words, measure
from pnp.render.text import words as text_words

R_BOARD = "PNP-R070"  # a board that cannot be drawn (unknown id, paper, nothing on it)
R_BOARD_TEXT = "PNP-R071"  # warning: text that does not fit at the smallest legible size
R_BOARD_SCALED = "PNP-R072"  # warning: the board is larger than its whole paper and is scaled

REGULAR, BOLD, ITALIC = "Vera", "Vera-Bold", "Vera-Italic"
LEADING = 1.16
NAME_PT, NAME_MIN_PT = 7.5, 7.0  # space names: never below 7 pt
NOTE_PT, NOTE_MIN_PT = 6.5, 6.0  # space notes: never below 6 pt
SHRINK_STEPS = 3  # 0.25 pt each: 7.5 -> 7.0 and 6.5 -> 6.0 together

WHOLE_MARGIN = mm(10)  # around the board on its large paper
DEFAULT_WHOLE_PAPER = "a3"  # sets the board width when the board names no paper
#: below half size a board is unreadable (14 mm spaces become 7 mm, 7 pt text 3.5 pt): a
#: whole_paper that small is an error, not a warning; between this and 1:1 it is a warning
MIN_WHOLE_SCALE = 0.5
ITEM_GAP = mm(6)
BOX_GAP = mm(2.4)  # between spaces; the direction chevrons sit in it
BOX_PAD = mm(1.0)
TAB_H = mm(3.4)  # the START / END tabs above a space
LOOP_MIN_W = mm(112)
LOOP_MIN_BOX_W = mm(14)  # the narrowest loop space: a two-digit number and a short name
LOOP_BOX_W = mm(24)  # a comfortable loop space, when the board has the room
PANEL_MIN_W = mm(100)
PATH_MIN_BOX_W = mm(26)
MIN_BOX_H = mm(17)
MAX_BOX_H = mm(26)
HEADER_H = mm(14)
BOARD_PAD = mm(5)  # inside the board's outer line

INK = (0.12, 0.12, 0.14)
GREY = (0.35, 0.35, 0.38)
#: muted colours that print well on home printers; each track gets the next one, in board order
TRACK_COLOURS = (
    "#7a4a1e", "#1f5f8b", "#2e7d32", "#8e2c48", "#5b4a9b", "#b35c00", "#00796b",
    "#a12b2b", "#4f6228", "#3b5998", "#8a6d00", "#00838f", "#6d4c41", "#37474f",
)
PANEL_COLOUR = "#37474f"


def hex_rgb(value: str) -> tuple[float, float, float]:
    v = value.lstrip("#")
    return (int(v[0:2], 16) / 255, int(v[2:4], 16) / 255, int(v[4:6], 16) / 255)


def tint(rgb: tuple[float, float, float], k: float) -> tuple[float, float, float]:
    """`rgb` mixed with white: k = 0 is white, 1 the colour."""
    return tuple(1 - k * (1 - v) for v in rgb)  # type: ignore[return-value]


# ---------------------------------------------------------------------------------------------
# text: fitted by pnp.render.text; boards set lines LEADING apart, spaces in the regular face


Block = FittedText  # wrapped text at one size


def words(text: str, font: str = REGULAR) -> tuple[Word, ...]:
    """Words to wrap; an amount stays with its stat ('Culture +3' never breaks before '+3')."""
    return text_words(text, font, keep_amounts=True)


def fit_block(ws: Sequence[Word], size: float, min_size: float, width: float,
              height: float) -> Block:
    """The largest size (0.25 pt steps, not below `min_size`) whose lines fit width × height."""
    return fit_words(ws, width, height, size=size, min_size=min_size, space_font=REGULAR,
                     leading=LEADING)


def draw_block(c, block: Block, x: float, top: float, width: float, align: str = "centre",
               colour=INK) -> None:
    """Lines from `top` down; each line aligned in [x, x + width]."""
    if not block.lines:
        return
    s = block.size
    c.setFillColorRGB(*colour)
    base = top - s * 0.80 - s * (LEADING - 1) / 2
    space = measure(" ", REGULAR, s)
    for line, lw in zip(block.lines, block.widths, strict=True):
        lx = x + (width - lw) / 2 if align == "centre" else x + width - lw if align == "right" \
            else x
        for text, font in _runs(line):  # one string per font run: selectable, searchable text
            c.setFont(font, s)
            c.drawString(lx, base, text)
            lx += measure(text, font, s) + space
        base -= s * LEADING


def _runs(line: Sequence[Word]) -> list[tuple[str, str]]:
    """Consecutive words of one font joined with spaces: (text, font)."""
    out: list[tuple[str, str]] = []
    for w in line:
        if out and out[-1][1] == w.font:
            out[-1] = (out[-1][0] + " " + w.text, w.font)
        else:
            out.append((w.text, w.font))
    return out


# ---------------------------------------------------------------------------------------------
# spaces


@dataclass(frozen=True)
class SpaceText:
    name: Block
    note: Block
    fits: bool = True

    @property
    def height(self) -> float:
        gap = mm(0.5) if self.note.lines else 0.0
        return self.name.height + gap + self.note.height


def fit_space(space: Space, width: float, height: float) -> SpaceText:
    """Name (bold) over note, shrunk together from 7.5/6.5 pt to no less than 7/6 pt."""
    sizes = [(NAME_PT - 0.25 * step, NOTE_PT - 0.25 * step) for step in range(SHRINK_STEPS)]
    (name, note), ok = fit_together(
        (words(space.name, BOLD), words(space.label)), sizes, width, height,
        space_font=REGULAR, leading=LEADING, stack_height=lambda f: SpaceText(*f).height)
    return SpaceText(name, note, ok)


def space_height(space: Space, width: float) -> float:
    """Box height the space needs at the preferred sizes."""
    name = fit_block(words(space.name, BOLD), NAME_PT, NAME_PT, width - 2 * BOX_PAD, math.inf)
    note = fit_block(words(space.label), NOTE_PT, NOTE_PT, width - 2 * BOX_PAD, math.inf)
    h = len(name.lines) * NAME_PT * LEADING + (
        len(note.lines) * NOTE_PT * LEADING + mm(0.5) if note.lines else 0)
    return h + 2 * BOX_PAD


class Diags:
    """Board diagnostics, each reported once (a board is drawn more than once per build)."""

    def __init__(self) -> None:
        self.items: list[Diagnostic] = []

    def add(self, d: Diagnostic) -> None:
        if d not in self.items:
            self.items.append(d)


def draw_space(c, space: Space, r: Rect, colour, diags: Diags, tab: str = "") -> None:
    """A box with the space's name and note; the start space is tinted and edged thicker."""
    start = space.start
    c.setFillColorRGB(*(tint(colour, 0.22) if start else (1, 1, 1)))
    c.setStrokeColorRGB(*colour)
    c.setLineWidth(1.6 if start else 0.7)
    c.roundRect(r.x, r.y, r.width, r.height, mm(1.2), stroke=1, fill=1)
    inner_w = r.width - 2 * BOX_PAD
    text = fit_space(space, inner_w, r.height - 2 * BOX_PAD)
    if not text.fits:
        diags.add(Diagnostic.at(space.origin, WARNING, R_BOARD_TEXT,
                                f"space '{space.name}': name and note do not fit a "
                                f"{to_mm(r.width):.0f}×{to_mm(r.height):.0f} mm box at "
                                f"{NAME_MIN_PT:g}/{NOTE_MIN_PT:g} pt",
                                "shorten the note (text:) or give the board more room"))
    top = r.y + r.height / 2 + text.height / 2
    draw_block(c, text.name, r.x + BOX_PAD, top, inner_w, colour=INK)
    if text.note.lines:
        draw_block(c, text.note, r.x + BOX_PAD, top - text.name.height - mm(0.5), inner_w,
                   colour=INK)
    if tab:
        draw_tab(c, tab, r.x + mm(1.5), r.y1, colour)


def draw_tab(c, text: str, x: float, y: float, colour) -> None:
    """A small coloured label sitting on a box's top edge (START, END)."""
    size = 6.0
    w = measure(text, BOLD, size) + mm(2.4)
    c.setFillColorRGB(*colour)
    c.roundRect(x, y - mm(0.4), w, TAB_H, mm(0.8), stroke=0, fill=1)
    c.setFillColorRGB(1, 1, 1)
    c.setFont(BOLD, size)
    c.drawString(x + mm(1.2), y - mm(0.4) + (TAB_H - size * 0.72) / 2, text)


def draw_chevron(c, a: Rect, b: Rect, colour) -> None:
    """A small triangle in the gap between two neighbouring boxes, pointing from a to b."""
    acx, acy = a.x + a.width / 2, a.y + a.height / 2
    bcx, bcy = b.x + b.width / 2, b.y + b.height / 2
    if min(a.y1, b.y1) - max(a.y, b.y) > 0:  # side by side: horizontal gap
        y = (max(a.y, b.y) + min(a.y1, b.y1)) / 2
        x = (a.x1 + b.x) / 2 if bcx > acx else (b.x1 + a.x) / 2
        dx, dy = (1 if bcx > acx else -1), 0
    else:  # one above the other: vertical gap
        x = (max(a.x, b.x) + min(a.x1, b.x1)) / 2
        y = (a.y + b.y1) / 2 if bcy < acy else (b.y + a.y1) / 2
        dx, dy = 0, (1 if bcy > acy else -1)
    depth, half = mm(2.0), mm(1.7)
    px, py = -dy, dx  # perpendicular
    p = c.beginPath()
    p.moveTo(x + dx * depth / 2, y + dy * depth / 2)
    p.lineTo(x - dx * depth / 2 + px * half, y - dy * depth / 2 + py * half)
    p.lineTo(x - dx * depth / 2 - px * half, y - dy * depth / 2 - py * half)
    p.close()
    c.setFillColorRGB(*colour)
    c.setStrokeColorRGB(1, 1, 1)
    c.setLineWidth(0.5)
    c.drawPath(p, stroke=1, fill=1)


# ---------------------------------------------------------------------------------------------
# board items


class Item:
    """Something placed on a board: knows its minimum width and its height at a given width."""

    family = "panel"
    min_width = PANEL_MIN_W

    def height_for(self, width: float) -> float:
        raise NotImplementedError

    def draw(self, c, r: Rect, diags: Diags) -> None:
        raise NotImplementedError


def track_footnotes(track: Track) -> list[str]:
    return [f"(*) {s.name}: {s.footnote}" for s in track.spaces if s.footnote]


class LoopItem(Item):
    """A circular track: its spaces clockwise round a rectangle from the top-left corner.

    N spaces go as `top` across the top, `side` down the right, `bottom` back along the bottom
    and `side` up the left; the title, notes and footnotes sit in the middle.
    """

    family = "loop"
    min_width = LOOP_MIN_W

    def __init__(self, track: Track, colour):
        self.track = track
        self.colour = colour
        self.box_h = MIN_BOX_H

    def sides(self, width: float) -> tuple[int, int, int]:
        """(top, side, bottom) space counts: up to 3 a side, more when the top row would need
        boxes narrower than LOOP_MIN_BOX_W (a 50-space loop becomes a taller ring, not 3 mm
        boxes with their numbers on top of each other)."""
        n = len(self.track.spaces)
        side = max(0, min(3, round(n / 6))) if n >= 4 else 0
        top = math.ceil((n - 2 * side) / 2)
        most = max(2, int((width + BOX_GAP) // (LOOP_MIN_BOX_W + BOX_GAP)))
        if top > most:
            top = most
            side = math.ceil((n - 2 * top) / 2)
        return top, side, n - 2 * side - top

    @property
    def preferred_width(self) -> float:
        """The width at which the top row gets up-to-3-a-side boxes of a comfortable width."""
        top = self.sides(1e9)[0]  # as if the board were endless
        return max(self.min_width, top * LOOP_BOX_W + (top - 1) * BOX_GAP)

    def box_rects(self, r: Rect) -> list[Rect]:
        """Space rectangles in track order (index 0 top-left, clockwise)."""
        top, side, bottom = self.sides(r.width)
        g, h = BOX_GAP, self.box_h
        y_top = r.y1 - TAB_H
        tw = (r.width - (top - 1) * g) / top
        bw = (r.width - (bottom - 1) * g) / bottom if bottom else tw
        rects = [Rect(r.x + i * (tw + g), y_top - h, tw, h) for i in range(top)]
        for j in range(side):
            rects.append(Rect(r.x1 - tw, y_top - (j + 2) * h - (j + 1) * g, tw, h))
        y_bottom = y_top - (side + 2) * h - (side + 1) * g
        for i in range(bottom):
            rects.append(Rect(r.x1 - (i + 1) * bw - i * g, y_bottom, bw, h))
        for j in range(side):
            rects.append(Rect(r.x, y_top - (side + 1 - j) * h - (side - j) * g, tw, h))
        return rects

    def needed_box_height(self, width: float) -> float:
        rects = self.box_rects(Rect(0, 0, width, 1000))
        return max(space_height(s, rr.width) for s, rr in zip(self.track.spaces, rects,
                                                                  strict=True))

    def height_for(self, width: float) -> float:
        _, side, _ = self.sides(width)
        return TAB_H + (side + 2) * self.box_h + (side + 1) * BOX_GAP

    def centre(self, r: Rect) -> Rect:
        top, side, bottom = self.sides(r.width)
        rects = self.box_rects(r)
        if side == 0:
            return Rect(r.x, r.y, 0, 0)
        left, right = rects[-1], rects[top]
        x0, x1 = left.x1 + BOX_GAP, right.x - BOX_GAP
        y1 = rects[0].y - BOX_GAP
        y0 = rects[top + side].y1 + BOX_GAP
        return Rect(x0, y0, x1 - x0, y1 - y0)

    def draw(self, c, r: Rect, diags: Diags) -> None:
        rects = self.box_rects(r)
        spaces = self.track.spaces
        for s, rr in zip(spaces, rects, strict=True):
            draw_space(c, s, rr, self.colour, diags, "START" if s.start else "")
        for i in range(len(rects)):
            draw_chevron(c, rects[i], rects[(i + 1) % len(rects)], self.colour)
        draw_track_notes(c, self.track, self.centre(r).grow(-mm(1), -mm(1), -mm(1), -mm(1)),
                         self.colour, diags)


def draw_track_notes(c, track: Track, r: Rect, colour, diags: Diags) -> None:
    """Title, other names, note and footnotes, centred in `r` and shrunk to fit."""
    title = fit_block(words(track.name, BOLD), 11, 8, r.width, r.height)
    lines: list[tuple[Word, ...]] = []
    if track.aliases:
        lines.append(words("also called " + ", ".join(track.aliases), ITALIC))
    if track.note:
        lines.append(words(track.note))
    lines += [words(f) for f in track_footnotes(track)]

    def stacked(blocks: Sequence[Block]) -> float:
        return title.height + sum(b.height + mm(0.8) for b in blocks)

    blocks, ok = fit_together(lines, [(size,) * len(lines) for size in (7.0, 6.5, 6.0)],
                              r.width, r.height, space_font=REGULAR, leading=LEADING,
                              stack_height=stacked)
    if not ok:
        diags.add(Diagnostic.at(track.origin, WARNING, R_BOARD_TEXT,
                                f"track '{track.id}': its name, note and footnotes do not fit "
                                f"the middle of the loop at 6 pt",
                                "shorten the track note or the footnotes"))
    total = stacked(blocks)
    top = r.y + r.height / 2 + total / 2
    draw_block(c, title, r.x, top, r.width, colour=colour)
    top -= title.height + mm(0.8)
    for b in blocks:
        draw_block(c, b, r.x, top, r.width, colour=GREY)
        top -= b.height + mm(0.8)


class PathItem(Item):
    """A track that is not a loop: a serpentine of rows, turning at the ends."""

    family = "path"

    def __init__(self, track: Track, colour):
        self.track = track
        self.colour = colour
        self.box_h = MIN_BOX_H

    @property
    def min_width(self) -> float:  # type: ignore[override]
        return PATH_MIN_BOX_W * min(len(self.track.spaces), 6)

    def grid(self, width: float) -> tuple[int, int, float]:
        """(per row, rows, box width) for a row width."""
        n = len(self.track.spaces)
        k_max = max(1, int((width + BOX_GAP) // (PATH_MIN_BOX_W + BOX_GAP)))
        rows = math.ceil(n / k_max)
        k = math.ceil(n / rows)
        return k, rows, (width - (k - 1) * BOX_GAP) / k

    def header_blocks(self, width: float) -> tuple[Block, Block]:
        title = fit_block(words(self.track.name, BOLD), 11, 8, width, math.inf)
        notes = [self.track.note] if self.track.note else []
        notes += track_footnotes(self.track)
        if self.track.aliases:
            notes.insert(0, "also called " + ", ".join(self.track.aliases))
        note = fit_block(words("  ·  ".join(notes)), 7, 6, width, mm(8))
        return title, note

    def header_height(self, width: float) -> float:
        title, note = self.header_blocks(width)
        return title.height + (note.height + mm(0.6) if note.lines else 0) + mm(1)

    def needed_box_height(self, width: float) -> float:
        _, _, bw = self.grid(width)
        return max(space_height(s, bw) for s in self.track.spaces)

    def row_gap(self) -> float:
        return max(TAB_H + mm(1.2), mm(5))

    def height_for(self, width: float) -> float:
        _, rows, _ = self.grid(width)
        return (self.header_height(width) + TAB_H + rows * self.box_h
                + (rows - 1) * self.row_gap())

    def box_rects(self, r: Rect) -> list[Rect]:
        k, _, bw = self.grid(r.width)
        y_top = r.y1 - self.header_height(r.width) - TAB_H
        rects = []
        for i in range(len(self.track.spaces)):
            row, j = divmod(i, k)
            col = j if row % 2 == 0 else k - 1 - j
            y = y_top - (row + 1) * self.box_h - row * self.row_gap()
            rects.append(Rect(r.x + col * (bw + BOX_GAP), y, bw, self.box_h))
        return rects

    def draw(self, c, r: Rect, diags: Diags) -> None:
        title, note = self.header_blocks(r.width)
        draw_block(c, title, r.x, r.y1, r.width, "left", self.colour)
        if note.lines:
            draw_block(c, note, r.x, r.y1 - title.height - mm(0.6), r.width, "left", GREY)
        rects = self.box_rects(r)
        last = len(rects) - 1
        for i, (s, rr) in enumerate(zip(self.track.spaces, rects, strict=True)):
            tab = "START" if s.start else ("END" if i == last else "")
            draw_space(c, s, rr, self.colour, diags, tab)
        for i in range(last):
            draw_chevron(c, rects[i], rects[i + 1], self.colour)


class ChartItem(Item):
    """A die chart as a panel: title bar with the die, then roll | result rows, then the note."""

    ROLL_W = mm(11)
    ROW_MIN_H = mm(5.6)
    TEXT_PT, TEXT_MIN_PT = 8.0, 6.5

    def __init__(self, chart: Chart, colour):
        self.chart = chart
        self.colour = colour
        self.what, self.origin = f"chart '{chart.id}', roll", chart.origin

    def rows(self) -> list[tuple[str, tuple[Word, ...]]]:
        out = []
        for row in self.chart.rows:
            body = row.text or (row.effect.source if row.effect is not None else "")
            if row.label and body:
                ws = words(row.label + ":", BOLD) + words(body)
            else:
                ws = words(row.label, BOLD) if row.label else words(body)
            out.append((row.roll_label, ws))
        return out

    def title(self) -> tuple[str, str]:
        return self.chart.name, f"roll {self.chart.die}"

    def note(self) -> str:
        return self.chart.note

    def column_heads(self) -> tuple[str, str] | None:
        return None

    def _row_blocks(self, width: float) -> list[tuple[str, Block, float]]:
        text_w = width - self.ROLL_W - 2 * BOX_PAD
        out = []
        for roll, ws in self.rows():
            b = fit_block(ws, self.TEXT_PT, self.TEXT_MIN_PT, text_w, self.ROW_MIN_H - mm(1))
            if not b.fits:
                b = fit_block(ws, self.TEXT_MIN_PT, self.TEXT_MIN_PT, text_w, math.inf)
            out.append((roll, b, max(self.ROW_MIN_H, b.height + mm(1.4))))
        return out

    def _note(self, width: float) -> Block:
        return fit_block(words(self.note(), ITALIC), 6.5, 6, width - 2 * BOX_PAD, math.inf)

    def height_for(self, width: float) -> float:
        h = mm(7) + sum(rh for _, _, rh in self._row_blocks(width))
        if self.column_heads():
            h += mm(5)
        note = self._note(width)
        if note.lines:
            h += note.height + mm(2)
        return h + mm(1)

    def draw(self, c, r: Rect, diags: Diags) -> None:
        colour = self.colour
        h = r.height  # panels in one row share its height, so their frames line up
        top = r.y1
        c.setLineWidth(0.7)
        c.setStrokeColorRGB(*colour)
        c.setFillColorRGB(1, 1, 1)
        c.roundRect(r.x, top - h, r.width, h, mm(1.5), stroke=1, fill=1)
        # title bar
        c.setFillColorRGB(*colour)
        c.roundRect(r.x, top - mm(7), r.width, mm(7), mm(1.5), stroke=0, fill=1)
        c.rect(r.x, top - mm(7), r.width, mm(2), stroke=0, fill=1)
        name, die = self.title()
        c.setFillColorRGB(1, 1, 1)
        die_w = measure(die, REGULAR, 8)
        size = fit_width(name, BOLD, 10, r.width - die_w - mm(8), min_size=7)
        c.setFont(BOLD, size)
        c.drawString(r.x + mm(2.5), top - mm(4.6), name)
        c.setFont(REGULAR, 8)
        c.drawRightString(r.x1 - mm(2.5), top - mm(4.6), die)
        y = top - mm(7)
        heads = self.column_heads()
        if heads:
            c.setFillColorRGB(*tint(colour, 0.12))
            c.rect(r.x + 0.35, y - mm(5), r.width - 0.7, mm(5), stroke=0, fill=1)
            c.setFillColorRGB(*INK)
            c.setFont(BOLD, 7)
            c.drawCentredString(r.x + self.ROLL_W / 2 + BOX_PAD / 2, y - mm(3.5), heads[0])
            c.drawString(r.x + self.ROLL_W + BOX_PAD, y - mm(3.5), heads[1])
            y -= mm(5)
        for i, (roll, block, rh) in enumerate(self._row_blocks(r.width)):
            if i % 2 == 1:
                c.setFillColorRGB(*tint(colour, 0.08))
                c.rect(r.x + 0.35, y - rh, r.width - 0.7, rh, stroke=0, fill=1)
            c.setStrokeColorRGB(*tint(colour, 0.35))
            c.setLineWidth(0.3)
            c.line(r.x + self.ROLL_W, y, r.x + self.ROLL_W, y - rh)
            c.setFillColorRGB(*colour)
            rs = fit_width(roll, BOLD, 9, self.ROLL_W - mm(1), min_size=6.5)
            c.setFont(BOLD, rs)
            c.drawCentredString(r.x + self.ROLL_W / 2, y - rh / 2 - rs * 0.36, roll)
            if not block.fits:
                diags.add(Diagnostic.at(self.origin, WARNING, R_BOARD_TEXT,
                                        f"{self.what} {roll}: the text does not fit its panel "
                                        f"at {self.TEXT_MIN_PT:g} pt"))
            draw_block(c, block, r.x + self.ROLL_W + BOX_PAD,
                       y - (rh - block.height) / 2, r.width - self.ROLL_W - 2 * BOX_PAD, "left")
            y -= rh
        note = self._note(r.width)
        if note.lines:
            c.setStrokeColorRGB(*tint(colour, 0.35))
            c.setLineWidth(0.3)
            c.line(r.x + mm(1.5), y, r.x1 - mm(1.5), y)
            draw_block(c, note, r.x + BOX_PAD, y - mm(1), r.width - 2 * BOX_PAD, "left", GREY)


class TableItem(ChartItem):
    """A price list as a panel: cost | what it buys, then the note."""

    def __init__(self, table: Table, colour, stat_names: dict[str, str]):
        self.table = table
        self.colour = colour
        self.stat_names = stat_names
        self.what, self.origin = f"table '{table.id}', cost", table.origin

    def rows(self) -> list[tuple[str, tuple[Word, ...]]]:
        out = []
        for row in self.table.rows:
            text = format_effect(row.buys, self.stat_names)
            out.append((str(row.cost), words(re.sub(r"(?<=[A-Za-z])([+-])", r" \1", text))))
        return out

    def title(self) -> tuple[str, str]:
        return self.table.name, ""

    def note(self) -> str:
        return self.table.note

    def column_heads(self) -> tuple[str, str]:
        pay = self.stat_names.get(self.table.pay or "", self.table.pay or "")
        return (pay or "Cost", "Buys")


# ---------------------------------------------------------------------------------------------
# composing a board


@dataclass(frozen=True)
class BoardLayout:
    """Every item of a board with its rectangle; the board's own size in points."""

    board: Board
    title: str
    size: tuple[float, float]
    placed: tuple[tuple[Item, Rect], ...]


def board_items(game: GameDef, board: Board) -> list[Item]:
    fonts.ensure_fonts()  # text is measured while laying out
    names = {s.id: s.name for s in game.stats.values()}
    items: list[Item] = []
    colour_i = 0
    for it in board.items:
        if it.kind == "track":
            track = game.tracks[it.ref]
            colour = hex_rgb(TRACK_COLOURS[colour_i % len(TRACK_COLOURS)])
            colour_i += 1
            items.append(LoopItem(track, colour) if track.shape == "loop" else
                         PathItem(track, colour))
        elif it.kind == "chart":
            items.append(ChartItem(game.charts[it.ref], hex_rgb(PANEL_COLOUR)))
        elif it.kind == "table":
            items.append(TableItem(game.tables[it.ref], hex_rgb(PANEL_COLOUR), names))
    return items


def _groups(items: list[Item]) -> list[list[Item]]:
    """Consecutive items of one family (loops, paths, panels) share rows of equal widths."""
    groups: list[list[Item]] = []
    for item in items:
        if groups and groups[-1][0].family == item.family and item.family != "path":
            groups[-1].append(item)
        else:
            groups.append([item])
    return groups


def layout_board(game: GameDef, board: Board, board_width: float) -> BoardLayout:
    """Rows of items, top to bottom in the board's order, each row filling the board's width."""
    items = board_items(game, board)
    width = board_width - 2 * BOARD_PAD
    shelves: list[tuple[list[Item], float, float]] = []  # items, item width, row height
    for group in _groups(items):
        fam = group[0].family
        n = 1 if fam == "path" else max(1, int((width + ITEM_GAP) // (group[0].min_width
                                                                        + ITEM_GAP)))
        w = (width - (n - 1) * ITEM_GAP) / n
        if fam == "loop" and len(group) < n:  # room to spare: a long loop may use it
            k = len(group)
            w = min((width - (k - 1) * ITEM_GAP) / k,
                    max(w, *(it.preferred_width for it in group)))  # type: ignore[attr-defined]
        if fam in ("loop", "path"):  # one box height for the whole group: rows look even
            box_h = max(it.needed_box_height(w) for it in group)  # type: ignore[attr-defined]
            box_h = min(MAX_BOX_H, max(MIN_BOX_H, box_h))
            for it in group:
                it.box_h = box_h  # type: ignore[attr-defined]
        for i in range(0, len(group), n):
            chunk = group[i:i + n]
            shelves.append((chunk, w, max(it.height_for(w) for it in chunk)))
    height = HEADER_H + sum(h for _, _, h in shelves) + ITEM_GAP * max(0, len(shelves) - 1) \
        + 2 * BOARD_PAD
    placed: list[tuple[Item, Rect]] = []
    y = height - BOARD_PAD - HEADER_H
    for chunk, w, h in shelves:
        n_full = max(1, int((width + ITEM_GAP) // (w + ITEM_GAP - 0.01)))
        used = len(chunk) * w + (len(chunk) - 1) * ITEM_GAP
        x = BOARD_PAD + ((width - used) / 2 if len(chunk) < n_full else 0.0)
        for it in chunk:
            placed.append((it, Rect(x, y - h, w, h)))
            x += w + ITEM_GAP
        y -= h + ITEM_GAP
    return BoardLayout(board, board.name, (board_width, height), tuple(placed))


def draw_board(c, layout: BoardLayout, diags: Diags, subtitle: str = "") -> None:
    """The whole board with its lower-left corner at the origin."""
    w, h = layout.size
    c.setFillColorRGB(1, 1, 1)
    c.setStrokeColorRGB(*INK)
    c.setLineWidth(0.8)
    c.rect(0.4, 0.4, w - 0.8, h - 0.8, stroke=1, fill=1)
    c.setFillColorRGB(*INK)
    size = fit_width(layout.title, BOLD, 18, w * 0.7, min_size=10)
    c.setFont(BOLD, size)
    head_y = h - BOARD_PAD - HEADER_H / 2 - size * 0.3
    c.drawString(BOARD_PAD, head_y, layout.title)
    if subtitle:
        c.setFont(REGULAR, 7)
        c.setFillColorRGB(*GREY)
        c.drawRightString(w - BOARD_PAD, head_y, subtitle)
    for item, r in layout.placed:
        item.draw(c, r, diags)


# ---------------------------------------------------------------------------------------------
# files


def whole_paper(board: Board) -> tuple[str, tuple[float, float]]:
    """The board's large paper (name, portrait size); GeometryError when unknown."""
    name = board.whole_paper or DEFAULT_WHOLE_PAPER
    return name.lower(), parse_paper(name)


def width_fit(layout: BoardLayout) -> float:
    """The board's width against the width its widest item needs (at most 1): a board laid out
    narrower than its items squeezes them, which reads like printing it scaled down."""
    usable = layout.size[0] - 2 * BOARD_PAD
    needed = max((item.min_width for item, _ in layout.placed), default=usable)
    return 1.0 if needed <= 0 else min(1.0, usable / needed)


def plan_board(game: GameDef, board: Board) -> tuple[BoardLayout, tuple[float, float], float]:
    """Lay the board out for its large paper: the orientation whose 1:1 print fills more of
    the sheet, else the one that needs the least scaling.

    Returns the layout, the large page size and the scale the large print needs (1 = 1:1).
    """
    _, paper = whole_paper(board)
    best, best_rank = None, (-1.0, -1.0)
    for page in (paper, (paper[1], paper[0])):
        inner = (page[0] - 2 * WHOLE_MARGIN, page[1] - 2 * WHOLE_MARGIN)
        layout = layout_board(game, board, inner[0])
        scale = min(1.0, inner[1] / layout.size[1])
        # 1:1 beats scaled; between two 1:1 prints, the one that fills more of its sheet (a
        # wide, short board goes on a landscape sheet instead of half a portrait one)
        # (without a whole_paper no whole print is made: the narrower portrait width, which
        # tiles on fewer home sheets, is kept); a width that squeezes the items counts as
        # scaling them (a 40 mm strip is no 1:1 print)
        fill = layout.size[1] / inner[1] if scale >= 1.0 and board.whole_paper else -1.0
        rank = (min(scale, width_fit(layout)), fill)
        if best is None or rank > best_rank:
            best, best_rank = (layout, page, scale), rank
    assert best is not None
    return best


def check_board(game: GameDef, board: Board, home: tuple[float, float]) -> tuple[
        tuple[BoardLayout, tuple[float, float], float, str] | None, list[Diagnostic]]:
    """The board's plan (layout, large page, scale, large paper name) or why it cannot be
    drawn; shared with the preflight so validate and build agree."""
    if not board.items:
        return None, [Diagnostic.at(board.origin, ERROR, R_BOARD,
                                    f"board '{board.id}' has no tracks, charts or tables")]
    try:
        large_name, _ = whole_paper(board)
        layout, page, scale = plan_board(game, board)
        tiling.plan_tiles(layout.size, home)
    except (GeometryError, ValueError) as exc:
        return None, [Diagnostic.at(board.origin, ERROR, R_BOARD, f"board '{board.id}': {exc}")]
    diags = []
    # the layout takes the page's width, so a narrow paper squeezes the items instead of
    # scaling them: measured against the width they need, it counts like a scale
    fit = min(scale, width_fit(layout))
    if fit < MIN_WHOLE_SCALE:
        return None, [Diagnostic.at(
            board.paper_origin if board.paper_origin.file else board.origin, ERROR, R_BOARD,
            f"board '{board.id}' does not fit its whole_paper {large_name.upper()}: it would "
            f"print at {max(fit, 0):.0%} of its size, below the {MIN_WHOLE_SCALE:.0%} it can "
            "be read at", f"name a larger whole_paper ({', '.join(LARGE_PAPERS)}, or "
                          "WIDTHxHEIGHT) or split the board; without whole_paper the board is "
                          "laid out for A3")]
    if scale < 1.0:
        diags.append(Diagnostic.at(board.origin, WARNING, R_BOARD_SCALED,
                                   f"board '{board.id}' is larger than {large_name.upper()}; "
                                   f"its whole print is scaled to {scale:.0%}",
                                   "name a larger whole_paper or split the board"))
    return (layout, page, scale, large_name), diags


def file_stem(game: GameDef, board: Board) -> str:
    """`board` for a game's only board, `board-<id>` when it has several."""
    return "board" if len(game.boards) == 1 else f"board-{board.id}"


def render_board(game: GameDef, out_dir: str | os.PathLike = "output", paper: str = "a4",
                 board_id: str | None = None, tiled: bool = True, whole: bool = True,
                 ) -> tuple[list[Path], list[Diagnostic]]:
    """Write each board (or `board_id`) tiled on `paper` and whole on its large paper.

    Files: `board-<paper>-tiled.pdf` and `board-<large paper>.pdf`. When any error is found
    nothing is written, so earlier files stay as they were.
    """
    home, boards, bad = paper_and_items(game, paper, game.boards, board_id, R_BOARD,
                                        ("board", "boards"))
    if bad:
        return [], bad
    diags: list[Diagnostic] = []
    outputs: list[tuple[Path, bytes]] = []
    out = Path(out_dir)
    paper_name = file_part(paper)
    for board in boards:
        plan, problems = check_board(game, board, home)
        diags.extend(problems)
        if plan is None:
            continue
        layout, page, scale, large_name = plan
        bd = Diags()
        stem = file_stem(game, board)
        title = f"{game.name} — {board.name}"
        if tiled:
            plan = tiling.plan_tiles(layout.size, home)

            def draw_tiled(c, layout=layout, plan=plan, bd=bd, board=board):
                form = tiling.define_form(
                    c, layout.size, lambda cc: draw_board(cc, layout, bd, game.name))
                tiling.draw_tiles(c, plan, form, board.name)

            data, _ = pdf_bytes(draw_tiled, plan.page, title)
            outputs.append((out / f"{stem}-{paper_name}-tiled.pdf", data))
        if whole and board.whole_paper:
            def draw_whole(c, layout=layout, page=page, scale=scale, bd=bd):
                bw, bh = layout.size
                # the 50 mm bar, unscaled, in the bottom margin (at least WHOLE_MARGIN deep)
                draw_scale_bar_in(c, Rect(page[0] - WHOLE_MARGIN - LENGTH, mm(4), LENGTH, HEIGHT))
                c.translate((page[0] - bw * scale) / 2, (page[1] - bh * scale) / 2)
                c.scale(scale, scale)
                draw_board(c, layout, bd, game.name)
                c.showPage()

            data, _ = pdf_bytes(draw_whole, page, title)
            outputs.append((out / f"{stem}-{large_name}.pdf", data))
        diags.extend(bd.items)
    if has_errors(diags):
        return [], diags
    return write_outputs(outputs, diags), diags
