"""Card sheets: home-printing sheets with crop marks and duplex backs, print-shop pages.

The public verb is `render_deck_sheets`; it turns decks into card copies (faces bound to compiled
layouts), imposes them, and writes each PDF atomically. The renderer knows no game rules: it only
reads deck, card and layout data.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from pnp.data.limits import MAX_CARD_COUNT
from pnp.diagnostics import ERROR, Diagnostic, Position, has_errors
from pnp.paper import file_part
from pnp.render import fonts
from pnp.render.cuts import Cut, deck_cuts, draw_cut_outlines
from pnp.render.geometry import (
    DUPLEX_MODES,
    GeometryError,
    Grid,
    Rect,
    back_cell,
    calibration_label,
    card_size,
    crop_marks,
    impose_grid,
    mm,
    parse_length,
    parse_paper,
    size_key,
)
from pnp.render.layout.canvas import encode_text
from pnp.render.layout.codes import R_SIZE, R_UNKNOWN_LAYOUT, ElementError
from pnp.render.layout.library import CardLayout, LayoutLibrary, load_library
from pnp.render.pdfops import append_operators, place_form
from pnp.render.pdfwrite import pdf_bytes, write_outputs
from pnp.render.scalebar import draw_scale_bar_in
from pnp.render.sheet_margin import MarginPlan, plan_margin

R_OPTION = "PNP-R051"  # a bad render option (duplex mode, offset)

Progress = Callable[[int, int], None]

HOME_BLEED = mm(3)
HOME_MARGIN = mm(3)
PRINT_SHOP_BLEED = 0.125 * 72  # 1/8 in, what most print shops ask for
MARK_WIDTH = 0.3


@dataclass(frozen=True, slots=True)
class Face:
    """One side of one card bound to its compiled layout; the jinja context is made when drawn.

    Not storing the context keeps a 54,000-card build from holding 54,000 context dicts.
    """

    layout: CardLayout
    game: Any
    deck: Any
    card: Any
    side: str  # 'front' or 'back'

    @property
    def ctx(self) -> Mapping[str, Any]:
        return card_context(self.game, self.deck, self.card)

    @property
    def key(self) -> tuple:
        return (self.layout.id, self.deck.id, self.card.id, self.side)


@dataclass(frozen=True, slots=True)
class CardCopy:
    """One printed card: its size and faces (the back may be missing), and its die-cut outline
    (None: cut on the crop marks)."""

    size: tuple[float, float]
    front: Face
    back: Face | None
    cut: Cut | None = None


def card_context(game: Any, deck: Any, card: Any) -> dict[str, Any]:
    """The jinja context: card fields plus id/name/count, the deck and the game (plain values)."""
    fields = dict(card.fields)
    fields.setdefault("name", card.name)
    fields["id"] = card.id
    fields["count"] = card.count
    size = deck.size if isinstance(deck.size, str) else dict(deck.size)
    return {
        "card": fields,
        "deck": {"id": deck.id, "name": deck.name, "prototype": bool(deck.prototype),
                 "size": size},
        "game": {"id": getattr(game, "id", ""), "name": getattr(game, "name", "")},
    }


def prepare_cards(game: Any, deck_ids: Sequence[str] | None = None,
                  library: LayoutLibrary | None = None,
                  ) -> tuple[list[CardCopy], list[Diagnostic]]:
    """Every card copy of the chosen decks, in deck order, with compiled faces."""
    diags: list[Diagnostic] = []
    if library is None:
        library, d = load_library(game)
        diags.extend(d)
    decks = list(game.decks.values())
    if deck_ids:
        known = {d.id for d in decks}
        for did in deck_ids:
            if did not in known:
                diags.append(Diagnostic(ERROR, R_OPTION, f"game {game.id!r} has no deck {did!r}",
                                        hint=f"decks: {', '.join(sorted(known))}"))
        decks = [d for d in decks if d.id in set(deck_ids)]
    copies: list[CardCopy] = []
    for deck in decks:
        try:
            size = card_size(deck.size)
        except GeometryError as exc:
            diags.append(Diagnostic.at(deck.origin, ERROR, R_SIZE, f"deck '{deck.id}': {exc}"))
            continue
        front = _layout(library, deck, deck.front, size, diags)
        back = _layout(library, deck, deck.back, size, diags) if deck.back else None
        cuts, d = deck_cuts(deck, size)
        diags.extend(d)
        if front is None or (deck.back and back is None) or d:
            continue
        for card in deck.cards:
            f = Face(front, game, deck, card, "front")
            b = Face(back, game, deck, card, "back") if back is not None else None
            cut = cuts.get(card.id)
            n = min(MAX_CARD_COUNT, max(0, int(card.count)))
            if n == 1:  # most cards: no generator to run
                copies.append(CardCopy(size, f, b, cut))
            else:
                copies.extend(CardCopy(size, f, b, cut) for _ in range(n))
    return copies, diags


def _layout(library: LayoutLibrary, deck, layout_id: str, size, diags) -> CardLayout | None:
    if layout_id not in library.sources:
        diags.append(Diagnostic.at(deck.origin, ERROR, R_UNKNOWN_LAYOUT,
                                   f"deck '{deck.id}' uses unknown layout {layout_id!r}",
                                   f"known layouts: {', '.join(sorted(library.sources))}"))
        return None
    layout, d = library.compile(layout_id, size)
    first = deck.cards[0].id if deck.cards else None
    for diag in d:
        if diag.is_error:  # name the deck and a card it breaks, as every render error does
            diag = replace(diag, message=f"{diag.message} (layout '{layout_id}' of deck "
                                         f"'{deck.id}'{f', card {first!r}' if first else ''})")
        if diag not in diags:
            diags.append(diag)
    return layout


class Build:
    """State shared by every output of one build: diagnostics (each once) and progress."""

    def __init__(self, progress: Progress | None = None, total: int = 0, low_ink: bool = False):
        self.low_ink = low_ink  # card faces without their backgrounds and full-bleed boxes
        self.diags: list[Diagnostic] = []
        self.progress = progress
        self.total = total
        self.done = 0
        self._seen: set = set()

    def tick(self) -> None:
        self.done += 1
        if self.progress is not None:
            self.progress(self.done, self.total)

    def report(self, face: Face, err: ElementError) -> None:
        key = (face.key, err.code, err.message)
        if key not in self._seen:
            self._seen.add(key)
            self.diags.append(face_diagnostic(face, err))

    def drawer(self, c, copies: Iterable[CardCopy]) -> FaceDrawer:
        return FaceDrawer(c, copies, self)


class FaceDrawer:
    """Places card faces on a canvas, drawing each repeated face once as a form XObject.

    Layout errors become Diagnostics naming the deck, the card and its YAML position, reported
    once per face however often it is printed.
    """

    def __init__(self, c, copies: Iterable[CardCopy], build: Build | None = None):
        self.c = c
        self.build = build if build is not None else Build()
        self._forms: dict[tuple, str] = {}
        counts: dict[tuple, int] = {}
        for cp in copies:
            key = cp.front.key
            counts[key] = counts.get(key, 0) + 1
            if cp.back is not None:
                key = cp.back.key
                counts[key] = counts.get(key, 0) + 1
        self._repeated = {k for k, n in counts.items() if n > 1}
        self._openings: dict[tuple, str] = {}

    @property
    def diags(self) -> list[Diagnostic]:
        return self.build.diags

    def place(self, face: Face, x: float, y: float, clip: Rect, bleed: float) -> None:
        """Draw `face` with its lower-left trim corner at (x, y), clipped to `clip`."""
        c = self.c
        # raw operators: q, clip to `clip`, move the origin to the trim corner (see
        # layout/elements.py); a sheet has a few cells, so each cell's are written once
        opening = self._openings.get((clip, x, y))
        if opening is None:
            opening = self._openings[(clip, x, y)] = (
                f"q {clip.x:.2f} {clip.y:.2f} {clip.width:.2f} {clip.height:.2f} "
                f"re W n 1 0 0 1 {x:.2f} {y:.2f} cm")
        append_operators(c, opening)
        if self._repeated and face.key in self._repeated:
            key = face.key + (round(bleed, 3),)
            name = self._forms.get(key)
            if name is None:
                name = f"pnpface{len(self._forms)}"
                w, h = face.layout.size
                c.beginForm(name, -bleed, -bleed, w + bleed, h + bleed)
                self._report(face, face.layout.draw(c, face.ctx, bleed, self.build.low_ink))
                c.endForm()
                self._forms[key] = name
            place_form(c, name, 0, 0)
        else:
            self._report(face, face.layout.draw(c, face.ctx, bleed, self.build.low_ink))
        append_operators(c, "Q")
        self.build.tick()

    def _report(self, face: Face, errors: list[ElementError]) -> None:
        for err in errors:
            self.build.report(face, err)


def face_diagnostic(face: Face, err: ElementError) -> Diagnostic:
    """A layout error as a Diagnostic at the card (or the failing field) in the deck's YAML."""
    card, deck = face.card, face.deck
    origins = getattr(card, "field_origins", None) or {}
    pos: Position | None = origins.get(err.field) if err.field else None
    pos = pos or getattr(card, "origin", None)
    field = f", field '{err.field}'" if err.field else ""
    return Diagnostic.at(pos, err.severity, err.code,
                         f"deck '{deck.id}', card '{card.id}'{field} ({face.side} layout "
                         f"'{face.layout.id}'): {err.message}", err.hint)


