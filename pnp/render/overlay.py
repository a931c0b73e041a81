"""The fit overlay: every box that declares `holds`, drawn with its occupants' outlines on it.

Preflight compares sizes (layout/fit.py); this draws the same arrangement over the printed
face, so a designer sees where a card or token would lie and, in red, how far it overhangs.
`pnp render overlay GAME` writes `fit-overlay.pdf`; it is a check, not part of the kit.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from pnp.diagnostics import Diagnostic
from pnp.render.geometry import GeometryError, Rect, card_size, mm, parse_length, parse_paper
from pnp.render.layout.fit import DEFAULT_GAP, arrangement, occupant_size
from pnp.render.pdfwrite import write_component_pdf
from pnp.render.scalebar import LENGTH, draw_scale_bar
from pnp.render.text import ellipsise

FILE_NAME = "fit-overlay.pdf"
FITS, OVERHANG, PIECE = (0.1, 0.55, 0.2), (0.85, 0.1, 0.1), (0.1, 0.35, 0.85)
EPS = 0.01


@dataclass(frozen=True)
class Holding:
    """One box that holds pieces, and where its pieces lie (card coordinates, PDF way up)."""

    element: str
    box: Rect
    round: bool
    what: str
    pieces: tuple[Rect, ...]
    fits: bool

    def overhang(self) -> tuple[float, float]:
        """How far (width, height) the pieces reach past the box; (0, 0) when they fit."""
        if self.round:
            d = max(max(p.width, p.height) for p in self.pieces)
            over = max(0.0, d - min(self.box.width, self.box.height))
            return (over, over)
        x0 = min(p.x for p in self.pieces)
        x1 = max(p.x1 for p in self.pieces)
        y0 = min(p.y for p in self.pieces)
        y1 = max(p.y1 for p in self.pieces)
        b = self.box
        return (max(0.0, x1 - b.x1) + max(0.0, b.x - x0), max(0.0, y1 - b.y1) + max(0.0, b.y - y0))


def holdings(layout: Any, game: Any, ctx: Any = None) -> list[Holding]:
    """Every box of `layout` that declares `holds` with its pieces laid out as preflight lays
    them (side by side with the gap between, from the box's top left); pieces that cannot fit
    are laid out all the same, in as many columns as the width takes, so they show where they
    overhang. Boxes whose size or occupant cannot be read are left out (preflight reports them),
    and with a card's `ctx`, boxes its `when:` hides on that card."""
    out: list[Holding] = []
    for el in layout.elements:
        for inner in getattr(el, "elements", None) or [el]:
            holds = getattr(inner, "holds", None)
            box = inner.static_box() if holds else None
            if not holds or box is None or (ctx is not None and not _shown(inner, ctx)):
                continue
            try:
                w, h, what = occupant_size(holds, game)
                gap = parse_length(holds["gap"]) if "gap" in holds else DEFAULT_GAP
            except GeometryError:
                continue
            x, y, bw, bh = box
            r = Rect(x, layout.size[1] - y - bh, bw, bh)  # the layout's y runs down
            n = max(1, int(holds.get("count", 1)))
            if getattr(inner, "kind", "") == "circle":
                d = max(w, h)
                piece = Rect(r.x + (bw - d) / 2, r.y + (bh - d) / 2, d, d)
                fits = n == 1 and d <= min(bw, bh) + EPS
                out.append(Holding(inner.id, r, True, what, (piece,), fits))
                continue
            found = arrangement(n, w, h, bw, bh, gap)
            cols, rows = found or (max(1, min(n, int((bw + gap + EPS) // (w + gap)))), 0)
            rows = rows or math.ceil(n / cols)
            used_w, used_h = cols * w + (cols - 1) * gap, rows * h + (rows - 1) * gap
            left = r.x + max(0.0, (bw - used_w) / 2)
            top = r.y1 - max(0.0, (bh - used_h) / 2)
            pieces = tuple(Rect(left + (i % cols) * (w + gap), top - (i // cols) * (h + gap) - h,
                                w, h) for i in range(n))
            out.append(Holding(inner.id, r, False, what, pieces, found is not None))
    return out


def _shown(element: Any, ctx: Any) -> bool:
    """Whether the element's `when:` shows it on the card of `ctx` (an error: shown)."""
    try:
        return bool(element.visible(SimpleNamespace(ctx=ctx)))
    except Exception:  # noqa: BLE001 - preflight reports a failing `when:`; here it is drawn
        return True


def _layouts_with_holdings(game: Any) -> list[tuple[Any, str, Any, Any, list[Holding]]]:
    """(deck, side, compiled layout, a card, its holdings) for every printed deck face with
    any: one card for each different set of holding boxes its cards show (The Ancient World's
    action tiles and track tiles share a layout but not their spaces)."""
    from pnp.render.layout.library import load_library
    from pnp.render.sheets import card_context

    library, _ = load_library(game)
    out = []
    for deck in game.decks.values():
        if not deck.printed or not deck.cards:
            continue
        try:
            size = card_size(deck.size)
        except GeometryError:
            continue
        for side, layout_id in (("front", deck.front), ("back", deck.back)):
            if not layout_id or layout_id not in library.sources:
                continue
            layout, _ = library.compile(layout_id, size)
            if layout is None or not holdings(layout, game):
                continue
            seen: set = set()
            for card in deck.cards:
                found = holdings(layout, game, card_context(game, deck, card))
                key = tuple(hd.element for hd in found)
                if found and key not in seen:
                    seen.add(key)
                    out.append((deck, side, layout, card, found))
    return out


def draw_overlay(c, game: Any, paper: tuple[float, float]) -> int:
    """One page per deck face that holds pieces: the face (a card showing those boxes), at
    actual size when it fits the page (turned landscape for a wide face), each holding box
    outlined (green: fits, red: does not), its pieces drawn on it (blue dashed, red past the
    box), and a line for each box that does not fit."""
    from pnp.render.sheets import card_context

    margin = mm(12)
    pages = 0
    for deck, side, layout, card, found in _layouts_with_holdings(game):
        w, h = layout.size
        page = paper if (w > h) == (paper[0] > paper[1]) else (paper[1], paper[0])
        pw, ph = page
        c.setPageSize(page)
        bad = [hd for hd in found if not hd.fits]
        avail_w, avail_h = pw - 2 * margin, ph - 2 * margin - mm(20) - len(bad) * mm(4.2)
        scale = min(1.0, avail_w / w, max(0.1, avail_h) / h)
        ox, oy = (pw - w * scale) / 2, ph - margin - mm(10) - h * scale
        c.setFillColorRGB(0.1, 0.1, 0.1)
        c.setFont("Vera-Bold", 11)
        c.drawString(margin, ph - margin - mm(4), ellipsise(
            f"{game.name}: fit of deck '{deck.id}', {side} (layout '{layout.id}', card "
            f"'{card.id}')", "Vera-Bold", 11, avail_w))
        c.setFont("Vera", 7)
        c.drawString(margin, ph - margin - mm(8), f"drawn at {scale:.0%}" + (
            "" if scale == 1 else " (the page is smaller than the face)") +
            "; green box: its pieces fit; red: they do not; blue dashed: where each piece lies")
        c.saveState()
        c.translate(ox, oy)
        c.scale(scale, scale)
        layout.draw(c, card_context(game, deck, card), 0.0)
        for hd in found:
            _draw_holding(c, hd, scale)
        c.restoreState()
        y = oy - mm(6)
        c.setFillColorRGB(*FITS)
        c.setFont("Vera", 7.5)
        c.drawString(margin, y, f"{len(found) - len(bad)} of {len(found)} boxes hold their "
                                "pieces" + (":" if bad else "."))
        for hd in bad:
            y -= mm(4.2)
            ow, oh = hd.overhang()
            verdict = (f"DOES NOT FIT: {ow / mm(1):.1f} mm too wide" if hd.round else
                       f"DOES NOT FIT: overhangs {ow / mm(1):.1f} mm across, "
                       f"{oh / mm(1):.1f} mm down")
            c.setFillColorRGB(*OVERHANG)
            c.setFont("Vera-Bold", 7.5)
            text = (f"'{hd.element}' {hd.box.width / mm(1):.1f}×{hd.box.height / mm(1):.1f} mm "
                    f"holds {len(hd.pieces)} × {hd.what}: {verdict}")
            c.drawString(margin, y, ellipsise(text, "Vera-Bold", 7.5, avail_w))
        draw_scale_bar(c, pw - margin - LENGTH, mm(6))
        c.showPage()
        pages += 1
    if not pages:
        pw, ph = paper
        c.setPageSize(paper)
        c.setFont("Vera", 10)
        c.drawString(margin, ph - margin - mm(4),
                     f"{game.name}: no layout declares what sits on it (holds), so there is "
                     "nothing to overlay.")
        draw_scale_bar(c, pw - margin - LENGTH, mm(6))
        c.showPage()
        pages = 1
    return pages


def _draw_holding(c, hd: Holding, scale: float) -> None:
    line = 1 / scale  # about 1 pt on the page whatever the scale
    c.setLineWidth(1.4 * line)
    c.setDash()
    c.setStrokeColorRGB(*(FITS if hd.fits else OVERHANG))
    b = hd.box
    if hd.round:
        c.ellipse(b.x, b.y, b.x1, b.y1, stroke=1, fill=0)
    else:
        c.rect(b.x, b.y, b.width, b.height, stroke=1, fill=0)
    c.setLineWidth(0.9 * line)
    for p in hd.pieces:
        outside = not hd.fits and (p.x < b.x - EPS or p.x1 > b.x1 + EPS or p.y < b.y - EPS
                                   or p.y1 > b.y1 + EPS or hd.round)
        c.setStrokeColorRGB(*(OVERHANG if outside else PIECE))
        c.setDash(3 * line, 2 * line)
        if hd.round:
            c.ellipse(p.x, p.y, p.x1, p.y1, stroke=1, fill=0)
        else:
            c.rect(p.x, p.y, p.width, p.height, stroke=1, fill=0)
    c.setDash()


def render_overlay(game: Any, out_dir: str | os.PathLike, paper: str = "a4",
                   ) -> tuple[list[Path], list[Diagnostic]]:
    """Write `fit-overlay.pdf` into out_dir."""
    paper_size = parse_paper(paper)
    return write_component_pdf(Path(out_dir) / FILE_NAME, lambda c: draw_overlay(c, game, paper_size),
                     paper_size, f"{game.name}: fit overlay")
