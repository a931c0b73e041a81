"""The rulesheet PDF: parsed rulesheet Markdown laid out with reportlab's platypus.

Two columns under a title block, numbered headings, a contents list, tables that split between
rows with their header repeated, inline icons, page numbers, embedded Vera fonts. The section
"How pnp reads the rules" is added from `interpretations:`, so the printed rules and the
simulated ones agree. This module knows Markdown and paper, never a game's rules.
"""

from __future__ import annotations

import io
import os
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from markdown_it.tree import SyntaxTreeNode
from reportlab import rl_config
from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER, TA_RIGHT
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import (
    CondPageBreak,
    Flowable,
    FrameBreak,
    KeepTogether,
    NextPageTemplate,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
    XPreformatted,
)
from reportlab.platypus.doctemplate import BaseDocTemplate, LayoutError, PageTemplate
from reportlab.platypus.flowables import HRFlowable
from reportlab.platypus.frames import Frame
from reportlab.platypus.tableofcontents import TableOfContents

from pnp import __version__
from pnp.data.model import GameDef
from pnp.diagnostics import ERROR, Diagnostic
from pnp.paper import names_text
from pnp.render import fonts
from pnp.render.geometry import GeometryError, mm, parse_paper
from pnp.render.pdfwrite import write_outputs
from pnp.render.scalebar import LENGTH, draw_scale_bar
from pnp.render.text import measure
from pnp.rulesheet.check import Prepared, prepare
from pnp.rulesheet.context import Helpers
from pnp.rulesheet.markdown import markdown_parser
from pnp.templating.icons import ICON_MARK

R_LAYOUT = "PNP-R088"  # the rulesheet cannot be laid out (paper, a table too wide or too tall)

READINGS_TITLE = "How pnp reads the rules"

# Type and spacing, in points: 9 pt Vera is as large as 10 pt Times, readable at arm's length.
BODY, LEADING = 9.0, 11.8
CELL, CELL_LEADING = 8.2, 9.9
SMALL, SMALL_LEADING = 8.2, 10.2
MARGIN, GUTTER = mm(12), mm(6)
INK = colors.HexColor("#1a1a1a")
ACCENT = colors.HexColor("#7a3b12")
RULE = colors.HexColor("#b9a58f")
HEAD_FILL = colors.HexColor("#efe4d3")
ZEBRA = colors.HexColor("#f8f4ee")
NOTE_FILL = colors.HexColor("#f3efe8")

_CELL_PAD = 3.5
_NEED_AFTER_HEADING = 3  # lines of text (or table rows) a heading never leaves behind


# --------------------------------------------------------------------------- styles


def make_styles() -> dict[str, ParagraphStyle]:
    fonts.ensure_fonts()
    base = ParagraphStyle("body", fontName="Vera", bulletFontName="Vera", fontSize=BODY, leading=LEADING,
                          textColor=INK, spaceAfter=4.5, allowWidows=0, allowOrphans=0)
    s = {
        "body": base,
        "title": ParagraphStyle("title", parent=base, fontName="Vera-Bold", fontSize=24,
                                leading=28, textColor=ACCENT, spaceAfter=2),
        "subtitle": ParagraphStyle("subtitle", parent=base, fontName="Vera-Italic", fontSize=11,
                                   leading=14, spaceAfter=5),
        "meta": ParagraphStyle("meta", parent=base, fontSize=8, leading=10,
                               textColor=colors.HexColor("#555555"), spaceAfter=0),
        "h1": ParagraphStyle("h1", parent=base, fontName="Vera-Bold", fontSize=13, leading=16,
                             textColor=ACCENT, spaceBefore=9, spaceAfter=4),
        "h2": ParagraphStyle("h2", parent=base, fontName="Vera-Bold", fontSize=10.5,
                             leading=13.5, spaceBefore=6, spaceAfter=2.5),
        "h3": ParagraphStyle("h3", parent=base, fontName="Vera-BoldItalic", fontSize=BODY,
                             leading=LEADING, spaceBefore=4, spaceAfter=1.5),
        "small": ParagraphStyle("small", parent=base, fontSize=SMALL, leading=SMALL_LEADING,
                                spaceAfter=3),
        "cell": ParagraphStyle("cell", parent=base, fontSize=CELL, leading=CELL_LEADING,
                               spaceAfter=0),
        "head": ParagraphStyle("head", parent=base, fontName="Vera-Bold", fontSize=CELL,
                               leading=CELL_LEADING, spaceAfter=0),
        "code": ParagraphStyle("code", parent=base, fontSize=8.2, leading=10.4,
                               backColor=NOTE_FILL, borderPadding=3, spaceBefore=2, spaceAfter=6),
        "toc": ParagraphStyle("toc", parent=base, fontSize=BODY, leading=LEADING + 0.6,
                              leftIndent=16, firstLineIndent=-16, spaceAfter=0),
        "toc-title": ParagraphStyle("toc-title", parent=base, fontName="Vera-Bold", fontSize=10.5,
                                    leading=13.5, textColor=ACCENT, spaceAfter=3),
    }
    return s