def size_groups(copies: Sequence[CardCopy]) -> list[list[CardCopy]]:
    """Copies grouped by card size, in order of first appearance: each group gets its own pages."""
    groups: dict[tuple, list[CardCopy]] = {}
    for cp in copies:
        groups.setdefault(size_key(cp.size), []).append(cp)
    return list(groups.values())


def draw_crop_marks(c, grid: Grid, cells: Sequence[tuple[int, int]] | None = None) -> None:
    """Thin black marks continuing the cut lines of the cards in `cells` (default: every cell)."""
    _stroke_marks(c, crop_marks(grid, cells=cells))


def _stroke_marks(c, segments) -> None:
    append_operators(c, _marks_operators(tuple(segments)))


@lru_cache(maxsize=64)
def _marks_operators(segments: tuple) -> str:
    """The crop marks as PDF operators: every full sheet of a deck has the same, so formatted
    once (a sheet's two dozen segments are about a hundred numbers)."""
    ops = [f"q 0 0 0 RG {MARK_WIDTH} w []0 d"]
    ops.extend(f"{x1:.3f} {y1:.3f} m {x2:.3f} {y2:.3f} l" for x1, y1, x2, y2 in segments)
    ops.append("S Q")
    return " ".join(ops)


def cut_marks(grid: Grid, cells: Sequence[tuple[tuple[int, int], Cut | None]]) -> list:
    """The crop-mark segments of a page whose cards are `cells` ((column, row), cut).

    Cards cut like cards get marks on their cut lines; die-cut pieces (a round token) get none.
    On a page that holds both, the marks of the square pieces sit around the whole block of
    cards, never inside it: a cut line between cells runs clear of every inset outline.
    """
    square = [cell for cell, cut in cells if cut is None]
    if len(square) == len(cells):
        return crop_marks(grid, cells=square)
    if not square:
        return []
    rects = [grid.trim_rect(*cell) for cell in square]
    xs = {round(v, 4) for r in rects for v in (r.x, r.x1)}
    ys = {round(v, 4) for r in rects for v in (r.y, r.y1)}
    return [s for s in crop_marks(grid, cells=[cell for cell, _ in cells])
            if (round(s[0], 4) in xs if s[0] == s[2] else round(s[1], 4) in ys)]


