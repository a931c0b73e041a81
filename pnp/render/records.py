"""Record sheets: the page each player keeps in pencil, and the same page as a fillable PDF.

A sheet is laid out from its definition: labelled fields in the order written, check-lists built
from a track's spaces, and a per-turn grid with one row per stat and one column per turn. The
imposition puts as many sheets on a page as fit with cells big enough to write in by hand
(MIN_CELL_W × MIN_CELL_H); the fillable file puts one sheet on a page with an AcroForm field on
every box.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from pathlib import Path

from pnp.data.limits import MAX_GRID_TURNS
from pnp.data.model import GameDef, RecordSheet
from pnp.diagnostics import ERROR, Diagnostic, has_errors
from pnp.render import fonts, pdfops
from pnp.render.boards import BOLD, ITALIC, REGULAR, draw_block, fit_block, words
from pnp.render.geometry import Rect, mm, to_mm
from pnp.render.kinds import paper_and_items
from pnp.render.pdfwrite import pdf_bytes, write_outputs
from pnp.render.scalebar import HEIGHT as BAR_HEIGHT
from pnp.render.scalebar import LENGTH as BAR_LENGTH
from pnp.render.scalebar import draw_scale_bar_in
from pnp.render.text import fit_width, measure

R_RECORD = "PNP-R075"  # a record sheet that cannot be laid out on the paper

MIN_CELL_W = mm(7)  # two pencil digits
MIN_CELL_H = mm(5)
MAX_CELL_W = mm(12)
MAX_CELL_H = mm(7.5)
PAGE_MARGIN = mm(9)  # inside each sheet's slot: clear of the unprintable edge and the cut
UNIT_MIN = mm(23)  # the width of a number field
BOX_H = mm(7)
LABEL_PT = 7.5
SECTION_GAP = mm(3.2)
TITLE_H = mm(8)
LIST_ITEM_MIN_W = mm(36)
LIST_ROW_H = mm(5.4)
CHECK = mm(3.4)
LINE_PITCH = mm(6.5)
GRID_HEAD_H = mm(4.6)
GRID_BLOCK_GAP = mm(3)
INK = (0.1, 0.1, 0.12)
RULE = (0.45, 0.45, 0.5)
SHADE = (0.93, 0.93, 0.95)
FORM_FONT = "PnpFormVera"


# ---------------------------------------------------------------------------------------------
# layout


@dataclass(frozen=True)
class FieldBox:
    """One labelled field: its label's place and the box (or ruled lines) to write in."""

    id: str
    label: str
    kind: str
    label_at: tuple[float, float]
    box: Rect
    note: str = ""
    note_box: Rect | None = None
    lines: int = 1


@dataclass(frozen=True)
class ListItem:
    id: str
    label: str
    check: Rect


@dataclass(frozen=True)
class GridBlock:
    """Turns first..last of the per-turn grid: a header row, then one row per stat."""

    turns: tuple[int, ...]
    top: float
    x: float
    label_w: float
    cell_w: float
    head_h: float
    row_h: float


@dataclass
class SheetLayout:
    """Where everything of one sheet goes inside its slot (page coordinates)."""

    sheet: RecordSheet
    slot: Rect
    title: str
    subtitle: str
    fields: list[FieldBox] = field(default_factory=list)
    list_titles: list[tuple[str, tuple[float, float]]] = field(default_factory=list)
    items: list[ListItem] = field(default_factory=list)
    grid_stats: list[tuple[str, str]] = field(default_factory=list)  # (stat id, row label)
    blocks: list[GridBlock] = field(default_factory=list)
    cell_w: float = 0.0
    row_h: float = 0.0

    @property
    def field_count(self) -> int:
        """Text fields in the fillable version (check-list boxes not counted)."""
        return len(self.fields) + len(self.grid_stats) * sum(len(b.turns) for b in self.blocks)


def _list_entries(game: GameDef, sheet: RecordSheet) -> list[tuple[str, str, list[tuple[str, str]]]]:
    """(list id, label, [(entry id, entry name)]): a track's spaces, the start space left out."""
    out = []
    for lst in sheet.lists:
        track = game.tracks.get(lst.from_track)
        entries = [(s.id, s.name) for s in (track.spaces if track else ()) if not s.start]
        out.append((lst.id, lst.label, entries))
    return out