# --------------------------------------------------------------------------- icons


class IconImages:
    """Inline icons as image files a Paragraph can place: raster icons as they are, drawn
    shapes painted once with Pillow into a private folder that lives for one render."""

    def __init__(self, icons: dict[str, Any], folder: Path):
        self.icons, self.folder, self.files = icons, folder, {}

    def path(self, name: str) -> str | None:
        icon = self.icons.get(name)
        if icon is None:
            return None
        if name not in self.files:
            if getattr(icon, "file", None) is not None:
                self.files[name] = str(icon.file)
            else:
                target = self.folder / f"icon-{len(self.files)}.png"
                paint_shape_icon(icon, target)
                self.files[name] = str(target)
        return self.files[name]


def paint_shape_icon(icon: Any, target: Path, px: int = 128) -> None:
    """A drawn icon (shape, fill, stroke, label) as a transparent PNG, for inline use."""
    from PIL import Image, ImageDraw, ImageFont

    from pnp.render.layout import shape_points

    def rgba(rgb):
        return None if rgb is None else tuple(int(round(v * 255)) for v in rgb) + (255,)

    img = Image.new("RGBA", (px, px), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    fill, stroke = rgba(icon.fill), rgba(icon.stroke)
    width = max(1, int(px * 0.07)) if stroke else 0
    box = (width, width, px - 1 - width, px - 1 - width)
    shape = icon.shape or "circle"
    if shape == "circle":
        draw.ellipse(box, fill=fill, outline=stroke, width=width)
    elif shape == "rounded":
        draw.rounded_rectangle(box, radius=px * 0.2, fill=fill, outline=stroke, width=width)
    elif shape == "square":
        draw.rectangle(box, fill=fill, outline=stroke, width=width)
    else:
        size = px - 2 * width
        pts = [(x, px - y) for x, y in shape_points(shape, width, width, size, size)]
        draw.polygon(pts, fill=fill, outline=stroke, width=width)
    if icon.label:
        font = ImageFont.truetype(str(fonts.VERA_DIR / "VeraBd.ttf"), int(px * 0.56))
        left, top, right, bottom = draw.textbbox((0, 0), icon.label, font=font)
        scale = min(1.0, px * 0.8 / max(1, right - left))
        if scale < 1.0:
            font = ImageFont.truetype(str(fonts.VERA_DIR / "VeraBd.ttf"), int(px * 0.56 * scale))
            left, top, right, bottom = draw.textbbox((0, 0), icon.label, font=font)
        draw.text(((px - (right - left)) / 2 - left, (px - (bottom - top)) / 2 - top), icon.label,
                  font=font, fill=rgba(icon.label_color or (1, 1, 1)))
    img.save(target, format="PNG", optimize=False)


# --------------------------------------------------------------------------- Markdown -> markup


class Inline:
    """Markdown inline nodes -> reportlab paragraph markup (escaped; icons as <img>)."""

    def __init__(self, icons: IconImages, size: float):
        self.icons, self.size = icons, size

    def markup(self, node: SyntaxTreeNode | None) -> str:
        if node is None:
            return ""
        return "".join(self._node(child) for child in node.children)

    def _node(self, node: SyntaxTreeNode) -> str:
        t = node.type
        if t in ("text", "text_special"):
            return self._text(node.content)
        if t == "softbreak":
            return " "
        if t == "hardbreak":
            return "<br/>"
        if t == "strong":
            return f"<b>{self.markup(node)}</b>"
        if t == "em":
            return f"<i>{self.markup(node)}</i>"
        if t == "code_inline":
            return f'<font backColor="#efe8dc">{escape(node.content)}</font>'
        if t == "link":
            return f'<u>{self.markup(node)}</u>'
        if t == "image":
            return self.markup(node)
        return self.markup(node) if node.children else escape(node.content)

    def _text(self, text: str) -> str:
        out, pos = [], 0
        for m in ICON_MARK.finditer(text):
            path = self.icons.path(m.group(1))
            if path is None:
                continue
            out.append(escape(text[pos:m.start()]))
            s = self.size * 1.05
            out.append(f'<img src="{escape(path)}" width="{s:.2f}" height="{s:.2f}" '
                       f'valign="{-self.size * 0.18:.2f}"/>')
            pos = m.end()
        out.append(escape(text[pos:]))
        return "".join(out)


def plain(markup: str) -> str:
    """Markup without tags: what a column is measured by."""
    import re

    return re.sub(r"<[^>]+>", "", markup).replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">")