def _draw_cuts(c, grid: Grid, cells: Sequence[tuple[tuple[int, int], CardCopy]],
               label: str | None) -> None:
    """Crop marks for the cards cut like cards, a die-cut outline around every other one (a
    round token gets a circle, not the square marks of its cell); then the margin: the footer
    `label`, the 50 mm scale bar and each row's card ids, where no mark and no artwork is
    (sheet_margin.py)."""
    cuts = [(cell, cp.cut) for cell, cp in cells]
    marks = cut_marks(grid, cuts)
    _stroke_marks(c, marks)
    draw_cut_outlines(c, [(grid.trim_rect(*cell), cut) for cell, cut in cuts if cut is not None])
    if label is None:
        return
    decks = {cp.front.deck.id for _, cp in cells}
    if len(decks) == 1:
        label += f" · deck {next(iter(decks))}"
    draw_margin(c, plan_margin(grid, [cell for cell, _ in cells], marks, label,
                               page_rows(cells), page_bleed(cells)))


def page_rows(cells: Sequence[tuple[tuple[int, int], CardCopy]]) -> list:
    """(row, its cards left to right as (deck id, card id)) for a page's cells."""
    rows: dict[int, list] = {}
    for (col, row), cp in cells:
        rows.setdefault(row, []).append((col, cp.front.deck.id, cp.front.card.id))
    return [(row, [(d, k) for _, d, k in sorted(cards)]) for row, cards in sorted(rows.items())]


