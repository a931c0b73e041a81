"""Tiling a large drawing across home-printer pages: overlap, registration marks, tile labels.

A board is drawn once (a form XObject) and placed on every page, shifted and clipped to that
page's window, so the pieces line up exactly. Neighbouring windows share a 10 mm strip; the same
crosshairs print in that strip on both pages, which is what the user aligns before gluing.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from pnp.render.geometry import Rect, mm, to_mm
from pnp.render.scalebar import HEIGHT as BAR_HEIGHT
from pnp.render.scalebar import LENGTH as BAR_LENGTH
from pnp.render.scalebar import draw_scale_bar_in
from pnp.render.text import fit, fit_width, measure

OVERLAP = mm(10)
MARGIN = mm(10)  # clear of the unprintable edge of home printers, with room for the labels
SAFE_EDGE = mm(4.5)  # labels stay this far from the paper's edge
FORM_NAME = "pnpTiledBoard"
MARK_RADIUS = mm(2.2)
MARK_ARM = mm(3.6)
BOLD = "Vera-Bold"
REGULAR = "Vera"


@dataclass(frozen=True)
class Tile:
    """One page of a tiled drawing: its place in the grid and the drawing window it shows."""

    row: int  # 0 = top row
    col: int  # 0 = left column
    window: Rect  # in drawing coordinates (points, origin at the drawing's lower-left corner)

    @property
    def name(self) -> str:
        """Row letter from the top, column number from the left: A1 is the top-left tile."""
        return f"{row_letter(self.row)}{self.col + 1}"


def row_letter(row: int) -> str:
    letters = ""
    row += 1
    while row:
        row, rem = divmod(row - 1, 26)
        letters = chr(65 + rem) + letters
    return letters


@dataclass(frozen=True)
class TilePlan:
    """How a drawing of `size` is cut into `rows` × `cols` pages of `page` size."""

    size: tuple[float, float]
    page: tuple[float, float]
    margin: float
    overlap: float
    cols: int
    rows: int

    @property
    def content(self) -> tuple[float, float]:
        """The part of a page that shows the drawing (inside the margins)."""
        return (self.page[0] - 2 * self.margin, self.page[1] - 2 * self.margin)

    @property
    def step(self) -> tuple[float, float]:
        cw, ch = self.content
        return (cw - self.overlap, ch - self.overlap)

    @property
    def pages(self) -> int:
        return self.cols * self.rows

    def tile(self, row: int, col: int) -> Tile:
        cw, ch = self.content
        sx, sy = self.step
        top = self.size[1] - row * sy
        return Tile(row, col, Rect(col * sx, top - ch, cw, ch))

    @property
    def tiles(self) -> list[Tile]:
        """Row by row from the top-left, the order the pages print in."""
        return [self.tile(r, c) for r in range(self.rows) for c in range(self.cols)]

    def neighbour(self, tile: Tile, d_row: int, d_col: int) -> Tile | None:
        r, c = tile.row + d_row, tile.col + d_col
        if 0 <= r < self.rows and 0 <= c < self.cols:
            return self.tile(r, c)
        return None


def _count(length: float, content: float, overlap: float) -> int:
    if length <= content + 1e-6:
        return 1
    return math.ceil((length - overlap - 1e-6) / (content - overlap))


def _fullest_last(plan: TilePlan) -> float:
    """How full the emptiest page is across (last column) or down (last row), 0..1."""
    (cw, ch), (sx, sy) = plan.content, plan.step
    last_w = plan.size[0] - (plan.cols - 1) * sx
    last_h = plan.size[1] - (plan.rows - 1) * sy
    return min(last_w / cw, last_h / ch)


def plan_tiles(size: tuple[float, float], paper: tuple[float, float], margin: float = MARGIN,
               overlap: float = OVERLAP) -> TilePlan:
    """The orientation of `paper` that needs fewer pages for a drawing of `size`.

    On a tie, the one whose last column and row carry more of the drawing (no near-empty pages).
    """
    best: TilePlan | None = None
    short, long_ = sorted(paper)
    for page in ((short, long_), (long_, short)):
        cw, ch = page[0] - 2 * margin, page[1] - 2 * margin
        if cw <= overlap or ch <= overlap:
            raise ValueError(f"a {to_mm(page[0]):.0f}×{to_mm(page[1]):.0f} mm page is too small "
                             "to tile on")
        plan = TilePlan(size, page, margin, overlap, _count(size[0], cw, overlap),
                        _count(size[1], ch, overlap))
        if best is None or (plan.pages, -_fullest_last(plan)) < (best.pages,
                                                                   -_fullest_last(best)):
            best = plan
    assert best is not None
    return best


def registration_points(plan: TilePlan) -> list[tuple[float, float]]:
    """Crosshair centres (drawing coordinates): two on each seam, the near edge of an overlap.

    The tile underneath prints the whole crosshair at its dashed line; the tile on top prints
    only the half inside its cut edge, so once cut it continues the lower tile's half exactly.
    """
    pts: list[tuple[float, float]] = []
    for t in plan.tiles:
        w = t.window
        right = plan.neighbour(t, 0, 1)
        if right is not None:
            x = right.window.x
            pts += [(x, w.y + w.height * 0.3), (x, w.y + w.height * 0.7)]
        below = plan.neighbour(t, 1, 0)
        if below is not None:
            y = below.window.y1
            pts += [(w.x + w.width * 0.3, y), (w.x + w.width * 0.7, y)]
    return pts


def draw_registration_mark(c, x: float, y: float) -> None:
    """A circled crosshair, white-backed so it shows on dark artwork too."""
    for colour, width in (((1, 1, 1), 1.6), ((0, 0, 0), 0.4)):
        c.setStrokeColorRGB(*colour)
        c.setLineWidth(width)
        c.circle(x, y, MARK_RADIUS, stroke=1, fill=0)
        c.line(x - MARK_ARM, y, x + MARK_ARM, y)
        c.line(x, y - MARK_ARM, x, y + MARK_ARM)


def define_form(c, size: tuple[float, float], draw: Callable[[object], None],
                name: str = FORM_NAME) -> str:
    """Record `draw` once as a form XObject of `size`, so every page reuses the same drawing."""
    c.beginForm(name, 0, 0, size[0], size[1])
    draw(c)
    c.endForm()
    return name


def draw_tiles(c, plan: TilePlan, form: str, title: str) -> int:
    """One page per tile: the window of `form`, crosshairs, cut and overlap lines, labels."""
    marks = registration_points(plan)
    cw, ch = plan.content
    m = plan.margin
    for tile in plan.tiles:
        c.setPageSize(plan.page)
        w = tile.window
        c.saveState()
        p = c.beginPath()
        p.rect(m, m, cw, ch)
        c.clipPath(p, stroke=0, fill=0)
        c.translate(m - w.x, m - w.y)
        c.doForm(form)
        for x, y in marks:
            if w.x - MARK_ARM <= x <= w.x1 + MARK_ARM and w.y - MARK_ARM <= y <= w.y1 + MARK_ARM:
                draw_registration_mark(c, x, y)
        c.restoreState()
        _edges(c, plan, tile)
        _labels(c, plan, tile, title)
        c.setFillColorRGB(0, 0, 0)
        draw_scale_bar_in(c, scale_bar_box(plan), turned=True)
        c.showPage()
    return plan.pages


def scale_bar_box(plan: TilePlan) -> Rect:
    """The 50 mm scale bar's place: upright in the right margin, low down, clear of the
    neighbour's name (centred on the side) and of the notes under the drawing."""
    pw, _ = plan.page
    return Rect(pw - SAFE_EDGE - BAR_HEIGHT, plan.margin + mm(3), BAR_HEIGHT, BAR_LENGTH)