# --------------------------------------------------------------------------- flowables


class Heading(Paragraph):
    """A numbered heading that files itself in the contents and the PDF outline."""

    def __init__(self, text: str, style: ParagraphStyle, level: int, number: str, key: str):
        label = f"{number}\u2002{text}" if number else text
        super().__init__(label, style)
        self.level, self.toc_text, self.key = level, label, key


class ColumnTable(Table):
    """A table whose continuation always starts the next column, under its repeated header.

    reportlab places the rest of a split table in the same frame when room is left (the split
    row was chosen by `rowSplitRange`), which would print a stray header mid-column."""

    def split(self, availWidth, availHeight):
        parts = super().split(availWidth, availHeight)
        if len(parts) == 2:
            return [parts[0], FrameBreak(), parts[1]]
        return parts


@dataclass
class Story:
    """Builds the flowables of one rulesheet from its parsed sources."""

    styles: dict[str, ParagraphStyle]
    inline: Inline
    width: float  # one column
    flowables: list[Flowable] = field(default_factory=list)
    counters: list[int] = field(default_factory=lambda: [0, 0, 0])
    pending: list[Heading] = field(default_factory=list)
    text_style: str = "body"  # "small" for reference sections

    # headings wait until the block after them is known, so they never end a column alone
    def heading(self, text_markup: str, level: int) -> None:
        number = ""
        if level <= 3:
            self.counters[level - 1] += 1
            for i in range(level, 3):
                self.counters[i] = 0
            number = ".".join(str(n) for n in self.counters[:level])
        style = self.styles[f"h{min(level, 3)}"]
        key = f"h{len(self.flowables)}-{number or 'x'}"
        self.pending.append(Heading(text_markup, style, level, number, key))

    def add(self, flowable: Flowable, lead: float = LEADING * _NEED_AFTER_HEADING) -> None:
        if self.pending:
            need = sum(_height(h, self.width) + h.style.spaceBefore + h.style.spaceAfter
                       for h in self.pending) + lead
            self.flowables.append(CondPageBreak(need))
            self.flowables.extend(self.pending)
            self.pending = []
        self.flowables.append(flowable)

    def finish(self) -> list[Flowable]:
        if self.pending:
            self.flowables.extend(self.pending)
            self.pending = []
        return self.flowables

    # ----------------------------------------------------------------- blocks

    def blocks(self, nodes: Iterable[SyntaxTreeNode], indent: int = 0) -> None:
        for node in nodes:
            self.block(node, indent)

    def block(self, node: SyntaxTreeNode, indent: int = 0) -> None:
        t = node.type
        if t == "heading":
            self.heading(self.inline.markup(node.children[0] if node.children else None),
                         int(node.tag[1:]))
        elif t == "paragraph":
            style = self.styles[self.text_style]
            if indent:
                style = ParagraphStyle(f"body-{indent}", parent=style, leftIndent=indent)
            para = Paragraph(self.inline.markup(node.children[0]), style)
            height = _height(para, self.width - indent)
            last = self.flowables[-1] if self.flowables and not self.pending else None
            if isinstance(last, KeepTogether) and getattr(last, "_pnp_table", False) and \
                    height <= 3 * LEADING:
                # a short note under a table (a footnote) stays with the table
                last._content.append(para)
                return
            if isinstance(last, ColumnTable) and height <= 3 * LEADING:
                # under a long table too: together they move to the next column when the
                # column cannot take both (and split as usual when larger than a column),
                # taking the heading and short lead-in above the table along
                k = len(self.flowables) - 1
                while k > 0 and len(self.flowables) - k < 3 and \
                        isinstance(self.flowables[k - 1], Paragraph):
                    k -= 1
                self.flowables[k:] = [KeepTogether([*self.flowables[k:], para])]
                return
            self.add(para, min(height, LEADING * _NEED_AFTER_HEADING))
        elif t in ("bullet_list", "ordered_list"):
            self.list(node, indent)
        elif t == "table":
            self.add(*self.table(node))
        elif t == "blockquote":
            self.add(self.note(node))
        elif t in ("code_block", "fence"):
            self.add(XPreformatted(escape(node.content.rstrip("\n")), self.styles["code"]))
        elif t == "hr":
            self.add(HRFlowable(width="100%", thickness=0.6, color=RULE, spaceBefore=3,
                                spaceAfter=6), lead=0)

    def list(self, node: SyntaxTreeNode, indent: int) -> None:
        """A list; a short one (a third of a column or less) is kept in one piece, so no page
        or column starts with its last bullet alone."""
        before = len(self.flowables)
        self._list(node, indent)
        items = self.flowables[before:]
        pending_free = not any(isinstance(f, CondPageBreak) for f in items)
        height = sum(_height(f, self.width) for f in items if isinstance(f, Paragraph))
        if items and pending_free and height <= 250:
            self.flowables[before:] = [KeepTogether(items)]

    def _list(self, node: SyntaxTreeNode, indent: int) -> None:
        ordered = node.type == "ordered_list"
        start = int(node.attrs.get("start", 1)) if ordered else 1
        step = 12 if not ordered else 15
        for i, item in enumerate(node.children):
            bullet = f"{start + i}." if ordered else "\u2022"
            first = True
            for child in item.children:
                if child.type == "paragraph" and first:
                    style = ParagraphStyle(f"li-{indent}", parent=self.styles[self.text_style],
                                           leftIndent=indent + step, bulletIndent=indent + 1,
                                           spaceAfter=2)
                    self.add(Paragraph(self.inline.markup(child.children[0]), style,
                                       bulletText=bullet))
                    first = False
                else:
                    self.block(child, indent + step)
        self.flowables.append(Spacer(1, 2.5))

    def note(self, node: SyntaxTreeNode) -> Flowable:
        """A blockquote: a shaded box for notes and examples."""
        inner = Story(self.styles, self.inline, self.width - 2 * _CELL_PAD - 6)
        inner.counters = [99, 99, 99]
        inner.blocks(node.children)
        box = Table([[inner.finish()]], colWidths=[self.width])
        box.setStyle(TableStyle([
            ("FONT", (0, 0), (-1, -1), "Vera", BODY),
            ("BACKGROUND", (0, 0), (-1, -1), NOTE_FILL),
            ("LINEBEFORE", (0, 0), (0, -1), 2, ACCENT),
            ("LEFTPADDING", (0, 0), (-1, -1), 6), ("RIGHTPADDING", (0, 0), (-1, -1), _CELL_PAD),
            ("TOPPADDING", (0, 0), (-1, -1), 4), ("BOTTOMPADDING", (0, 0), (-1, -1), 0),
        ]))
        return KeepTogether([box, Spacer(1, 5)])

    def table(self, node: SyntaxTreeNode) -> tuple[Flowable, float]:
        rows: list[list[Paragraph]] = []
        plain_rows: list[list[str]] = []
        aligns: list[str] = []
        for section in node.children:
            for tr in section.children:
                cells, texts = [], []
                for i, c in enumerate(tr.children):
                    head = c.type == "th"
                    style_attr = str(c.attrs.get("style", ""))
                    align = ("right" if "right" in style_attr else
                             "center" if "center" in style_attr else "left")
                    if head:
                        aligns.append(align)
                    a = aligns[i] if i < len(aligns) else "left"
                    style = self.styles["head" if head else "cell"]
                    if a != "left":
                        style = ParagraphStyle(f"{style.name}-{a}", parent=style,
                                               alignment=TA_RIGHT if a == "right" else TA_CENTER)
                    markup = self.inline.markup(c.children[0] if c.children else None)
                    cells.append(Paragraph(markup, style))
                    texts.append(plain(markup))
                rows.append(cells)
                plain_rows.append(texts)
        widths = column_widths(plain_rows, self.width)
        body = len(rows) - 1
        table = ColumnTable(rows, colWidths=widths, repeatRows=1, splitByRow=1,
                      rowSplitRange=(4, -3) if body >= 7 else None, hAlign="LEFT")
        style = [
            ("FONT", (0, 0), (-1, -1), "Vera", CELL),  # the default cell font is Helvetica
            ("BACKGROUND", (0, 0), (-1, 0), HEAD_FILL),
            ("LINEBELOW", (0, 0), (-1, 0), 0.8, ACCENT),
            ("LINEBELOW", (0, -1), (-1, -1), 0.6, RULE),
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ("LEFTPADDING", (0, 0), (-1, -1), _CELL_PAD),
            ("RIGHTPADDING", (0, 0), (-1, -1), _CELL_PAD),
            ("TOPPADDING", (0, 0), (-1, -1), 1.2),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 1.9),
        ]
        for r in range(2, len(rows), 2):
            style.append(("BACKGROUND", (0, r), (-1, r), ZEBRA))
        table.setStyle(TableStyle(style))
        table.wrap(self.width, 1e6)
        heights = table._rowHeights  # what a heading above must see room for
        if body < 7:
            kept = KeepTogether([table, Spacer(1, 6)])
            kept._pnp_table = True  # a footnote paragraph after it joins it (Story.block)
            return kept, sum(heights) + 6
        return table, sum(heights[:4])