def page_bleed(cells: Sequence[tuple[tuple[int, int], CardCopy]]) -> float:
    """How far past the trim the page's layouts draw (a token layout with no bleed: none)."""
    return max(max(cp.front.layout.max_bleed, cp.back.layout.max_bleed if cp.back else 0)
               for _, cp in cells)


def _draw_fronts(grid: Grid, chunk: Sequence[CardCopy], drawer: FaceDrawer,
                 bleed: float) -> None:
    """A sheet's card fronts, one a cell in order."""
    for cp, (x, y, clip) in zip(chunk, _front_cells(grid, len(chunk)), strict=True):
        drawer.place(cp.front, x, y, clip, bleed)


@lru_cache(maxsize=64)
def _front_cells(grid: Grid, filled: int) -> tuple[tuple[float, float, Rect], ...]:
    """Each cell's trim corner and artwork (its clip) on a sheet of `filled` cards: the same
    on every full sheet of a deck, so worked out once."""
    out = []
    for i in range(filled):
        col, row = grid.cell(i)
        r = grid.trim_rect(col, row)
        out.append((r.x, r.y, grid.art_rect(col, row, filled)))
    return tuple(out)


def draw_margin(c, plan: MarginPlan) -> None:
    """The footer and the card ids in grey, and the scale bar. The text is written as PDF
    operators in one q/Q block (a page holds a few of them, 600 pages a few thousand:
    reportlab's text objects cost more than the planning)."""
    if plan.bar is not None:
        draw_scale_bar_in(c, plan.bar, plan.bar_turned)
    texts = ([plan.label] if plan.label else []) + plan.ids
    if not texts:
        return
    font = fonts.DEFAULT_FONT
    ops = ["q 0.45 0.45 0.45 rg BT"]
    current = None
    for t in texts:
        if t.turned:  # reads downwards, its baseline near the box's left edge
            ops.append(f"0 -1 1 0 {t.box.x + t.size * 0.3:.2f} {t.box.y1 - mm(0.25):.2f} Tm")
        else:
            ops.append(f"1 0 0 1 {t.box.x + mm(0.25):.2f} {t.box.y + t.size * 0.3:.2f} Tm")
        for subset, chunk in encode_text(c, font, t.text):
            if (subset, t.size) != current:
                ops.append(f"{subset} {t.size:.2f} Tf")
                current = (subset, t.size)
            ops.append(f"({chunk}) Tj")
    ops.append("ET Q")
    append_operators(c, " ".join(ops))