def _edges(c, plan: TilePlan, tile: Tile) -> None:
    """Solid cut lines where this tile goes over a neighbour; dashed lines where one covers it."""
    cw, ch = plan.content
    m, o = plan.margin, plan.overlap
    x0, y0, x1, y1 = m, m, m + cw, m + ch
    ext = mm(4)  # cut lines run on into the margin so a ruler can be laid on them
    c.setStrokeColorRGB(0, 0, 0)
    c.setLineWidth(0.5)
    if plan.neighbour(tile, 0, -1):
        c.line(x0, y0 - ext, x0, y1 + ext)
    if plan.neighbour(tile, -1, 0):
        c.line(x0 - ext, y1, x1 + ext, y1)
    c.setLineWidth(0.6)
    c.setDash(3, 2)
    c.setStrokeColorRGB(0.35, 0.35, 0.35)
    if plan.neighbour(tile, 0, 1):
        c.line(x1 - o, y0, x1 - o, y1)
    if plan.neighbour(tile, 1, 0):
        c.line(x0, y0 + o, x1, y0 + o)
    c.setDash()


def _text(c, font: str, size: float, x: float, y: float, text: str, anchor: str = "left",
          max_width: float | None = None) -> None:
    if max_width is not None:
        size = fit_width(text, font, size, max_width)
    w = measure(text, font, size)
    c.setFont(font, size)
    if anchor == "centre":
        x -= w / 2
    elif anchor == "right":
        x -= w
    c.drawString(x, y, text)