def _grid_rows(game: GameDef, sheet: RecordSheet) -> list[tuple[str, str]]:
    rows = []
    for sid in sheet.turn_grid_stats:
        stat = game.stats.get(sid)
        name = stat.name if stat else sid
        if stat and stat.abbreviation and stat.abbreviation.lower() != name.lower():
            name = f"{name} ({stat.abbreviation})"
        rows.append((sid, name))
    return rows


def layout_sheet(game: GameDef, sheet: RecordSheet, slot: Rect) -> SheetLayout | None:
    """Lay the sheet out in `slot`; None when its grid cells would be smaller than a pencil needs."""
    fonts.ensure_fonts()
    inner = slot.grow(-PAGE_MARGIN, -PAGE_MARGIN, -PAGE_MARGIN, -PAGE_MARGIN)
    W = inner.width
    lay = SheetLayout(sheet, slot, sheet.name, game.name)
    y = inner.y1 - TITLE_H
    # fields, in the order written, flowed in rows of equal units
    units = max(4, int(W // UNIT_MIN))
    unit = W / units
    label_h = mm(3.6)
    row: list[tuple[object, int]] = []
    rows: list[list[tuple[object, int]]] = []
    used = 0
    for f in sheet.fields:
        if f.kind == "lines":
            need = units - used if units - used >= 4 else units
        elif f.kind == "text":
            need = min(3, units)
        else:
            need = 2 if f.note else 1
        if used + need > units:
            rows.append(row)
            row, used = [], 0
            if f.kind == "lines":
                need = units
        row.append((f, need))
        used += need
    if row:
        rows.append(row)
    for r in rows:
        x = inner.x
        row_h = 0.0
        for f, n in r:
            w = n * unit
            gap = mm(2.5)
            if f.kind == "lines":
                box = Rect(x, y - label_h - f.lines * LINE_PITCH, w - gap, f.lines * LINE_PITCH)
            elif f.kind == "number" and f.note:
                box = Rect(x, y - label_h - BOX_H, unit - gap, BOX_H)
            else:
                box = Rect(x, y - label_h - BOX_H, w - gap, BOX_H)
            note_box = None
            if f.kind == "number" and f.note:
                note_box = Rect(x + unit, box.y, w - unit - gap, BOX_H)
            lay.fields.append(FieldBox(f.id, f.label, f.kind, (x, y - mm(2.6)), box, f.note,
                                       note_box, f.lines))
            row_h = max(row_h, y - box.y)
            x += w
        y -= row_h + mm(2.2)
    y -= SECTION_GAP - mm(2.2)
    # check-lists
    for lid, label, entries in _list_entries(game, sheet):
        lay.list_titles.append((label, (inner.x, y - mm(2.8))))
        y -= mm(4.4)
        per_row = max(1, int(W // LIST_ITEM_MIN_W))
        item_w = W / per_row
        for i, (eid, name) in enumerate(entries):
            r_i, c_i = divmod(i, per_row)
            cy = y - r_i * LIST_ROW_H - LIST_ROW_H / 2
            lay.items.append(ListItem(f"{lid}-{eid}", name,
                                      Rect(inner.x + c_i * item_w, cy - CHECK / 2, CHECK, CHECK)))
        y -= math.ceil(len(entries) / per_row) * LIST_ROW_H + SECTION_GAP
    # the per-turn grid, split into stacked blocks when the turns are too many for one row
    lay.grid_stats = _grid_rows(game, sheet)
    turns = sheet.turn_grid_turns
    if turns and lay.grid_stats:
        label_w = max(measure(name, BOLD, LABEL_PT) for _, name in lay.grid_stats) \
            + mm(3)
        blocks = 1
        while (W - label_w) / math.ceil(turns / blocks) < MIN_CELL_W:
            blocks += 1
            if blocks > turns:
                return None
        per_block = math.ceil(turns / blocks)
        cell_w = min(MAX_CELL_W, (W - label_w) / per_block)
        n_rows = len(lay.grid_stats)
        avail = y - inner.y - blocks * GRID_HEAD_H - (blocks - 1) * GRID_BLOCK_GAP
        row_h = min(MAX_CELL_H, avail / (blocks * n_rows))
        if row_h < MIN_CELL_H - 0.01:
            return None
        lay.cell_w, lay.row_h = cell_w, row_h
        for b in range(blocks):
            ts = tuple(range(b * per_block + 1, min(turns, (b + 1) * per_block) + 1))
            lay.blocks.append(GridBlock(ts, y, inner.x, label_w, cell_w, GRID_HEAD_H, row_h))
            y -= GRID_HEAD_H + n_rows * row_h + GRID_BLOCK_GAP
    elif y < inner.y:
        return None
    if y + GRID_BLOCK_GAP < inner.y - 0.01:
        return None
    return lay


@dataclass(frozen=True)
class Imposition:
    """A page size and the slots (one sheet each) on it."""

    page: tuple[float, float]
    slots: tuple[Rect, ...]
    layouts: tuple[SheetLayout, ...]

    @property
    def per_page(self) -> int:
        return len(self.slots)


def _slots(page: tuple[float, float], n: int) -> list[Rect]:
    """n equal slots: halves across the long side, quarters as 2 × 2."""
    pw, ph = page
    if n == 1:
        return [Rect(0, 0, pw, ph)]
    if n == 2:
        if pw >= ph:
            return [Rect(0, 0, pw / 2, ph), Rect(pw / 2, 0, pw / 2, ph)]
        return [Rect(0, ph / 2, pw, ph / 2), Rect(0, 0, pw, ph / 2)]
    return [Rect(cx * pw / 2, (1 - cy) * ph / 2, pw / 2, ph / 2) for cy in (0, 1) for cx in (0, 1)]


def _score(lay: SheetLayout) -> float:
    return min(lay.cell_w / MIN_CELL_W, lay.row_h / MIN_CELL_H) if lay.blocks else 1.0


def impose(game: GameDef, sheet: RecordSheet, paper: tuple[float, float],
           max_per_page: int = 4) -> Imposition | None:
    """The most sheets per page (4, 2 or 1) whose cells stay writable; roomier cells on a tie."""
    short, long_ = sorted(paper)
    best: Imposition | None = None
    best_key = (0, 0.0)
    for n in (4, 2, 1):
        if n > max_per_page:
            continue
        for page in ((long_, short), (short, long_)):
            slots = _slots(page, n)
            layouts = [layout_sheet(game, sheet, s) for s in slots]
            if any(lay is None for lay in layouts):
                continue
            key = (n, _score(layouts[0]))  # type: ignore[arg-type]
            if key > best_key:
                best_key = key
                best = Imposition(page, tuple(slots), tuple(layouts))  # type: ignore[arg-type]
        if best is not None:
            return best
    return best


# ---------------------------------------------------------------------------------------------
# drawing


def _label(c, text: str, x: float, y: float, size: float = LABEL_PT, font: str = BOLD,
           colour=INK) -> None:
    c.setFillColorRGB(*colour)
    c.setFont(font, size)
    c.drawString(x, y, text)


def draw_sheet(c, lay: SheetLayout, fillable: bool = False) -> None:
    """One sheet in its slot; with `fillable`, an AcroForm field on every box and cell."""
    inner = lay.slot.grow(-PAGE_MARGIN, -PAGE_MARGIN, -PAGE_MARGIN, -PAGE_MARGIN)
    _label(c, lay.title, inner.x, inner.y1 - mm(5.5), 13)
    c.setFont(REGULAR, 7.5)
    c.setFillColorRGB(*RULE)
    c.drawRightString(inner.x1, inner.y1 - mm(5.5), lay.subtitle)
    c.setLineWidth(0.6)
    for f in lay.fields:
        size = fit_width(f.label, BOLD, LABEL_PT, f.box.width, min_size=7.0)
        _label(c, f.label, *f.label_at, size)
        b = f.box
        c.setStrokeColorRGB(*RULE)
        if f.kind == "lines":
            c.setLineWidth(0.4)
            for i in range(1, f.lines + 1):
                c.line(b.x, b.y1 - i * LINE_PITCH, b.x1, b.y1 - i * LINE_PITCH)
        else:
            c.setLineWidth(0.6)
            c.roundRect(b.x, b.y, b.width, b.height, mm(0.8), stroke=1, fill=0)
        if f.note and f.note_box is not None:
            nb = f.note_box
            block = fit_block(words(f.note, ITALIC), 6.5, 6, nb.width, nb.height)
            draw_block(c, block, nb.x, nb.y1, nb.width, "left", RULE)
        if fillable:
            multiline = f.kind == "lines"
            c.acroForm.textfield(
                name=f.id, tooltip=f.label, x=b.x + 1, y=b.y + 1, width=b.width - 2,
                height=b.height - 2, borderWidth=0, fillColor=None, borderColor=None,
                textColor=None, fontName=FORM_FONT, fontSize=9 if multiline else 10,
                fieldFlags="multiline" if multiline else "", maxlen=0 if multiline else 40)
    for text, (x, y) in lay.list_titles:
        _label(c, text, x, y)
    for item in lay.items:
        r = item.check
        c.setStrokeColorRGB(*INK)
        c.setLineWidth(0.6)
        c.rect(r.x, r.y, r.width, r.height, stroke=1, fill=0)
        _label(c, item.label, r.x1 + mm(1.6), r.y + r.height / 2 - 2.6, 7.5, REGULAR)
        if fillable:
            c.acroForm.checkbox(name=item.id, tooltip=item.label, x=r.x, y=r.y, size=r.width,
                                buttonStyle="check", borderWidth=0, fillColor=None,
                                borderColor=None, textColor=None, fieldFlags="")
    for block in lay.blocks:
        _draw_grid_block(c, lay, block, fillable)


def _draw_grid_block(c, lay: SheetLayout, b: GridBlock, fillable: bool) -> None:
    x0, top = b.x, b.top
    n = len(lay.grid_stats)
    width = b.label_w + len(b.turns) * b.cell_w
    grid_top = top - b.head_h
    # header: turn numbers
    c.setFillColorRGB(*INK)
    c.setFont(BOLD, 7)
    c.drawString(x0, top - b.head_h + mm(1.3), "Turn")
    for i, t in enumerate(b.turns):
        c.drawCentredString(x0 + b.label_w + (i + 0.5) * b.cell_w, top - b.head_h + mm(1.3),
                            str(t))
    for j, (sid, name) in enumerate(lay.grid_stats):
        y = grid_top - (j + 1) * b.row_h
        if j % 2 == 0:
            c.setFillColorRGB(*SHADE)
            c.rect(x0, y, width, b.row_h, stroke=0, fill=1)
        size = min(LABEL_PT, b.row_h * 0.62 / 0.75)
        _label(c, name, x0 + mm(1.2), y + b.row_h / 2 - size * 0.36, size)
        if fillable:
            for i, t in enumerate(b.turns):
                c.acroForm.textfield(
                    name=f"{sid}-turn-{t:02d}", tooltip=f"{name}, turn {t}",
                    x=x0 + b.label_w + i * b.cell_w + 0.8, y=y + 0.8, width=b.cell_w - 1.6,
                    height=b.row_h - 1.6, borderWidth=0, fillColor=None, borderColor=None,
                    textColor=None, fontName=FORM_FONT, fontSize=8, maxlen=4)
    # rules: thin between cells, thicker every fifth turn and round the block
    c.setStrokeColorRGB(*RULE)
    c.setLineWidth(0.35)
    for j in range(n + 1):
        y = grid_top - j * b.row_h
        c.line(x0, y, x0 + width, y)
    for i, t in enumerate(b.turns):
        x = x0 + b.label_w + i * b.cell_w
        c.setLineWidth(0.9 if (t - 1) % 5 == 0 else 0.35)
        c.line(x, grid_top, x, grid_top - n * b.row_h)
    c.setLineWidth(0.9)
    c.setStrokeColorRGB(*INK)
    c.rect(x0, grid_top - n * b.row_h, width, n * b.row_h, stroke=1, fill=0)


def _cut_lines(c, imp: Imposition) -> None:
    """Dashed lines between sheets sharing a page."""
    if imp.per_page == 1:
        return
    pw, ph = imp.page
    c.setStrokeColorRGB(*RULE)
    c.setLineWidth(0.4)
    c.setDash(3, 3)
    for s in imp.slots:
        if s.x1 < pw - 1:
            c.line(s.x1, mm(4), s.x1, ph - mm(4))
        if s.y > 1:
            c.line(mm(4), s.y, pw - mm(4), s.y)
    c.setDash()


# ---------------------------------------------------------------------------------------------
# embedded font for form fields


def use_embedded_form_font(c, font: str = REGULAR) -> None:
    """Form fields typed in the whole Vera TTF `font`, embedded once: reportlab's own know only
    the 14 standard PDF fonts, which are never embedded."""
    data = Path(fonts.VERA_DIR / fonts.VERA[font]).read_bytes()
    pdfops.use_truetype_form_font(c, font, data, FORM_FONT)


# ---------------------------------------------------------------------------------------------
# files


def draw_sheets(c, imp: Imposition, fillable: bool = False) -> None:
    c.setPageSize(imp.page)
    if fillable:
        use_embedded_form_font(c)
    for lay in imp.layouts:
        draw_sheet(c, lay, fillable)
    _cut_lines(c, imp)
    draw_scale_bar_in(c, scale_bar_box(imp))
    c.showPage()


def scale_bar_box(imp: Imposition) -> Rect:
    """The 50 mm scale bar's place: the page's bottom right corner, in the margin of the sheet
    there (PAGE_MARGIN deep), 3.5 mm above the paper's edge."""
    pw, _ = imp.page
    return Rect(pw - PAGE_MARGIN - BAR_LENGTH, mm(3.5), BAR_LENGTH, BAR_HEIGHT)


def check_sheet(game: GameDef, sheet: RecordSheet, paper_size: tuple[float, float],
                ) -> tuple[Imposition | None, list[Diagnostic]]:
    """The sheet imposed on the paper, or why it cannot be (shared with the preflight)."""
    if not 0 <= sheet.turn_grid_turns <= MAX_GRID_TURNS:  # the schema says so; a model built in code may not
        return None, [Diagnostic.at(sheet.origin, ERROR, R_RECORD,
                                    f"record sheet '{sheet.id}' has {sheet.turn_grid_turns} turn columns; "
                                    f"at most {MAX_GRID_TURNS}", "fewer turns in turn_grid")]
    imp = impose(game, sheet, paper_size)
    if imp is not None:
        return imp, []
    return None, [Diagnostic.at(
        sheet.origin, ERROR, R_RECORD,
        f"record sheet '{sheet.id}' does not fit a {to_mm(paper_size[0]):.0f}×"
        f"{to_mm(paper_size[1]):.0f} mm page with cells of at least "
        f"{to_mm(MIN_CELL_W):.0f}×{to_mm(MIN_CELL_H):.0f} mm",
        "fewer turns or stats in turn_grid, or fewer fields")]


def render_record_sheets(game: GameDef, out_dir: str | os.PathLike = "output",
                         paper: str = "a4", sheet_id: str | None = None,
                         fillable: bool = True) -> tuple[list[Path], list[Diagnostic]]:
    """Write `<sheet>.pdf` (as many per page as stay writable) and `<sheet>-fillable.pdf`.

    When any error is found nothing is written, so earlier files stay as they were.
    """
    paper_size, sheets, bad = paper_and_items(game, paper, game.record_sheets, sheet_id,
                                              R_RECORD, ("record sheet", "record sheets"))
    if bad:
        return [], bad
    diags: list[Diagnostic] = []
    outputs: list[tuple[Path, bytes]] = []
    out = Path(out_dir)
    for sheet in sheets:
        imp, problems = check_sheet(game, sheet, paper_size)
        diags.extend(problems)
        if imp is None:
            continue
        title = f"{game.name} — {sheet.name}"
        data, _ = pdf_bytes(lambda c, imp=imp: draw_sheets(c, imp), imp.page, title)
        outputs.append((out / f"{sheet.id}.pdf", data))
        if fillable:
            one = impose(game, sheet, paper_size, max_per_page=1)
            assert one is not None  # a sheet that fits a slot fits a whole page
            data, _ = pdf_bytes(lambda c, one=one: draw_sheets(c, one, fillable=True), one.page,
                                title + " (fillable)")
            outputs.append((out / f"{sheet.id}-fillable.pdf", data))
    if has_errors(diags):
        return [], diags
    return write_outputs(outputs, diags), diags