def draw_home_sheets(c, copies: Sequence[CardCopy], paper: tuple[float, float],
                     drawer: FaceDrawer, duplex: str | None = None,
                     offset: tuple[float, float] = (0.0, 0.0), title: str = "",
                     bleed: float = HOME_BLEED, margin: float = HOME_MARGIN) -> int:
    """Cards butted in a centred grid, crop marks in the margin; with duplex, a mirrored back
    page after each front page, shifted by `offset` (points). Returns the number of pages."""
    pages = 0
    groups = size_groups(copies)
    for gi, group in enumerate(groups):
        grid = impose_grid(paper, group[0].size, bleed, margin)
        n_sheets = (len(group) + grid.per_page - 1) // grid.per_page
        has_backs = duplex is not None and any(cp.back for cp in group)
        for sheet in range(n_sheets):
            chunk = group[sheet * grid.per_page:(sheet + 1) * grid.per_page]
            c.setPageSize(paper)
            _draw_fronts(grid, chunk, drawer, bleed)
            label = f"{title} · sheet {sheet + 1}/{n_sheets}"
            if len(groups) > 1:
                label += f" · size {gi + 1}/{len(groups)}"
            _draw_cuts(c, grid, [(grid.cell(i), cp) for i, cp in enumerate(chunk)],
                       label + (" · fronts" if has_backs else ""))
            c.showPage()
            pages += 1
            if not has_backs:
                continue
            c.setPageSize(paper)
            c.saveState()
            c.translate(*offset)
            for i, cp in enumerate(chunk):
                if cp.back is None:
                    continue
                front_col, front_row = grid.cell(i)
                col, row = back_cell(grid, front_col, front_row, duplex)
                r = grid.trim_rect(col, row)
                # bleed where the front has an empty neighbour, mirrored like the card itself
                fa = grid.art_rect(front_col, front_row, len(chunk))
                ft = grid.trim_rect(front_col, front_row)
                left, right = ft.x - fa.x, fa.x1 - ft.x1
                bottom, top = ft.y - fa.y, fa.y1 - ft.y1
                if duplex == "long":
                    left, right = right, left
                else:
                    bottom, top = top, bottom
                drawer.place(cp.back, r.x, r.y, r.grow(left, bottom, right, top), bleed)
            # inside the offset, so the label moves with the marks and never meets one
            _draw_cuts(c, grid, [(back_cell(grid, *grid.cell(i), duplex), cp)
                                 for i, cp in enumerate(chunk) if cp.back is not None],
                       f"{title} · sheet {sheet + 1}/{n_sheets} · backs ({duplex}-edge flip)")
            c.restoreState()
            c.showPage()
            pages += 1
    return pages


def draw_gutterfold_sheets(c, copies: Sequence[CardCopy], paper: tuple[float, float],
                           drawer: FaceDrawer, title: str = "", bleed: float = HOME_BLEED,
                           margin: float = HOME_MARGIN) -> int:
    """Fronts on the left half of each page, their backs mirrored on the right half, a dashed
    fold line between: no duplex printer needed (fold, glue, cut). A card too wide for half
    the page gets the two-sided pages instead. Returns the number of pages."""
    pages = 0
    pw, ph = paper
    half = (pw / 2, ph)
    for group in size_groups(copies):
        try:
            grid = impose_grid(half, group[0].size, bleed, margin)
        except GeometryError:
            pages += draw_home_sheets(c, group, paper, drawer, "long", title=title,
                                      bleed=bleed, margin=margin)
            continue
        n_sheets = (len(group) + grid.per_page - 1) // grid.per_page
        for sheet in range(n_sheets):
            chunk = group[sheet * grid.per_page:(sheet + 1) * grid.per_page]
            c.setPageSize(paper)
            _draw_fronts(grid, chunk, drawer, bleed)
            _draw_cuts(c, grid, [(grid.cell(i), cp) for i, cp in enumerate(chunk)],
                       f"{title} · sheet {sheet + 1}/{n_sheets} · gutterfold: fold, glue, cut")
            c.saveState()
            c.translate(pw / 2, 0)
            backs = []
            for i, cp in enumerate(chunk):
                if cp.back is None:
                    continue
                col, row = back_cell(grid, *grid.cell(i), "long")
                r = grid.trim_rect(col, row)
                drawer.place(cp.back, r.x, r.y, r.grow(bleed, bleed, bleed, bleed), bleed)
                backs.append(((col, row), cp))
            _draw_cuts(c, grid, backs, None)  # the fronts' half carries the footer and the bar
            c.restoreState()
            append_operators(c, f"q 0.45 0.45 0.45 RG 0.6 w [4 3] 0 d {pw / 2:.2f} {mm(4):.2f} m "
                                f"{pw / 2:.2f} {ph - mm(4):.2f} l S Q")
            c.showPage()
            pages += 1
    return pages