def column_widths(rows: Sequence[Sequence[str]], total: float) -> list[float]:
    """Columns as wide as their longest cell when all fit; else the rest goes to wrapping text."""
    ncols = max((len(r) for r in rows), default=0)
    if ncols == 0:
        return []
    pad = 2 * _CELL_PAD + 1
    natural, minimum = [pad] * ncols, [pad] * ncols
    for r, row in enumerate(rows):
        font = "Vera-Bold" if r == 0 else "Vera"
        for i, text in enumerate(row):
            natural[i] = max(natural[i], measure(text, font, CELL) + pad)
            longest = max((measure(w, font, CELL) for w in text.split()), default=0)
            minimum[i] = max(minimum[i], min(longest + pad, total / ncols))
    if sum(natural) <= total:
        spare = total - sum(natural)
        # the last column takes the spare room: short columns stay tight to their text
        return natural[:-1] + [natural[-1] + spare]
    room = total - sum(minimum)
    extra = [n - m for n, m in zip(natural, minimum, strict=True)]
    share = sum(extra) or 1
    return [m + room * e / share for m, e in zip(minimum, extra, strict=True)]


def _height(flowable: Flowable, width: float) -> float:
    return flowable.wrap(width, 10_000)[1]


# --------------------------------------------------------------------------- document


