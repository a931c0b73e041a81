"""Token sheets: counters, markers and fold-over pawns in player colours, with cut lines.

Tokens are packed in rows, one group after another; every token is outlined with its cut line
and square pieces also get corner marks in the gutter, so they can be cut with a ruler.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from pnp.atomic import atomic_write_bytes
from pnp.data.limits import MAX_COMPONENT_COUNT
from pnp.diagnostics import ERROR, Diagnostic, Position, has_errors
from pnp.render.geometry import GeometryError, mm, parse_length, parse_paper
from pnp.render.layout.icons import draw_shape
from pnp.render.layout.values import parse_color
from pnp.render.pdfwrite import pdf_bytes
from pnp.render.scalebar import LENGTH, draw_scale_bar
from pnp.render.text import fit_width, measure

R_TOKEN = "PNP-R060"  # a token group that cannot be drawn (colour, size, shape)

PLAYER_COLOURS = {
    "red": "#d32f2f", "blue": "#1e63b5", "green": "#2e7d32", "yellow": "#f9c22e",
    "black": "#262626", "white": "#f7f7f2", "purple": "#7b1fa2", "orange": "#f57c00",
    "grey": "#8a8a8a", "gray": "#8a8a8a", "brown": "#795548", "pink": "#e7739b",
    "teal": "#00897b",
}
TOKEN_SHAPES = ("circle", "square", "hexagon", "pawn")
GAP = mm(3)  # between tokens: room for a blade and for corner marks
MARGIN = mm(10)
PAWN_FIGURE = 1.4  # figure height / width
PAWN_BASE = 0.55  # base tab height / width


@dataclass(frozen=True)
class TokenGroup:
    """`count` tokens of one kind: e.g. label 'Red pawn', colour 'red', shape 'pawn', size '15mm'."""

    label: str
    colour: str
    count: int
    shape: str = "circle"
    size: str = "16mm"
    text: str | None = None  # printed on each token; the label when None
    origin: Position | None = None


@dataclass(frozen=True)
class _Ready:
    group: TokenGroup
    fill: tuple[float, float, float]
    size: float

    @property
    def footprint(self) -> tuple[float, float]:
        s = self.size
        if self.group.shape == "pawn":
            return (s, s * (2 * PAWN_FIGURE + 2 * PAWN_BASE))
        return (s, s * math.sqrt(3) / 2) if self.group.shape == "hexagon" else (s, s)


def check_groups(groups: Sequence[TokenGroup], paper: tuple[float, float]) -> tuple[list[_Ready], list[Diagnostic]]:
    ready, diags = [], []
    for g in groups:
        def bad(msg: str, hint: str = "", g=g) -> None:
            diags.append(Diagnostic.at(g.origin, ERROR, R_TOKEN, f"token group {g.label!r}: {msg}",
                                       hint))
        if g.shape not in TOKEN_SHAPES:
            bad(f"unknown shape {g.shape!r}", f"use one of {', '.join(TOKEN_SHAPES)}")
            continue
        try:
            fill = parse_color(PLAYER_COLOURS.get(str(g.colour).lower(), g.colour))
        except ValueError as exc:
            bad(str(exc), f"player colours: {', '.join(PLAYER_COLOURS)}")
            continue
        if fill is None:
            bad("needs a colour")
            continue
        try:
            size = parse_length(g.size)
        except GeometryError as exc:
            bad(str(exc))
            continue
        if size < mm(5):
            bad("is smaller than 5 mm: too small to cut")
            continue
        if not isinstance(g.count, int) or not 0 <= g.count <= MAX_COMPONENT_COUNT:
            bad(f"count must be a whole number from 0 to {MAX_COMPONENT_COUNT}, not {g.count!r}")
            continue
        r = _Ready(g, fill, size)
        fw, fh = r.footprint
        if fw > paper[0] - 2 * MARGIN or fh > paper[1] - 2 * MARGIN - mm(12):
            bad(f"a {g.size} {g.shape} does not fit on the page")
            continue
        ready.append(r)
    return ready, diags


def _ink(fill: tuple[float, float, float]) -> tuple[float, float, float]:
    """Black or white, whichever reads better on `fill`."""
    lum = 0.2126 * fill[0] + 0.7152 * fill[1] + 0.0722 * fill[2]
    return (0.08, 0.08, 0.08) if lum > 0.55 else (1, 1, 1)


def _shade(fill, k: float = 0.65):
    return tuple(v * k for v in fill)


def _fit_label(c, text: str, cx: float, cy: float, width: float, size: float, ink) -> None:
    if not text:
        return
    font = "Vera-Bold"
    s = fit_width(text, font, size, width, min_size=4.0)
    w = measure(text, font, s)
    c.setFillColorRGB(*ink)
    c.setFont(font, s)
    c.drawString(cx - w / 2, cy - s * 0.36, text)


CUT = (0.15, 0.15, 0.15)


def _corner_marks(c, x: float, y: float, w: float, h: float) -> None:
    """Short marks continuing each edge into the gutter, outside the token."""
    gap, ln = mm(0.6), mm(1.8)
    c.setStrokeColorRGB(*CUT)
    c.setLineWidth(0.25)
    p = c.beginPath()
    for px in (x, x + w):
        p.moveTo(px, y - gap)
        p.lineTo(px, y - gap - ln)
        p.moveTo(px, y + h + gap)
        p.lineTo(px, y + h + gap + ln)
    for py in (y, y + h):
        p.moveTo(x - gap, py)
        p.lineTo(x - gap - ln, py)
        p.moveTo(x + w + gap, py)
        p.lineTo(x + w + gap + ln, py)
    c.drawPath(p, stroke=1, fill=0)


def _draw_token(c, r: _Ready, x: float, y: float) -> None:
    g, s, fill = r.group, r.size, r.fill
    ink = _ink(fill)
    text = g.label if g.text is None else g.text
    fw, fh = r.footprint
    c.saveState()
    if g.shape in ("circle", "hexagon"):
        shape = g.shape
        draw_shape(c, shape, x, y, fw, fh, fill, None)
        inset = s * 0.09
        c.setDash(1, 1.5)
        draw_shape(c, shape, x + inset, y + inset * fh / fw, fw - 2 * inset, fh - 2 * inset * fh / fw,
                   None, ink, 0.6)
        c.setDash()
        _fit_label(c, text, x + fw / 2, y + fh / 2, fw * 0.66, s * 0.3, ink)
        draw_shape(c, shape, x, y, fw, fh, None, CUT, 0.3)
    elif g.shape == "square":
        draw_shape(c, "square", x, y, s, s, fill, None)
        inset = s * 0.08
        draw_shape(c, "rounded", x + inset, y + inset, s - 2 * inset, s - 2 * inset, None, ink, 0.6)
        _fit_label(c, text, x + s / 2, y + s / 2, s * 0.75, s * 0.3, ink)
        draw_shape(c, "square", x, y, s, s, None, CUT, 0.3)
        _corner_marks(c, x, y, s, s)
    else:
        _draw_pawn(c, r, x, y, text, ink)
    c.restoreState()


def _draw_pawn(c, r: _Ready, x: float, y: float, text: str, ink) -> None:
    """Fold-over standee: base tab, figure upside down, fold, figure, base tab (bottom to top)."""
    s, fill = r.size, r.fill
    base, fig = s * PAWN_BASE, s * PAWN_FIGURE
    total = 2 * base + 2 * fig
    c.setFillColorRGB(*_shade(fill, 0.8))
    c.rect(x, y, s, base, stroke=0, fill=1)
    c.rect(x, y + total - base, s, base, stroke=0, fill=1)
    c.setFillColorRGB(*fill)
    c.rect(x, y + base, s, 2 * fig, stroke=0, fill=1)
    mid = y + base + fig
    light = tuple(min(1.0, v * 0.5 + 0.5) for v in fill) if ink != (1, 1, 1) else _shade(fill, 0.6)
    # each figure stands on its base tab with its head at the middle fold; the upper one is the
    # mirror image across the fold, so the folded pawn shows the same figure on both faces
    for origin, flip in ((y + base, 1), (y + total - base, -1)):
        c.saveState()
        c.translate(x + s / 2, origin)
        c.scale(1, flip)
        c.setFillColorRGB(*light)
        c.circle(0, fig * 0.72, s * 0.2, stroke=0, fill=1)
        p = c.beginPath()
        p.moveTo(-s * 0.32, fig * 0.12)
        p.lineTo(s * 0.32, fig * 0.12)
        p.lineTo(s * 0.14, fig * 0.55)
        p.lineTo(-s * 0.14, fig * 0.55)
        p.close()
        c.drawPath(p, stroke=0, fill=1)
        c.restoreState()
    _fit_label(c, text, x + s / 2, y + base * 0.5, s * 0.9, min(base * 0.55, s * 0.22), ink)
    c.setStrokeColorRGB(*CUT)
    c.setLineWidth(0.3)
    c.rect(x, y, s, total, stroke=1, fill=0)
    c.setDash(2, 1.5)  # fold lines
    c.setLineWidth(0.4)
    for fy in (y + base, mid, y + total - base):
        c.line(x, fy, x + s, fy)
    c.setDash()
    _corner_marks(c, x, y, s, total)


def draw_token_sheets(c, ready: Sequence[_Ready], paper: tuple[float, float], title: str,
                      tick: Callable[[], None] | None = None) -> int:
    """Pack groups in rows (each group starts a new row, headed by its label); returns pages."""
    pw, ph = paper
    pages = 1
    c.setPageSize(paper)

    def header() -> float:
        c.setFillColorRGB(0.2, 0.2, 0.2)
        c.setFont("Vera-Bold", 10)
        c.drawString(MARGIN, ph - MARGIN - 8, f"{title} — page {pages}")
        draw_scale_bar(c, pw - MARGIN - LENGTH, ph - MARGIN - 9)
        return ph - MARGIN - mm(8)

    y_top = header()
    for r in ready:
        fw, fh = r.footprint
        per_row = max(1, int((pw - 2 * MARGIN + GAP) // (fw + GAP)))
        remaining = r.group.count
        first = True
        while remaining > 0:
            head = mm(7) if first else 0.0  # the label clears the corner marks (2.4 mm)
            if y_top - head - fh < MARGIN:
                c.showPage()
                pages += 1
                c.setPageSize(paper)
                y_top = header()
            if first:
                c.setFillColorRGB(0.3, 0.3, 0.3)
                c.setFont("Vera", 7)
                c.drawString(MARGIN, y_top - mm(3), f"{r.group.label} × {r.group.count}")
                y_top -= head
                first = False
            n = min(per_row, remaining)
            row_w = n * fw + (n - 1) * GAP
            x0 = MARGIN + (pw - 2 * MARGIN - row_w) / 2 if n < per_row else MARGIN + (
                pw - 2 * MARGIN - (per_row * fw + (per_row - 1) * GAP)) / 2
            for i in range(n):
                _draw_token(c, r, x0 + i * (fw + GAP), y_top - fh)
                if tick is not None:
                    tick()
            remaining -= n
            y_top -= fh + GAP
    c.showPage()
    return pages


def render_tokens(
    groups: Sequence[TokenGroup], out_path: str | os.PathLike, paper: str = "a4",
    title: str = "Tokens", progress: Callable[[int, int], None] | None = None,
) -> tuple[list[Path], list[Diagnostic]]:
    """Write token sheets to `out_path` (atomically); nothing is written when a group is bad."""
    try:
        paper_size = parse_paper(paper)
    except GeometryError as exc:
        return [], [Diagnostic(ERROR, R_TOKEN, str(exc))]
    ready, diags = check_groups(groups, paper_size)
    if has_errors(diags):
        return [], diags
    total = sum(r.group.count for r in ready)
    done = [0]

    def tick() -> None:
        done[0] += 1
        if progress is not None:
            progress(done[0], total)

    data, _ = pdf_bytes(lambda c: draw_token_sheets(c, ready, paper_size, title, tick),
                        paper_size, title)
    try:
        return [atomic_write_bytes(out_path, data)], diags
    except OSError as exc:
        return [], diags + [Diagnostic(ERROR, "PNP-R050", f"cannot write {out_path}: {exc}",
                                       str(out_path))]