def draw_print_shop(c, copies: Sequence[CardCopy], drawer: FaceDrawer,
                    bleed: float = PRINT_SHOP_BLEED, back_first: bool = False) -> list[str]:
    """One card side per page, page = trim + bleed, TrimBox and BleedBox set on every page;
    each card's back before its front when `back_first` (DriveThruCards). Returns each page's
    side ('front'/'back'), in order."""
    sides: list[str] = []
    for cp in copies:
        w, h = cp.size
        page = (w + 2 * bleed, h + 2 * bleed)
        faces = (cp.back, cp.front) if back_first else (cp.front, cp.back)
        for face in faces:
            if face is None:
                continue
            c.setPageSize(page)
            c.setTrimBox((bleed, bleed, bleed + w, bleed + h))
            c.setBleedBox((0, 0, page[0], page[1]))
            drawer.place(face, bleed, bleed, Rect(0, 0, *page), bleed)
            c.showPage()
            sides.append(face.side)
    c.setTrimBox(None)
    c.setBleedBox(None)
    return sides


def draw_calibration(c, paper: tuple[float, float], duplex: str) -> None:
    """Two pages: rulers on the front, a cross on the back. Printed double-sided and held
    against the light, the number under the back's line is the offset to enter."""
    pw, ph = paper
    cx, cy = pw / 2, ph / 2
    span = 10  # mm each side of the centre
    reach = mm(span + 25)  # half-length of the back's cross
    # front
    c.setPageSize(paper)
    c.setFillColorRGB(0, 0, 0)
    c.setFont("Vera-Bold", 16)
    c.drawCentredString(cx, ph - mm(30), "Duplex calibration")
    c.setFont("Vera", 10)
    lines = [
        f"1. Print both pages double-sided at 100 % (no 'fit to page'), {duplex}-edge flip.",
        "2. Hold the sheet against a light, this side towards you.",
        "3. Read where the back's thick vertical line crosses the X ruler,",
        "    and where its thick horizontal line crosses the Y ruler (estimate halves).",
        f"4. Render with those numbers: --duplex {duplex} --offset X,Y (millimetres).",
        "    0,0 means your printer needs no correction.",
    ]
    for i, t in enumerate(lines):
        c.drawString(cx - mm(75), ph - mm(45) - i * 14, t)
    c.setStrokeColorRGB(0.7, 0.7, 0.7)
    c.setLineWidth(0.25)
    c.setDash(2, 2)
    c.line(cx, cy - reach, cx, cy + reach)
    c.line(cx - reach, cy, cx + reach, cy)
    c.setDash()
    c.setStrokeColorRGB(0, 0, 0)
    x_base, y_base = cy + mm(15), cx + mm(15)  # X ruler above the centre, Y ruler right of it
    for k in range(-2 * span, 2 * span + 1):  # half-millimetre ticks
        p = k / 2
        tick = mm(5 if k % 10 == 0 else 3 if k % 2 == 0 else 1.5)
        c.setLineWidth(0.5 if k % 2 == 0 else 0.25)
        c.line(cx + mm(p), x_base, cx + mm(p), x_base + tick)
        c.line(y_base, cy + mm(p), y_base + tick, cy + mm(p))
    c.setLineWidth(0.5)
    c.line(cx - mm(span), x_base, cx + mm(span), x_base)
    c.line(y_base, cy - mm(span), y_base, cy + mm(span))
    c.setFont("Vera", 7)
    for p in range(-span, span + 1, 5):
        lx = calibration_label(p, "x", duplex)
        ly = calibration_label(p, "y", duplex)
        c.drawCentredString(cx + mm(p), x_base + mm(6.5), f"{lx:+g}" if p else "0")
        c.drawString(y_base + mm(6.5), cy + mm(p) - 2.5, f"{ly:+g}" if p else "0")
    c.setFont("Vera-Bold", 9)
    c.drawCentredString(cx, x_base + mm(11), "X offset (mm)")
    c.drawString(y_base, cy + mm(span + 4), "Y offset (mm)")
    c.setFont("Vera", 7)
    c.drawCentredString(cx, mm(15), "pnp duplex calibration · front · "
                        f"{pw / mm(1):.0f}×{ph / mm(1):.0f} mm · {duplex}-edge flip")
    c.showPage()
    # back: thick cross through the page centre, in back-page coordinates
    c.setPageSize(paper)
    c.setStrokeColorRGB(0, 0, 0)
    c.setLineWidth(1.5)
    c.line(cx, cy - reach, cx, cy + reach)
    c.line(cx - reach, cy, cx + reach, cy)
    c.setFont("Vera", 7)
    c.setFillColorRGB(0, 0, 0)
    c.drawCentredString(cx, mm(15), "pnp duplex calibration · back")
    c.showPage()