class PrintedDoc(BaseDocTemplate):
    """A platypus document meant for paper: viewers print it at actual size, as the canvases
    of pdfwrite.new_canvas do."""

    def handle_documentBegin(self):
        super().handle_documentBegin()
        self.canv.setViewerPreference("PrintScaling", "None")


class RulesheetDoc(PrintedDoc):
    """Two columns on every page; the first page opens with a full-width title block."""

    def __init__(self, target, pagesize, title_height: float, title: str, footer: str, **kw):
        super().__init__(target, pagesize=pagesize, leftMargin=MARGIN, rightMargin=MARGIN,
                         topMargin=MARGIN, bottomMargin=MARGIN + 6, title=title, author="pnp",
                         creator=f"pnp {__version__}", subject="rulesheet", invariant=1,
                         initialFontName="Vera", **kw)
        self.footer, self.pages_last_pass, self.outline_level = footer, 0, -1
        w, h = pagesize
        col = (w - 2 * MARGIN - GUTTER) / 2
        top = h - MARGIN
        body_h = h - MARGIN - (MARGIN + 6)

        def columns(height: float, prefix: str) -> list[Frame]:
            return [Frame(MARGIN + i * (col + GUTTER), MARGIN + 6, col, height,
                          leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0,
                          id=f"{prefix}{i}") for i in range(2)]

        head = Frame(MARGIN, top - title_height, w - 2 * MARGIN, title_height, leftPadding=0,
                     rightPadding=0, topPadding=0, bottomPadding=0, id="title")
        self.addPageTemplates([
            PageTemplate("first", [head, *columns(body_h - title_height - 8, "f")],
                         onPage=self.decorate),
            PageTemplate("body", columns(body_h, "c"), onPage=self.decorate),
        ])
        self.column_width = col

    def decorate(self, canv, doc) -> None:
        w, _h = doc.pagesize
        canv.saveState()
        canv.setStrokeColor(RULE)
        canv.setLineWidth(0.5)
        y = MARGIN - 2
        canv.line(MARGIN, y + 9, w - MARGIN, y + 9)
        canv.setFont("Vera", 7.5)
        canv.setFillColor(colors.HexColor("#555555"))
        canv.drawString(MARGIN, y, self.footer)
        total = self.pages_last_pass
        label = f"page {doc.page} of {total}" if total else f"page {doc.page}"
        canv.drawRightString(w - MARGIN, y, label)
        draw_scale_bar(canv, (w - LENGTH) / 2, y - 1)  # check the print is at actual size
        canv.restoreState()

    def afterFlowable(self, flowable) -> None:
        if isinstance(flowable, Heading):
            level = min(flowable.level - 1, self.outline_level + 1)  # the outline skips no level
            self.outline_level = level
            self.canv.bookmarkPage(flowable.key)
            self.canv.addOutlineEntry(plain(flowable.toc_text), flowable.key, level=level,
                                      closed=True)
            if flowable.level == 1:
                self.notify("TOCEntry", (0, flowable.toc_text, self.page, flowable.key))

    def _endBuild(self):
        self.pages_last_pass, self.outline_level = self.page, -1
        super()._endBuild()