def assembly_note(plan: TilePlan, tile: Tile) -> list[str]:
    """What to do with this page, in words (one line each): which edges to cut, where to glue."""
    if plan.pages == 1:
        return ["The whole drawing fits this page: nothing to glue; trim along its frame."]
    cut, over = [], []
    left, up = plan.neighbour(tile, 0, -1), plan.neighbour(tile, -1, 0)
    if left:
        cut.append("left")
        over.append(f"{left.name} (left)")
    if up:
        cut.append("top")
        over.append(f"{up.name} (above)")
    right, down = plan.neighbour(tile, 0, 1), plan.neighbour(tile, 1, 0)
    under = [t.name for t in (right, down) if t]
    parts = []
    if cut:
        parts.append(f"Cut off the {' and '.join(cut)} margin on the solid line"
                     f"{'s' if len(cut) > 1 else ''}, then glue this tile over "
                     f"{' and '.join(over)}: the cut edge meets the dashed line there and "
                     "the half crosshairs meet.")
    else:
        parts.append("Start here: this tile keeps its margins; the others are cut and glued "
                     "over it.")
    if under:
        parts.append(f"Glue goes on the {to_mm(plan.overlap):.0f} mm strip past the dashed "
                     f"line: {' and '.join(under)} cover{'s' if len(under) == 1 else ''} it.")
    return parts


def _labels(c, plan: TilePlan, tile: Tile, title: str) -> None:
    pw, ph = plan.page
    m = plan.margin
    top_base = ph - m + mm(2.2)
    c.setFillColorRGB(0, 0, 0)
    x0 = m + (mm(2) if plan.neighbour(tile, 0, -1) else 0)  # clear of the left cut line
    _text(c, BOLD, 12, x0, top_base, tile.name)
    label_x = x0 + measure(tile.name, BOLD, 12) + mm(3)
    map_w = _mini_map(c, plan, tile)
    _text(c, REGULAR, 7, label_x, top_base + 1,
          f"{title} · tile {tile.name}: row {row_letter(tile.row)} of {plan.rows}, "
          f"column {tile.col + 1} of {plan.cols}",
          max_width=pw - m - label_x - map_w - mm(4))
    c.setFillColorRGB(0.2, 0.2, 0.2)
    width = pw - 2 * m - mm(22)
    # two lines fit between the drawing and the unprintable edge: each sentence starts a line,
    # 6.5 pt or else 6 pt; what is still more goes on the second line, squeezed to the width
    note = fit("\n".join(assembly_note(plan, tile)), REGULAR, width, size=6.5, min_size=6.0,
               step=0.5, max_lines=2)
    size, lines = note.size, note.strings()
    if len(lines) > 2:
        lines = [lines[0], " ".join(lines[1:])]
    for i, line in enumerate(lines):
        _text(c, REGULAR, size, m, m - mm(2.4) - i * size * 1.15, line, max_width=width)
    # neighbour names beside each edge, so a loose page finds its place
    c.setFillColorRGB(0.35, 0.35, 0.35)
    for d_row, d_col in ((0, -1), (0, 1), (-1, 0), (1, 0)):
        n = plan.neighbour(tile, d_row, d_col)
        if n is None:
            continue
        if d_col:
            c.saveState()
            x = m - mm(2) if d_col < 0 else pw - m + mm(3.7)  # 6-8 mm from the edge
            c.translate(x, ph / 2)
            c.rotate(90)
            text = (f"{n.name} is to the left (this tile covers it)" if d_col < 0 else
                    f"{n.name} is to the right (it covers the strip past the dashed line)")
            _text(c, REGULAR, 6.5, 0, 0, text, "centre")
            c.restoreState()
        elif d_row > 0:
            _text(c, REGULAR, 6.5, pw - m, m - mm(2.4), f"{n.name} is below", "right")


def _mini_map(c, plan: TilePlan, tile: Tile) -> float:
    """A small grid of all tiles at the top right, this one filled; returns its width."""
    cell_w, cell_h = mm(3.2), mm(2.2)
    gap = mm(0.5)
    h = plan.rows * cell_h + (plan.rows - 1) * gap
    room = plan.margin - SAFE_EDGE - mm(1)
    if h > room:
        cell_h = (room - (plan.rows - 1) * gap) / plan.rows
        h = room
    w = plan.cols * cell_w + (plan.cols - 1) * gap
    x0 = plan.page[0] - plan.margin - w
    y_top = plan.page[1] - SAFE_EDGE
    c.setLineWidth(0.3)
    c.setStrokeColorRGB(0.3, 0.3, 0.3)
    for r in range(plan.rows):
        for col in range(plan.cols):
            here = (r, col) == (tile.row, tile.col)
            if here:
                c.setFillColorRGB(0.15, 0.15, 0.15)
            else:
                c.setFillColorRGB(1, 1, 1)
            c.rect(x0 + col * (cell_w + gap), y_top - (r + 1) * cell_h - r * gap, cell_w, cell_h,
                   stroke=1, fill=1)
    c.setFillColorRGB(0, 0, 0)
    return w