def _parse_offset(offset) -> tuple[float, float]:
    """(x, y) in millimetres (numbers) or lengths with units -> points."""
    out = []
    for v in offset:
        out.append(mm(float(v)) if isinstance(v, int | float) else parse_length(v))
    if len(out) != 2:
        raise GeometryError("offset needs two values: x, y")
    return (out[0], out[1])


def _write(path: Path, data: bytes, diags: list[Diagnostic]) -> Path | None:
    written = write_outputs([(path, data)], diags)
    return written[0] if written else None


def render_deck_sheets(
    game: Any,
    deck_ids: Sequence[str] | None = None,
    paper: str = "a4",
    out_dir: str | os.PathLike = "output",
    duplex: str | None = None,
    offset: tuple[float | str, float | str] = (0, 0),
    print_shop: bool = False,
    png: bool = False,
    tts: bool = False,
    progress: Progress | None = None,
    library: LayoutLibrary | None = None,
    stem: str | None = None,
    tts_url: str | None = None,
    gutterfold: bool = False,
    low_ink: bool = False,
    stamp: str = "",
) -> tuple[list[Path], list[Diagnostic]]:
    """Render the game's decks; returns the files written and every diagnostic.

    Writes `<game>-cards.pdf` (home sheets; with `duplex` a mirrored back page follows each
    front page), `<game>-cards-printshop.pdf` with `print_shop`, per-card PNGs with `png` and
    Tabletop Simulator sheets with `tts`; `stem` replaces `<game>-cards` (a kit's names).
    `gutterfold` puts each front and its back side by side on one page (instead of duplex
    pages), `low_ink` leaves out card backgrounds and full-bleed boxes, `stamp` joins the game
    name in each sheet's footer (the kit's version stamp). When any error is found nothing is written, so the
    previous files stay as they were.
    """
    diags: list[Diagnostic] = []
    try:
        paper_size = parse_paper(paper)
    except GeometryError as exc:
        return [], [Diagnostic(ERROR, R_OPTION, str(exc))]
    if duplex is not None and duplex not in DUPLEX_MODES:
        return [], [Diagnostic(ERROR, R_OPTION, f"duplex must be long, short or none, "
                                                f"not {duplex!r}")]
    try:
        off = _parse_offset(offset)
    except (GeometryError, ValueError, TypeError) as exc:
        return [], [Diagnostic(ERROR, R_OPTION, f"bad offset {offset!r}: {exc}")]
    copies, d = prepare_cards(game, deck_ids, library)
    diags.extend(d)
    if has_errors(diags):
        return [], diags
    for group in size_groups(copies):
        try:
            impose_grid(paper_size, group[0].size, HOME_BLEED, HOME_MARGIN)
        except GeometryError as exc:
            deck = group[0].front.deck
            diags.append(Diagnostic.at(deck.origin, ERROR, R_SIZE, f"deck '{deck.id}': {exc}"))
    if has_errors(diags):
        return [], diags
    out = Path(out_dir)
    stem = stem or (f"{game.id}-cards" if not deck_ids else f"{game.id}-{'-'.join(deck_ids)}")
    sides = sum(1 + (cp.back is not None and (duplex is not None or gutterfold))
                for cp in copies)
    total = sides
    if print_shop:
        total += sum(1 + (cp.back is not None) for cp in copies)
    unique = _unique(copies)
    if png:
        total += sum(1 + (cp.back is not None) for cp in unique)
    if tts:
        from pnp.render.exports import tts_face_count

        total += tts_face_count(copies)
    build = Build(progress, total, low_ink)
    title = f"{game.name} — cards"
    label = f"{game.name} · {stamp}" if stamp else game.name
    outputs: list[tuple[Path, bytes]] = []

    def home(c):
        if gutterfold:
            draw_gutterfold_sheets(c, copies, paper_size, build.drawer(c, copies), label)
        else:
            draw_home_sheets(c, copies, paper_size, build.drawer(c, copies), duplex, off, label)

    # card faces reach their fonts through pnp.render.fonts: no need to parse every Vera face
    outputs.append((out / f"{stem}.pdf", pdf_bytes(home, paper_size, title, all_fonts=False)[0]))
    if print_shop:
        def shop(c):
            draw_print_shop(c, copies, build.drawer(c, copies))

        outputs.append((out / f"{stem}-printshop.pdf",
                        pdf_bytes(shop, paper_size, title, all_fonts=False)[0]))
    if png or tts:
        from pnp.render import exports

        if png:
            outputs.extend(exports.card_pngs(unique, out / f"{stem}-png", build, diags))
        if tts:
            outputs.extend(exports.tts_sheets(copies, out / f"{stem}-tts", build, diags,
                                              game.name, tts_url))
    diags.extend(build.diags)
    if has_errors(diags):
        return [], diags
    written = []
    for path, blob in outputs:
        p = _write(path, blob, diags)
        if p is not None:
            written.append(p)
    return written, diags


def _unique(copies: Sequence[CardCopy]) -> list[CardCopy]:
    """One copy per distinct card (PNG export needs each face once)."""
    seen, out = set(), []
    for cp in copies:
        if cp.front.key not in seen:
            seen.add(cp.front.key)
            out.append(cp)
    return out


def render_calibration(out_dir: str | os.PathLike = "output", paper: str = "a4",
                       duplex: str = "long") -> tuple[list[Path], list[Diagnostic]]:
    """Write `calibration-<paper>-<duplex>.pdf`: print it double-sided to find the offset."""
    try:
        paper_size = parse_paper(paper)
    except GeometryError as exc:
        return [], [Diagnostic(ERROR, R_OPTION, str(exc))]
    if duplex not in DUPLEX_MODES:
        return [], [Diagnostic(ERROR, R_OPTION, f"duplex must be long or short, not {duplex!r}")]
    data, _ = pdf_bytes(lambda c: draw_calibration(c, paper_size, duplex), paper_size,
                        "pnp duplex calibration")
    diags: list[Diagnostic] = []
    p = _write(Path(out_dir) / f"calibration-{file_part(paper)}-{duplex}.pdf", data, diags)
    return ([p] if p else []), diags