def readings_markdown(game: GameDef) -> str:
    """The interpretations section, as Markdown, in the reading this build plays."""
    h = Helpers(game)
    lines = [f"# {READINGS_TITLE}", ""]
    intro = ("Where the rules can be read more than one way, this is the reading the pieces "
             "and this sheet follow. Each entry names the rule and the reading in play.")
    if game.variant:
        intro += (f" This copy is printed for the variant **{escape_md(game.variant)}**; the "
                  "entry it changes says so.")
    lines += [intro, ""]
    for r in h.readings():
        reading = escape_md(r["reading"])
        tag = f" *(variant {escape_md(r['variant'])})*" if r["variant"] else ""
        lines.append(f"- **{escape_md(r['rule'])}** {reading}{tag}")
    return "\n".join(lines) + "\n"


def escape_md(text: str) -> str:
    """Plain data text that Markdown must not read as markup."""
    out = []
    for ch in " ".join(str(text).split()):
        out.append("\\" + ch if ch in "\\`*_[]<>#|{}" else ch)
    return "".join(out)


def title_block(game: GameDef, styles: dict[str, ParagraphStyle]) -> list[Flowable]:
    players = game.players_text()
    sub = "Rulesheet" + (f" \u2014 {escape(game.edition)}" if game.edition else "")
    meta = [players]
    if game.variant:
        meta.append(f"variant: {escape(game.variant)}")
    meta.append(f"written from the game data by pnp {__version__}")
    out: list[Flowable] = [Paragraph(escape(game.name), styles["title"]),
                           Paragraph(sub, styles["subtitle"])]
    if game.description:
        out.append(Paragraph(escape(game.description), styles["body"]))
    out.append(Paragraph(" \u00b7 ".join(meta), styles["meta"]))
    out.append(HRFlowable(width="100%", thickness=1.2, color=ACCENT, spaceBefore=5, spaceAfter=0))
    return out


def build_story(game: GameDef, prepared: Prepared, icons: IconImages, column: float,
                styles: dict[str, ParagraphStyle]) -> list[Flowable]:
    story = Story(styles, Inline(icons, BODY), column)
    for src in prepared.sources:
        story.blocks(src.tree.children)
    if game.interpretations:
        tree = SyntaxTreeNode(markdown_parser().parse(readings_markdown(game)))
        story.text_style = "small"
        story.blocks(tree.children)
    return story.finish()


def contents(styles: dict[str, ParagraphStyle]) -> list[Flowable]:
    table_style = TableStyle([
        ("FONT", (0, 0), (-1, -1), "Vera", BODY),  # reportlab's default cell font is Helvetica
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("LEFTPADDING", (0, 0), (-1, -1), 0), ("RIGHTPADDING", (0, 0), (-1, -1), 0),
        ("TOPPADDING", (0, 0), (-1, -1), 0.5), ("BOTTOMPADDING", (0, 0), (-1, -1), 0.5),
    ])
    toc = TableOfContents(levelStyles=[styles["toc"]], dotsMinLevel=0, rightColumnWidth=26,
                          tableStyle=table_style)
    return [Paragraph("Contents", styles["toc-title"]), toc, Spacer(1, 8)]


def rulesheet_pdf(game: GameDef, prepared: Prepared, paper: str = "a4") -> bytes:
    """The PDF bytes; raises GeometryError for a bad paper, LayoutError when it cannot fit."""
    size = parse_paper(paper)
    styles = make_styles()
    full = size[0] - 2 * MARGIN
    head = title_block(game, styles)
    title_height = sum(_height(f, full) + f.getSpaceBefore() + f.getSpaceAfter() for f in head) + 4
    footer = f"{game.name} \u00b7 rulesheet" + (f" \u00b7 variant {game.variant}" if game.variant else "")
    buf = io.BytesIO()
    doc = RulesheetDoc(buf, size, title_height, f"{game.name} \u2014 rulesheet", footer)
    saved = rl_config.useA85
    rl_config.useA85 = 0
    try:
        with tempfile.TemporaryDirectory(prefix="pnp-rulesheet-") as tmp:
            icons = IconImages(prepared.icons, Path(tmp))
            body = build_story(game, prepared, icons, doc.column_width, styles)
            story = [*head, NextPageTemplate("body"), FrameBreak(), *contents(styles), *body]
            doc.multiBuild(story, maxPasses=6)
    finally:
        rl_config.useA85 = saved
    return buf.getvalue()


def rulesheet_name(game: GameDef) -> str:
    return f"rulesheet-{game.variant}.pdf" if game.variant else "rulesheet.pdf"


def render_rulesheet(game: GameDef, out_dir: str | os.PathLike, paper: str = "a4",
                     folder: Path | None = None) -> tuple[list[Path], list[Diagnostic]]:
    """Write `rulesheet.pdf` (or `rulesheet-VARIANT.pdf`); nothing when any source has an error."""
    prepared = prepare(game, folder)
    diags = list(prepared.diagnostics)
    if prepared.folder is None or any(d.is_error for d in diags):
        return [], diags
    try:
        data = rulesheet_pdf(game, prepared, paper)
    except GeometryError as exc:
        return [], diags + [Diagnostic(ERROR, R_LAYOUT, str(exc), hint=f"use {names_text()}")]
    except LayoutError as exc:
        return [], diags + [Diagnostic(ERROR, R_LAYOUT, f"the rulesheet cannot be laid out: {exc}",
                                       str(prepared.folder),
                                       hint="a table or block is larger than a column; split it")]
    except Exception as exc:  # reportlab on unusual content: report it, never a traceback
        return [], diags + [Diagnostic(ERROR, R_LAYOUT, f"the rulesheet cannot be laid out: "
                                       f"{type(exc).__name__}: {exc}", str(prepared.folder))]
    written = write_outputs([(Path(out_dir) / rulesheet_name(game), data)], diags)
    return written, diags
